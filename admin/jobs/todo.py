"""What waits for the Admin now: ``nomopoly todo``, and the top of every admin report.

One list, from the state and the last update's log: join requests, accepted proposals the Admin
must carry out, what a module asked the Admin to decide or review (events of the kinds in
:data:`ASKS`: a rule module's parameters to review after an amendment, doubles that never end, a
winner to confirm, a dispute), the rules added or amended by proposals that no mechanic carries
out (text only: the Admin applies them), the rulings the last update could not carry out, and the
rulings queued for the next update (so a typo can be seen before it is applied). Each item says
what to do, with the command."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from admin.engine.events import Event
from admin.library.talk import open_questions
from admin.store.gamedir import GameDir
from admin.engine.model import GameState

#: event kinds by which the engine or a module asks something of the Admin
ASKS = ("review", "loop-guard", "winner", "admin", "dispute")


@dataclass(frozen=True)
class Todo:
    """One thing for the Admin: what it is, and the command that settles it."""

    kind: str
    text: str
    command: str = ""
    #: the rule it is about, if any
    rule: str | None = None

    def line(self) -> str:
        return f"{self.text}" + (f" → {self.command}" if self.command else "")


def todo_items(state: GameState, events: tuple[Event, ...] | list[Event] = (),
               queued: list[dict[str, Any]] | None = None) -> list[Todo]:
    """The Admin's to-do from ``state``, the last update's ``events`` and the ``queued`` rulings."""
    items = [Todo("join", f"{j.name} <{j.email}> asked to join (update {j.update})",
                  f"nomopoly player add {j.name} {j.email}")
             for j in state.private.join_requests]
    items += [Todo("proposal", f"Proposal {p.number}, {p.title!r} (by {p.proposer}), was accepted and "
                               "waits for you to carry it out",
                   f"nomopoly ruling amend {p.number} \"...\" (or ruling done {p.number})")
              for p in state.proposals if p.status == "accepted" and p.awaiting_admin]
    items += [Todo("question", f"Question {q.number} from {q.player}, open for {state.update - q.update} "
                               f"update(s) (asked in update {q.update}): {_short(q.text)}",
                   f"nomopoly ruling answer {q.number} \"...\" (--standing to make it a standing ruling)")
              for q in open_questions(state)]
    # an ask with no public text is for the Admin's eyes (a secret rule to judge): its private text
    items += [Todo(e.kind, e.text or (e.private if not e.player else None) or e.kind)
              for e in events if e.kind in ASKS]
    reviewed = {r for e in events if e.kind == "review" for r in (e.data.get("rules") or [e.data.get("rule")])}
    items += [t for t in text_only_rules(state) if t.rule not in reviewed]  # (this update's ask says it)
    items += [Todo("ruling", e.text or "a ruling failed", "fix it and queue it again: nomopoly ruling ...")
              for e in events if e.kind == "ruling" and not e.ok]
    for n, r in enumerate(queued or (), 1):
        items.append(Todo("queued", f"Queued for the next update: ruling {describe_ruling(r)}",
                          f"nomopoly ruling cancel {n}, if it is a mistake"))
    return items


def _short(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def text_only_rules(state: GameState) -> list[Todo]:
    """Each rule standing in the words an accepted proposal gave it (added, or amended) that no
    enabled mechanic carries out as worded: nothing in the game runs it, so the Admin must (I.2),
    until the Admin settles it (``ruling settle``: flavour, or applied by hand);
    and each rule a mechanic automates whose words a proposal amended (it runs its parameters)."""
    from admin.nomic.review import words_not_run

    out = []
    for rule_id, (did, proposal, module) in words_not_run(state).items():
        if module:  # the module runs its parameters, not the new words
            out.append(Todo("amended", f"Rule {rule_id} was amended by proposal {proposal}; the {module} "
                                       "module carries it out by its parameters, not by its words: check that "
                                       "they say what the new words say", f"nomopoly ruling set {module} KEY "
                                       "VALUE, where they do not", rule=rule_id))
        else:
            out.append(Todo("text-only", f"Rule {rule_id} {did} by proposal {proposal} is text only: nothing "
                                         "runs it; carry it out by ruling, or mark it as flavour",
                            f"nomopoly ruling settle {rule_id} --as by-hand (or --as flavour) --reason \"...\"",
                            rule=rule_id))
    return out


def describe_ruling(r: dict[str, Any]) -> str:
    """A queued ruling as the command that recorded it reads: ``adjust money=5 player=bob (a refund)``."""
    args = " ".join(f"{k}={v}" for k, v in sorted((r.get("args") or {}).items())
                    if k not in ("text", "directives"))
    return f"{r.get('kind')} {args}".rstrip() + (f" ({r['note']})" if r.get("note") else "")


def game_todo(game: GameDir) -> list[Todo]:
    """:func:`todo_items` of a game folder: its state, its last update's events, its queue."""
    from admin.mail.outbound.updatelog import load_update_log

    state = game.load()
    events = load_update_log(game, state.update).events if state.update else ()
    return todo_items(state, events, game.pending_rulings())
