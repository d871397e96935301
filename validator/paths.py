"""Which files a folder argument means: every Markdown file under it.

One walk for `check`, `warnings`, `report` and the corpus: hidden folders and tool
folders skipped, symlinked folders followed once (a link back up the tree is not a
loop), and a folder that cannot be listed kept as a path so that reading it reports
it instead of the run passing on an incomplete set of files.
"""
from __future__ import annotations

import os

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")
SKIP_DIRS = {"node_modules", "__pycache__", "venv"}


def markdown_files(root) -> list:
    """Every Markdown file under ``root`` (a file counts as itself); paths keep the root
    as the caller wrote it."""
    root = str(root)
    if os.path.isfile(root):
        return [root]
    out, seen_dirs = [], set()

    def unlistable(err):
        out.append(err.filename)

    for dirpath, dirnames, filenames in os.walk(root, followlinks=True, onerror=unlistable):
        real = os.path.realpath(dirpath)
        if real in seen_dirs:          # a symlink back up the tree: already walked
            dirnames[:] = []
            continue
        seen_dirs.add(real)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        for name in sorted(filenames):
            if name.lower().endswith(MARKDOWN_SUFFIXES) and not name.startswith("."):
                p = os.path.join(dirpath, name)
                # a looping or dangling link is kept: reading it reports it, instead of the
                # corpus silently missing a file
                if os.path.isfile(p) or os.path.islink(p):
                    out.append(p)
    return out
