"""Averages per period stated beside their total and the number of periods ('该仓库在榜单的5天内
增长迅速，日均Star数高达1056.4，总增长6301', 'grew 6,301 stars in 5 days, an average of 1,260 a
day'): one sentence gives all three, and the average must be the total over the periods.

The digest genre writes these for trending repositories, weekly PR counts and download figures;
the numbers are plain ('1056.4', '6301'), so the figure reader takes none of them as a claim and
they are read here as bare figures.  The words come from claims/data/derivations.yaml
(``per_period``, ``total_before``).  Read by claims.derive (the one reader of derived figures).
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from ._data import load
from .derive_tables import bare_figure
from .derive_vocab import alternation
from .model import Derivation
from .pattern_cache import compile_re  # compiled once per machine, not per process

_NUM = r"(?P<n>\d[\d,]*(?:\.\d+)?)"
# what may stand between a word and its number: 'Star数高达', ' stars of ', '（'; not a clause end
_GAP = r"[^，。；;！？!?\n\d]{0,12}?"
_BOUND = r"(?P<b>超过|逾|近|约|over|more than|nearly|about|around)?\s{0,2}"
_BOUNDS = {"超过": "gt", "逾": "gt", "over": "gt", "more than": "gt",
           "近": "approx", "约": "approx", "nearly": "approx", "about": "approx", "around": "approx"}


@lru_cache(maxsize=None)
def _patterns():
    d = load("derivations.yaml")
    periods = []
    for name, p in (d.get("per_period") or {}).items():
        before = compile_re(r"(?:%s)%s%s" % (alternation(p["average_before"]), _GAP, _NUM), re.IGNORECASE)
        after = compile_re(r"%s\s{0,2}(?:[A-Za-z]+\s{1,2})?(?:%s)(?![A-Za-z])" % (_NUM, alternation(p["average_after"])),
                           re.IGNORECASE)
        periods.append((name, before, after, frozenset(p["units"])))
    total = compile_re(r"(?:%s)%s%s%s" % (alternation(d["total_before"]), r"[^，。；;！？!?\n\d]{0,12}?", _BOUND, _NUM),
                       re.IGNORECASE)
    after = compile_re(r"%s\s{0,2}(?:[A-Za-z]+\s{1,2}|[\u4e00-\u9fff]{1,3})?(?:%s)(?![A-Za-z])" % (
        _NUM, alternation(d["total_after"])), re.IGNORECASE)
    return periods, (total, after)


def _bare(doc, m, bound=None):
    """The number a match names, as a figure; with its bound word in its surface ('超过1000')."""
    c = bare_figure(doc, m.group("n"), m.start("n"))
    if bound and m.groupdict().get("b"):
        c.bound = "gt" if bound == "gt" else None
        c.approx = bound == "approx"
        c.start = m.start("b")
        c.surface = doc.text[c.start:c.end]
        c.line, c.col = doc.line_col(c.start)
    return c


def per_period_averages(doc, claims, taken) -> list:
    """One Derivation (form 'quotient': total / periods = average) per sentence that states an
    average per day, week or month, a total, and a count of those periods ('5天', '3 weeks')."""
    periods, total_rx = _patterns()
    by_block = {}
    for c in claims:
        if c.block is not None and c.kind == "duration" and c.value and not c.approx and not c.bound \
                and float(c.value).is_integer() and id(c) not in taken:
            by_block.setdefault(c.block, []).append(c)
    out = []
    text = doc.text
    for s in doc.sentences:
        spans = [c for c in by_block.get(s.block, ()) if s.start <= c.start < s.end]
        if not spans:
            continue
        for _name, before, after, units in periods:
            days = [c for c in spans if c.unit in units]
            if len(days) != 1:
                continue        # two spans ('5天' and '两天'): which one the average is over is unclear
            avg = [m for rx in (before, after) for m in rx.finditer(text, s.start, s.end)]
            tot = [m for rx in total_rx for m in rx.finditer(text, s.start, s.end)]
            if len(avg) != 1 or len(tot) != 1 or avg[0].start("n") == tot[0].start("n"):
                continue
            n = days[0]
            count = replace(n, kind="count", unit="dimensionless", base_unit="dimensionless",
                            base_value=n.value, decimals=0)
            bound = _BOUNDS.get((tot[0].groupdict().get("b") or "").lower())
            out.append(Derivation(form="quotient", stated=_bare(doc, avg[0]),
                                  operands=(_bare(doc, tot[0], bound), count)))
    return out
