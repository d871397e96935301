"""Stated derived figures: every place a briefing derives one figure from others.

``find_derivations(doc, claims)`` reads, once per document, each figure the text says is
derived — and the figures it is derived from — into ``Derivation`` records
(``claims.model.Derivation``; ``Analysis.derivations``).  The words that tie figures
together are data: ``claims/data/derivations.yaml``.

Forms (``Derivation.form``):

- ``gap``: two figures set side by side, with the gap between them stated or not —
  ``A：x - B：y（差距约 z%）``, ``16,200 vs 12,500 tok/s, a 45% gap``, ``3.81 vs 5.37 req/s（-29%）``;
- ``change``: from one figure to another — ``from 140 GB to 38 GB, a 73% reduction``,
  ``吞吐 +32.0%（6.78 → 8.95 req/s）``, ``a 4.2× speedup, from 118 tok/s to 370 tok/s``
  (a bare number before an arrow takes the unit of the figure after it);
- ``lead``: one figure relative to another — ``roughly 50% better than SpecInfer's 1.6×``,
  ``较上一版本的 8,000 tok/s 提升 70%``, ``比 vLLM 的 450 ms 快 33%``;
- ``share``: one figure as a share of another — ``100 → 60–70 req/s, i.e. 60–70% of the
  baseline``, ``从 100 降到 65 req/s，即原来的 65%``;
- ``sum``: parts and their whole — ``W（a + b）``, ``a + b = W``, ``（4 条：1 + 3）``;
- ``restated``: a change's size said again elsewhere in its section the other way round —
  ``吞吐损失 32%`` about the cache whose benchmark reads ``+32.0%（6.78 → 8.95 req/s）``;
- ``quotient``: ``16 个并发请求除以 3.11 s … 5.046 req/s`` (figures in inline code count here);
- ``converted``: one quantity written again in another unit — ``60 RPM, i.e. 1 req/s``,
  ``halving 60 RPM, i.e. 0.5 req/s``;
- ``product``: arithmetic written out, ``44.8 ms（2×22.7ms）``, ``16x × 2.8x = 44.8x``,
  ``128 + 48 + 48 = 224`` (``claims.derive_products``);
- the table forms of ``claims.derive_tables``: ``ratio_column`` (a speedup column), ``row_total``
  (a total column), ``table_lead`` (prose comparing rows or columns by name: ``57x faster than
  approximate-scheduling``, ``是缓存盲配置吞吐量的两倍以上``), ``range_summary`` (a range that
  summarizes a column).

A derivation with ``stated`` None is a pair compared with nothing derived written beside it
(``from 2.35s to 1.78s``): the contradiction checks still need to know that its two sides
measure different states.  Figures that are no claims of their own (a bare number before an
arrow, a table cell without a unit) are read here as ``Claim`` records that are *not* in
``Analysis.claims``: they are operands only, never checked for preconditions.

Only neighbouring figures are paired (each claim is looked at with the next few), so the
pass is linear in the number of claims.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Optional

from . import derive_tables as _tables
from ._data import load
from .derive_vocab import Vocabulary, vocabulary, word_in as _word_in
from .derive_periods import per_period_averages
from .derive_tables import MEASURED_KINDS, bare_figure, claims_by_block, figure_at
from .derive_products import find_expressions
from .entities import find_entities
from .model import Derivation
from .structure import ANAPHORA, SENT_END
from .pattern_cache import compile_re  # compiled once per machine, not per process

# Claim kinds that can be the stated derived figure of a gap, change or lead.
STATED_KINDS = ("percent", "ratio")
# Claim kinds that can be an operand (an absolute measurement or a speedup factor).
OPERAND_KINDS = ("throughput", "latency", "duration", "memory", "bandwidth", "count", "currency",
                 "compute", "number", "ratio", "percent")
_RELATIVE = ("percent", "ratio", "percentage_point")
# metrics (claims/data/metrics.yaml) of a figure that states a lead over a baseline
_LEAD_METRICS = ("throughput_lead", "speedup", "gap", "increase", "reduction")


# ---------------------------------------------------------------- text between figures

_BREAK = compile_re(r"[。；;！？!?\n]|\.\s|\s-\s|\|")
_BLANK_LINE = compile_re(r"\n\s*\n")
_OPEN_PAREN = compile_re(r"\s*[（(]\s*")
_CLAUSE_END = compile_re(r"[。；;\n]")
_CLOSE_PAREN = compile_re(r"[)）]")
# the figure opens another from-to ('… 从 68.2% 提升到 93.4%，硬件任务上从 43.5% 提升到 80.0%'): an
# operand of its own change, not the change of the one before it
_FROM_BEFORE = compile_re(r"(?:从|由|(?<![A-Za-z])from|→|->|=>|⇒)\s{0,2}$", re.IGNORECASE)
_TO_AFTER = compile_re(r"^\s{0,2}(?:(?:提升|提高|增加|增长|降低|下降|减少|降|升)?\s{0,2}(?:到|至)|→|->|(?:up |down )?to(?![A-Za-z]))", re.IGNORECASE)
_DIGIT_RUN = compile_re(r"\d")
# a parenthesis that labels its figure as something else ('（完整系统 72.2%）', '(full system: 72.2%)')
_LABEL_IN_PAREN = compile_re(r"[(（]\s{0,2}([^()（）]{1,24}?)[:：]?\s{0,2}$")
_LEAD_STOP = compile_re(r"[|，,：:]")
_FACTOR_BEFORE = compile_re(r"[×xX*]\s{0,2}$")
_CLAUSE_OR_CLOSE = compile_re(r"[，,;；。:：)）]")
_OPEN_PAREN_END = compile_re(r"[(（]\s*(?:\*\*)?\s*$")
# 'xRT 提高约 9%，TTFA 从 0.788 秒降到 0.677 秒': after a comma a new quantity is named, and the
# 'from A to B' that follows is its own, not the stated figure's
_NEW_SUBJECT = compile_re(r"[，,;；]\s*(?:the\s+)?[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff./-]{0,20}\s*(?:的\s*)?(?:从|由|from)\s*$",
                          re.IGNORECASE)
_BARE_LEAD_STOP = compile_re(r"[|，,：:。；;]")
_PLUS = compile_re(r"[^\d\n。；;|]{0,24}[+＋][^\d\n。；;|]{0,24}")
_VERSION = compile_re(r"\s*v?\d{1,3}(?:\.\d{1,3}){1,2}")
# A character that neither a name, its version nor the separators of a pair can hold:
# a gap with one of them never reduces to separators, whatever names it contains
_NOT_NAME_OR_SEP = compile_re(r"[^\w\s\-–—;；,，、:：/|*.×™®]")
_LABEL_COLON = compile_re(r"[：:]\s*$")
# a 'per' unit written after a figure and not read into it: '$0.30/M', '$2/hr'
_PER_UNIT = compile_re(r"(/\s?[A-Za-z]{1,6}\b)")
_TIME_UNITS = ("second",)


@lru_cache(maxsize=None)
def _family_of() -> dict:
    """metric -> its family (metrics.yaml ``families``)."""
    fams = load("metrics.yaml").get("families") or {}
    return {m: name for name, ms in fams.items() for m in ms}


@lru_cache(maxsize=1)
def _load_units() -> frozenset:
    return frozenset(load("derivations.yaml").get("load_units") or ())


def _other_measurement(z, a) -> bool:
    """The stated figure ``z`` measures another quantity than operand ``a`` ('命中率 40%→80%、
    TTFT 降 56%': a hit rate, then a TTFT): not a change between them."""
    fam = _family_of()
    if a.kind == "count" and any(m and fam.get(m) != "any" for m in (z.metric, a.metric)):
        # '10→50 users: +298.4% throughput gain', 'P99 latency increases 60% from 10→100
        # users': when the words name a quantity, users, requests, GPUs are the load or scale
        # it was measured at, never the quantity whose change is stated
        return True
    if a.kind == "count" and a.unit in _load_units() and z.metric:
        # 'variance increases 2.3x under load (10→100 users)': a rise measured over a sweep
        # of the load, whatever it is a rise of
        return True
    if not z.metric or not a.metric or z.metric == a.metric:
        return False
    fz, fa = fam.get(z.metric, z.metric), fam.get(a.metric, a.metric)
    return fz != fa and "any" not in (fz, fa)



# the kinds a performance word ('faster', '快', 'outperforms') ranks: times and rates (and the
# ratios and percents that are already speedups)
_SPEED_KINDS = frozenset({"latency", "duration", "throughput", "ratio", "percent", "compute", "bandwidth"})


def _ranks_no_speed(v, word: str, a, b) -> bool:
    """A performance word between two figures neither of which is a speed ('4比特应该比8比特基线快2倍',
    '4 bits should run 2x faster than 8 bits'): the sizes or bit widths are the configurations
    compared, not the speeds (a roofline's 8 / 4), so no lead of one over the other is stated."""
    return v.performance.search(word) is not None and not _SPEED_KINDS.intersection((a.kind, b.kind))


def _same_dim(a, b) -> bool:
    if a.kind in ("percent", "percentage_point") or b.kind in ("percent", "percentage_point"):
        return a.kind == b.kind
    if a.kind == "ratio" or b.kind == "ratio":
        return a.kind == b.kind
    return (a.base_unit or a.unit) == (b.base_unit or b.unit)


def _same_scale(a, b) -> bool:
    return a.kind == b.kind and (a.base_unit or "") == (b.base_unit or "")


def _scope(c):
    return (c.path, c.entry if c.entry is not None else ("sec", c.section), c.role)


# a bracket closed, a new clause ('，且', ', and'), and a new bracket opened before z
_NEW_PAREN_CLAUSE = compile_re(r"[)）]\s{0,2}[，,;；]\s{0,2}(?:且|并且|而且|同时|and|while)?[^()（）]{0,20}[(（]")


def _same_statement(text: str, x_end: int, z_start: int) -> bool:
    """X belongs to z's statement: same sentence, or z's sentence opens by pointing back at
    the previous one ('That is roughly 50% better than …').  'On batch 1 it is 10% faster
    than …' after another sentence's figure is a new statement."""
    gap = text[x_end:z_start]
    if _NEW_PAREN_CLAUSE.search(gap):
        return False    # '（88.6% vs 90.6%），且输出更凝练（平均 token 减少 22%）': another clause's own figure
    ends = list(SENT_END.finditer(gap))
    if not ends:
        return True
    if len(ends) > 1:
        return False
    return ANAPHORA.match(gap[ends[-1].end():].lstrip("\n")) is not None


def _is_latency(c) -> bool:
    return c.base_unit in _TIME_UNITS or c.kind == "latency"


# ---------------------------------------------------------------- pairs (no stated figure needed)

def _strip_entities(text: str) -> str:
    """The text between two figures with entity names (and their versions) removed."""
    spans = find_entities(text, 0, len(text), kinds=("system", "hardware", "model"))
    out, p = [], 0
    for _, _, s, e, _ in spans:
        out.append(text[p:s])
        m = _VERSION.match(text, e)
        p = m.end() if m else e
    out.append(text[p:])
    return "".join(out)


def _share_unit(a, b):
    """'16,200 vs 12,500 tok/s': the unit written once applies to both sides."""
    factor = (b.base_value / b.value) if b.base_value is not None else 1.0
    a.kind, a.unit, a.base_unit = b.kind, b.unit, b.base_unit
    a.base_value = a.value * factor


# 'to B from A' after a stated figure: the 'to' ends the text before B, only 'from' stands between
_TO_LAST = compile_re(r"(?<![A-Za-z])(?:down|up|drops?|dropped|falls?|fell|rises?|rose|goes|went|cut|reduced|increased)?\s{0,2}to\s{0,2}$", re.IGNORECASE)
_FROM_ONLY = compile_re(r"\s{0,2}from\s{0,2}", re.IGNORECASE)


@dataclass
class _Pair:
    left: int
    right: int
    gap: Optional[int]
    form: str


def _pairs(doc, claims, v: Vocabulary) -> list:
    """Neighbouring figures set side by side ('A vs B', 'A：x - B：y'), from one to another
    ('from A to B', 'A → B'), and leads over a baseline whose own figure is stated nearby
    ('50% better than SpecInfer's 1.6×' after EAGLE-3's 2.4×), each with the gap stated
    right after it when there is one.  Gives the compared figures what the pair says about
    them: the gap's subject and baseline, the unit a number shares with its partner."""
    text = doc.text
    out = []
    used = set()
    n = len(claims)

    def add(left, right, gap, form):
        out.append(_Pair(left, right, gap, form))
        used.update(i for i in (left, right, gap) if i is not None)
        if gap is not None:
            g, cl, cr = claims[gap], claims[left], claims[right]
            if cl.subject and cr.subject and cl.subject != cr.subject:
                g.subject, g.baseline = cl.subject, cr.subject
            if g.metric is None and form == "gap":
                g.metric = "gap"

    def gap_after(j):
        """A percent/ratio right after figure j that states the gap: '（差距约 35%）', ', a 73% reduction'."""
        if j + 1 >= n:
            return None
        g = claims[j + 1]
        if g.kind not in _RELATIVE or g.start - claims[j].end > 24:
            return None
        between = text[claims[j].end:g.start]
        if "\n" in between.strip(" \t") or _NEW_PAREN_CLAUSE.search(between):
            return None
        if j + 2 < n and gap_before(j + 2) == j + 1:
            return None     # '…), and 2.84x faster than A100 (0.925 s vs 2.63 s)': its own pair follows
        if _FROM_BEFORE.search(text, max(0, g.start - 8), g.start) or _TO_AFTER.match(text, g.end, g.end + 12):
            return None     # '…，硬件任务上从 43.5% 提升到 80.0%': the next from-to's start
        if (v.gap_between.fullmatch(between) or (len(between) <= 16 and _word_in(v.gap_after, between))
                or _word_in(v.gap_after, text[g.end:g.end + 16])):
            return j + 1
        return None

    def gap_before(i):
        """A percent/ratio whose parenthesis opens right before figure i: 'Level 2 wake is ~3x
        slower than Level 1 (0.85s vs 0.26s …)' gives the ratio its two operands."""
        if i == 0 or (i - 1) in used:
            return None
        g = claims[i - 1]
        if g.kind not in _RELATIVE or g.block != claims[i].block:
            return None
        between = text[g.end:claims[i].start]
        if len(between) > 60 or "\n" in between or _CLAUSE_OR_CLOSE.search(between):
            return None
        compared = _word_in(v.compare, between) or _word_in(v.gap_after, between)
        # '快 3.51 倍 (0.925 秒对比 3.25 秒)': the parenthesis opens right after the ratio
        compared = compared or _OPEN_PAREN.fullmatch(between) is not None
        return i - 1 if _OPEN_PAREN_END.search(between) and compared else None

    for i in range(n - 1):
        if i in used:
            continue
        a, b = claims[i], claims[i + 1]
        if b.start - a.end > 80 or _scope(a) != _scope(b):
            continue
        if a.list_id is not None and a.list_id == b.list_id:
            continue
        between = text[a.end:b.start]
        if _same_scale(a, b) and ((v.to_between.fullmatch(between)
                                   and v.from_before.search(text[max(0, a.start - 12):a.start]))
                                  or v.arrow_between.fullmatch(between)):
            add(i, i + 1, gap_after(i + 1), "change")
            continue
        per = _PER_UNIT.match(between)
        if per and text.startswith(per.group(1), b.end):
            between = between[per.end():]     # '$0.30/M vs $0.22/M': the same 'per' after both
        if "\n\n" in between or _NOT_NAME_OR_SEP.search(between):
            continue
        m = v.versus.fullmatch(_strip_entities(between))
        if not m:
            continue
        if a.kind == "number" and b.kind != "number" and m.group("vs") and a.value is not None and b.value:
            _share_unit(a, b)
        if not _same_scale(a, b):
            continue
        labelled = bool(a.subject and b.subject and a.subject != b.subject)
        if m.group("vs") or (labelled and _LABEL_COLON.search(between)):
            add(i, i + 1, gap_after(i + 1) if gap_after(i + 1) is not None else gap_before(i), "gap")

    # two measurements of one quantity and the multiple between them, in one sentence with
    # no 'vs' or 'from … to' ('PyTorch 的五步操作（2.67ms），融合 kernel 只需 0.127ms，加速比 13x',
    # 'takes 0.127 ms instead of 2.67 ms, a 13x speedup')
    for i in range(n - 2):
        if i in used or i + 1 in used or i + 2 in used:
            continue
        a, b, g = claims[i], claims[i + 1], claims[i + 2]
        if _speedup_after_pair(text, a, b, g, v):
            add(i, i + 1, i + 2, "gap")

    # a lead over a baseline whose own figure is stated nearby
    for gi, g in enumerate(claims):
        if gi in used or g.kind not in STATED_KINDS or g.metric not in _LEAD_METRICS:
            continue
        if not g.baseline or not g.subject:
            continue
        right = next((k for k in range(max(0, gi - 3), min(n, gi + 4))
                      if k != gi and k not in used and claims[k].subject == g.baseline
                      and claims[k].block == g.block and claims[k].kind == "ratio"
                      and abs(claims[k].start - g.start) < 200), None)
        if right is None:
            continue
        left = None
        for k in range(right - 1, max(-1, right - 30), -1):
            c = claims[k]
            if k == gi or k in used or c.subject != g.subject or not _same_scale(c, claims[right]):
                continue
            if _scope(c) == _scope(g):
                left = k
            break
        if left is not None:
            add(left, right, gi, "lead")
    return out




def _speedup_after_pair(text, a, b, g, v: Vocabulary) -> bool:
    """Figures a and b measure one quantity in two states (same kind, unit and metric,
    different values) and g, right after b in the same sentence, is the multiple the
    sentence states between them (a speedup or lead word next to it)."""
    if a.block != b.block or b.block != g.block or g.kind != "ratio" or a.kind not in MEASURED_KINDS:
        return False
    if not _same_scale(a, b) or a.value is None or b.value is None or a.value == b.value:
        return False
    if a.metric and b.metric and a.metric != b.metric:
        return False          # 'TTFT 120 ms, TPOT 30 ms, 2× faster': two quantities
    if b.start - a.end > 120 or g.start - b.end > 40:
        return False
    if _BREAK.search(text, a.end, b.start) or _BREAK.search(text, b.end, g.start):
        return False
    if v.excess_after.match(text, b.end):
        return False          # '92ms is ~70ms over, 2.5x less than Istio': b is a's excess over a baseline
    near = text[b.end:min(g.end + 16, len(text))]
    return g.metric in ("speedup", "throughput_lead") or _word_in(v.lead_extra, near) \
        or _word_in(v.gap_after, near)


# ---------------------------------------------------------------- stated figures in prose

@dataclass
class _Found:
    """A derivation found in prose, by claim index (a negative index: a bare figure)."""
    form: str
    stated: int
    operands: tuple
    direction: int = 0
    inverse: bool = False
    bare: tuple = ()
    also_change: bool = False   # a lead that may equally be read as the change from A to B


class _Prose:
    """The walk over a document's figures in text order that reads stated gaps, changes and
    leads.  ``order`` is the claims' text order; a figure already read as a derivation's
    result is never an operand, and an operand is never reused."""

    def __init__(self, doc, claims, v: Vocabulary, window: int):
        self.doc, self.text, self.claims, self.v, self.window = doc, doc.text, claims, v, window
        self.order = sorted(range(len(claims)), key=lambda i: claims[i].start)
        self.stated = set()
        self.used_ops = set()
        self.gap_left = {}       # right operand of a 'A vs B（z）' gap -> its left: a chain's first

    def between(self, i, j) -> str:
        return self.text[self.claims[i].end:self.claims[j].start]

    def same_par(self, i, j) -> bool:
        return not _BLANK_LINE.search(self.between(i, j))

    def prev_same(self, p, like, limit_chars):
        """Position in ``order`` of the nearest earlier measurement of ``like``'s dimension."""
        claims, order = self.claims, self.order
        for k in range(p - 1, -1, -1):
            c = claims[order[k]]
            if claims[order[p]].start - c.end > limit_chars or not self.same_par(order[k], order[p]):
                return None
            if (c.kind in OPERAND_KINDS and _same_dim(c, like) and c.list_id is None
                    and order[k] not in self.stated):
                return k
        return None

    def direction_of(self, z, words: str) -> int:
        dec, inc = _word_in(self.v.decrease, words), _word_in(self.v.increase, words)
        return -1 if dec and not inc else (1 if inc and not dec else 0)

    def sign_of(self, z) -> int:
        """+1 / -1 for a figure written with its sign ('+32.0%', '-24.3%', '下降 38%'), else 0."""
        if z.negative or (z.value is not None and z.value < 0):
            return -1
        if self.text[max(0, z.start - 1):z.start] == "+" or z.surface.startswith("+"):
            return 1
        return 0

    def run(self) -> list:
        out = []
        for p, zi in enumerate(self.order):
            z = self.claims[zi]
            if z.kind not in STATED_KINDS or z.bound:
                continue
            if self.v.step_after.match(self.text, z.end):
                continue        # 'in 10% increments from 100% read to 100% write': a sweep's step
            found = (self.stated_first(p) or self.share(p) or self.gap(p) or self.change(p)
                     or self.than(p) or self.lead(p))
            if found is not None:
                out.append(found)
                self.stated.add(zi)
        return out

    # 'z（A → B）', 'a z× speedup, from A to B'
    def stated_first(self, p):
        text, claims, order = self.text, self.claims, self.order
        zi = order[p]
        z = claims[zi]
        got = self._operands_after(p)
        if got is None:
            return None
        (ai, a), (bi, b) = got
        direction = self.sign_of(z)
        if direction == 0 and z.kind != "ratio":
            direction = self.direction_of(z, text[max(0, z.start - 12):z.end + 12])
        if z.kind == "ratio":
            direction = 0       # 'a 5.3× TTFA gain (0.70s → 0.13s)': either way round
        self.used_ops.update((ai, bi))
        bare = tuple(x for i, x in ((ai, a), (bi, b)) if i < 0)
        # '+10.0% from torch.compile (16.9 → 15.3 ms)' under 'Performance gains': a rise stated
        # over a time that fell is the speed's gain, when a gain word says so
        inverse = bool(direction > 0 and z.kind == "percent" and _is_latency(a) and _is_latency(b)
                       and a.value and b.value and b.value < a.value and self._says_gain(z))
        return _Found("change", zi, (ai, bi), direction, inverse=inverse, bare=bare)

    def _says_gain(self, z) -> bool:
        """A gain, speed-up or improvement word in the figure's clause, or in the label or
        introduction of its list item ('**Performance Gains:**')."""
        text, v = self.text, self.v
        b = self.doc.blocks[z.block]
        near = text[max(b.start, z.start - 40):min(b.end, z.end + 40)]
        it = next((i for i in self.doc.items if i.block == z.block), None)
        if it is not None and it.intro is not None:
            ib = self.doc.blocks[it.intro]
            near += " " + ib.text
        return bool(_word_in(v.lead_extra, near) or _word_in(v.increase, near)
                    or _word_in(v.performance, near))

    def _operands_after(self, p):
        """((index, A), (index, B)) when the stated figure at order[p] is followed by its
        operands; index -1 / -2 for a bare number that is no claim."""
        text, claims, order, v = self.text, self.claims, self.order, self.v
        z = claims[order[p]]
        bi_pos = None
        # B is the figure right after an arrow or a 'to' that follows z in the same clause
        for q in (p + 1, p + 2):
            if q >= len(order):
                break
            b = claims[order[q]]
            if b.kind not in OPERAND_KINDS or b.kind == "percent" and z.kind == "percent":
                continue
            lead = text[z.end:b.start]
            # the arrow pair must belong to z's own clause: 'z（A → B）', 'z speedup at bs 1 (A → B'
            if len(lead) > 48 or _BREAK.search(lead.replace(" - ", " ")) or _LEAD_STOP.search(lead):
                break
            if v.arrow.search(text[max(z.end, b.start - 6):b.start]):
                bi_pos = q
                break
        if bi_pos is None:
            # 'z (0.364 → 0.326)': two bare numbers, neither a claim of its own
            m = v.bare_pair.match(text, z.end)
            if m and not _BARE_LEAD_STOP.search(m.group("lead")):
                nxt = next((claims[order[q]].start for q in range(p + 1, len(order))), len(text))
                if nxt >= m.end():
                    a = bare_figure(self.doc, m.group("a"), m.start("a"))
                    b = bare_figure(self.doc, m.group("b"), m.start("b"))
                    return (-1, a), (-2, b)
            # 'from A to B' after z
            if p + 2 < len(order):
                ai, bi = order[p + 1], order[p + 2]
                a, b = claims[ai], claims[bi]
                lead = text[z.end:a.start]
                mid = text[a.end:b.start]
                if (a.kind in OPERAND_KINDS and _same_dim(a, b) and len(lead) <= 70 and len(mid) <= 12
                        and not _BREAK.search(lead) and v.from_before.search(lead)
                        and not _NEW_SUBJECT.search(lead) and not v.also.search(lead) and _word_in(v.from_to, mid)
                        and not _other_measurement(z, a) and not _other_measurement(z, b)):
                    # ('输出吞吐提升约 4.01 倍，而平均 TPOT 仅从 9.53 ms 变成 9.64 ms': the TPOT's own pair)
                    return (ai, a), (bi, b)
                # 'about 3x faster for a clean build, down to 50s from 3m 04s': to B from A
                if (b.kind in OPERAND_KINDS and _same_dim(a, b) and len(lead) <= 70
                        and _TO_LAST.search(lead) and _FROM_ONLY.fullmatch(mid)
                        and not _BREAK.search(lead) and not _NEW_SUBJECT.search(lead)
                        and not _other_measurement(z, a) and not _other_measurement(z, b)):
                    return (bi, b), (ai, a)
            # 'rises 5x, from 100 to 300 tok/s': A written without its unit, no claim of its own
            if p + 1 < len(order):
                bi = order[p + 1]
                b = claims[bi]
                lo = max(z.end, b.start - 24)
                m = v.bare_before_to.search(text[lo:b.start])
                lead = text[z.end:lo + m.start()] if m else ""
                if (m and b.kind in OPERAND_KINDS and b.kind not in _RELATIVE and b.value is not None
                        and len(lead) <= 70 and not _BREAK.search(lead) and not _NEW_SUBJECT.search(lead)
                        and not _other_measurement(z, b)):
                    return (-1, bare_figure(self.doc, m.group(1), lo + m.start(1), like=b)), (bi, b)
            return None
        bi = order[bi_pos]
        b = claims[bi]
        if bi_pos == p + 2:
            ai = order[p + 1]
            a = claims[ai]
            mid = text[a.end:b.start]
            if _same_dim(a, b) and v.arrow.search(mid) and len(mid) <= 6:
                return (ai, a), (bi, b)
            return None
        m = v.bare_before_arrow.search(text[max(0, b.start - 24):b.start])
        if not m or b.value is None or _other_measurement(z, b):
            return None
        start = max(0, b.start - 24) + m.start(1)
        if start < z.end:
            return None
        return (-1, bare_figure(self.doc, m.group(1), start, like=b)), (bi, b)

    # 'from 100 → 60–70 req/s, i.e. 60–70% of the baseline' / '降到原来的 60%'
    def share(self, p):
        text, claims, order, v = self.text, self.claims, self.order, self.v
        zi = order[p]
        z = claims[zi]
        if z.kind != "percent" or p < 1:
            return None
        before, after = self._around(p)
        if not (v.share_after.match(after) or v.share_before.search(before)):
            return None
        bi = order[p - 1]
        b = claims[bi]
        tail = self.between(bi, zi)
        if b.kind not in OPERAND_KINDS or b.kind == "percent" or len(tail) > 25 or _CLAUSE_END.search(tail):
            return None
        if p >= 2:
            ai = order[p - 2]
            a = claims[ai]
            mid = self.between(ai, bi)
            if _same_dim(a, b) and len(mid) <= 12 and _word_in(v.from_to, mid) and ai not in self.used_ops:
                return _Found("share", zi, (ai, bi))
        m = (v.bare_before_arrow.search(text[max(0, b.start - 24):b.start])
             or v.bare_before_to.search(text[max(0, b.start - 24):b.start]))
        if m and (b.value is not None or b.low is not None):
            start = max(0, b.start - 24) + m.start(1)
            return _Found("share", zi, (-1, bi), bare=(bare_figure(self.doc, m.group(1), start, like=b),))
        return None

    # 'A … B (gap z)' / 'A - B（差距约 z）'
    def gap(self, p):
        text, claims, order, v = self.text, self.claims, self.order, self.v
        if p < 2:
            return None
        zi = order[p]
        z = claims[zi]
        before, after = self._around(p)
        bare_paren = (_OPEN_PAREN.fullmatch(text[claims[order[p - 1]].end:z.start]) is not None
                      and _word_in(v.compare, self.between(order[p - 2], order[p - 1])) is not None)
        if not (_word_in(v.gap, before) or bare_paren or v.gap_then.match(after)):
            return None
        bi = order[p - 1]
        b = claims[bi]
        if b.kind not in OPERAND_KINDS or _BREAK.search(self.between(bi, zi).replace(" - ", " ")):
            return None
        # 'ITL 6.0 vs 7.1 ms (−15%)': A is the number written without its unit right before
        # 'vs', not an earlier figure of the same unit ('TTFT 79 vs 103 ms (−23%), ')
        lo = claims[order[p - 2]].end
        m = v.bare_before_versus.search(text[max(lo, b.start - 24):b.start])
        if m and b.value is not None:
            start = max(lo, b.start - 24) + m.start(1)
            return _Found("gap", zi, (-1, bi), bare=(bare_figure(self.doc, m.group(1), start, like=b),))
        k = self.prev_same(p - 1, b, self.window)
        if k is None:
            return None
        ai = order[k]
        gap_text = self.between(ai, bi)
        if len(gap_text) > 60 or _CLAUSE_END.search(gap_text):
            return None
        if ai in self.gap_left and _word_in(v.compare, gap_text):
            # 'A vs B（7.28×）vs C（4.66×）': each ratio of the chain is relative to A
            ai = self.gap_left[ai]
        self.gap_left[bi] = ai
        return _Found("gap", zi, (ai, bi))

    # 'from A to B, a z% reduction' / '从 A 降到 B，减少 z%'
    def change(self, p):
        text, claims, order, v = self.text, self.claims, self.order, self.v
        if p < 1:
            return None
        zi = order[p]
        z = claims[zi]
        bare = self._bare_from(p - 1, zi)
        if bare is not None or p < 2:
            return bare
        bi, ai = order[p - 1], order[p - 2]
        a, b = claims[ai], claims[bi]
        mid, tail = self.between(ai, bi), self.between(bi, zi)
        if not (a.kind in OPERAND_KINDS and _same_dim(a, b) and len(mid) <= 25 and len(tail) <= 25
                and ai not in self.used_ops and bi not in self.used_ops and not _CLOSE_PAREN.search(tail)
                and _word_in(v.from_to, mid) and not _BREAK.search(mid) and not _CLAUSE_END.search(tail)
                and not _other_measurement(z, a) and not _other_measurement(z, b)):
            return None
        _, after = self._around(p)
        words = mid + " " + tail + " " + after[:15]
        dec = _word_in(v.decrease, words) or _word_in(v.decrease, text[max(0, a.start - 20):a.start])
        inc = _word_in(v.increase, words)
        direction = self.sign_of(z) or (-1 if dec and not inc else (1 if inc and not dec else 0))
        if not direction and not v.arrow.search(mid):
            return None
        if _FROM_BEFORE.search(text, max(0, z.start - 8), z.start) or _TO_AFTER.match(text, z.end, z.end + 12):
            return None     # z starts (or ends) a from-to of its own
        if v.from_before.search(text, max(a.end, b.start - 8), b.start):
            return None     # '从79.08%增加到79.56%，端到端指标从61.31%增加到61.87%': B opens the from-to
                            # that z ends, and A ended the one before
        if _DIGIT_RUN.search(mid):
            return None     # '200 -> 94.20%, 300 -> 88.40%': the arrow joins 300 to 88.40%, not 94.20%
        lab = _LABEL_IN_PAREN.search(tail)
        if lab and any(ch.isalpha() for ch in lab.group(1)) and not (_word_in(v.increase, lab.group(1)) or _word_in(v.decrease, lab.group(1))
                        or _word_in(v.from_to, lab.group(1))):
            return None
        if (z.kind == "ratio" and direction > 0 and _is_latency(a) and _is_latency(b)
                and (_word_in(v.lead_extra, words) or _word_in(v.performance, words))):
            # '223.57 μs → ~14 μs (16× improvement)': a time's improvement, speedup or 'faster'
            # is its fall, the multiple either way round
            direction = 0
        # a time that fell, stated as a rise by an improvement word or a bare '+' ('0.147 s →
        # 0.141 s (+26%)', '16.9 → 15.3 ms, a 10% improvement'): the speed's gain, not a flip;
        # a plain rise word ('rose', '增加') over it stays a flip
        inverse = False
        if direction > 0 and z.kind == "percent" and _is_latency(a) and _is_latency(b) \
                and a.value and b.value and b.value < a.value:
            better = _word_in(v.improvement, words) or _word_in(v.performance, words)
            inverse = better or (self.sign_of(z) > 0 and not _word_in(v.increase, words))
        return _Found("change", zi, (ai, bi), direction, inverse=inverse)

    def _bare_from(self, q, zi):
        """'吞吐从 8.95 降到 6.78 req/s，减少 32%': the change from a number written without its
        unit (no claim of its own) to the figure at order[q], stated right after it."""
        text, claims, order, v = self.text, self.claims, self.order, self.v
        b, z = claims[order[q]], claims[zi]
        if b.kind not in OPERAND_KINDS or b.kind in _RELATIVE or b.value is None or order[q] in self.used_ops:
            return None
        tail = self.between(order[q], zi)
        if len(tail) > 25 or _CLOSE_PAREN.search(tail) or _CLAUSE_END.search(tail) or _BREAK.search(tail):
            return None
        lo = claims[order[q - 1]].end if q >= 1 else 0
        window = text[max(lo, b.start - 24):b.start]
        m = v.bare_before_to.search(window) or v.bare_before_arrow.search(window)
        if not m or _other_measurement(z, b):
            return None
        _, after = self._around(q + 1)
        words = window + " " + tail + " " + after[:15]
        dec, inc = _word_in(v.decrease, words), _word_in(v.increase, words)
        direction = self.sign_of(z) or (-1 if dec and not inc else (1 if inc and not dec else 0))
        if not direction:
            return None
        start = max(lo, b.start - 24) + m.start(1)
        return _Found("change", zi, (-1, order[q]), direction,
                      bare=(bare_figure(self.doc, m.group(1), start, like=b),))

    # 'X … z% better than … Y'
    def than(self, p):
        text, claims, order, v = self.text, self.claims, self.order, self.v
        zi = order[p]
        z = claims[zi]
        _, after = self._around(p)
        m_ahead, m_behind = v.lead_ahead.match(after), v.lead_behind.match(after)
        m = m_ahead or m_behind
        if not m or not v.than.search(m.group()) or p + 1 >= len(order):
            return None
        yi = order[p + 1]
        y = claims[yi]
        seg = text[z.end:y.start]
        if len(seg) > 50 or _BREAK.search(seg) or y.kind not in OPERAND_KINDS:
            return None
        if y.kind in _RELATIVE:
            _, after_y = self._around(p + 1)
            if v.lead_ahead.match(after_y) or v.lead_behind.match(after_y) \
                    or v.performance.match(after_y.lstrip()):
                # '2.72x faster than SGLang on average and 2.33x faster at P95': the next
                # figure is a lead of its own, not the measurement compared with
                return None
        k = self.prev_same(p, y, self.window)
        if k is None or not _same_statement(text, claims[order[k]].end, z.start):
            return None
        xi = order[k]
        if _ranks_no_speed(v, m.group(), claims[xi], y):
            return None
        inverse = _is_latency(claims[xi]) and v.performance.search(m.group()) is not None
        return _Found("lead", zi, (xi, yi), 1 if m_ahead else -1, inverse)

    # '对比 B 的 Y，X 领先约 z 倍', '较上一版本的 8,000 tok/s 提升 70%'
    def lead(self, p):
        text, claims, order, v = self.text, self.claims, self.order, self.v
        if p < 2:
            return None
        zi = order[p]
        before, _ = self._around(p)
        word = v.lead_word.search(before)
        if not word:
            return None
        yi = order[p - 1]
        y = claims[yi]
        pre_y = text[max(0, y.start - 16):y.start]
        mid = self.between(yi, zi)
        if not (y.kind in OPERAND_KINDS and _word_in(v.compare, pre_y) and len(mid) <= 40 and "\n" not in mid
                and _same_statement(text, y.end, claims[zi].start)):
            return None
        if mid.lstrip().startswith("的"):
            return None     # 'Y 的得分所需的 FLOP 数少 1.7 倍': Y qualifies another noun, it is not compared
        k = self.prev_same(p - 1, y, self.window)
        if k is None:
            return None
        xi = order[k]
        if y.kind in _RELATIVE and (y.baseline or claims[xi].baseline):
            # '吞吐比 TGI 高 1.8 倍，延迟快 5.1 倍': 1.8 倍 is itself a lead over TGI, measured, not
            # an operand; an operand ratio belongs to a system ('SpecInfer 的 1.6×')
            return None
        w = word.group(1)
        if _ranks_no_speed(v, w, claims[xi], y):
            return None
        behind = bool(v.behind_word.fullmatch(w))
        inverse = _is_latency(claims[xi]) and v.performance.search(w) is not None
        # 'A vs B，降低约 27%' / 'A vs B, a 27% reduction': a change word, not a comparative
        # ('快', 'lower'), may also say how B changed from A
        as_change = ((v.decrease.fullmatch(w) or v.increase.fullmatch(w)) is not None
                     and not (v.ahead.fullmatch(w) or v.behind.fullmatch(w)))
        return _Found("lead", zi, (xi, yi), -1 if behind else 1, inverse, also_change=as_change)

    def _around(self, p):
        """(text just before the figure, back to the previous figure; the rest of its line, 40 chars)."""
        text, claims, order = self.text, self.claims, self.order
        z = claims[order[p]]
        lo = max(claims[order[p - 1]].end, z.start - 14) if p > 0 else max(0, z.start - 14)
        line_end = text.find("\n", z.end)
        hi = z.end + 40 if line_end < 0 else min(line_end, z.end + 40)
        return text[lo:z.start], text[z.end:hi]


# ---------------------------------------------------------------- parts and their whole

def _sums(doc, claims, v: Vocabulary) -> list:
    """'W（a X + b Y）', 'a + b = W': parts joined by '+' next to a whole of the same dimension."""
    text = doc.text
    order = sorted(range(len(claims)), key=lambda i: claims[i].start)
    out = []
    p = 0
    while p < len(order):
        run = [order[p]]
        q = p + 1
        while q < len(order) and _PLUS.fullmatch(text[claims[order[q - 1]].end:claims[order[q]].start]) \
                and _same_dim(claims[order[q]], claims[run[0]]):
            run.append(order[q])
            q += 1
        if len(run) >= 2:
            whole = None
            if p > 0:
                wi = order[p - 1]
                # a bracket or 'including' between the whole and the first part
                if v.whole_before.fullmatch(text[claims[wi].end:claims[run[0]].start]) \
                        and _same_dim(claims[wi], claims[run[0]]):
                    whole = wi
            if whole is None and q < len(order):
                wi = order[q]
                if v.whole_after.fullmatch(text[claims[run[-1]].end:claims[wi].start]) \
                        and _same_dim(claims[wi], claims[run[0]]):
                    whole = wi
            if whole is not None:
                out.append(_Found("sum", whole, tuple(run)))
        p = q if len(run) >= 2 else p + 1
    return out


# ---------------------------------------------------------------- a change restated elsewhere

_NUMBER = compile_re(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_CLAUSE_STOP = compile_re(r"[，。；,;:：!?！？()（）]")


def _same_number(a, b) -> bool:
    """'32%' and '32.0%' state one number: equal at the coarser precision written."""
    if a.value is None or b.value is None:
        return False
    d = min(a.decimals or 0, b.decimals or 0)
    return round(abs(a.value), d) == round(abs(b.value), d)


def _direction_near(doc, c, v: Vocabulary) -> int:
    """-1 / +1 when a fall or rise word stands right before or after the figure ('吞吐损失 32%',
    'a 32% loss', '提升 32%'), else 0."""
    text = doc.text
    b = doc.blocks[c.block]
    before = _CLAUSE_STOP.split(text[max(b.start, c.start - 8):c.start])[-1]
    after = _CLAUSE_STOP.split(text[c.end:min(b.end, c.end + 12)])[0]
    words = before + " " + after
    dec, inc = _word_in(v.decrease, words), _word_in(v.increase, words)
    return -1 if dec and not inc else (1 if inc and not dec else 0)


def _restated(doc, claims, by_block, out, taken, v: Vocabulary) -> list:
    """A change's size restated elsewhere in its section with the opposite direction: the
    benchmark says '吞吐 +32.0%（6.78 → 8.95 req/s）' after the cache grew from 256 to 1024, the
    prose says the 256-entry cache '导致 … 吞吐损失 32%'.  The same states (both paragraphs name
    the two settings compared) and the same number said the other way round: the figure is
    read as the change from B back to A (a loss is relative to the larger figure)."""
    text = doc.text
    found = []
    for d in out:
        z = d.stated
        if (d.form != "change" or z is None or z.kind != "percent" or not d.direction or not z.metric
                or len(d.operands) != 2 or z.block is None):
            continue
        sb = doc.blocks[z.block]
        own = {id(c) for c in (z, *d.operands)}
        states = {m.group() for m in _NUMBER.finditer(text, sb.start, sb.end)
                  if not any(o.start <= m.start() < o.end for o in (z, *d.operands))}
        if len(states) < 2:
            continue
        nearby = (r for k in range(max(0, z.block - 6), z.block + 7) for r in by_block.get(k, ()))
        for r in nearby:
            if (id(r) in own or id(r) in taken or r.kind != "percent" or r.metric != z.metric
                    or r.block is None or r.block == z.block or not _same_number(r, z)):
                continue
            rb = doc.blocks[r.block]
            if rb.section != sb.section or rb.entry != sb.entry or abs(r.block - z.block) > 6:
                continue
            if _direction_near(doc, r, v) != -d.direction:
                continue
            named = {m.group() for m in _NUMBER.finditer(text, rb.start, rb.end)}
            if len(states & named) < 2:
                continue
            a, b = d.operands
            found.append(Derivation(form="restated", stated=r, operands=(b, a), direction=-d.direction))
            taken.add(id(r))
    return found


# ---------------------------------------------------------------- a rate restated in another unit

# what lies between a span and the count of a rate over it: a verb, no clause break
# ('一秒钟生成 20 个', 'one second yields 20')
_RATE_GAP = compile_re(r"[^，,。；;:：.!?！？\n]{1,10}")


def _conversions(doc, claims, taken, v: Vocabulary) -> list:
    """One quantity written twice in a sentence, the second time in another unit ('60 RPM,
    i.e. 1 req/s', '减半到 60 RPM，即 0.5 req/s'): the two must be equal, or the second must be
    the first scaled by the verb before it (halving, doubling, 减半, 翻倍)."""
    text = doc.text
    out = []
    order = sorted(claims, key=lambda c: c.start)
    for k, (a, b) in enumerate(zip(order, order[1:])):
        if id(a) in taken or id(b) in taken or a.block != b.block or a.base_value is None or b.base_value is None:
            continue
        after = order[k + 2] if k + 2 < len(order) else None
        if after is not None and after.block == b.block and _RATE_GAP.fullmatch(text[b.end:after.start]):
            # '小于 50 毫秒，也就是一秒钟生成 20 个字符', '50 ms, i.e. one second yields 20 tokens':
            # the second figure is the span of a rate the next one counts, not the first restated
            continue
        if a.unit == b.unit or (a.base_unit or "") != (b.base_unit or "") or a.kind in ("percent", "ratio", "count", "number"):
            continue
        between = text[a.end:b.start]
        if len(between) > 16 or not v.restate.fullmatch(between):
            continue
        lead = text[max(doc.blocks[a.block].start, a.start - 24):a.start]
        if _FACTOR_BEFORE.search(lead):
            continue        # '3.1B × 4 bytes = 12.4 GB': a product's factor, not the same quantity
        m = v.scale_verb.search(lead)
        factor = float(v.scale_factor[m.group().lower()]) if m else 1.0
        out.append(Derivation(form="converted", stated=b, operands=(a,), direction=0,
                              inverse=False, alternatives=(), factor=factor))
    return out


# ---------------------------------------------------------------- a stated quotient

def _code_figures(doc, lo: int, hi: int, code_starts: list) -> list:
    """Figures written as inline code inside text[lo:hi] ('`3.11 s`', '`5.046 req/s`'): the
    figure reader skips code, but a sentence that computes with them means them as figures."""
    out = []
    k = bisect.bisect_left(code_starts, lo)
    for r in doc.code[k:]:
        if r.start >= hi:
            break
        if r.kind != "inline" or r.end > hi:
            continue
        inner = doc.text[r.start:r.end].strip("`")
        start = r.start + doc.text[r.start:r.end].index(inner) if inner else r.start
        c = figure_at(doc, start, start + len(inner))
        if c is not None:
            out.append(c)
    return out


def _divides(a, b, c) -> bool:
    """C can be A / B by its unit: '16 个 / 3.11 s' is a rate per second, '84 GB / 8' a size."""
    ua, ub, uc = (x.base_unit or "" for x in (a, b, c))
    if uc == f"{ua} / {ub}":
        return True
    if a.kind in ("count", "number") and uc.endswith("/ " + ub) and ub:
        return True
    if b.kind in ("count", "number") and uc == ua:
        return True
    return False


def _quotients(doc, claims, taken, v: Vocabulary) -> list:
    """'16 个并发请求除以 3.11 s 的平均延迟恰好解释了整个 5.046 req/s', '70 GB divided by 8 GPUs
    is 8.75 GB': A, a division word, B, then the result C later in the sentence."""
    text = doc.text
    out = []
    if not v.divide.search(text):
        return out
    starts = [c.start for c in claims]
    code_starts = [r.start for r in doc.code]
    for s in doc.sentences:
        seg = text[s.start:s.end]
        m = _word_in(v.divide, seg)
        if not m:
            continue
        at, after = s.start + m.start(), s.start + m.end()
        figs = claims[bisect.bisect_left(starts, s.start):bisect.bisect_left(starts, s.end)]
        figs = figs + _code_figures(doc, s.start, s.end, code_starts)
        figs.sort(key=lambda c: c.start)
        before = [c for c in figs if c.end <= at]
        rest = [c for c in figs if c.start >= after]
        if not before or len(rest) < 2:
            continue
        a, b, c = before[-1], rest[0], rest[1]
        if any(id(x) in taken for x in (a, b, c)) or not _divides(a, b, c):
            continue
        if not _word_in(v.result, text[b.end:c.start]):
            continue
        out.append(Derivation(form="quotient", stated=c, operands=(a, b)))
    return out


# a multiple set between the two figures it relates: 'SGLang reaches 1,200 tok/s, 3.5× the 480 tok/s of
# vLLM', '40 PB/s on-chip SRAM bandwidth ≈ 5,000× H100 HBM bandwidth (… = 3.35 TB/s)'
_MULT_JOIN = compile_re(r"^[^\d\n。；;!?]{0,40}?(?:[≈=~≃～,，—–:：(（]|\bis\b|\bi\.e\.|\bwhich is\b|即|约为|相当于|是)\s{0,2}$",
                        re.IGNORECASE)
_MULT_GAP = compile_re(r"[。；;!?\n]|\.\s")


def _multiple_of(doc, z, a, b, taken) -> bool:
    """Can z (a multiple above 1) relate figures a and b of one prose block and one dimension?"""
    return (z.kind == "ratio" and z.value is not None and z.low is None and z.value > 1
            and not taken.intersection((id(z), id(a), id(b)))
            and a.kind in OPERAND_KINDS and b.kind not in _RELATIVE and _same_dim(a, b)
            and bool(a.base_value) and bool(b.base_value)
            and a.block == b.block == z.block and doc.blocks[z.block].table is None)   # tables: the table readers


def _multiples(doc, claims, taken) -> list:
    """'A ≈ N× B' and 'A 是 B 的 N 倍' in one sentence, A and B figures of one dimension: N must
    be A / B (or B / A, a multiple written the other way round); the reading holds when either
    recomputes."""
    text = doc.text
    out, have = [], set()
    for k in range(1, len(claims)):
        z = claims[k]
        # 'A ≈ N× B': the multiple between its figures
        a, b = claims[k - 1], claims[k + 1] if k + 1 < len(claims) else None
        if b is not None and _multiple_of(doc, z, a, b, taken) \
                and not (a.list_id is not None and a.list_id == b.list_id) and b.start - z.end <= 60:
            join = text[a.end:z.start]
            if (_MULT_JOIN.match(join) or (z.surface[:1] in "≈~～" and not _DIGIT_RUN.search(join) and len(join) <= 40)) \
                    and not _MULT_GAP.search(text, z.end, b.start) and not _MULT_GAP.search(join):
                out.append(_either_way(z, a, b))
                have.add(id(z))
                continue
        # '片上带宽 40 PB/s，约为 H100 HBM 带宽（3.35 TB/s）的 5,000 倍': A 是 B 的 N 倍
        if k >= 2 and id(z) not in have:
            a, b = claims[k - 2], claims[k - 1]
            if _multiple_of(doc, z, a, b, taken) and _TIMES_OF.match(text[b.end:z.start]) \
                    and _IS_WORD.search(text[a.end:b.start]) and b.start - a.end <= 40 \
                    and not _MULT_GAP.search(text, a.end, z.start):
                out.append(_either_way(z, a, b))
    return out


def _either_way(z, a, b) -> Derivation:
    return Derivation(form="quotient", stated=z, operands=(a, b),
                      alternatives=(Derivation(form="quotient", stated=z, operands=(b, a)),))


# a list item's label and its figure, and the delta written after the figure:
# '- Best SWLP Gen: 208 t/s (Delta **+0%**)' under '- GPU Baseline Gen: 218 t/s'
_ITEM_LABEL = compile_re(r"^[\s*_`]{0,4}(?P<label>[^:：\n]{1,60}?)[*_`]{0,2}\s{0,2}[:：]")
_DELTA_BEFORE = compile_re(r"[(（]\s{0,2}(?:delta|Δ|diff|change|gain|变化|差值|增益|提升)\s{0,2}[:：]?\s{0,2}[*_]{0,2}\s{0,2}[+±]?$", re.IGNORECASE)
_BASELINE_WORD = compile_re(r"(?i)(?<![A-Za-z])baseline(?![A-Za-z])|基线|基准")


def _item_deltas(doc, claims, taken) -> list:
    """A delta after a list item's figure against the sibling item labelled as the baseline of
    the same quantity (the labels end alike: 'Best SWLP Gen' and 'GPU Baseline Gen')."""
    if not doc.items:
        return []
    text = doc.text
    by_block = {}
    for c in claims:
        if c.block is not None:
            by_block.setdefault(c.block, []).append(c)
    lists = {}
    for it in doc.items:
        lists.setdefault(it.list_id, []).append(it)
    out = []
    for items in lists.values():
        labelled = []
        for it in items:
            b = doc.blocks[it.block]
            m = _ITEM_LABEL.match(b.text)
            figs = by_block.get(it.block, [])
            label = m.group("label").strip() if m else ""
            labelled.append((it, label, label.split()[-1].lower() if label.split() else "", figs))
        for n, (it, label, last, figs) in enumerate(labelled):
            if len(figs) < 2 or not label:
                continue
            bfig, z = figs[0], figs[1]
            if z.kind != "percent" or id(z) in taken or id(bfig) in taken or bfig.kind in _RELATIVE \
                    or not _DELTA_BEFORE.search(text, max(0, z.start - 16), z.start) or _BASELINE_WORD.search(label):
                continue
            base = None
            for it2, label2, last2, figs2 in reversed(labelled[:n]):
                if it2.depth < it.depth:
                    break       # the group's heading item: siblings end here
                if it2.depth == it.depth and figs2 and last2 == last and _BASELINE_WORD.search(label2):
                    base = figs2[0]
                    break
            if base is None or not _same_dim(base, bfig) or id(base) in taken:
                continue
            direction = -1 if z.negative else 1
            out.append(Derivation(form="change", stated=z, operands=(base, bfig), direction=direction))
    return out


_TIMES_OF = compile_re(r"^\s{0,2}[)）]?\s{0,2}的\s{0,2}(?:约|近|大约)?\s{0,2}$")
_IS_WORD = compile_re(r"是|为|约为|相当于|达到|(?<![A-Za-z])(?:is|was)(?![A-Za-z])")


# ---------------------------------------------------------------- the whole pass

def _also_as_speed(d):
    """A prose change of two times, with the speed's reading among its alternatives."""
    if d.form != "change" or d.inverse or len(d.operands) != 2 or d.stated is None \
            or d.stated.kind != "percent" or not all(_is_latency(x) for x in d.operands):
        return d
    return replace(d, alternatives=d.alternatives + (replace(d, inverse=True, alternatives=()),))


def find_derivations(doc, claims, window: int = 160, names=None) -> list:
    """Every stated derived figure of ``doc`` among ``claims`` (its figures, in text order),
    as ``Derivation`` records, and each claim's ``comparison`` set to the index of the
    derivation it takes part in. ``names``: a ``Covered`` of the document's model and
    hardware names (entities.find_entities_in_spans), for the readers that must not read
    inside a name."""
    v = vocabulary()
    pairs = _pairs(doc, claims, v)            # first: a pair may give a number its unit
    prose = _Prose(doc, claims, v, window).run() + _sums(doc, claims, v)

    out = []
    # a lead whose parenthesis right after it gives its own two figures ('比 A100 快 2.84 倍
    # (0.925 秒对比 2.63 秒)', '2.84x faster than A100 (0.925 s vs 2.63 s)') compares those, not
    # the figures before it: the prose reading keeps its direction, the pair gives the operands
    own = {pr.gap: pr for pr in pairs if pr.gap is not None and pr.gap < pr.left}
    for k, f in enumerate(prose):
        pr = own.get(f.stated)
        if pr is not None and f.form == "lead" and not f.bare and tuple(f.operands) != (pr.left, pr.right):
            prose[k] = replace(f, operands=(pr.left, pr.right), also_change=False)
    taken = {i for f in prose for i in (f.stated, *f.operands) if i >= 0}
    for f in prose:
        bare = iter(f.bare)
        operands = tuple(claims[i] if i >= 0 else next(bare) for i in f.operands)
        alt = ((Derivation(form="change", stated=claims[f.stated], operands=operands,
                           direction=f.direction),) if f.also_change else ())
        out.append(Derivation(form=f.form, stated=claims[f.stated], operands=operands,
                              direction=f.direction, inverse=f.inverse, alternatives=alt))
    for pr in pairs:
        # the prose reading wins where both read a figure: it knows the direction
        if taken.intersection((pr.left, pr.right, pr.gap)):
            continue
        out.append(Derivation(form=pr.form, stated=claims[pr.gap] if pr.gap is not None else None,
                              operands=(claims[pr.left], claims[pr.right])))
    out.sort(key=lambda d: (d.operands[0].start if d.operands else 0))
    by_block = claims_by_block(claims)
    ratios = _tables.ratio_columns(doc, by_block) + _tables.group_ratios(doc, by_block)
    stated_cells = {d.stated.start for d in ratios if d.stated is not None}
    changes = _tables.change_columns(doc, by_block)
    changed = {d.stated.start for d in changes}     # a change read in its own row is not read again
    if any(d.inverse for d in changes) and _tables.signs_times_as_speed(doc):
        # the document's tables sign a change of two times as the speed's ('| 296.317 | 300.148 |
        # -1.276% |'): its prose may too ('296.317 → 300.148 µs，即 -1.276%'), so that reading holds
        out = [_also_as_speed(d) for d in out]
    out += (ratios + [d for d in _tables.baseline_row_ratios(doc, by_block)
                      if d.stated is not None and d.stated.start not in stated_cells]
            + changes + _tables.change_rows(doc, by_block)
            + [d for d in _tables.baseline_row_changes(doc, by_block) if d.stated.start not in changed]
            + _tables.row_totals(doc, by_block) + _tables.table_means(doc, by_block) + _tables.caption_totals(doc, by_block)
            + _tables.section_totals(doc, by_block)
            + _tables.baseline_row_shares(doc, by_block) + _tables.row_rates(doc, by_block)
            + _tables.quotient_columns(doc, by_block) + _tables.difference_columns(doc, by_block))
    taken = [c for d in out for c in (d.stated, *d.operands) if c is not None]
    out += _tables.table_leads(doc, claims, by_block, taken, v)
    taken = {id(c) for d in out for c in (d.stated, *d.operands) if c is not None}
    out += _restated(doc, claims, by_block, out, taken, v) + _quotients(doc, claims, taken, v)
    taken = {id(c) for d in out for c in (d.stated, *d.operands) if c is not None}
    out += _conversions(doc, claims, taken, v)
    taken = {id(c) for d in out for c in (d.stated, *d.operands) if c is not None}
    out += find_expressions(doc, claims, taken, names)
    taken = {id(c) for d in out for c in (d.stated, *d.operands) if c is not None}
    out += _multiples(doc, claims, taken)
    taken = {id(c) for d in out for c in (d.stated, *d.operands) if c is not None}
    out += _item_deltas(doc, claims, taken)
    taken = {id(c) for d in out for c in (d.stated, *d.operands) if c is not None}
    out += per_period_averages(doc, claims, taken)

    index = {id(c): i for i, c in enumerate(claims)}
    for k, d in enumerate(out):
        for c in (d.stated, *d.operands):
            if c is not None and id(c) in index:
                c.comparison = k
    return out
