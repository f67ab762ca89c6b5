"""IV and XV: dollars, the starting money, bankruptcy, and the Admin Bank Account.

The rules themselves live in :meth:`admin.engine.context.UpdateContext.transfer` (bankruptcy
checks, the bank as source and sink); this module carries their parameters."""

from typing import Any

from admin.engine.module import Mechanic


class MoneyModule(Mechanic[None, None]):
    name = "money"
    rules = ("IV.1", "IV.2", "IV.3", "XV.1", "XV.2")
    stated = {"IV.1": {"start_money": ("starts with ${}",)}}
    # start_money_from_bank: whether a new player's money comes out of the Admin Bank Account
    # (Nomopoly II XV.2) or is simply theirs (the first Nomopoly's account starts at $0, XXII.1)
    # kept: false for a game whose players hold no money at all (the site then shows none)
    # admin_bank: false for a game with no Admin Bank Account (the site then shows no such line)
    defaults = {"start_money": 10000, "start_money_from_bank": True, "kept": True, "admin_bank": True}
    summary = "Starting money, bankruptcy limits on voluntary actions, the Admin Bank Account."

    @classmethod
    def describe(cls, params: dict[str, Any]) -> str:
        """No Admin Bank Account where the game has none (the Teams variant), and no money where
        its players hold none (Technopoly)."""
        if not params.get("kept", True):
            return "No money: the players hold none."
        return cls.summary if params.get("admin_bank", True) else "Starting money and bankruptcy limits on voluntary actions."
