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
from pathlib import Path
from typing import Optional
from urllib.parse import quote


class Links:
    """``href(path, line)``: the relative link of a display path, or None when unknown."""

    def __init__(self, roots, out_dir):
        self.roots = [Path(r) for r in roots or ()]
        self.by_name = {r.name: r for r in self.roots}
        self.out = Path(out_dir).resolve()
        self._cache: dict = {}

    def file(self, path: str) -> Optional[Path]:
        """The corpus file of a display path (as the engines' Paths made it)."""
        if not self.roots:
            return None
        if len(self.roots) == 1:
            return self.roots[0] / path
        head, _, rest = path.partition("/")
        root = self.by_name.get(head)
        return root / rest if root is not None and rest else Path.cwd() / path

    def href(self, path: str, line=None) -> Optional[str]:
        rel = self._cache.get(path)
        if rel is None:
            f = self.file(path)
            if f is None:
                return None
            rel = self._cache[path] = quote(os.path.relpath(f, self.out).replace(os.sep, "/"), safe="/._-~")
        return f"{rel}#L{int(line)}" if line else rel
