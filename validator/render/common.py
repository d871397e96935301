"""Helpers every renderer shares: ordering, paths as shown, fingerprints, version, links.

Paths are shown relative to the working directory (``rel_uri``), never as the
absolute paths a corpus root resolves to, so output reads the same on every machine;
SARIF passes the repository root instead.
"""
from __future__ import annotations

from dataclasses import replace

from validator.paths import display

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}

# Where the project and its rule pages live (SARIF informationUri and helpUri).
PROJECT_URL = "https://github.com/caveat-lint/caveat"
RULE_DOCS_URL = PROJECT_URL + "/blob/main/docs/rules/{code}.md"


def sort_key(f):
    return (f.path, f.line, f.col, f.code)


def rel_uri(path: str, root: str | None = None) -> str:
    """Path relative to ``root`` (cwd) with forward slashes; absolute when outside it."""
    return display(path, root)


def stable_fingerprint(f, root: str | None = None) -> str:
    """The finding's fingerprint with its path made cwd-relative, so `a.md` and `./a.md` agree."""
    return replace(f, path=rel_uri(f.path, root)).fingerprint


def unique_fingerprints(findings, root: str | None = None) -> dict:
    """``id(finding) -> fingerprint``, unique per distinct finding.

    The fingerprint leaves the line out (edits that move a line keep its alerts), so the
    same figure stated twice in one file (3.1× on line 2 and on line 12) shares one:
    the second and later ones, in file order, get ``:2``, ``:3``… appended, the way
    GitHub numbers repeated line hashes."""
    seen: dict = {}
    out = {}
    for f in sorted(findings, key=sort_key):
        fp = stable_fingerprint(f, root)
        n = seen.get(fp, 0) + 1
        seen[fp] = n
        out[id(f)] = fp if n == 1 else f"{fp}:{n}"
    return out


def end_position(f):
    """(end_line, end_col) with end_col exclusive and never before the start."""
    end_line = f.end_line or f.line
    end_col = f.end_col or 0
    if end_line < f.line or (end_line == f.line and end_col <= f.col):
        end_line, end_col = f.line, f.col + max(1, len(f.surface or ""))
    return end_line, end_col


def rule_doc_url(code: str, builtin: bool = True):
    """The page documenting ``code`` (docs/rules/CODE.md), or None for a user's own rule."""
    return RULE_DOCS_URL.format(code=code) if builtin else None


def version() -> str:
    from validator import __version__
    return __version__
