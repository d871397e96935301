"""Helpers every renderer shares: ordering, locations relative to the working directory, version."""
from __future__ import annotations

import os
from dataclasses import replace

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def sort_key(f):
    return (f.path, f.line, f.col, f.code)


def rel_uri(path: str, root: str | None = None) -> str:
    """Path relative to ``root`` (cwd) with forward slashes; absolute when outside it."""
    root = os.path.abspath(root or os.getcwd())
    ab = os.path.abspath(path)
    rel = os.path.relpath(ab, root) if os.path.splitdrive(ab)[0] == os.path.splitdrive(root)[0] else ab
    if rel.startswith(".."):
        return ab.replace(os.sep, "/")
    return rel.replace(os.sep, "/")


def stable_fingerprint(f, root: str | None = None) -> str:
    """The finding's fingerprint with its path made cwd-relative, so `a.md` and `./a.md` agree."""
    return replace(f, path=rel_uri(f.path, root)).fingerprint


def end_position(f):
    """(end_line, end_col) with end_col exclusive and never before the start."""
    end_line = f.end_line or f.line
    end_col = f.end_col or 0
    if end_line < f.line or (end_line == f.line and end_col <= f.col):
        end_line, end_col = f.line, f.col + max(1, len(f.surface or ""))
    return end_line, end_col


def version() -> str:
    try:
        from importlib.metadata import version as _v
        return _v("caveat")
    except Exception:   # running from a source tree that was never installed
        return "0+unknown"
