"""Links from a written report to the corpus files its figures come from.

The report's paths are display paths (relative to the corpus folder; prefixed by the
folder's name when several are reported together: validator/report_python.Paths). A link is
that file's path relative to the folder the report is written to, plus ``#L<line>``:
``../../tests/data/briefing-corpus/briefings/x.md#L12``. Relative, so the report keeps
working when the report folder and the corpus are moved or published together (a file
browser opens the file; GitHub's and GitLab's file views also jump to the line); the
fragment is ignored where lines have no anchors. A report of Parquet exports knows no
corpus folder: its paths stay plain text.
"""
from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Optional
from urllib.parse import quote


class Links:
    """``href(path, line)``: the relative link of a display path, or None when unknown."""

    def __init__(self, roots, out_dir):
        out = Path(out_dir).resolve()
        # each root's path relative to the report folder, computed once: a link is that
        # prefix joined with the display path
        self.prefix = {Path(r).name: _rel(Path(r), out) for r in roots or ()}
        self.single = next(iter(self.prefix.values())) if len(self.prefix) == 1 else None
        self.cwd = _rel(Path.cwd(), out)
        self._cache: dict = {}

    def _relative(self, path: str) -> Optional[str]:
        if not self.prefix:
            return None
        if self.single is not None:
            return posixpath.join(self.single, path)
        head, _, rest = path.partition("/")
        root = self.prefix.get(head)
        return posixpath.join(root, rest) if root is not None and rest else posixpath.join(self.cwd, path)

    def href(self, path: str, line=None) -> Optional[str]:
        rel = self._cache.get(path)
        if rel is None:
            rel = self._relative(path)
            if rel is None:
                return None
            rel = self._cache[path] = quote(posixpath.normpath(rel), safe="/._-~")
        return f"{rel}#L{int(line)}" if line else rel


def _rel(p: Path, out: Path) -> str:
    return os.path.relpath(p.resolve(), out).replace(os.sep, "/")
