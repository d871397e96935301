"""The shipped first-character guards (claims/data/guards.json) are current and change no match.

A stale file would only cost time (a pattern it does not know is analysed as before), but a
wrong guard would hide matches: every entry is recomputed here, and every guarded pattern
must find exactly what the plain pattern finds in the example briefings.
"""
from __future__ import annotations

import json
import re

import pytest

from claims import entities, guard_cache
from claims.entities import guarded

# the guards are computed with re._parser (Python 3.11+); on 3.10 the shipped ones are used as
# they are, and no other pattern is guarded
analysed = pytest.mark.skipif(entities._sp is None, reason="re._parser is Python 3.11+")


@analysed
def test_the_shipped_guards_are_those_computed_now():
    computed = guard_cache.computed()
    with open(guard_cache.PATH, encoding="utf-8") as fh:
        shipped = json.load(fh)
    assert shipped == computed, "claims/data/guards.json is stale: python -m claims.guard_cache --write"
    assert len(shipped) >= 20      # the vocabularies of entities, conditions, nature, scopes


def test_a_guarded_pattern_finds_what_the_plain_pattern_finds():
    guard_cache.computed()
    texts = []
    for path in guard_cache.examples():
        with open(path, encoding="utf-8") as fh:
            texts.append(fh.read())
    for pattern, flags in guard_cache.ASKED.values():
        plain, fast = re.compile(pattern, flags), guarded(pattern, flags)
        for text in texts:
            assert [m.span() for m in plain.finditer(text)] == [m.span() for m in fast.finditer(text)], pattern[:80]


@analysed
def test_a_pattern_the_file_does_not_know_is_still_guarded():
    pattern = r"(?<![A-Za-z])(?:zebra|quagga)(?![A-Za-z])"
    assert guard_cache.digest(pattern, re.IGNORECASE) not in guard_cache.table()
    rx = guarded(pattern, re.IGNORECASE)
    assert rx.pattern.startswith("(?=[")
    assert [m.group(0) for m in rx.finditer("a Zebra, not zebras; QUAGGA")] == ["Zebra", "QUAGGA"]
