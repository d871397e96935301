"""Errors raised while reading input files.

``InputError`` is the one exception the claims side raises for a bad input
(missing, binary, undecodable, too large, unreadable).  The command line prints
``str(err)`` as a single line and exits 2, so the message must name the file
and, when known, the line.
"""
from __future__ import annotations

from typing import Optional


class InputError(Exception):
    """A file that cannot be read as a briefing: ``path:line: message``."""

    def __init__(self, path, message: str, line: Optional[int] = None):
        self.path = "<text>" if path is None else str(path)
        self.message = message
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"
