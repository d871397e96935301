"""What a written figure admits, and whether a stated derived figure recomputes.

The one tolerance module: every check that compares figures asks ``admitted`` what
interval a figure allows, and the arithmetic kinds ask ``recompute`` whether a
``claims.model.Derivation`` (read by ``claims.derive``) holds.  Pure functions over the
figures' ``value``/``low``/``high``, ``base_*``, ``decimals``, ``approx``, ``bound``,
``kind`` and ``surface``; nothing here reads the briefing.

What a figure admits (statcheck / GRIM):

- **decimals**: every value that rounds to it at the precision it is written with, half a
  unit of its last written digit each side, scaled as the figure is (``29%`` -> 28.5..29.5%,
  ``1.2 万`` -> 11,500..12,500, ``2.4×`` -> 2.35..2.45);
- **ranges**: the whole span, each end widened the same way (``1.3–1.6×`` -> 1.25..1.65);
- **approximations** (``约``, ``~``, ``about``): the wider of the rounding interval and
  ``approx_rel`` (a rule param) of the figure's magnitude each side (``about 3x`` -> 2.5..3.5,
  ``~30%`` -> 27..33%): the writer rounded, so the two are one allowance, not two;
- **bounds**: ``>60%`` / ``超过`` / ``at least`` is open above; ``<1 s`` / ``up to`` runs down to
  zero (to minus infinity for a negative figure);
- **counted items** (``3 条``, ``8 GPUs``), written as whole numbers without approximation,
  are exact: a count is not rounded;
- **signs** are kept (``-24.3%`` admits -24.35..-24.25%); ``magnitude`` drops them where a
  sign only repeats a direction word (``下降 38%`` vs ``-38%``: the contradiction checks).

A *derived* figure (the gap, change, lead, quotient or total a derivation states) admits one
more reading, ``derived``: authors truncate what they compute (``35%`` for 35.8%, ``5.3×`` for
5.38×), so its magnitude may run up to the next unit of its last digit; and a bound on it is
the figure itself (``over double`` is more than 2.00, not more than 1.5).

A derivation holds when ANY admitted operand values give ANY admitted stated value under
ANY accepted reading (a gap relative to either figure, ``倍`` as a ratio or as ratio − 1 (a
multiple written with the times sign, ``3x``, only as the ratio), a change between two
percentages in points).  So a finding means no charitable reading
recomputes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

INF = float("inf")
_PERCENT_KINDS = ("percent", "percentage_point")


# ---------------------------------------------------------------- what a figure admits

def written_number(surface: str) -> Optional[float]:
    """The first number as written in a figure's surface ('约 1.2 万 tok/s' -> 1.2), digit
    group separators dropped."""
    s = surface or ""
    i = 0
    while i < len(s) and not s[i].isdigit():
        i += 1
    if i == len(s):
        return None
    j = i
    seen_dot = False
    while j < len(s) and (s[j].isdigit() or s[j] in ",，" or (s[j] == "." and not seen_dot
                                                            and j + 1 < len(s) and s[j + 1].isdigit())):
        seen_dot = seen_dot or s[j] == "."
        j += 1
    try:
        return float(s[i:j].replace(",", "").replace("，", ""))
    except ValueError:
        return None


def _scale(claim) -> float:
    """Factor from the number as written to ``value`` (1.2 万 -> 10,000; 16,200 -> 1).

    Only powers of ten are scale words; any other ratio means the surface's first number is
    not the mantissa (e.g. '1/3'), so the written precision is kept as is."""
    written = written_number(claim.surface)
    v = claim.value if claim.value is not None else claim.low
    if not written or v is None:
        return 1.0
    ratio = abs(v) / written
    if ratio > 0 and abs(math.log10(ratio) - round(math.log10(ratio))) < 1e-6:
        return ratio
    return 1.0


def _base_factor(claim) -> float:
    """Multiplier from the written unit to base units (29% -> 0.01); 1 without a base value."""
    for w, b in ((claim.value, claim.base_value), (claim.low, claim.base_low), (claim.high, claim.base_high)):
        if w not in (None, 0) and b is not None:
            return b / w
    return 1.0


def times_sign(claim) -> bool:
    """'3x', '2.5×': a multiple written with the times sign. It states the ratio itself:
    '3x faster' is read as 3× as fast, never as 3 + 1 (the one-more reading stays for
    '3 倍' and 'three times', which writers do use both ways)."""
    s = (claim.surface or "").rstrip()
    return bool(s) and s[-1] in "x×X" and len(s) > 1 and (s[-2].isdigit() or s[-2] == " ")


def is_counted(claim) -> bool:
    """'3 条', '8 GPUs': a whole number of counted things, written without approximation."""
    return (claim.kind == "count" and not claim.approx and not claim.decimals
            and _scale(claim) == 1.0)


def admitted(claim, approx_rel: float = 0.1, use_base: bool = True, bounds: bool = True) -> Optional[tuple]:
    """(low, high) of the values the written figure admits, in base units (``use_base``)
    or in the unit as written; None for a figure without a value.  See the module doc.
    ``bounds=False`` reads 'up to 2.7×' as the 2.7× it names (the written value, without the
    open side of its bound)."""
    v, lo, hi = claim.value, claim.low, claim.high
    if v is not None:
        a = b = v
    elif lo is not None and hi is not None:
        a, b = min(lo, hi), max(lo, hi)
    else:
        return None
    half = 0.0 if is_counted(claim) else 0.5 * 10 ** -(claim.decimals or 0) * _scale(claim)
    if claim.approx:
        # 'about 3x' is the writer's rounding: it admits what rounds to 3 or what lies within
        # approx_rel of 3, whichever is wider, not both added (2.2..3.8 let 3.68x pass)
        m = max(half, max(abs(a), abs(b)) * approx_rel)
        a, b = a - m, b + m
    else:
        a, b = a - half, b + half
    if not bounds:
        pass
    elif claim.bound in ("gt", "ge"):
        b = INF
    elif claim.bound in ("lt", "le"):
        a = -INF if a < 0 else 0.0
    if use_base:
        f = _base_factor(claim)
        a, b = a * f, b * f
        if a > b:
            a, b = b, a
    return (a, b)


def magnitude(iv: Optional[tuple]) -> Optional[tuple]:
    """The interval of |x| for x in ``iv``."""
    if iv is None:
        return None
    a, b = iv
    if a <= 0 <= b:
        return (0.0, max(-a, b))
    return (min(abs(a), abs(b)), max(abs(a), abs(b)))


def fraction_interval(claim, approx_rel: float = 0.1) -> Optional[tuple]:
    """A percent / percentage point as a fraction (29% -> (0.285, 0.295)); other figures as written."""
    iv = admitted(claim, approx_rel, use_base=False)
    if iv is None:
        return None
    if claim.kind in _PERCENT_KINDS:
        return (iv[0] / 100.0, iv[1] / 100.0)
    return iv


def derived(claim, approx_rel: float = 0.1) -> Optional[tuple]:
    """The interval a stated *derived* figure admits, as ``fraction_interval``: what rounds to
    it, or what truncates to it (its magnitude up to one unit of its last written digit
    above).  An approximate or bounded figure keeps its own interval."""
    iv = fraction_interval(claim, approx_rel)
    if iv is not None and claim.bound and not claim.approx and claim.value is not None:
        # a bound on a computed figure is the figure itself: 'over double' is more than 2.00
        v = claim.value / 100.0 if claim.kind in _PERCENT_KINDS else claim.value
        return (v, INF) if claim.bound in ("gt", "ge") else ((-INF if v < 0 else 0.0), v)
    if iv is None or claim.approx or claim.bound or is_counted(claim):
        return iv
    step = 10 ** -(claim.decimals or 0) * _scale(claim) * 0.5
    if claim.kind in _PERCENT_KINDS:
        step /= 100.0
    lo, hi = iv
    if hi > 0 and lo >= 0:
        return (lo, hi + step)
    if lo < 0 and hi <= 0:
        return (lo - step, hi)
    return iv


def overlaps(a: tuple, b: tuple, eps: float = 1e-9) -> bool:
    return a[0] <= b[1] + eps and b[0] <= a[1] + eps


# ---------------------------------------------------------------- interval arithmetic

def _div(a: tuple, b: tuple) -> Optional[tuple]:
    """Interval a / b for positive intervals; None when b may be zero or signs are mixed."""
    if b[0] <= 0 or a[0] < 0:
        return None
    return (a[0] / b[1], a[1] / b[0])


def _recip(x: float) -> float:
    """1/x for the bound of a ratio interval, 1/0 = inf: an open-bound operand ('>342') gives 0."""
    return INF if x == 0 else 1 / x


# ---------------------------------------------------------------- readings and verdicts

@dataclass
class Reading:
    """One way of recomputing the stated figure, with the interval it allows."""
    label: str          # 'rel_to_first', 'rel_to_second', 'ratio', 'ratio_minus_one', 'change', 'sum', 'pp'
    low: float
    high: float

    def point(self) -> float:
        if math.isinf(self.high):
            return self.low
        return (self.low + self.high) / 2


@dataclass
class Verdict:
    ok: bool
    readings: list = field(default_factory=list)   # list[Reading]
    flipped: bool = False    # the stated direction (winner, sign) is contradicted
    stated: Optional[tuple] = None                  # admitted interval of the stated figure
    derivation: Optional[object] = None             # the reading of a statement read several ways

    def _stated_point(self) -> float:
        a, b = self.stated
        if math.isinf(b):
            return a            # 'over double': the bound is what the readings are held against
        if math.isinf(a):
            return b
        return (a + b) / 2

    @property
    def best(self) -> Optional[Reading]:
        """The reading closest to the stated figure (for the message)."""
        if not self.readings or not self.stated:
            return None
        s = self._stated_point()
        return min(self.readings, key=lambda r: abs(r.point() - s))

    @property
    def off_by(self) -> float:
        """Relative distance between the stated figure and the nearest reading."""
        best = self.best
        if best is None or not self.stated:
            return 0.0
        s_mid = self._stated_point()
        return abs(best.point() - s_mid) / abs(s_mid) if s_mid else 0.0


def _fits(sz: tuple, readings: list) -> bool:
    return any(overlaps(sz, (r.low, r.high)) for r in readings)


def gap_readings(a: tuple, b: tuple, stated_kind: str, percent_operands: bool = False,
                 sign: bool = False) -> list:
    """Readings of an undirected gap between two positive intervals a and b.

    A percent gap may be relative to either figure (|a-b|/b or |a-b|/a); a ratio gap is the
    larger over the smaller, or one less ('快 2 倍'), unless written with the times sign
    (``sign``, see ``times_sign``).  Between two percentages a gap may also be in points."""
    r = _div(a, b)
    if r is None:
        return []
    out = []
    if stated_kind in _PERCENT_KINDS:
        rel_b = magnitude((r[0] - 1, r[1] - 1))                       # |a/b - 1|
        inv = (1 / r[1], 1 / r[0]) if r[0] > 0 else (0.0, INF)
        rel_a = magnitude((inv[0] - 1, inv[1] - 1))                   # |b/a - 1|
        out += [Reading("rel_to_second", *rel_b), Reading("rel_to_first", *rel_a)]
        if percent_operands:
            out.append(Reading("pp", *magnitude((a[0] - b[1], a[1] - b[0]))))
    else:
        big = (max(r[0], _recip(r[1])) if r[0] >= 1 or r[1] <= 1 else 1.0,
               max(r[1], _recip(r[0])))
        out.append(Reading("ratio", *big))
        if not sign:
            out.append(Reading("ratio_minus_one", big[0] - 1, big[1] - 1))
    return out


def _pp_reading(a, b, approx_rel: float) -> list:
    """Between two percentages, '10% lower' may mean ten points: the charitable reading."""
    if a.kind not in _PERCENT_KINDS or b.kind != a.kind:
        return []
    fa, fb = fraction_interval(a, approx_rel), fraction_interval(b, approx_rel)
    if fa is None or fb is None:
        return []
    return [Reading("pp", *magnitude((fa[0] - fb[1], fa[1] - fb[0])))]


def check_gap(a, b, z, approx_rel: float = 0.1) -> Optional[Verdict]:
    """'A vs B (gap z)': accepted when z fits any reading. None when it cannot be computed."""
    ia, ib = admitted(a, approx_rel), admitted(b, approx_rel)
    sz = derived(z, approx_rel)
    if ia is None or ib is None or sz is None or ia[0] < 0 or ib[0] < 0:
        return None
    if sz[1] < 0:
        sz = magnitude(sz)      # 'A vs B（-29%）': an undirected gap, the sign only says which is lower
    pct_ops = a.kind in _PERCENT_KINDS and b.kind == a.kind
    if pct_ops:
        ia, ib = fraction_interval(a, approx_rel), fraction_interval(b, approx_rel)
    readings = gap_readings(ia, ib, z.kind, pct_ops, times_sign(z))
    if z.kind in _PERCENT_KINDS and z.metric in ("reduction", "increase") and len(readings) >= 2:
        # 'A vs B, a 40% reduction' is relative to the larger figure, '30% more' to the smaller
        larger_first = ia[0] >= ib[1]
        if larger_first or ib[0] >= ia[1]:
            keep = "rel_to_first" if (z.metric == "reduction") == larger_first else "rel_to_second"
            readings = [r for r in readings if r.label in (keep, "pp")]
    if not readings:
        return None
    return Verdict(ok=_fits(sz, readings), readings=readings, stated=sz)


def check_change(a, b, z, direction: int, approx_rel: float = 0.1, inverse: bool = False) -> Optional[Verdict]:
    """'from A to B, a z% reduction' (direction -1) / 'increase' (+1) / unknown (0).

    A percent change is relative to the starting figure A; a ratio ('3.7× smaller') is the
    larger over the smaller.  A stated direction opposite to the actual one is a flip.
    ``inverse``: a gain in speed stated over two times ('+10% (16.9 → 15.3 ms)' under
    'Performance gains'): the change of the speed, A / B − 1, or the time saved, 1 − B / A."""
    ia, ib = admitted(a, approx_rel), admitted(b, approx_rel)
    sz = derived(z, approx_rel)
    if ia is None or ib is None or sz is None or ia[0] <= 0 or ib[0] <= (0 if inverse else -1):
        return None
    if a.bound or b.bound:
        return None         # '~3.0 μs → ≤2.5 μs (1.2×)': a bound gives an inequality, not a figure to recompute
    if inverse and z.kind in _PERCENT_KINDS:
        speed, saved = _div(ia, ib), _div(ib, ia)
        if speed is None or saved is None:
            return None
        gain = (speed[0] - 1, speed[1] - 1)
        flipped = bool(direction) and ((direction < 0 and gain[0] > 0) or (direction > 0 and gain[1] < 0))
        readings = [Reading("speed_gain", *magnitude(gain)),
                    Reading("time_saved", *magnitude((1 - saved[1], 1 - saved[0])))]
        sz = magnitude(sz)
        return Verdict(ok=_fits(sz, readings) and not flipped, readings=readings, flipped=flipped, stated=sz)
    r = _div(ib, ia)
    if r is None:
        return None
    change = (r[0] - 1, r[1] - 1)
    flipped = bool(direction) and ((direction < 0 and change[0] > 0) or (direction > 0 and change[1] < 0))
    if z.kind in _PERCENT_KINDS:
        sz = magnitude(sz)      # the size; the sign ('-38%', '下降') is the direction, judged above
        readings = [Reading("change", *magnitude(change))] + _pp_reading(a, b, approx_rel)
    else:
        readings = gap_readings(ia, ib, z.kind, sign=times_sign(z))
    return Verdict(ok=_fits(sz, readings) and not flipped, readings=readings, flipped=flipped, stated=sz)


def check_lead(x, y, z, direction: int, approx_rel: float = 0.1, inverse: bool = False) -> Optional[Verdict]:
    """'X … z% better than Y' / 'X，比 Y 领先 z 倍': X relative to Y.

    ``direction`` +1 says X is ahead, -1 behind; ``inverse`` for lower-is-better units
    (latency: 'faster' means smaller).  A percent is X/Y-1; a ratio is X/Y or X/Y-1
    ('领先 2 倍' is read both ways).  Ahead/behind contradicted by the figures is a flip."""
    ix, iy = admitted(x, approx_rel), admitted(y, approx_rel)
    sz = derived(z, approx_rel)
    if ix is None or iy is None or sz is None or ix[0] <= 0 or iy[0] <= 0:
        return None
    r = _div(iy, ix) if inverse else _div(ix, iy)
    if r is None:
        return None
    if z.kind not in _PERCENT_KINDS and z.value is not None and 0 < z.value < 1:
        direction = 0       # 'realizr vs llama.cpp: 0.98x' states the ratio itself, behind or not
    flipped = bool(direction) and ((direction > 0 and r[1] < 1) or (direction < 0 and r[0] > 1))
    if z.kind in _PERCENT_KINDS:
        # 'z% slower than Y' is read as X = (1-z)·Y or as Y = (1+z)·X
        inv = (_recip(r[1]), _recip(r[0]))
        readings = [Reading("rel_to_second", *magnitude((r[0] - 1, r[1] - 1))),
                    Reading("rel_to_first", *magnitude((inv[0] - 1, inv[1] - 1)))]
        readings += _pp_reading(x, y, approx_rel)
    else:
        rr = r if direction >= 0 else (_recip(r[1]), _recip(r[0]))
        readings = [Reading("ratio", *rr)]
        if not times_sign(z):
            readings.append(Reading("ratio_minus_one", rr[0] - 1, rr[1] - 1))
        if direction == 0 and rr[1] < 1:
            # a gap named with no direction ('Prefill gap: 10.2x'): the larger over the smaller
            readings.append(Reading("ratio", _recip(rr[1]), _recip(rr[0])))
    return Verdict(ok=_fits(sz, readings) and not flipped, readings=readings, flipped=flipped, stated=sz)


def check_sum(parts: list, whole, approx_rel: float = 0.1) -> Optional[Verdict]:
    """Parts that should add up to the stated whole (same unit)."""
    ivs = [admitted(p, approx_rel) for p in parts]
    iw = admitted(whole, approx_rel)
    if iw is None or any(i is None for i in ivs):
        return None
    total = (sum(i[0] for i in ivs), sum(i[1] for i in ivs))
    return Verdict(ok=overlaps(total, iw), readings=[Reading("sum", *total)], stated=iw)


def check_product(factors: list, terms: tuple, whole, approx: bool = False,
                  approx_rel: float = 0.1) -> Optional[Verdict]:
    """A product written out ('2×22.7ms' beside 44.8 ms, '16x × 2.8x = 44.8x'), or a sum of
    products: the factors as written (each admits what rounds to it) multiplied term by term
    and added; the result admits its rounding, and approx_rel more when '≈' introduces it."""
    # a bare whole number multiplies exactly ('2×22.7ms', '57 × 8'): it counts, it is not rounded
    ivs = [(f.value, f.value) if f.kind == "number" and not f.decimals and f.value else admitted(f, approx_rel)
           for f in factors]
    iw = admitted(whole, approx_rel)
    if iw is None or any(i is None or i[0] <= 0 for i in ivs) or sum(terms) != len(ivs):
        return None
    if approx:
        m = max(abs(iw[0]), abs(iw[1])) * approx_rel
        iw = (iw[0] - m, iw[1] + m)
    lo = hi = 0.0
    k = 0
    for n in terms:
        plo = phi = 1.0
        for a, b in ivs[k:k + n]:
            plo, phi = plo * a, phi * b
        lo, hi, k = lo + plo, hi + phi, k + n
    return Verdict(ok=overlaps((lo, hi), iw, eps=1e-9 * max(1.0, abs(hi))),
                   readings=[Reading("product", lo, hi)], stated=iw)


def check_ratio_column(a, b, z, approx_rel: float = 0.1) -> Optional[Verdict]:
    """A table's speedup cell beside two measurements: the larger over the smaller, or the
    smaller over the larger when the cell is below 1 ('1655 | 1670 | 0.99x' in a column whose
    other rows read 1.44x: the column's quotient, which this row's figures turn below 1)."""
    ia, ib, sz = admitted(a, approx_rel), admitted(b, approx_rel), derived(z, approx_rel)
    if ia is None or ib is None or sz is None or ia[0] <= 0 or ib[0] <= 0:
        return None
    readings = gap_readings(ia, ib, "ratio")[:1]
    if z.value is not None and z.value < 1 and readings and readings[0].low > 0:
        r = readings[0]
        readings = [Reading("smaller_over_larger", 1 / r.high, 1 / r.low)]
    return Verdict(ok=_fits(sz, readings), readings=readings, stated=sz)


def check_row_total(parts: list, total, approx_rel: float = 0.1) -> Optional[Verdict]:
    """A table row's total beside its parts ('10.5GB | 73GB | 0.04GB | 1GB | ~84.5GB').

    A total printed beside its parts is computed from them, and the reader checks it the
    way a fact-checker does: adds the cells as printed (84.54) and allows the total its
    rounding or truncation — twice as loose when it is marked approximate ('~84.5GB' admits
    84.4..84.6), not ``approx_rel`` of its size: '~' on a total with three digits says it
    was rounded, not guessed."""
    return _as_printed(parts, total, mean=False)


def check_mean(parts: list, mean, approx_rel: float = 0.1) -> Optional[Verdict]:
    """A table's average cell beside the cells it averages ('| Avg | 204172.76 |' under five
    rounds summing to 1,020,863.50: their mean is 204,172.70), checked as ``check_row_total``
    checks a total; the cells' own rounding moves their mean by the mean of their half-units."""
    return _as_printed(parts, mean, mean=True)


def _as_printed(parts: list, stated, mean: bool) -> Optional[Verdict]:
    """The sum (or mean) of ``parts`` as printed against ``stated``, which admits its rounding
    or truncation ('~' twice as loose)."""
    if stated.value is None or stated.bound or any(p.base_value is None for p in parts):
        return None
    factor = _base_factor(stated)
    n = len(parts) if mean else 1
    face = sum(p.base_value for p in parts) / n / factor        # in the stated figure's written unit
    slack = (sum(0.5 * 10 ** -(p.decimals or 0) * _scale(p) * _base_factor(p) / factor for p in parts) / n
             if mean else 0.0)
    half = 0.5 * 10 ** -(stated.decimals or 0) * _scale(stated)
    lo, hi = stated.value - half, stated.value + 2 * half          # rounded or truncated
    if stated.approx:
        lo, hi = lo - half, hi + half
    return Verdict(ok=overlaps((face - slack, face + slack), (lo, hi), eps=1e-9 * max(1.0, abs(face))),
                   readings=[Reading("mean" if mean else "sum", face * factor, face * factor)],
                   stated=(lo * factor, hi * factor))


def check_quotient(a, b, c, approx_rel: float = 0.1) -> Optional[Verdict]:
    """'A 除以 B … C', 'A divided by B is C': C must be A / B (in base units)."""
    ia, ib = admitted(a, approx_rel), admitted(b, approx_rel)
    sc = derived(c, approx_rel)
    if ia is None or ib is None or sc is None:
        return None
    q = _div(ia, ib)
    if q is None:
        return None
    f = _base_factor(c)
    sc = (sc[0] * f, sc[1] * f) if c.kind not in _PERCENT_KINDS else sc
    return Verdict(ok=overlaps(sc, q), readings=[Reading("quotient", *q)], stated=sc)


def check_difference(a, b, z, approx_rel: float = 0.1) -> Optional[Verdict]:
    """A table's Δ column in the unit of its two measurements: the larger minus the smaller
    (the sign a cell may carry only says which is larger)."""
    ia, ib, sz = admitted(a, approx_rel), admitted(b, approx_rel), derived(z, approx_rel)
    if ia is None or ib is None or sz is None:
        return None
    f = _base_factor(z)
    sz = (min(sz[0] * f, sz[1] * f), max(sz[0] * f, sz[1] * f))
    if sz[1] < 0:
        sz = magnitude(sz)
    diff = magnitude((ia[0] - ib[1], ia[1] - ib[0]))
    return Verdict(ok=overlaps(sz, diff), readings=[Reading("difference", *diff)], stated=sz)


def check_share(a, b, z, approx_rel: float = 0.1) -> Optional[Verdict]:
    """'from A → B, i.e. z of the baseline': B is z of A (interval arithmetic over ranges:
    100 → 60–70 is 60–70% of it, not 50–55%)."""
    ia, ib = admitted(a, approx_rel), admitted(b, approx_rel)
    sz = derived(z, approx_rel)
    if ia is None or ib is None or sz is None or ia[0] <= 0 or ib[0] < 0:
        return None
    r = _div(ib, ia)
    if r is None:
        return None
    return Verdict(ok=overlaps(sz, r), readings=[Reading("share", *r)], stated=sz)


def check_converted(a, b, factor: float = 1.0, approx_rel: float = 0.1) -> Optional[Verdict]:
    """'60 RPM, i.e. 1 req/s': B restates A in another unit (scaled by ``factor`` when a verb
    before A says so: 'halving 60 RPM, i.e. 0.5 req/s'); either reading passes."""
    ia, ib = admitted(a, approx_rel), admitted(b, approx_rel)
    if ia is None or ib is None:
        return None
    readings = [Reading("same", *ia)]
    if factor != 1.0:
        readings.append(Reading("scaled", ia[0] * factor, ia[1] * factor))
    return Verdict(ok=_fits(ib, readings), readings=readings, stated=ib)


def check_range_summary(values: list, z, approx_rel: float = 0.1, some: bool = False) -> Optional[Verdict]:
    """A range that summarizes a table column ('the gain is 10% to 15%' over rows of +3% and
    +11%): it holds when every value lies in it, or when its ends are the column's smallest
    and largest values, or (``some``: a whole column, no row named) when both its ends are
    values of the column — the range then sums up the rows its sentence speaks of."""
    sz = derived(z, approx_rel)
    ivs = [fraction_interval(c, approx_rel) for c in values]
    if sz is None or any(i is None for i in ivs) or z.low is None or z.high is None:
        return None
    if min(z.low, z.high) >= 0 and all(i[1] <= 0 for i in ivs):
        # '改善 25-30%' over cells of −25.3%, −30.0%: the range gives the sizes of the falls
        ivs = [(-i[1], -i[0]) for i in ivs]
    inside = all(overlaps(sz, i) for i in ivs)
    # each end of the range on its own: what rounds to it (or, for the upper end, truncates)
    half = 0.5 * 10 ** -(z.decimals or 0) * _scale(z) / (100.0 if z.kind in _PERCENT_KINDS else 1.0)
    lo, hi = sorted((z.low, z.high))
    if z.kind in _PERCENT_KINDS:
        lo, hi = lo / 100.0, hi / 100.0
    widen = max(abs(lo), abs(hi)) * approx_rel if z.approx else 0.0
    lo_end = (lo - half - widen, lo + half + widen)
    hi_end = (hi - half - widen, hi + 2 * half + widen)
    lo_v = min(ivs, key=lambda i: i[0])
    hi_v = max(ivs, key=lambda i: i[1])
    ends = overlaps(lo_end, lo_v) and overlaps(hi_end, hi_v)
    # 'ATOM 的 flatmm 略慢（+9~11%）' under a column holding +9% and +11% among others: both ends
    # are figures of the column, so the range sums up some of its rows (the ones it speaks of)
    # (``some``: the values are a whole column's, no row named)
    among = some and any(overlaps(lo_end, i) for i in ivs) and any(overlaps(hi_end, i) for i in ivs)
    span = (lo_v[0], hi_v[1])
    return Verdict(ok=inside or ends or among, readings=[Reading("span", *span)], stated=sz)


def _any_reading(d, approx_rel: float) -> Optional[Verdict]:
    """A statement read several ways (``Derivation.alternatives``): it holds when one reading
    recomputes; it is a flip when every reading is; the message shows the nearest reading."""
    verdicts = []
    for r in (d, *d.alternatives):
        x, y = r.operands
        if r.form == "change":      # 'A vs B，降低 27%': also the change from A to B
            v = check_change(x, y, r.stated, r.direction, approx_rel, r.inverse)
        elif r.form == "difference":    # '小了0.04s' against any two cells of its row
            v = check_difference(x, y, r.stated, approx_rel)
        else:
            v = check_lead(x, y, r.stated, r.direction, approx_rel, r.inverse)
        if v is not None:
            v.derivation = r
            verdicts.append(v)
    if not verdicts:
        return None
    ok = [v for v in verdicts if v.ok]
    if ok:
        return ok[0]
    if all(v.flipped for v in verdicts):
        return min(verdicts, key=lambda v: v.off_by)
    return min((v for v in verdicts if not v.flipped), key=lambda v: v.off_by)


def recompute(d, approx_rel: float = 0.1) -> Optional[Verdict]:
    """The verdict on a ``claims.model.Derivation``; None when nothing derived is stated or
    the figures cannot be compared (a zero or negative operand, a missing value)."""
    z, ops = d.stated, d.operands
    if z is None:
        return None
    if d.form == "sum":
        return check_sum(list(ops), z, approx_rel)
    if d.form == "row_total":
        return check_row_total(list(ops), z, approx_rel)
    if d.form == "mean":
        return check_mean(list(ops), z, approx_rel)
    if d.form == "product":
        return check_product(list(ops), d.terms, z, d.approx, approx_rel)
    if d.form == "table_lead":
        return _any_reading(d, approx_rel)
    if d.form == "range_summary":
        vs = [v for v in (check_range_summary(list(r.operands), z, approx_rel, r.some) for r in (d, *d.alternatives))
              if v is not None]
        return next((v for v in vs if v.ok), vs[0] if vs else None)
    if d.form == "converted" and len(ops) == 1:
        return check_converted(ops[0], z, d.factor, approx_rel)
    if len(ops) != 2:
        return None
    a, b = ops
    if d.form == "gap":
        return check_gap(a, b, z, approx_rel)
    if d.form in ("change", "restated"):
        if d.alternatives:
            return _any_reading(d, approx_rel)
        return check_change(a, b, z, d.direction, approx_rel, d.inverse)
    if d.form == "quotient":
        # 'A ≈ N× B' may be written either way round (claims.derive._multiples): one reading will do
        vs = [v for v in (check_quotient(*r.operands, z, approx_rel) for r in (d, *d.alternatives)) if v is not None]
        return next((v for v in vs if v.ok), vs[0] if vs else None)
    if d.form == "share":
        return check_share(a, b, z, approx_rel)
    if d.form == "lead":
        if d.alternatives:
            return _any_reading(d, approx_rel)
        return check_lead(a, b, z, d.direction, approx_rel, d.inverse)
    if d.form == "ratio_column":
        if d.alternatives:
            # '| 1,500,000 条/秒, 共 20 秒 | 20,000 条/秒, 25 分钟 10 秒 | 75 倍 |': the rates' or the times' multiple
            vs = []
            for r in (d, *d.alternatives):
                v = check_ratio_column(*r.operands, z, approx_rel)
                if v is not None:
                    v.derivation = r
                    vs.append(v)
            return next((v for v in vs if v.ok), min(vs, key=lambda v: v.off_by) if vs else None)
        return check_ratio_column(a, b, z, approx_rel)
    if d.form == "difference":
        return _any_reading(d, approx_rel) if d.alternatives else check_difference(a, b, z, approx_rel)
    return None
