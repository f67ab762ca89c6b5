"""Typed links to the first Nomopoly's mechanics (:mod:`admin.engine.links`): whether a section is
in force and its state, for the other sections to ask without importing it, and the notes its
mechanics keep for one update. Links to the library's mechanics are in :mod:`admin.library.api`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine.links import Link, Note

if TYPE_CHECKING:
    from admin.games.nomopoly1.mechanics.blob import BlobState
    from admin.games.nomopoly1.mechanics.chili import ChiliState
    from admin.games.nomopoly1.mechanics.dirty_bubble import DirtyBubbleState
    from admin.games.nomopoly1.mechanics.donuts import DonutsState
    from admin.games.nomopoly1.mechanics.grease import GreaseState
    from admin.games.nomopoly1.mechanics.hot_potato import HotPotatoState
    from admin.games.nomopoly1.mechanics.paint import PaintState
    from admin.games.nomopoly1.mechanics.parallel import ParallelState
    from admin.games.nomopoly1.mechanics.store import StoreState

BLOB: Link[BlobState] = Link("blob")
CHILI: Link[ChiliState] = Link("chili")
DIRTY_BUBBLE: Link[DirtyBubbleState] = Link("dirty-bubble")
DONUTS: Link[DonutsState] = Link("donuts")
GREASE: Link[GreaseState] = Link("grease")
HOT_POTATO: Link[HotPotatoState] = Link("hot-potato")
PAINT: Link[PaintState] = Link("paint")
PARALLEL: Link[ParallelState] = Link("parallel-universe")
STORE: Link[StoreState] = Link("store")

#: the Blob moved in this update (XXXI.5: the Hot Potato it holds hurts it)
BLOB_MOVED: Note[bool] = Note("blob-moved", bool)
#: the health each player has lost to grease in the move under way (the cap is per move)
GREASE_LOST: Note[dict[str, int]] = Note("grease", dict)
#: the squares each player passed or landed on in this update (III.2's seventh condition)
VISITED: Note[dict[str, set[int]]] = Note("visited", dict)
#: the squares of the board when this update began (III.2's seventh condition)
BOARD_AT_START: Note[set[int]] = Note("board-at-start", set)
#: how many times each player went past -1 in the Parallel Universe in this update (their dice labels)
PU_COINS: Note[dict[str, int]] = Note("pu-coins", dict)
