"""claims/prefilter.py: a text is declared free of a pattern's matches only when it is.

Every pattern caveat guards (the vocabularies: entities, conditions, nature, scopes...) is
run over the example briefings, whole and line by line: wherever it matches, the prefilter
must let it scan.  Hand-made cases cover the case folding the prefilter reads lower-cased.
"""
from __future__ import annotations

import re

from claims import conditions, guard_cache
from claims.prefilter import Lowered, may_match, patterns_for, required


def _texts():
    out = []
    for path in guard_cache.examples():
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        out.append(text)
        out += text.splitlines()
    return out


def test_a_pattern_matching_a_text_is_never_skipped_on_it():
    guard_cache.computed()
    conditions._facets()
    texts = _texts()
    assert guard_cache.ASKED
    for pattern, flags in guard_cache.ASKED.values():
        rx = re.compile(pattern, flags)
        for text in texts:
            if rx.search(text):
                assert may_match(rx, Lowered(text)), (pattern[:80], text[:80])


def test_the_facets_a_text_cannot_name_are_skipped():
    rxs = conditions._facets()[0]
    assert len(patterns_for("Throughput rose 2x on H100.", rxs)) < len(rxs)
    assert patterns_for("8 concurrent users", rxs) is patterns_for("8 concurrent users", rxs)


def test_literal_runs_branches_and_repeats():
    assert required(r"(?<![A-Za-z])request[- ]rate", re.IGNORECASE) == ["request rate", "request-rate"]
    assert required(r"(?:qps|RPS)\d+") == ["qps", "rps"]
    assert required(r"(?:ab)+c") == ["ab"] or required(r"(?:ab)+c") == ["c"]
    assert required(r"x?\d+") is None           # nothing every match must contain
    assert required(r"a|\w+") is None           # one alternative requires nothing


def test_case_folding_onto_ascii_letters_is_scanned():
    rx = re.compile(r"kelvin|sigma", re.IGNORECASE)
    for text in ("KELVIN", "\u212aelvin", "\u017figma"):   # the Kelvin sign, long s
        assert rx.search(text) and may_match(rx, Lowered(text))
    assert not may_match(rx, Lowered("nothing here"))
    # a cased non-ASCII letter is not read as a literal
    assert required("straße", re.IGNORECASE) == ["stra"]
