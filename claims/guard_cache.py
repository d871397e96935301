"""The first-character guards of the patterns caveat ships, computed once, not in every process.

``entities.guarded`` puts a lookahead on the characters a match can begin with in front of a
vocabulary pattern; finding those characters parses the pattern (``entities.guard_prefix``),
which for ~50 large patterns cost every process ~30 ms before it read a line.  The guards of
the patterns compiled while reading the bundled examples are kept in
``claims/data/guards.json`` (pattern digest -> guard): a pattern found there is compiled with
its guard directly; any other (a user's pattern, a vocabulary edited since) is analysed as
before, so the file only ever saves time.  ``tests/claims/test_guard_cache.py`` recomputes
the guards and fails when the file is stale:

    python -m claims.guard_cache --write
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache

from ._data import DATA_DIR

PATH = os.path.join(DATA_DIR, "guards.json")
# digest -> (pattern, flags) of every pattern guarded in this process (about fifty): what
# --write recomputes, and what the test checks against the file
ASKED: dict = {}


def digest(pattern: str, flags: int) -> str:
    return hashlib.sha1(f"{int(flags)}\0{pattern}".encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def table() -> dict:
    """The shipped guards, digest -> guard ('' for a pattern that takes none)."""
    try:
        with open(PATH, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return {}


def prefix_of(pattern: str, flags: int = 0) -> str:
    """The guard of ``pattern`` (see ``entities.guard_prefix``), from the file when it is there."""
    key = digest(pattern, flags)
    ASKED[key] = (pattern, int(flags))
    got = table().get(key)
    if got is None:
        from .entities import guard_prefix
        got = guard_prefix(pattern, flags)
    return got


def examples() -> list:
    """The bundled example briefings: reading them compiles every vocabulary caveat ships."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = []
    for dirpath, _dirs, files in os.walk(os.path.join(root, "tests", "data")):
        out += [os.path.join(dirpath, f) for f in files if f.endswith(".md")]
    return sorted(out)


def computed() -> dict:
    """digest -> guard, recomputed, of every pattern guarded while reading the examples."""
    from .api import analyze
    from .entities import guard_prefix
    for path in examples():
        with open(path, encoding="utf-8") as fh:
            analyze(fh.read(), path)
    return {k: guard_prefix(p, f) for k, (p, f) in sorted(ASKED.items())}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv != ["--write"]:
        print("usage: python -m claims.guard_cache --write", file=sys.stderr)
        return 2
    # run as __main__, this file is not the module guarded asks: use that one
    from claims import guard_cache
    got = guard_cache.computed()
    with open(PATH + ".tmp", "w", encoding="utf-8") as fh:
        json.dump(got, fh, ensure_ascii=False, indent=0, sort_keys=True)
        fh.write("\n")
    os.replace(PATH + ".tmp", PATH)
    print(f"{os.path.relpath(PATH)}: {len(got)} guards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
