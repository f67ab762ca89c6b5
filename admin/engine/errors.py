"""One exception tree for the whole tool.

Messages quote the input, say what is wrong and what would be right. Only :mod:`admin.cli.main` turns
them into exit codes: 1 for every error here, 75 for :class:`TemporaryError`.
"""

from __future__ import annotations


class NomopolyError(Exception):
    """Base class of every error the tool reports to a user."""

    exit_code = 1


class CommandError(NomopolyError):
    """A line of a player's email (or an admin command) could not be understood."""


class IllegalAction(NomopolyError):
    """A command was understood but the rules do not allow it now."""


class StateError(NomopolyError):
    """The game's files are missing, invalid, locked or inconsistent."""


class MailError(NomopolyError):
    """Reading or sending mail failed in a way that retrying will not fix."""


class TemporaryError(MailError):
    """A server could not be reached; retrying later may work (exit code 75, EX_TEMPFAIL)."""

    exit_code = 75


class RuleError(NomopolyError):
    """The ruleset or a rule module's configuration is invalid."""
