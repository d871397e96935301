"""Where a command's report goes and how it looks there: stdout or ``--output-file``,
colour or not (``--color auto|always|never``, ``NO_COLOR``, ``FORCE_COLOR``), how wide.

Colour, in order: ``--color always|never``; else ``NO_COLOR`` (any non-empty value)
turns it off; else ``FORCE_COLOR`` (non-empty, not ``0``) turns it on, for CI logs;
else colour on a terminal only. The grouped view with source lines and carets goes
with colour or a terminal; everything else gets plain lines.
"""
from __future__ import annotations

import os
import shutil
import sys

COLOR_CHOICES = ("auto", "always", "never")
# Width assumed when colour is forced into something that is not a terminal (a CI log).
DEFAULT_COLUMNS = 120


def colour_wanted(choice: str, stream) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force and force.strip().lower() not in ("0", "false", "no"):
        return True
    return _isatty(stream)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def columns(stream) -> int:
    """The width to crop source lines to: the terminal's (``COLUMNS`` wins), else a default."""
    env = os.environ.get("COLUMNS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    if _isatty(stream):
        try:
            return os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            pass
    return shutil.get_terminal_size((DEFAULT_COLUMNS, 24)).columns if _isatty(sys.__stdout__) \
        else DEFAULT_COLUMNS


class Output:
    """The destination of one command's report: ``write`` the whole text once."""

    def __init__(self, path=None, colour_choice: str = "auto"):
        self.path = path
        self.stream = sys.stdout
        self.tty = path is None and _isatty(self.stream)
        self.colour = colour_wanted(colour_choice, self.stream) if path is None else colour_choice == "always"
        self.columns = columns(self.stream) if (self.tty or self.colour) else 0

    @property
    def grouped(self) -> bool:
        """Source lines and carets: on a terminal, or wherever colour was asked for."""
        return self.tty or self.colour

    def write(self, text: str) -> None:
        if self.path is None:
            self.stream.write(text)
            self.stream.flush()
            return
        from validator.errors import UsageError
        tmp = f"{self.path}.caveat-tmp"
        try:
            with open(tmp, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            os.replace(tmp, self.path)
        except OSError as exc:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise UsageError(f"{self.path}: cannot write the output file "
                             f"({exc.strerror or exc})") from None
