"""Recompute stated derived figures: what a written figure admits, and whether a gap, change,
ratio or sum stated in a briefing follows from the figures it is derived from.

Pure functions over ``claims.model.Claim`` objects (only ``value``/``low``/``high``,
``base_*``, ``decimals``, ``approx``, ``bound`` and ``surface`` are read); the rule kinds
``validator.kinds.arithmetic`` and ``validator.kinds.count`` turn the results into facts.

Tolerance follows statcheck/GRIM: a figure admits every value that rounds to it at the
precision it is written with (``29%`` -> 28.5..29.5%, ``2.4×`` -> 2.35..2.45), an
approximate figure (``约``, ``~``, ``roughly``) is widened by a relative margin the rule
chooses, and a derivation is accepted when ANY admitted input values give ANY admitted
stated value under ANY accepted reading (gap relative to either figure, ``倍`` as ratio or
as ratio-1).  So a finding means no charitable reading recomputes.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

INF = float("inf")

_NUM = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _written_number(surface: str) -> Optional[float]:
    m = _NUM.search(surface or "")
    if not m:
        return None
    try:
        return float(m.group().replace(",", ""))
    except ValueError:
        return None


def admitted(claim, approx_rel: float = 0.1, use_base: bool = True) -> Optional[tuple]:
    """(low, high) interval of values the written figure admits, in base units (or as written).

    The half step is 0.5 unit of the last written digit, scaled the way the figure is
    (``1.2 万`` admits 11,500..12,500); a range admits its whole span; ``approx`` widens by
    ``approx_rel`` of the magnitude; a bound (``>60%``) is open on one side."""
    v, lo, hi = claim.value, claim.low, claim.high
    if v is None and (lo is None or hi is None):
        return None
    mid = v if v is not None else hi
    written = _written_number(claim.surface)
    scale = 1.0
    if written and mid:
        scale = abs(mid) / written if written else 1.0
    half = 0.5 * (10 ** -(claim.decimals or 0)) * scale
    if claim.kind == "count" and claim.unit == "item" and not claim.approx and not claim.decimals:
        half = 0.0      # '3 条' is exactly three: counted items are not rounded
    if v is not None:
        a, b = v - half, v + half
    else:
        a, b = min(lo, hi) - half, max(lo, hi) + half
    if claim.approx:
        m = max(abs(a), abs(b)) * approx_rel
        a, b = a - m, b + m
    if claim.bound in ("gt", "ge"):
        b = INF
    elif claim.bound in ("lt", "le"):
        a = -INF if a < 0 else 0.0
    if use_base:
        factor = _base_factor(claim)
        if factor is None:
            return None
        a, b = a * factor, b * factor
    return (a, b)


def _base_factor(claim) -> Optional[float]:
    """Multiplier from the written unit to base units (29% -> 0.01)."""
    pairs = ((claim.value, claim.base_value), (claim.high, claim.base_high), (claim.low, claim.base_low))
    for w, b in pairs:
        if w not in (None, 0) and b is not None:
            return b / w
    if claim.base_value is None and claim.base_low is None:
        return 1.0  # no normalization available: compare as written
    return 1.0


def fraction_interval(claim, approx_rel: float = 0.1) -> Optional[tuple]:
    """A stated percent / percentage point as a fraction interval (29% -> (0.285, 0.295))."""
    iv = admitted(claim, approx_rel, use_base=False)
    if iv is None:
        return None
    if claim.kind in ("percent", "percentage_point"):
        return (iv[0] / 100.0, iv[1] / 100.0)
    return iv


def _div(a: tuple, b: tuple) -> Optional[tuple]:
    """Interval a / b for positive intervals; None when b may be zero or signs are mixed."""
    if b[0] <= 0 or a[0] < 0:
        return None
    return (a[0] / b[1], a[1] / b[0] if b[0] > 0 else INF)


def _recip(x: float) -> float:
    """1/x for the bound of a ratio interval, 1/0 = inf: an open-bound operand ('>342') gives 0."""
    return INF if x == 0 else 1 / x


def _abs_iv(iv: tuple) -> tuple:
    a, b = iv
    if a <= 0 <= b:
        return (0.0, max(-a, b))
    return (min(abs(a), abs(b)), max(abs(a), abs(b)))


def overlaps(a: tuple, b: tuple, eps: float = 1e-9) -> bool:
    return a[0] <= b[1] + eps and b[0] <= a[1] + eps


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

    @property
    def best(self) -> Optional[Reading]:
        """The reading closest to the stated figure (for the message)."""
        if not self.readings or not self.stated:
            return None
        s = (self.stated[0] + self.stated[1]) / 2
        return min(self.readings, key=lambda r: abs(r.point() - s))


def gap_readings(a: tuple, b: tuple, stated_kind: str, percent_operands: bool = False) -> list:
    """Readings of an undirected gap between two positive intervals a and b.

    A percent gap may be relative to either figure (|a-b|/b or |a-b|/a); a ratio gap is the
    larger over the smaller.  Between two percentages a gap may also be in points."""
    r = _div(a, b)
    if r is None:
        return []
    out = []
    if stated_kind in ("percent", "percentage_point"):
        rel_b = _abs_iv((r[0] - 1, r[1] - 1))                       # |a/b - 1|
        inv = (1 / r[1], 1 / r[0]) if r[0] > 0 else (0.0, INF)
        rel_a = _abs_iv((inv[0] - 1, inv[1] - 1))                   # |b/a - 1|
        out += [Reading("rel_to_second", *rel_b), Reading("rel_to_first", *rel_a)]
        if percent_operands:
            out.append(Reading("pp", *_abs_iv((a[0] - b[1], a[1] - b[0]))))
    else:
        big = (max(r[0], _recip(r[1])) if r[0] >= 1 or r[1] <= 1 else 1.0,
               max(r[1], _recip(r[0])))
        out += [Reading("ratio", *big), Reading("ratio_minus_one", big[0] - 1, big[1] - 1)]
    return out


def _pp_reading(a, b, approx_rel: float) -> list:
    """Between two percentages, '10% lower' may mean ten points: the charitable reading."""
    if a.kind not in ("percent", "percentage_point") or b.kind != a.kind:
        return []
    fa, fb = fraction_interval(a, approx_rel), fraction_interval(b, approx_rel)
    if fa is None or fb is None:
        return []
    return [Reading("pp", *_abs_iv((fa[0] - fb[1], fa[1] - fb[0])))]


def check_gap(a, b, z, approx_rel: float = 0.1) -> Optional[Verdict]:
    """'A vs B (gap z)': accepted when z fits any reading. None when it cannot be computed."""
    ia, ib = admitted(a, approx_rel), admitted(b, approx_rel)
    sz = fraction_interval(z, approx_rel)
    if ia is None or ib is None or sz is None or ia[0] < 0 or ib[0] < 0:
        return None
    if sz[1] < 0:
        sz = _abs_iv(sz)        # 'A vs B（-29%）': an undirected gap, the sign only says which is lower
    pct_ops = a.kind in ("percent", "percentage_point") and b.kind == a.kind
    if pct_ops:
        ia, ib = fraction_interval(a, approx_rel), fraction_interval(b, approx_rel)
    readings = gap_readings(ia, ib, z.kind, pct_ops)
    if not readings:
        return None
    return Verdict(ok=any(overlaps(sz, (r.low, r.high)) for r in readings), readings=readings, stated=sz)


def check_change(a, b, z, direction: int, approx_rel: float = 0.1) -> Optional[Verdict]:
    """'from A to B, a z% reduction' (direction -1) / 'increase' (+1) / unknown (0).

    A percent change is relative to the starting figure A; a ratio ('3.7× smaller') is the
    larger over the smaller.  A stated direction opposite to the actual one is a flip."""
    ia, ib = admitted(a, approx_rel), admitted(b, approx_rel)
    sz = fraction_interval(z, approx_rel)
    if ia is None or ib is None or sz is None or ia[0] <= 0 or ib[0] < 0:
        return None
    r = _div(ib, ia)
    if r is None:
        return None
    change = (r[0] - 1, r[1] - 1)
    flipped = bool(direction) and ((direction < 0 and change[0] > 0) or (direction > 0 and change[1] < 0))
    if z.kind in ("percent", "percentage_point"):
        sz = _abs_iv(sz)        # the size; the sign ('-38%', '下降') is the direction, judged above
        readings = [Reading("change", *_abs_iv(change))]
        readings += _pp_reading(a, b, approx_rel)
    else:
        readings = gap_readings(ia, ib, z.kind)
    ok = any(overlaps(sz, (x.low, x.high)) for x in readings)
    return Verdict(ok=ok and not flipped, readings=readings, flipped=flipped, stated=sz)


def check_than(x, y, z, direction: int, approx_rel: float = 0.1, inverse: bool = False) -> Optional[Verdict]:
    """'X … z% better than Y' / 'X，比 Y 领先 z 倍': X relative to Y.

    ``direction`` +1 says X is ahead, -1 behind; ``inverse`` for lower-is-better units
    (latency: 'faster' means smaller).  A percent is X/Y-1; a ratio is X/Y or X/Y-1
    ('领先 2 倍' is read both ways).  Ahead/behind contradicted by the figures is a flip."""
    ix, iy = admitted(x, approx_rel), admitted(y, approx_rel)
    sz = fraction_interval(z, approx_rel)
    if ix is None or iy is None or sz is None or ix[0] <= 0 or iy[0] <= 0:
        return None
    r = _div(iy, ix) if inverse else _div(ix, iy)
    if r is None:
        return None
    flipped = bool(direction) and ((direction > 0 and r[1] < 1) or (direction < 0 and r[0] > 1))
    if z.kind in ("percent", "percentage_point"):
        # 'z% slower than Y' is read as X = (1-z)·Y or as Y = (1+z)·X
        inv = (_recip(r[1]), _recip(r[0]))
        readings = [Reading("rel_to_second", *_abs_iv((r[0] - 1, r[1] - 1))),
                    Reading("rel_to_first", *_abs_iv((inv[0] - 1, inv[1] - 1)))]
        readings += _pp_reading(x, y, approx_rel)
    else:
        rr = r if direction >= 0 else (_recip(r[1]), _recip(r[0]))
        readings = [Reading("ratio", *rr), Reading("ratio_minus_one", rr[0] - 1, rr[1] - 1)]
    ok = any(overlaps(sz, (x_.low, x_.high)) for x_ in readings)
    return Verdict(ok=ok and not flipped, readings=readings, flipped=flipped, stated=sz)


def check_sum(parts: list, whole, approx_rel: float = 0.1) -> Optional[Verdict]:
    """Parts that should add up to the stated whole (same unit)."""
    ivs = [admitted(p, approx_rel) for p in parts]
    iw = admitted(whole, approx_rel)
    if iw is None or any(i is None for i in ivs):
        return None
    total = (sum(i[0] for i in ivs), sum(i[1] for i in ivs))
    return Verdict(ok=overlaps(total, iw), readings=[Reading("sum", *total)], stated=iw)


# ---------------------------------------------------------------------------------------
# Finding derivations in text
# ---------------------------------------------------------------------------------------

# Claim kinds that can be the stated derived figure of a comparison.
STATED_KINDS = ("percent", "ratio")
# Claim kinds that can be an operand (an absolute measurement or a speedup factor).
OPERAND_KINDS = ("throughput", "latency", "duration", "memory", "bandwidth", "count", "currency",
                 "compute", "number", "ratio", "percent")
_TIME_UNITS = ("second",)


@dataclass
class Derivation:
    """A derived figure found in the text together with the figures it comes from."""
    form: str                 # 'gap' | 'change' | 'than' | 'sum'
    stated: int               # index of the stated claim (z, or the whole for 'sum')
    operands: list            # indices of the operand claims (A, B) or the parts
    direction: int = 0        # +1 / -1 / 0 stated direction
    verdict: Optional[Verdict] = None
    synthetic: list = field(default_factory=list)   # operands read from the text, not claims
    inverse: bool = False     # lower is better: 'faster' compares the inverse (latency)


def _words_re(words) -> "re.Pattern":
    return _words_rx(tuple(words))


@lru_cache(maxsize=256)
def _words_rx(words: tuple) -> "re.Pattern":
    # one vocabulary per rule: compiled once per run, not once per document
    parts = sorted({w for w in words if w}, key=len, reverse=True)
    return re.compile("|".join(re.escape(w) for w in parts), re.IGNORECASE)


@lru_cache(maxsize=256)
def _rx(pattern: str, flags: int = 0) -> "re.Pattern":
    """A pattern built from vocabulary patterns, compiled once (derivations are searched
    for every figure of every document)."""
    return re.compile(pattern, flags)


_LATIN = re.compile(r"[A-Za-z]")
_LATIN_OR_DOT = re.compile(r"[A-Za-z.]")
_BLANK_LINE = re.compile(r"\n\s*\n")
_OPEN_PAREN = re.compile(r"\s*[（(]\s*")
_CLAUSE_END = re.compile(r"[。；;\n]")
_CLOSE_PAREN = re.compile(r"[)）]")
_ARROW_MID = re.compile(r"[→]|->")
_THAN = re.compile(r"\bthan\b|于")
_LEAD_STOP = re.compile(r"[|，,：:]")
_BARE_LEAD_STOP = re.compile(r"[|，,：:。；;]")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"\s*\|?(\s*:?-{2,}:?\s*\|)+\s*(:?-{2,}:?)?\s*\|?\s*")


@dataclass
class Vocabulary:
    """The words that tie figures into a derivation (rule params; defaults in the rule files)."""
    gap: list = field(default_factory=lambda: ["gap", "difference", "差距", "相差", "差值", "差"])
    decrease: list = field(default_factory=lambda: [
        "reduction", "reduce", "reduces", "reduced", "decrease", "decreased", "drop", "drops",
        "cut", "cuts", "less", "lower", "fewer", "smaller", "saving", "savings", "shrink",
        "降低", "减少", "下降", "节省", "缩小", "缩减", "降到", "降至", "减到", "减至"])
    increase: list = field(default_factory=lambda: [
        "increase", "increased", "increases", "more", "higher", "larger", "gain", "growth",
        "improvement", "rise", "提升", "增加", "提高", "增长", "上升", "增至", "增到"])
    ahead: list = field(default_factory=lambda: [
        "better than", "faster than", "higher than", "more than", "larger than", "ahead of",
        "领先", "快于", "高于", "优于", "高出", "快", "高", "多"])
    behind: list = field(default_factory=lambda: [
        "worse than", "slower than", "lower than", "less than", "smaller than", "behind",
        "落后", "慢于", "低于", "慢", "低", "少"])
    compare: list = field(default_factory=lambda: [
        "vs", "vs.", "versus", "than", "compared to", "compared with", "over", "对比", "相比",
        "相较", "比", "较"])
    from_to: list = field(default_factory=lambda: ["to", "→", "->", "=>", "到", "降到", "降至",
                                                   "减到", "减至", "增至", "增到", "变为", "变成"])

    @classmethod
    def from_params(cls, params: dict) -> "Vocabulary":
        v = cls()
        for k in ("gap", "decrease", "increase", "ahead", "behind", "compare", "from_to"):
            if params.get(f"{k}_words"):
                setattr(v, k, list(params[f"{k}_words"]))
        return v


# words that rank performance rather than size: for a latency, 'faster' means smaller
_PERF_WORD = re.compile(r"faster|slower|better|worse|ahead|behind|快|慢|领先|落后|优于", re.IGNORECASE)
_BREAK = re.compile(r"[。；;！？!?\n]|\.\s|\s-\s|\|")


_SENT_END = re.compile(r"[。！？!?]|\.(?:\s|$)")
_ANAPHORA = re.compile(r"^\s*(?:that|this|which|these|i\.e\.|这|即|也就是)", re.IGNORECASE)


def _same_sentence_or_anaphora(text: str, x_end: int, z_start: int) -> bool:
    """X belongs to z's statement: same sentence, or z's sentence opens by pointing back at
    the previous one ('That is roughly 50% better than …').  'On batch 1 it is 10% faster
    than …' after another sentence's figure is a new statement."""
    gap = text[x_end:z_start]
    ends = list(_SENT_END.finditer(gap))
    if not ends:
        return True
    if len(ends) > 1:
        return False
    return _ANAPHORA.match(gap[ends[-1].end():].lstrip("\n")) is not None


def _same_dim(a, b) -> bool:
    if a.kind in ("percent", "percentage_point") or b.kind in ("percent", "percentage_point"):
        return a.kind == b.kind
    if a.kind == "ratio" or b.kind == "ratio":
        return a.kind == b.kind
    return (a.base_unit or a.unit) == (b.base_unit or b.unit)


def _word_near(pattern: "re.Pattern", text: str) -> Optional["re.Match"]:
    """Whole-word match for Latin words, plain substring for CJK."""
    for m in pattern.finditer(text):
        s, e = m.start(), m.end()
        w = m.group()
        if _LATIN.match(w[:1]) and s > 0 and text[s - 1].isalnum():
            continue
        if _LATIN_OR_DOT.match(w[-1:]) and e < len(text) and text[e].isalnum():
            continue
        return m
    return None


def find_derivations(text: str, claims: list, vocab: Optional[Vocabulary] = None,
                     window: int = 160) -> list:
    """Every gap / change / than / sum derivation among ``claims`` (sorted by offset) in ``text``.

    Operands must sit in the same paragraph (no blank line between), within ``window``
    characters, with no sentence break between them where the form requires one clause."""
    vocab = vocab or Vocabulary()
    gap_re, dec_re, inc_re = _words_re(vocab.gap), _words_re(vocab.decrease), _words_re(vocab.increase)
    ahead_re, behind_re = _words_re(vocab.ahead), _words_re(vocab.behind)
    cmp_re, to_re = _words_re(vocab.compare), _words_re(vocab.from_to)
    order = sorted(range(len(claims)), key=lambda i: claims[i].start)
    out = []
    used_as_stated = set()     # stated figures of derivations found so far: never operands
    used_ops = set()            # operands already tied to a stated figure: never reused

    def between(i, j):
        return text[claims[i].end:claims[j].start]

    def same_par(i, j):
        return "\n\n" not in between(i, j) and not _BLANK_LINE.search(between(i, j))

    def prev_same(pos_idx, like, limit_chars, allow_break=False):
        """Nearest earlier claim (in ``order``) with the same dimension as ``like``."""
        k = pos_idx - 1
        while k >= 0:
            c = claims[order[k]]
            if claims[order[pos_idx]].start - c.end > limit_chars:
                return None
            if not same_par(order[k], order[pos_idx]):
                return None
            # a figure already read as some derivation's result is not a measurement
            if (c.kind in OPERAND_KINDS and _same_dim(c, like) and c.list_id is None
                    and order[k] not in used_as_stated):
                return k
            k -= 1
        return None

    for p, zi in enumerate(order):
        z = claims[zi]
        if z.kind not in STATED_KINDS or z.bound:
            continue
        before = text[max(0, z.start - 14):z.start]
        if p > 0:
            before = text[max(claims[order[p - 1]].end, z.start - 14):z.start]
        after = text[z.end:z.end + 40]
        line_end = text.find("\n", z.end)
        after = after if line_end < 0 else text[z.end:min(line_end, z.end + 40)]

        # ---- change stated first: 'z（A → B）', 'a z× speedup, from A to B' ----------------
        pre_d = _stated_first(text, claims, order, p, to_re)
        if pre_d is not None:
            a, b, ai_, bi = pre_d
            direction = -1 if (z.negative or (z.value is not None and z.value < 0)) else (
                1 if text[max(0, z.start - 1):z.start + 1].startswith("+") or z.surface.startswith("+") else 0)
            if direction == 0 and z.kind != "ratio":
                ctx_words = text[max(0, z.start - 12):z.end + 12]
                dec, inc = _word_near(dec_re, ctx_words), _word_near(inc_re, ctx_words)
                direction = -1 if dec and not inc else (1 if inc and not dec else 0)
            if z.kind == "ratio":
                direction = 0       # 'a 5.3× TTFA gain (0.70s → 0.13s)': either way round
            v = check_change(a, b, z, direction, 0.0)
            syn = [a] if ai_ < 0 else []
            if bi < 0:
                syn = [a, b]
            out.append(Derivation("change", zi, [ai_, bi], direction, v, synthetic=syn))
            used_as_stated.add(zi)
            used_ops.update((ai_, bi))
            continue

        # ---- gap: 'A … B (gap z)' / 'A - B（差距约 z）' ------------------------------------
        bare_paren = (p >= 2 and _OPEN_PAREN.fullmatch(text[claims[order[p - 1]].end:z.start]) is not None
                      and _word_near(cmp_re, between(order[p - 2], order[p - 1])) is not None)
        gap_after = _rx(r"\s{0,2}(?:的)?\s{0,2}(" + gap_re.pattern + r")", re.IGNORECASE).match(after)
        if (_word_near(gap_re, before) or bare_paren or gap_after) and p >= 2:
            bi = order[p - 1]
            b = claims[bi]
            if b.kind in OPERAND_KINDS and not _BREAK.search(between(bi, zi).replace(" - ", " ")):
                k = prev_same(p - 1, b, window)
                if k is not None:
                    ai = order[k]
                    gap_text = between(ai, bi)
                    if len(gap_text) <= 60 and not _CLAUSE_END.search(gap_text):
                        v = check_gap(claims[ai], b, z, 0.0)
                        out.append(Derivation("gap", zi, [ai, bi], 0, v))
                        used_as_stated.add(zi)
                        continue

        # ---- change: 'from A to B, a z% reduction' / '从 A 降到 B，减少 z%' ---------------
        if p >= 2:
            bi, ai_ = order[p - 1], order[p - 2]
            a, b = claims[ai_], claims[bi]
            mid = between(ai_, bi)
            tail = between(bi, zi)
            if (a.kind in OPERAND_KINDS and _same_dim(a, b) and len(mid) <= 25 and len(tail) <= 25
                    and ai_ not in used_ops and bi not in used_ops and not _CLOSE_PAREN.search(tail)
                    and _word_near(to_re, mid) and not _BREAK.search(mid) and not _CLAUSE_END.search(tail)):
                words = mid + " " + tail + " " + after[:15]
                dec = _word_near(dec_re, words) or _word_near(dec_re, text[max(0, a.start - 20):a.start])
                inc = _word_near(inc_re, words)
                direction = -1 if dec and not inc else (1 if inc and not dec else 0)
                if z.negative or (z.value is not None and z.value < 0):
                    direction = -1
                elif text[max(0, z.start - 1):z.start] == "+" or z.surface.startswith("+"):
                    direction = 1
                if direction or _ARROW_MID.search(mid):
                    v = check_change(a, b, z, direction, 0.0)
                    out.append(Derivation("change", zi, [ai_, bi], direction, v))
                    used_as_stated.add(zi)
                    continue

        # ---- than (English): 'X … z% better than … Y' -----------------------------------
        m_ahead = _rx(r"\s*(" + ahead_re.pattern + ")", re.IGNORECASE).match(after)
        m_behind = _rx(r"\s*(" + behind_re.pattern + ")", re.IGNORECASE).match(after)
        m = m_ahead or m_behind
        if m and _THAN.search(m.group()):
            # Y: first operand after z in the same clause
            q = p + 1
            if q < len(order):
                yi = order[q]
                y = claims[yi]
                seg = text[z.end:y.start]
                if len(seg) <= 50 and not _BREAK.search(seg) and y.kind in OPERAND_KINDS:
                    k = prev_same(p, y, window)
                    if k is not None and not _same_sentence_or_anaphora(text, claims[order[k]].end, z.start):
                        k = None
                    if k is not None:
                        xi = order[k]
                        x = claims[xi]
                        inverse = (x.base_unit in _TIME_UNITS or x.kind == "latency") and \
                            _PERF_WORD.search(m.group()) is not None
                        direction = 1 if m_ahead else -1
                        v = check_than(x, y, z, direction, 0.0, bool(inverse))
                        out.append(Derivation("than", zi, [xi, yi], direction, v, inverse=bool(inverse)))
                        used_as_stated.add(zi)
                        continue

        # ---- lead (Chinese / terse): '对比 B 的 Y，X 领先约 z 倍' ----------------------------
        lead = _rx(r"(" + "|".join(x.pattern for x in (ahead_re, behind_re, inc_re, dec_re))
                   + r")\s*(约|大约|近|about|roughly|~|～)?\s*$", re.IGNORECASE).search(before)
        if lead and p >= 2:
            yi = order[p - 1]
            y = claims[yi]
            pre_y = text[max(0, y.start - 16):y.start]
            if (y.kind in OPERAND_KINDS and _word_near(cmp_re, pre_y)
                    and len(between(yi, zi)) <= 40 and "\n" not in between(yi, zi)):
                k = prev_same(p - 1, y, window)
                if k is not None:
                    xi = order[k]
                    x = claims[xi]
                    word = lead.group(1)
                    behind = bool(_rx(behind_re.pattern + "|" + dec_re.pattern, re.IGNORECASE).fullmatch(word))
                    inverse = (x.base_unit in _TIME_UNITS or x.kind == "latency") and _PERF_WORD.search(word) is not None
                    direction = -1 if behind else 1
                    v = check_than(x, y, z, direction, 0.0, inverse)
                    out.append(Derivation("than", zi, [xi, yi], direction, v, inverse=inverse))
                    used_as_stated.add(zi)
                    continue

    out += find_sums(text, claims, order)
    return out


_ARROW = re.compile(r"→|->|=>|⟶")
_FROM = re.compile(r"(?:\bfrom|从|由)\s*$", re.IGNORECASE)
_BARE_NUM = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.(\d+))?)\s*(?:→|->|=>|⟶)\s*$")


def _operand_from_text(text: str, like, end: int):
    """'6.78 → 8.95 req/s': the bare first number shares the unit of the second figure."""
    m = _BARE_NUM.search(text[max(0, end - 24):end])
    if not m or like.value is None:
        return None
    import copy
    c = copy.copy(like)
    v = float(m.group(1).replace(",", ""))
    start = max(0, end - 24) + m.start(1)
    factor = (like.base_value / like.value) if like.value and like.base_value is not None else 1.0
    c.value, c.low, c.high = v, None, None
    c.base_value, c.base_low, c.base_high = v * factor, None, None
    c.surface, c.start, c.end = m.group(1), start, start + len(m.group(1))
    c.decimals, c.approx, c.bound = len(m.group(2) or ""), False, None
    return c


_BARE_PAIR = re.compile(r"(?P<lead>[^\n\d]{0,30}?)[（(]\s*(?P<a>\d[\d,]*(?:\.\d+)?)\s*(?:→|->|=>|⟶)\s*"
                        r"(?P<b>\d[\d,]*(?:\.\d+)?)\s*[)）]")


def _bare_claim(num: str, start: int):
    from claims.model import Claim
    v = float(num.replace(",", ""))
    dec = len(num.split(".")[1]) if "." in num else 0
    return Claim(path=None, line=0, col=0, start=start, end=start + len(num), surface=num, kind="number",
                 value=v, base_value=v, unit="dimensionless", base_unit="dimensionless", decimals=dec)


def _stated_first(text, claims, order, p, to_re):
    """(A, B, index A, index B) when the stated figure at order[p] is followed by its operands:
    'z（A → B）', 'z speedup …, from A to B'.  A may be a bare number before the arrow."""
    z = claims[order[p]]
    bi_pos = None
    # B is the figure right after an arrow or a 'to' that follows z in the same clause
    for q in (p + 1, p + 2):
        if q >= len(order):
            break
        b = claims[order[q]]
        if b.kind not in OPERAND_KINDS or b.kind in ("percent",) and z.kind == "percent":
            continue
        lead = text[z.end:b.start]
        # the arrow pair must belong to z's own clause: 'z（A → B）', 'z speedup at bs 1 (A → B'
        if len(lead) > 48 or _BREAK.search(lead.replace(" - ", " ")) or _LEAD_STOP.search(lead):
            break
        if _ARROW.search(text[max(z.end, b.start - 6):b.start]):
            bi_pos = q
            break
    if bi_pos is None:
        # 'z (0.364 → 0.326)': two bare numbers, neither a claim of its own
        m = _BARE_PAIR.match(text, z.end)
        if m and not _BARE_LEAD_STOP.search(m.group("lead")):
            nxt = next((claims[order[q]].start for q in range(p + 1, len(order))), len(text))
            if nxt >= m.end():
                a = _bare_claim(m.group("a"), m.start("a"))
                b = _bare_claim(m.group("b"), m.start("b"))
                return a, b, -1, -2
        # 'from A to B' after z
        if p + 2 < len(order):
            ai_, bi = order[p + 1], order[p + 2]
            a, b = claims[ai_], claims[bi]
            lead = text[z.end:a.start]
            mid = text[a.end:b.start]
            if (a.kind in OPERAND_KINDS and _same_dim(a, b) and len(lead) <= 70 and len(mid) <= 12
                    and not _BREAK.search(lead) and _FROM.search(lead) and _word_near(to_re, mid)):
                return a, b, ai_, bi
        return None
    bi = order[bi_pos]
    b = claims[bi]
    if bi_pos == p + 2:
        ai_ = order[p + 1]
        a = claims[ai_]
        if _same_dim(a, b) and _ARROW.search(text[a.end:b.start]) and len(text[a.end:b.start]) <= 6:
            return a, b, ai_, bi
        return None
    a = _operand_from_text(text, b, b.start)
    if a is None:
        return None
    if a.start < z.end:
        return None
    return a, b, -1, bi


_PLUS = re.compile(r"^[^\d\n。；;|]{0,24}[+＋][^\d\n。；;|]{0,24}$")
_WHOLE_BEFORE = re.compile(r"^\s*[（(:：=＝]\s*$|^\s*[，,]?\s*(其中|including|of which|incl\.)\s*[:：]?\s*$", re.I)
_WHOLE_AFTER = re.compile(r"^[^\d\n。；;|]{0,24}?[=＝]\s*$|^\s*[)）]?\s*(共计?|合计|总计|in total|total)\s*[:：]?\s*$", re.I)


def find_sums(text: str, claims: list, order: Optional[list] = None) -> list:
    """'W（a X + b Y）', 'a + b = W': parts joined by '+' next to a whole of the same dimension."""
    if order is None:
        order = sorted(range(len(claims)), key=lambda i: claims[i].start)
    out = []
    p = 0
    while p < len(order):
        # a run of claims joined by '+'
        run = [order[p]]
        q = p + 1
        while q < len(order) and _PLUS.match(text[claims[order[q - 1]].end:claims[order[q]].start]) \
                and _same_dim(claims[order[q]], claims[run[0]]):
            run.append(order[q])
            q += 1
        if len(run) >= 2:
            whole = None
            if p > 0:
                wi = order[p - 1]
                gap = text[claims[wi].end:claims[run[0]].start]
                # the text between the whole and the first part is a bracket or 'including'
                # possibly followed by the first part's label ('（1 条 NET-new …' has none)
                if _WHOLE_BEFORE.match(gap) and _same_dim(claims[wi], claims[run[0]]):
                    whole = wi
            if whole is None and q < len(order):
                wi = order[q]
                gap = text[claims[run[-1]].end:claims[wi].start]
                if _WHOLE_AFTER.match(gap) and _same_dim(claims[wi], claims[run[0]]):
                    whole = wi
            if whole is not None:
                parts = [claims[i] for i in run]
                v = check_sum(parts, claims[whole], 0.0)
                out.append(Derivation("sum", whole, run, 0, v))
        p = q if len(run) >= 2 else p + 1
    return out


def operand_claims(d: Derivation, claims: list) -> list:
    """The operand claims of a derivation (index -1: the operand read from the text)."""
    return [d.synthetic[-i - 1] if i < 0 else claims[i] for i in d.operands]


def rescore(d: Derivation, claims: list, approx_rel: float) -> Optional[Verdict]:
    """Recompute a derivation's verdict with the rule's approximation margin."""
    ops = operand_claims(d, claims)
    if d.form == "gap":
        return check_gap(ops[0], ops[1], claims[d.stated], approx_rel)
    if d.form == "change":
        return check_change(ops[0], ops[1], claims[d.stated], d.direction, approx_rel)
    if d.form == "than":
        x, y = ops
        return check_than(x, y, claims[d.stated], d.direction, approx_rel, d.inverse)
    if d.form == "sum":
        return check_sum([claims[i] for i in d.operands], claims[d.stated], approx_rel)
    return None


# ---------------------------------------------------------------------------------------
# Derived columns of Markdown tables
# ---------------------------------------------------------------------------------------

_RATIO_HEAD = re.compile(r"加速比|加速|倍数|speed-?up|ratio|\bx\s*faster", re.IGNORECASE)
_CELL_NUM = re.compile(r"^\s*(?:\*\*)?\s*(?P<n>\d[\d,]*(?:\.(?P<d>\d+))?)\s*(?P<u>[A-Za-zμ/%]*)\s*(?:\*\*)?\s*$")
_CELL_RATIO = re.compile(r"^\s*(?:\*\*)?\s*(?P<approx>[~约≈])?\s*(?P<n>\d+(?:\.(?P<d>\d+))?)\s*(?:×|x|X|倍)\s*(?:\*\*)?\s*$")


@dataclass
class TableCheck:
    """A ratio cell of a table row against the two measurements to its left."""
    line: int
    col: int
    surface: str
    operands: list          # [(surface, line, col), (surface, line, col)]
    verdict: Verdict


def _cell_claim(num: str, decimals: str, kind: str = "number", approx: bool = False, start: int = 0):
    from claims.model import Claim
    v = float(num.replace(",", ""))
    return Claim(path=None, line=0, col=0, start=start, end=start + len(num), surface=num, kind=kind,
                 value=v, base_value=v, unit="dimensionless", base_unit="dimensionless",
                 decimals=len(decimals or ""), approx=approx)


def find_table_ratios(text: str, approx_rel: float = 0.1) -> list:
    """Rows of tables with a speedup column (加速比, speedup, ratio) right after two numeric
    columns of the same unit: the stated ratio must be the larger over the smaller."""
    out = []
    lines = text.split("\n")
    i = 0
    in_code = False
    while i < len(lines):
        ln = lines[i]
        if _FENCE.match(ln):
            in_code = not in_code
        if in_code or not ln.strip().startswith("|") or i + 1 >= len(lines) \
                or not _TABLE_RULE.fullmatch(lines[i + 1]):
            i += 1
            continue
        head = [c.strip() for c in ln.strip().strip("|").split("|")]
        cols = [k for k, h in enumerate(head) if _RATIO_HEAD.search(h) and k >= 2]
        i += 2
        while i < len(lines) and lines[i].strip().startswith("|"):
            row = lines[i]
            cells, offs = [], []
            pos = row.index("|") + 1
            for part in row.strip().strip("|").split("|") if row.strip().endswith("|") else row.strip()[1:].split("|"):
                cells.append(part)
                offs.append(pos)
                pos += len(part) + 1
            for k in cols:
                if k >= len(cells):
                    continue
                m = _CELL_RATIO.match(cells[k])
                ma, mb = _CELL_NUM.match(cells[k - 2]), _CELL_NUM.match(cells[k - 1])
                if not (m and ma and mb) or (ma.group("u") or "") != (mb.group("u") or ""):
                    continue
                a = _cell_claim(ma.group("n"), ma.group("d"))
                b = _cell_claim(mb.group("n"), mb.group("d"))
                z = _cell_claim(m.group("n"), m.group("d"), "ratio", bool(m.group("approx")))
                ia, ib = admitted(a, approx_rel), admitted(b, approx_rel)
                sz = admitted(z, approx_rel)
                if not ia or not ib or ia[0] <= 0 or ib[0] <= 0:
                    continue
                readings = gap_readings(ia, ib, "ratio")[:1]     # larger over smaller only
                v = Verdict(ok=any(overlaps(sz, (r.low, r.high)) for r in readings), readings=readings, stated=sz)
                cell = cells[k]
                surf = cell.strip().strip("*").strip()
                col = offs[k] + cell.index(surf) + 1
                opnd = []
                for kk in (k - 2, k - 1):
                    s_ = cells[kk].strip().strip("*").strip()
                    opnd.append((s_, i + 1, offs[kk] + cells[kk].index(s_) + 1))
                out.append(TableCheck(i + 1, col, surf, opnd, v))
            i += 1
    return out
