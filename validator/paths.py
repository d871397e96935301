"""Which files a run checks: path arguments expanded once, within the project's scope.

One expansion for `check`, `warnings` and the corpus walk (``markdown_files``):

- a folder means every Markdown file under it: hidden folders and tool folders skipped,
  symlinked folders followed once (a link back up the tree is not a loop), and a folder
  that cannot be listed kept as a path so that reading it reports it instead of the run
  passing on an incomplete set of files;
- the scope (``Scope``): ``include`` and ``exclude`` patterns in gitignore syntax (via
  pathspec) relative to the project root (the config file's folder, else the working
  directory), and the ``.gitignore`` files of the repository unless
  ``respect-gitignore`` is off. A folder walk keeps only files in scope; a file named
  on the command line is checked whatever the scope, unless ``force-exclude`` is on
  (pre-commit names every staged Markdown file: the hooks turn it on), the way ruff does;
- a path that does not exist is an error line, not a file.

``expand`` returns an ``Expanded`` list; handing it to ``expand`` again (the CLI expands,
then ``validator.run.check_paths`` receives the result) returns it unchanged, so one run
expands its arguments once and reports each missing path once.

Paths are shown relative to the working directory (``display``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")
SKIP_DIRS = {"node_modules", "__pycache__", "venv"}
STDIN = "-"


def is_markdown(name: str) -> bool:
    return is_markdown_name(os.path.basename(name))


def is_markdown_name(base: str) -> bool:
    """``is_markdown`` of a bare file name (a folder listing's)."""
    return base.lower().endswith(MARKDOWN_SUFFIXES) and not base.startswith(".")


def display(path, base: Optional[str] = None) -> str:
    """``path`` relative to ``base`` (default: the working directory) when it lies under
    it, else absolute; forward slashes. What every renderer prints."""
    p = os.fspath(path)
    if not p or p == STDIN:
        return p
    base = os.path.abspath(base or os.getcwd())
    ab = os.path.abspath(p)
    try:
        rel = os.path.relpath(ab, base)
    except ValueError:      # another drive (Windows)
        return ab.replace(os.sep, "/")
    if rel == ".." or rel.startswith(".." + os.sep):
        return ab.replace(os.sep, "/")
    return rel.replace(os.sep, "/")


# ----------------------------------------------------------------------------- scope

def _spec(patterns):
    import pathspec
    return pathspec.GitIgnoreSpec.from_lines(list(patterns))


def check_patterns(patterns) -> Optional[str]:
    """What is wrong with a list of gitignore-style patterns, or None."""
    for p in patterns:
        try:
            _spec([p])
        except Exception as exc:  # noqa: BLE001 - pathspec raises several types
            return f"{p!r} is not a gitignore-style pattern ({exc})"
    return None


def git_root(start: str) -> Optional[str]:
    """The folder holding ``.git`` at or above ``start``, or None."""
    d = os.path.abspath(start)
    if not os.path.isdir(d):
        d = os.path.dirname(d)
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


class _GitIgnore:
    """The ``.gitignore`` files (and ``.git/info/exclude``) that govern a path: those of
    its folder and of every folder above it up to the repository root, the deeper one
    winning, as git reads them. Outside a repository, those at and below the walked
    folder."""

    def __init__(self):
        self._specs: dict = {}      # folder -> spec or None
        self._roots: dict = {}

    def _spec_of(self, folder: str, root: str):
        if folder not in self._specs:
            lines = []
            for name in ([".gitignore", os.path.join(".git", "info", "exclude")]
                         if folder == root else [".gitignore"]):
                try:
                    with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as fh:
                        lines += fh.read().splitlines()
                except OSError:
                    pass
            try:
                self._specs[folder] = _spec(lines) if lines else None
            except Exception:  # noqa: BLE001 - a broken line in someone's .gitignore
                self._specs[folder] = None
        return self._specs[folder]

    def ignored(self, path: str, is_dir: bool, top: str) -> bool:
        ab = os.path.abspath(path)
        start = os.path.dirname(ab)
        if start not in self._roots:
            self._roots[start] = git_root(start)
        root = self._roots[start] or os.path.abspath(top)
        if os.path.relpath(ab, root).startswith(".."):
            return False
        # folders from the root down to the path's own: a deeper .gitignore decides last
        chain, d = [], start
        while True:
            chain.append(d)
            if d == root:
                break
            parent = os.path.dirname(d)
            if parent == d:
                break
            d = parent
        verdict = None
        for folder in reversed(chain):
            spec = self._spec_of(folder, root)
            if spec is None:
                continue
            rel = os.path.relpath(ab, folder).replace(os.sep, "/") + ("/" if is_dir else "")
            res = spec.check_file(rel)
            if res.include is not None:
                verdict = res.include
        return bool(verdict)


@dataclass
class Scope:
    """Which files are in scope. ``include``/``exclude`` are gitignore-style patterns
    relative to ``root``; an empty ``include`` means every Markdown file."""
    root: str = field(default_factory=os.getcwd)
    include: list = field(default_factory=list)
    exclude: list = field(default_factory=list)
    respect_gitignore: bool = True
    force_exclude: bool = False
    # where each setting came from, for the notice naming why a file was left out
    origin: str = ""

    def __post_init__(self):
        self.root = os.path.abspath(self.root)
        self._inc = _spec(self.include) if self.include else None
        self._exc = _spec(self.exclude) if self.exclude else None
        self._git = _GitIgnore() if self.respect_gitignore else None

    def _rel(self, path: str, is_dir: bool) -> Optional[str]:
        rel = os.path.relpath(os.path.abspath(path), self.root)
        if rel == ".." or rel.startswith(".." + os.sep):
            return None
        rel = rel.replace(os.sep, "/")
        return rel + "/" if is_dir and rel != "." else rel

    def excluded(self, path: str, is_dir: bool = False, top: str = ".") -> Optional[str]:
        """Why ``path`` is out of scope ('exclude', 'include', '.gitignore'), or None."""
        rel = self._rel(path, is_dir)
        if self._exc is not None and rel not in (None, ".") and self._exc.match_file(rel):
            return "exclude"
        if self._git is not None and self._git.ignored(path, is_dir, top):
            return ".gitignore"
        if not is_dir and self._inc is not None and (rel is None or not self._inc.match_file(rel)):
            return "include"
        return None


# ----------------------------------------------------------------------------- walking

def markdown_files(root, scope: Optional[Scope] = None) -> list:
    """Every Markdown file under ``root`` (a file counts as itself) that is in ``scope``
    (every one when None); paths keep the root as the caller wrote it."""
    return [p for p, _ in markdown_entries(root, scope)]


def markdown_entries(root, scope: Optional[Scope] = None) -> list:
    """``markdown_files`` as (path, is a symlink) pairs: whether the path is a link comes
    with the listing (None when not listed: ``root`` itself, an unlistable folder)."""
    from .dirwalk import file_or_link, is_link, walk   # the listing's file types: no stat per file
    root = str(root)
    if os.path.isfile(root):
        return [(root, None)]
    out, seen_dirs = [], set()

    def unlistable(err):
        out.append((err.filename, None))

    for dirpath, dirnames, entries in walk(root, onerror=unlistable):
        real = os.path.realpath(dirpath)
        if real in seen_dirs:          # a symlink back up the tree: already walked
            dirnames[:] = []
            continue
        seen_dirs.add(real)
        keep = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        if scope is not None:
            keep = [d for d in keep if scope.excluded(os.path.join(dirpath, d), True, root) is None]
        dirnames[:] = keep
        for name in sorted(entries):
            if is_markdown_name(name):
                p = entries[name].path         # os.path.join(dirpath, name), made by the listing
                if scope is not None and scope.excluded(p, False, root) is not None:
                    continue
                # a looping or dangling link is kept: reading it reports it, instead of the
                # corpus silently missing a file
                entry = entries[name]
                if file_or_link(entry):
                    out.append((p, is_link(entry)))
    return out


class Expanded(list):
    """Files to check, in argument order, each once; ``errors`` holds a line per path that
    does not exist, ``skipped`` (path, reason) per named file left out by the scope."""

    def __init__(self, files=(), errors=(), skipped=()):
        super().__init__(files)
        self.errors = list(errors)
        self.skipped = list(skipped)


def expand(paths, scope: Optional[Scope] = None, errors: Optional[list] = None) -> Expanded:
    """Files to check: each file argument (subject to ``scope.force_exclude``), every
    Markdown file in scope under a folder argument; ``-`` (stdin) is kept as it is.
    Missing paths go to ``errors`` (and the result's ``errors``). An ``Expanded`` comes
    back unchanged: its errors were reported by whoever expanded it."""
    if isinstance(paths, Expanded):
        return paths
    out = Expanded()
    seen = set()
    for p in paths:
        p = os.fspath(p)
        if p == STDIN:
            files = [p]
        elif os.path.isdir(p):
            files = markdown_files(p, scope)
        elif os.path.exists(p) or os.path.islink(p):
            why = scope.excluded(p) if scope is not None and scope.force_exclude else None
            if why is not None:
                out.skipped.append((p, why))
                continue
            files = [p]
        else:
            out.errors.append(f"{p}: no such file or directory")
            continue
        for f in files:
            real = f if f == STDIN else os.path.realpath(f)
            if real not in seen:
                seen.add(real)
                out.append(f)
    if errors is not None:
        errors.extend(out.errors)
    return out
