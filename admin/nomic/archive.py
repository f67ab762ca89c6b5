"""Closed proposals leave the live state one update after they close (the site and the log keep
them in a weekly archive file), so an update reads and rewrites only what is live."""

from __future__ import annotations

from admin.engine.model import GameState, Proposal


def archive_closed(state: GameState) -> list[Proposal]:
    """Take out of the live state the proposals closed before this update (not those still
    awaiting the Admin); the caller writes them to the week's archive file."""
    keep: list[Proposal] = []
    gone: list[Proposal] = []
    for p in state.proposals:
        done = p.closed_update is not None and p.closed_update < state.update and not p.awaiting_admin
        (gone if done else keep).append(p)
    state.proposals = keep
    for p in gone:
        state.archived[p.number] = p.status
    return gone
