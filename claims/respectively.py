"""Figures and conditions listed one to one: 'per-node throughputs of 57,674, 54,543, and
50,302 tokens per second for prompt lengths of 1K, 2K, and 4K, respectively', '在 1K、2K、4K
输入长度下，吞吐分别为 57,674、54,543 和 50,302 tokens/s'.

The sentence's run of figures of one kind and its run of values of one condition (a facet of
claims/data/facets.yaml named by a word of claims/data/respectively.yaml) have the same
length, and 'respectively' / '分别' says they match: figure i is measured under value i.  The
figure's condition for that facet is set to its own value (in place, after ``annotate``):
before, every figure of the list had all three values or none.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ._data import load
from .conditions import TOKEN_COUNT_FACETS, k_tokens
from .derive_vocab import alternation
from .model import Condition
from .pattern_cache import compile_re  # compiled once per machine, not per process
from .structure import LIST_SEP

# one condition value: '1K', '2k', '4096', '32', '1.5K'
_VALUE = compile_re(r"(?<![\w.])(\d{1,6}(?:\.\d)?\s?[Kk]?)(?![\w.])")
_SPACES = compile_re(r"\s+")


@lru_cache(maxsize=None)
def _vocabulary():
    d = load("respectively.yaml")
    words = compile_re(alternation(d["words"]), re.IGNORECASE)
    facets = []
    for facet, names in d["facets"].items():
        alts = "|".join((r"(?<![A-Za-z])%s(?![A-Za-z])" % re.escape(n)) if n[:1].isascii() else re.escape(n)
                        for n in sorted(names, key=lambda n: (-len(n), n)))
        facets.append((facet, compile_re(alts, re.IGNORECASE)))
    return words, facets


def _runs(items, text, same):
    """Maximal runs (length >= 2) of consecutive items with only a list separator between them."""
    out, run = [], []
    for it in items:
        if run and same(run[-1], it) and LIST_SEP.fullmatch(text, run[-1][1], it[0]):
            run.append(it)
            continue
        if len(run) >= 2:
            out.append(run)
        run = [it]
    if len(run) >= 2:
        out.append(run)
    return out


def assign(doc, claims, around) -> None:
    """Give each figure of a 'respectively' list its own condition value (in place)."""
    if not claims:
        return
    words, facets = _vocabulary()
    text = doc.text
    done = set()
    for c in claims:
        span = around.get(id(c))
        if span is None or span[0] in done:
            continue
        s, e = span[0]
        done.add(span[0])
        seg = text[s:e]
        if not words.search(seg):
            continue
        inside = [x for x in claims if s <= x.start and x.end <= e and id(x) in around]
        figs = _runs([(x.start, x.end, x) for x in inside], text,
                     lambda a, b: a[2].kind == b[2].kind and a[2].kind not in ("count", "number"))
        if not figs:
            continue
        taken = [(x.start, x.end) for x in inside]
        values = [(m.start(1), m.end(1), m.group(1)) for m in _VALUE.finditer(text, s, e)
                  if not any(a <= m.start(1) < b for a, b in taken)]
        for run in _runs(values, text, lambda a, b: True):
            facet = _facet_of(text, s, e, run, facets)
            if facet is None:
                continue
            fig = next((f for f in figs if len(f) == len(run)), None)
            if fig is None:
                continue
            line = doc.line_col(run[0][0])[0]
            for (_, _, x), (_, _, v) in zip(fig, run):
                value = k_tokens(v) if facet in TOKEN_COUNT_FACETS else _SPACES.sub("", v)
                x.conditions = dict(x.conditions or {})
                x.conditions[facet] = Condition(facet=facet, value=value, scope="sentence", line=line,
                                                surface=v)


def _facet_of(text, s, e, run, facets):
    """The facet a run of values gives: its word right before the run ('for prompt lengths of
    1K, 2K') or right after it ('1K、2K、4K 输入长度下')."""
    before = text[max(s, run[0][0] - 30):run[0][0]]
    after = text[run[-1][1]:min(e, run[-1][1] + 12)]
    for facet, rx in facets:
        m = None
        for m in rx.finditer(before):
            pass
        if m is not None and not before[m.end():].strip(" \t:：=of(（"):
            return facet
        m = rx.match(after.lstrip(" \t"))
        if m is not None:
            return facet
    return None
