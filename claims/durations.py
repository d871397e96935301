"""Compound durations: one time written in two units ('8 h 53 min', '3m 04s', '1 小时 33 分钟',
'2分30秒', '30 minutes and 14 seconds').

The figure reader reads each part as a figure of its own, so '减少了 5.75 倍' was recomputed
from '1 h' and '33 min', and the '3m' of '3m 04s' was three metres.  ``merge`` joins such
parts into one figure in the smaller unit, with that unit's precision: '8 h 53 min' is
533 min (±0.5 min), what the writer stated.
"""
from __future__ import annotations

from dataclasses import replace

from .pattern_cache import compile_re  # compiled once per machine, not per process

# what may stand between the parts of one time: nothing, a space, 'and', a comma
_BETWEEN = compile_re(r"\s{0,2}(?:(?:,|and|又|零)\s{0,2})?")
# a bare 'Nm' right before seconds is minutes, not metres ('3m 04s', '1h 30m')
_MINUTES = compile_re(r"\d{1,3}\s?m")
_TIME_KINDS = ("duration", "latency")
_SECONDS_PER = {"hour": 3600.0, "minute": 60.0, "second": 1.0}


def _seconds_per_unit(c):
    """Seconds per unit of a figure that is a time in hours, minutes or seconds, else None;
    a bare 'Nm' counts as minutes (the caller checks what follows it)."""
    if c.kind in _TIME_KINDS and c.unit in _SECONDS_PER:
        return _SECONDS_PER[c.unit]
    if c.unit == "meter" and _MINUTES.fullmatch(c.surface):
        return 60.0
    return None


def _plain(c) -> bool:
    return c.value is not None and c.low is None and c.high is None and not c.bound


# the seconds the figure reader does not read after a bare 'Nm' ('3m 04s')
_SECONDS_AFTER = compile_re(r"\s{0,2}(\d{1,2})\s?(?:s|sec|secs)(?![A-Za-z0-9])")


def merge(text: str, claims: list) -> list:
    """``claims`` (sorted by start) with each compound time joined into one figure."""
    out = []
    i = 0
    while i < len(claims):
        a = claims[i]
        b = claims[i + 1] if i + 1 < len(claims) else None
        if b is not None and a.block == b.block and _plain(a) and _plain(b) \
                and _BETWEEN.fullmatch(text, a.end, b.start):
            ua, ub = _seconds_per_unit(a), _seconds_per_unit(b)
            # a larger unit, then a smaller one that does not fill the larger ('53 min' < 1 h)
            if ua and ub and ua > ub and b.value * ub < ua \
                    and (a.unit != "meter" or ub == 1.0) and (b.unit != "meter" or ua == 3600.0):
                value = a.value * ua / ub + b.value
                unit = {1.0: "second", 60.0: "minute", 3600.0: "hour"}[ub]
                kind = b.kind if b.kind in _TIME_KINDS else a.kind if a.kind in _TIME_KINDS else "duration"
                out.append(replace(b, start=a.start, line=a.line, col=a.col, surface=text[a.start:b.end],
                                   kind=kind, value=value, unit=unit, base_value=value * ub,
                                   base_unit="second", approx=a.approx or b.approx,
                                   negative=a.negative or b.negative))
                i += 2
                continue
        if a.unit == "meter" and _MINUTES.fullmatch(a.surface) and _plain(a) \
                and (b is None or b.start >= a.end):
            m = _SECONDS_AFTER.match(text, a.end)
            if m and int(m.group(1)) < 60 and (b is None or b.start >= m.end()):
                value = a.value * 60 + int(m.group(1))
                out.append(replace(a, end=m.end(), surface=text[a.start:m.end()], kind="duration",
                                   value=value, unit="second", base_value=value, base_unit="second",
                                   decimals=0))
                i += 1
                continue
        out.append(a)
        i += 1
    return out
