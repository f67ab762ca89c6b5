"""nomopoly: run a play-by-email game of Nomic and Monopoly.

The engine in the middle (:mod:`admin.engine`) is pure and deterministic; mail, files and the
network live at the edges (:mod:`admin.mail`, :mod:`admin.store.fileio`, :mod:`admin.site`).
"""

__version__ = "0.1.0"
