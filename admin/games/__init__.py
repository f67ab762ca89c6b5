"""The bundled games, one folder each: ``game.yaml``, its rules text, its demo, and its own mechanics
(``mechanics/``). :mod:`admin.games.catalog` reads them; :mod:`admin.games.registry` holds every
mechanic by name."""
