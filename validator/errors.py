"""Errors the validator reports to the user as one line (exit 2), never as a traceback."""
from __future__ import annotations


class UsageError(Exception):
    """A usage, config or rule-pack error. ``str(err)`` is the one line to print."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class EngineError(Exception):
    """The rule engine misbehaved (a handler raised, a fact id collided, an action did not run).

    Reported as a one-line error for the document being checked; never swallowed."""
