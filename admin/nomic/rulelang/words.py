"""A rule as the language understood it, restated in plain words: what a proposer's receipt says,
so that a misreading is seen before anyone votes."""

from __future__ import annotations

from admin.nomic.rulelang.model import Condition, Effect, Rule, SquareRef, Trigger, Vocabulary

_OPS = {"<": "less than", "<=": "at most", ">": "more than", ">=": "at least", "==": "exactly"}
_WHO = {"player": "that player", "every_player": "every player", "every_other_player": "every other player"}


def square_words(square: SquareRef) -> str:
    return {
        "number": f"square {square.number}",
        "lowest": "the lowest numbered square",
        "highest": "the highest numbered square",
        "any": "any square",
        "owned_by_other": "a square another player owns",
        "owned_by_self": "a square they own",
        "unowned": "an unowned square",
        "end": "the end of the board",
    }[square.kind]


def trigger_words(trigger: Trigger) -> str:
    square = square_words(trigger.square) if trigger.square else ""
    return {
        "lands": f"whenever a player lands on {square}",
        "passes": f"whenever a player passes {square}",
        "lands_or_passes": f"whenever a player lands on or passes {square}",
        "doubles": "whenever a player rolls doubles",
        "total": f"whenever a player rolls a total of {trigger.total}",
        "pays_rent": "whenever a player pays rent",
        "buys": "whenever a player buys a square",
        "draws": "whenever a player draws a card",
        "update_start": "at the start of every update",
        "update_end": "at the end of every update",
        "week_start": "at the start of every week",
        "week_end": "at the end of every week",
    }[trigger.kind]


def condition_words(condition: Condition, vocab: Vocabulary, have: str = "they have") -> str:
    """The condition in words, its player ``have`` ("they have", or "who has" after "every player")."""
    op = _OPS[condition.op]
    if condition.quantity == "money":
        return f"{have} {op} {vocab.money(condition.value)}"
    if condition.quantity == "health":
        return f"{have} {op} {condition.value} health"
    if condition.quantity in ("squares", "cards"):
        verb = "own" if condition.quantity == "squares" else "hold"
        verb = f"who {verb}s" if have.startswith("who") else f"they {verb}"
        if condition.op == "==" and condition.value == 0:
            return f"{verb} no {condition.quantity}"
        return f"{verb} {op} {condition.value} {condition.quantity}"
    if condition.quantity == "bank":
        return f"the Admin Bank Account has {op} {vocab.money(condition.value)}"
    return f"the square's number is {op} {condition.value}"


def effect_words(effect: Effect, vocab: Vocabulary) -> str:
    each = " for each square they own" if effect.per_square_owned else ""
    if effect.kind == "money":
        amount = vocab.money(abs(effect.amount))
        if effect.amount >= 0:
            source = {"bank": "the Admin Bank Account", "each_other": "each other player",
                      "owner": "the square's owner", "none": "the Admin Bank Account"}[effect.party]
            return f"receives {amount}{each} from {source}"
        payee = {"bank": "the Admin Bank Account", "each_other": "each other player",
                 "owner": "the square's owner", "none": "the Admin Bank Account"}[effect.party]
        return f"pays {amount}{each} to {payee}"
    if effect.kind == "health":
        return f"{'gains' if effect.amount >= 0 else 'loses'} {abs(effect.amount)} health"
    if effect.kind == "move_by":
        return f"moves {'forward' if effect.amount >= 0 else 'back'} {abs(effect.amount)} squares"
    if effect.kind == "move_to":
        where = {0: "the lowest numbered square", -1: "the highest numbered square"}.get(effect.amount)
        return f"moves to {where or f'square {effect.amount}'}"
    if effect.kind == "draw":
        return "draws a card"
    return "loses their next turn"


def rule_words(rule: Rule, vocab: Vocabulary | None = None) -> str:
    """``Whenever a player lands on square 1: that player receives $200 from the Admin Bank Account.``"""
    vocab = vocab or Vocabulary()
    head, who = trigger_words(rule.trigger), _WHO[rule.who]
    own = tuple(c for c in rule.conditions if c.quantity not in ("bank", "number"))
    other = tuple(c for c in rule.conditions if c.quantity in ("bank", "number"))
    if rule.who == "player":
        own, other = (), rule.conditions  # "..., if they have ...: that player ..."
    if other:
        head += ", if " + " and ".join(condition_words(c, vocab) for c in other)
    if own:
        who += " " + " and ".join(condition_words(c, vocab, "who has") for c in own)
    effects = [effect_words(e, vocab) for e in rule.effects]
    body = effects[0] if len(effects) == 1 else ", ".join(effects[:-1]) + " and " + effects[-1]
    return f"{head[0].upper()}{head[1:]}: {who} {body}."
