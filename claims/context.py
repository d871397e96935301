"""Give each extracted figure its context: what it is about and under which conditions.

``annotate(doc, claims)`` fills, for every claim whose ``block`` is set:

- ``role``, ``section`` (title), ``entry`` (label) from its block;
- ``subject`` / ``baseline``: canonical system names (entities.yaml) — the
  label before the figure (``LMDeploy：2,430 tok/s``), an owner (``SpecInfer's
  1.6×``, ``SpecInfer 的 1.3×``), the nearest system before it in the
  sentence, block, entry heading or section heading; the baseline is the system
  after ``vs`` / ``than`` / ``比`` / ``领先`` …;
- ``metric`` from claims/data/metrics.yaml (closest keyword of its clause);
- ``conditions``: facet -> Condition with the nearest scope that names it
  (``claims.scopes``: sentence, paragraph, table row, table header and caption,
  list item and introduction, entry, section, a post's header, document);
- ``markers``: the entry's markers plus those of the figure's sentence;
- ``sources``: the entry's cited sources, else its section's, else the document's;

(the derived figures are read afterwards, by derive.py).  Per-block work (entity,
condition and marker scans) is done once per block, and every per-claim look is
bounded to a window around the figure, so the whole pass is linear.
"""
from __future__ import annotations

import bisect
import re
from functools import lru_cache

from ._data import load
from .conditions import find_conditions_in_spans
from .entities import find_entities_in_spans, guarded, local_pattern
from .model import Condition
from .scopes import WINDOW, Scopes, bounds
from .structure import ANAPHORA, CLAUSE_END, SENT_END
from .pattern_cache import compile_re  # compiled once per machine, not per process

_WINDOW = WINDOW
# words that introduce a baseline ('than vLLM', '比 SGLang')
_CUE_WORDS = (r"\bvs\.?|\bversus|\bthan|\bover|\bcompared (?:to|with)|\brelative to|\bagainst|\bbeats?|\boutperforms?"
              r"|\bleads?|\btrails?|比|相比于?|相较于?|对比|较|领先于?|超过|落后于?|胜过|优于|高于|低于")
_BASELINE_CUE = compile_re(r"(?:%s)\s*(?:the\s+)?$" % _CUE_WORDS, re.IGNORECASE)
_POSSESSIVE = compile_re(r"^(?:'s|’s|\s*的)")
_ANAPHORA = ANAPHORA
_LABEL_GAP = compile_re(r"^\s*(?:v?\d{1,3}(?:\.\d{1,3}){0,2})?\s*(?:\*\*)?\s*[：:]\s*(?:\*\*)?\s*$")


@lru_cache(maxsize=None)
def _metrics():
    d = load("metrics.yaml")

    def comp(group):
        # one alternation per group, most specific metric first ('首 token 延迟' before '延迟');
        # group g<order> names the metric
        names, parts = [], []
        for order, (name, pats) in enumerate((d.get(group) or {}).items()):
            names.append(name)
            parts.append("(?P<g%d>%s)" % (order, "|".join("(?:%s)" % p for p in pats)))
        return names, guarded("|".join(parts), re.IGNORECASE)
    kinds = {k: set(v) for k, v in (d.get("kinds") or {}).items()}
    return (comp("quantity"), comp("change"), kinds, d.get("by_kind") or {}, d.get("percent_speedup_is") or "speedup",
            frozenset(d.get("leads_in") or ()))


# The title and the first paragraphs before any section state what the whole document is
# about ('MOSS-TTS-Local-Transformer-v1.5 在 SGLang-Omni 中…', 'We ran Llama 3.1 70B on 8×H100'):
# every condition they name is the document's.  Later header blocks count only their setup lines.
# 'than Text Generation Inference (TGI)': the name in brackets after a baseline is the same
# baseline, not a new subject
_BASELINE_ALIAS = compile_re(r"(?:%s)\s*(?:the\s+)?[^()（）,，.。;；]{1,40}[(（]\s*$" % _CUE_WORDS, re.IGNORECASE)


def _cue_before(text, pos, lo):
    if _BASELINE_CUE.search(text[max(lo, pos - 24):pos]):
        return True
    return pos > lo and text[pos - 1] in "(（" and bool(_BASELINE_ALIAS.search(text[max(lo, pos - 64):pos]))


_APPROX_TAIL = compile_re(r"(?:约|大约|近|~|～|≈|about|roughly|around)\s*$")
_CLAUSE_MARK = compile_re(r"[，,;；。]")


def _pick_subject(text, c, systems, sent, block_lo, bi=None):
    """(subject, how) for claim c from the block's system mentions (sorted, non-overlapping;
    ``bi`` gives their sorted offsets so only the figure's window is looked at)."""
    if bi is None:
        before = [m for m in systems if m.end <= c.start]
        after = [m for m in systems if m.start >= c.end]
    else:
        before = _Tail(systems, bisect.bisect_right(bi.keys("system_ends"), c.start))
        after = _Head(systems, bisect.bisect_left(bi.keys("systems"), c.end))
    # 1. a label right before the figure: 'LMDeploy：2,430 tok/s', 'TGI 3.2：2,400'
    if before:
        m = before[-1]
        gap = text[m.end:c.start]
        # the figure's own approx word ('约') may sit between
        gap = _APPROX_TAIL.sub("", gap)
        if len(gap) <= 12 and _LABEL_GAP.match(gap):
            return m.value, "label"
    # 2. an owner: "SpecInfer's best case of 1.6×", 'SpecInfer 的 1.3–1.6×'
    for m in reversed(before):
        if m.start < sent[0]:
            break
        if _POSSESSIVE.match(text[m.end:m.end + 4]) and not _CLAUSE_MARK.search(text, m.end, c.start):
            return m.value, "owner"
    # 3. the nearest system before it in the sentence that is not a baseline
    for m in reversed(before):
        if m.start < sent[0]:
            break
        if not _cue_before(text, m.start, block_lo):
            return m.value, "sentence"
    # 4. a system after it in the sentence, not a baseline
    for m in after:
        if m.start >= sent[1]:
            break
        if not _cue_before(text, m.start, block_lo):
            return m.value, "sentence"
    # 5. earlier in the block, when the sentence refers back to it
    #    ('… EAGLE-3 … . That is roughly 50% better …', '…。这比 …')
    if not _ANAPHORA.match(text, sent[0], sent[1]):
        return None, None
    for m in reversed(before):
        if m.start < c.start - _WINDOW:
            break
        if not _cue_before(text, m.start, block_lo):
            return m.value, "block"
    return None, None


def _pick_baseline(text, c, systems, sent, subject, block_lo, bi=None):
    for m in (systems if bi is None else bi.within("systems", sent[0], sent[1])):
        if sent[0] <= m.start < sent[1] and m.value != subject and _cue_before(text, m.start, block_lo):
            return m.value
    return None


class _Tail:
    """systems[:n] without copying it: a figure walks back from its position only as far
    as its sentence or window, so copying the prefix would make a long block quadratic."""

    __slots__ = ("seq", "n")

    def __init__(self, seq, n):
        self.seq, self.n = seq, n

    def __bool__(self):
        return self.n > 0

    def __getitem__(self, i):
        if i != -1 or not self.n:
            raise IndexError(i)
        return self.seq[self.n - 1]

    def __reversed__(self):
        seq = self.seq
        return (seq[k] for k in range(self.n - 1, -1, -1))


class _Head:
    """systems[n:] without copying it, walked forward until the sentence ends."""

    __slots__ = ("seq", "n")

    def __init__(self, seq, n):
        self.seq, self.n = seq, n

    def __iter__(self):
        seq = self.seq
        return (seq[k] for k in range(self.n, len(seq)))


_RELATIVE = ("percent", "ratio", "percentage_point")
_DIGIT = compile_re(r"\d")
# a quantity named as the level a figure was measured at: 'at the 80% hit rate', '在 80% 命中率下'
_AT_LEVEL = compile_re(r"(?:(?<![A-Za-z])at\s{1,2}(?:the\s{1,2}|an?\s{1,2})?|在\s{0,2})(?:\d[\d.,]*\s?%?\s{0,2})$", re.IGNORECASE)
# the figure a leader leads with: '以 82.6% 领先' / 'leads with 82.6%' (a level, not a margin)
_LEADS_WITH = compile_re(r"(?:以|(?<![A-Za-z])lead(?:s|ing)?\s{1,2}with)\s{0,2}(?:约|about\s)?\s{0,2}$", re.IGNORECASE)


# a topic phrase that ends right before a clause: '在 J/token 上，', '就能耗而言，', 'On J/token, ',
# 'In terms of energy, '
_TOPIC_BEFORE = compile_re(r"(?:在|就|从)\s{0,2}[^，,。；;\n]{1,24}?\s{0,2}(?:上|方面|而言|来看)\s{0,2}[，,]\s{0,2}$"
                           r"|(?<![A-Za-z])(?:on|in terms of|for)\s{1,2}[^,.;\n]{1,24}?,\s{0,2}$", re.IGNORECASE)


def _hits(group, text, lo, hi):
    """(name, order, start, end) of every keyword of a metric group in text[lo:hi]."""
    names, rx = group
    out = []
    for m in rx.finditer(text, lo, hi):
        k = int(m.lastgroup[1:])
        out.append((names[k], k, m.start(), m.end()))
    return out


def _metric(text, c, clause, block, prev_same_kind, header=None, sent=None):
    """The metric of figure ``c`` (see claims/data/metrics.yaml); ``header`` lists the cells
    that label a table cell (its row's first cell, its column's header)."""
    quantity, change, kinds, by_kind, pct_speedup, leads_in = _metrics()
    best = None
    # a change word right next to the figure ('73% reduction', '3.1× 提速', '领先 vLLM 35%')
    for name, order, ms, me in _hits(change, text, max(clause[0], c.start - 20), min(clause[1], c.end + 20)):
        ok = kinds.get(name)
        if ok and c.kind not in ok:
            continue
        if me <= c.start:
            d, between = c.start - me, (me, c.start)
        elif ms >= c.end:
            d, between = ms - c.end, (c.end, ms)
        else:
            continue
        if _DIGIT.search(text, *between):    # another figure sits between them
            continue
        if name == "throughput_lead" and _LEADS_WITH.search(text, max(clause[0], c.start - 20), c.start):
            continue    # 'GPT-5.5 以 82.6% 领先', 'leads with 82.6%': the leader's level, not its lead
        if best is None or (d, order) < best[0]:
            best = ((d, order), name)
    change_hit = best[1] if best else None
    qbest = None
    for name, order, ms, me in _hits(quantity, text, clause[0], clause[1]):
        if ms < c.end and me > c.start:
            continue
        if me <= c.start or ms >= c.end:
            if _AT_LEVEL.search(text, max(clause[0], ms - 24), ms):
                continue    # 'the gain is 5.5% at the 0 hit rate': the level it was measured at
        d = c.start - me if me <= c.start else ms - c.end
        if qbest is None or (d, order) < qbest[0]:
            qbest = ((d, order), name)
    qhit = qbest[1] if qbest else None
    if change_hit and c.kind in _RELATIVE:
        # a percent written right before its change word is that change ('a 73% reduction'),
        # unless the clause names what was measured ('P99 延迟下降 38%')
        if change_hit == "speedup" and c.kind == "percent":
            change_hit = pct_speedup
        if qhit and (change_hit in ("reduction", "increase") or (change_hit == "throughput_lead" and qhit in leads_in)):
            return qhit
        if change_hit == "throughput_lead" and qhit is None:
            # '在 J/token 上，vLLM 仍领先 7.0%', 'On J/token, vLLM leads by 7%': the topic phrase
            # before the clause names what the lead is in
            t = _TOPIC_BEFORE.search(text, max(0, clause[0] - 48), clause[0])
            if t is not None:
                named = [(order, name) for name, order, _, _ in _hits(quantity, text, t.start(), t.end())
                         if name in leads_in]
                if named:
                    return min(named)[1]
        if change_hit == "increase" and c.kind == "ratio":
            return "speedup"    # 'a 2-3x improvement over TGI': a multiple of nothing named is speed
        return change_hit
    if qhit:
        return qhit
    if c.kind in by_kind:
        return by_kind[c.kind]
    if prev_same_kind is not None:
        return prev_same_kind
    if change_hit:
        return change_hit
    if c.kind == "ratio":
        # 'speeds up text generation by up to 2.7x': a multiple's change word anywhere in
        # its clause, when none stands next to it
        far = [(abs(ms - c.start), order, name) for name, order, ms, me in _hits(change, text, clause[0], clause[1])
               if (me <= c.start or ms >= c.end) and not (kinds.get(name) and c.kind not in kinds[name])]
        if far:
            return min(far)[2]
    if header is not None:
        # a table cell's row label, else its column, says what it measures ('| Mean TTFT | … |
        # −10.5% |' under '| Difference |'; '| Speedup |', '| 加速比 |'); what was measured
        # before how it moved
        for group in (quantity, change):
            for cell in header:
                if _CATEGORY.search(text, cell.start, cell.end):
                    continue    # '| KV cache 容量/加载 | …': a row of a kind of work, not a quantity
                hits = [(order, name) for name, order, _, _ in _hits(group, text, cell.start, cell.end)
                        if not (kinds.get(name) and c.kind not in kinds[name])]
                if hits:
                    return min(hits)[1]
    # last resort: what the figure's sentence says it measures, nearest before the figure
    # ('内存占用 62 GB，比上一版本多 12%'); the sentence before speaks of its own figures ('… were
    # found to degrade accuracy. The method achieves 99.96% byte exactness')
    best = None
    lo = max(block.start, c.start - _WINDOW, sent[0] if sent is not None else block.start)
    for name, order, ms, me in _hits(quantity, text, lo, c.start):
        if best is None or (c.start - me, order) < best[0]:
            best = ((c.start - me, order), name)
    return best[1] if best else None


# a label that names two kinds of thing at once ('容量/加载', 'Capacity / Loading'): a category
# ('tokens/sec' is a unit: English words count only with spaces around the slash)
_CATEGORY = compile_re(r"[\u4e00-\u9fff]{2,}\s{0,2}/\s{0,2}[\u4e00-\u9fff]{2,}|[A-Za-z]{3,}\s/\s[A-Za-z]{3,}")


def _column_header(doc, b):
    """The cells that label table cell ``b``: its row's first cell (when it is another cell)
    and the header cell of its column; None outside a table's data rows."""
    if b.table is None or not b.row:
        return None
    t = doc.tables[b.table]
    out = []
    if b.cell:
        # data rows are numbered from 1 in order; a scan only if that ever does not hold
        k = b.row - 1
        row = t.rows[k] if 0 <= k < len(t.rows) and t.rows[k].index == b.row else \
            next((r for r in t.rows if r.index == b.row), None)
        first = row.cells[0] if row is not None and row.cells else None
        if first is not None and first.column == 0:
            out.append(first)
    out += [h for h in t.header if h.column == b.cell]
    return out or None


def _found_in_spans(doc, claims, names):
    """The systems of every block holding a figure, and the conditions of those blocks, each
    from one scan per run of such blocks instead of one per block
    (claims.entities.matches_in_spans)."""
    if not names:
        return {}, {}
    text, blocks = doc.text, doc.blocks
    read = sorted({c.block for c in claims if c.block in names})
    spans = [(blocks[i].start, blocks[i].end) for i in read]
    systems = dict(zip(read, find_entities_in_spans(text, spans, kinds=("system",), local=local_pattern(doc.systems))))
    conds = dict(zip(read, find_conditions_in_spans(text, spans, [names[i] for i in read])))
    return conds, systems


class _Subjects:
    """A figure without a subject of its own takes its entry heading's, else its section
    heading's: one answer per entry / section, computed once (not per figure)."""

    def __init__(self, doc, scopes):
        self.doc, self.scopes = doc, scopes
        self._entry, self._section = {}, {}

    def _first_uncued(self, i):
        b = self.doc.blocks[i]
        return next((m.value for m in self.scopes.info(i).systems
                     if not _cue_before(self.doc.text, m.start, b.start)), None)

    def entry(self, k):
        if k not in self._entry:
            self._entry[k] = next((s for s in (self._first_uncued(i) for i in self.scopes.entry_blocks.get(k, ())
                                               if self.doc.blocks[i].kind == "entry_heading") if s), None)
        return self._entry[k]

    def section(self, k):
        if k not in self._section:
            self._section[k] = next((self._first_uncued(i) for i in self.scopes.section_blocks.get(k, ())[:1]
                                     if self.doc.blocks[i].kind == "heading"), None)
        return self._section[k]


# A name written as the figure's label when it is no known system: 'EvalKit 3.2×',
# 'GSM8K-Plat: 88.1%', 'SystemX 1.9×' (a capitalised or alphanumeric name, then a colon or
# nothing, then the figure, at the start of its clause)
_NAME_LABEL = compile_re(r"(?<![A-Za-z0-9_.+-])(?P<name>(?-i:(?:[A-Z][A-Za-z0-9]*|[a-z]+[A-Z0-9][A-Za-z0-9]*)"
                         r"(?:[-.+][A-Za-z0-9]+)*(?:\s(?:[A-Z][A-Za-z0-9]*|v?\d{1,3}(?:\.\d{1,3}){0,2})(?:[-.+][A-Za-z0-9]+)*){0,2}))"
                         r"[*_]{0,2}\s{0,2}[:：]?[*_]{0,2}\s{0,2}(?:约|~|～|≈|about|roughly)?\s{0,2}$")
_NOT_A_LABEL = {"the", "a", "an", "and", "or", "with", "on", "in", "at", "by", "of", "to", "from", "for",
                "is", "was", "are", "were", "be", "vs", "than", "up", "about", "over", "under", "only",
                "this", "that", "it", "we", "our", "total", "average", "mean", "median", "peak", "p50",
                "p90", "p95", "p99", "tps", "qps", "ttft", "tpot", "itl", "e2e", "throughput", "latency",
                "speedup", "memory", "accuracy", "score", "note", "result", "results", "wall-clock",
                # words of a sentence, not names: 'Sum: ~30–45%', 'Past 70%, you start …'
                "sum", "past", "above", "below", "beyond", "around", "nearly", "almost", "overall",
                "combined", "net", "together", "all", "both", "each", "every", "roughly", "approximately",
                "today", "now", "then", "here", "there", "still", "just", "even", "at", "after", "before"}


_COMPARATIVE_END = ("er", "est")


def _comparative(name: str) -> bool:
    """One English comparative or superlative ('Faster', 'Slower', 'Best'), no name."""
    from .names import is_english
    w = name.lower()
    return " " not in w and (w in ("better", "worse", "best", "worst", "less", "more", "most", "least")
                             or (w.endswith(_COMPARATIVE_END) and is_english(w)))


def _label_subject(text, c, clause_lo):
    """The generic name the figure is written as a value of, or None."""
    m = _NAME_LABEL.search(text, max(clause_lo, c.start - 40), c.start)
    if not m:
        return None
    name = m.group("name")
    if name.split()[0].lower() in _NOT_A_LABEL or len(name) < 3 or name.isdigit():
        return None
    if _comparative(name):
        return None     # '**Updates are Faster:** 3.7x': the claim's verb, not a name
    # a metric's own name ('WER 2.53%', 'RTF 0.64', 'MMLU 71%') says what was measured, not of what
    quantity = _metrics()[0][1]
    hit = quantity.match(name)
    if hit and hit.end() >= len(name.split()[0]):
        return None
    return name.lower()


# an absolute figure written as a difference ('Higher VRAM usage (4GB more)', '多出 4 GB 显存',
# '比 A 多 120 ms'): by how much, not how much -- it restates no level and contradicts none
_ABSOLUTE = ("memory", "latency", "duration", "throughput", "bandwidth", "compute", "currency")


@lru_cache(maxsize=None)
def _difference_words():
    """(after, before): the patterns of derivations.yaml's difference_after / difference_before."""
    from .derive_vocab import alternation as alt
    d = load("derivations.yaml")
    after = compile_re(r"\s{0,2}(?:%s)(?![A-Za-z])" % alt(d["difference_after"]), re.IGNORECASE)
    # a bare 多 / 少 too ('多 120 ms'), but not 最多 / 至少 (bounds)
    before = compile_re(r"(?<![A-Za-z])(?:%s|(?<![最至])多|(?<![最至])少)\s{0,2}(?:约|近|了)?\s{0,2}$"
                        % alt(d["difference_before"]), re.IGNORECASE)
    return after, before


def _difference(text, c, clause) -> bool:
    if c.kind not in _ABSOLUTE:
        return False
    after, before = _difference_words()
    return (after.match(text, c.end, clause[1]) is not None
            or before.search(text, max(clause[0], c.start - 16), c.start) is not None)


_AFTER_BARE = compile_re(r"[*_\s]{0,3}(?:$|[，,。;；、)）|+＋\]]|\s[+＋-]\s|\s?(?:and|与|和|及)\s)")


def _ends_clause(text, c, sent) -> bool:
    """Nothing after the figure says what it is: its clause ends right there."""
    return c.end >= sent[1] or _AFTER_BARE.match(text, c.end, sent[1]) is not None


def _label_before(text, c, sent) -> bool:
    """The figure follows its name directly ('EvalKit 3.2×', 'SystemX：1.9×')."""
    return _NAME_LABEL.search(text, max(sent[0], c.start - 40), c.start) is not None


def _column_subject(doc, b, scopes):
    """The system a table column is of: its header cell names one ('| InferFlux cuda_llama_cpp |
    Ollama |'), known to the vocabulary or written as a name; None for the label column."""
    if b.kind != "table_cell" or not b.cell or b.table is None:
        return None
    head = doc.tables[b.table].header_of(b.cell)
    if head is None:
        return None
    known = scopes.info(head.block).systems
    if known:
        return known[0].value
    m = _HEAD_NAME.match(doc.text, doc.blocks[head.block].start, doc.blocks[head.block].end)
    if m and m.group(1).lower() not in _NOT_A_LABEL and not _metrics()[0][1].match(m.group(1)):
        return m.group(1).lower()
    return None


# a header cell that opens with a product's camel-case name ('InferFlux cuda_llama_cpp'); a
# plain capitalised word ('Time to generate …', 'Throughput') is a column's quantity, no name
_HEAD_NAME = compile_re(r"[*_\s]{0,3}((?-i:[A-Z][a-z]+[A-Z][A-Za-z0-9]*))(?=[\s*_]|$)")


def _subject_and_baseline(doc, c, b, bi, sent, subjects, scopes=None):
    subject, _how = _pick_subject(doc.text, c, bi.systems, sent, b.start, bi)
    if subject is None and scopes is not None:
        # a cell of a system's column is that system's figure, not the heading's system
        subject = _column_subject(doc, b, scopes)
    if subject is None:
        # no known system: the figure is the value of a named thing ('EvalKit 3.2×', 'GSM8K-Plat: 88.1%')
        subject = _label_subject(doc.text, c, sent[0])
    if subject is None and b.entry is not None:
        subject = subjects.entry(b.entry)
    if subject is None and b.section is not None:
        subject = subjects.section(b.section)
    baseline = _pick_baseline(doc.text, c, bi.systems, sent, subject, b.start, bi) if c.kind in _RELATIVE else None
    return subject, baseline


def _conditions(doc, c, b, sent, scopes, made):
    """facet -> Condition: the nearest scope that names a facet wins it."""
    conds = {}
    for scope, found in scopes.chain(c, b, sent):
        for x in found:
            facet = x.kind
            if facet in conds:
                continue
            # one Condition per mention and scope, shared by every figure it applies to
            # (a section's setup applies to all its figures; never mutated afterwards)
            k = (x, scope)
            cond = made.get(k)
            if cond is None:
                cond = made[k] = Condition(facet=facet, value=x.value, scope=scope,
                                           line=doc.line_col(x.start)[0], surface=x.surface)
            conds[facet] = cond
    return conds


_CAPTION_MARKUP = compile_re(r"[*_`#>]+|[:：]\s*$")


def _scenario(doc, table, made):
    """The label a table's caption gives its figures ('**First-time requests**', '**Cached
    requests**', 'Table 2: Decode, batch 64'): two tables under two labels measure two
    scenarios of one setup, so their cells are not one figure stated twice.  Captions longer
    than a label (a sentence introducing the table) name no scenario."""
    key = ("scenario", table)
    if key in made:
        return made[key]
    t = doc.tables[table]
    got = None
    if t.caption is not None:
        cb = doc.blocks[t.caption]
        label = _CAPTION_MARKUP.sub("", cb.text).strip()
        if 0 < len(label) <= 60 and "\n" not in label:
            got = Condition(facet="scenario", value=label, scope="table", line=cb.line, surface=label)
    made[key] = got
    return got


def _markers(doc, c, b, bi, sent):
    """The entry's markers (its heading, or a line of its own that is only a marker), plus
    those of the figure's own sentence: a marker in another sentence speaks of other figures."""
    marks = set()
    if b.entry is not None:
        marks.update(doc.entries[b.entry].markers)
    for name, s, e in bi.within("markers", sent[0], sent[1]):
        marks.add(name)
    return sorted(marks)


class _Sources:
    """A figure's sources: its entry's, else those linked in its own block, else the nearest
    section's, else the document's."""

    def __init__(self, doc):
        self.doc = doc
        self._block = {}
        self.ratings = {s.ref: (s.rating, s.rating_text) for s in doc.sources
                        if s.origin == "table" and (s.rating is not None or s.rating_text)}

    def block(self, i):
        from .markdown import parse_sources
        got = self._block.get(i)
        if got is None:
            doc = self.doc
            b = doc.blocks[i]
            t = b.text
            got = [] if ("/" not in t and "rxiv" not in t.lower()) else parse_sources(
                doc.text, b.start, b.end, b.line, doc.line_starts[b.line - 1], "inline")
            for src in got:          # the sources table's rating follows the file wherever it is cited
                if src.ref in self.ratings:
                    src.rating, src.rating_text = self.ratings[src.ref]
            self._block[i] = got
        return got

    def of(self, c, b):
        doc = self.doc
        srcs = doc.entries[b.entry].sources if b.entry is not None else []
        if not srcs:
            srcs = self.block(c.block)
        k = b.section
        while not srcs and k is not None:
            srcs = doc.sections[k].sources
            k = doc.sections[k].parent
        return list(srcs or doc.header_sources)


def annotate(doc, claims, names=None) -> dict:
    """Fill the context fields of ``claims`` (in place).
    ``names``: block index -> the hardware and model names already found in that block.
    Returns id(claim) -> (sentence, clause) offsets, for the readers that follow.

    One pass per figure, in named steps: place (role, section, entry), sentence and clause,
    subject and baseline, metric, conditions (``claims.scopes``), markers, sources."""

    text, blocks = doc.text, doc.blocks
    found_conds, found_systems = _found_in_spans(doc, claims, names)
    scopes = Scopes(doc, names, found_conds, found_systems)
    subjects, sources = _Subjects(doc, scopes), _Sources(doc)
    made = {}            # (mention, scope) -> Condition
    around = {}          # id(claim) -> (sentence, clause)
    last_metric = {}     # (block or entry, kind) -> metric of the previous figure of that kind
    for c in claims:
        if c.block is None:
            continue
        b = blocks[c.block]
        bi = scopes.info(c.block)
        c.role = b.role
        c.section = doc.sections[b.section].title if b.section is not None else None
        c.entry = doc.entries[b.entry].label if b.entry is not None else None
        sent = bounds(text, b.start, b.end, c.start, c.end, SENT_END)
        clause = bounds(text, b.start, b.end, c.start, c.end, CLAUSE_END)
        around[id(c)] = (sent, clause)
        c.subject, c.baseline = _subject_and_baseline(doc, c, b, bi, sent, subjects, scopes)

        scope_key = (c.block, c.kind)
        entry_key = (b.entry, b.section, c.kind)
        c.metric = _metric(text, c, clause, b, last_metric.get(scope_key), _column_header(doc, b), sent)
        if c.metric is None and c.kind == "ratio":
            # 'SpecInfer on the same setup: 1.3–1.6×' under '… speedup: 2.4×' is a speedup too
            c.metric = last_metric.get(entry_key)
        if c.metric:
            last_metric[scope_key] = c.metric
            last_metric[entry_key] = c.metric

        c.conditions = _conditions(doc, c, b, sent, scopes, made)
        if b.table is not None and "scenario" not in c.conditions:
            scenario = _scenario(doc, b.table, made)
            if scenario is not None:
                c.conditions["scenario"] = scenario
        c.markers = _markers(doc, c, b, bi, sent)
        if c.subject and c.kind in ("ratio", "percent") and _ends_clause(text, c, sent) \
                and _label_before(text, c, sent):
            # a name, the figure, and nothing after it ('EvalKit 3.2× +', 'SystemX 1.9×，')
            c.traits = sorted(set(c.traits) | {"bare"})
        if _difference(text, c, clause):
            c.traits = sorted(set(c.traits) | {"difference"})
        if scopes.elsewhere(c, b, sent):
            # from another experiment than the document's own: a quick test, a cited paper
            c.traits = sorted(set(c.traits) | {"other_experiment"})
        c.sources = sources.of(c, b)

    inherit(claims)
    return around


def inherit(claims):
    """What a figure leaves unsaid, the document may say elsewhere.

    'EAGLE-3 3.1×' in a header line is the 3.1× speedup its entry states: a figure
    without a metric takes the metric of a figure with the same subject, kind and
    value.  (Not "the one metric its subject has": '17% more tokens per watt' is no
    latency because every other percent of LMDeploy's is one.)  'LMDeploy 35% 领先'
    means the same lead over vLLM the entry states: a relative figure without a
    baseline takes the one baseline its (subject, metric) has elsewhere."""
    by_value = {}
    for c in claims:
        if c.metric and c.subject:
            by_value.setdefault((c.subject, c.kind, c.value, c.low, c.high), set()).add(c.metric)
    for c in claims:
        if c.metric is None and c.subject:
            ms = by_value.get((c.subject, c.kind, c.value, c.low, c.high))
            if ms and len(ms) == 1:
                c.metric = next(iter(ms))
    known = {}
    for c in claims:
        if c.baseline and c.subject and c.metric:
            known.setdefault((c.subject, c.metric), set()).add(c.baseline)
    for c in claims:
        if c.baseline is None and c.subject and c.metric and c.kind in _RELATIVE:
            bs = known.get((c.subject, c.metric))
            if bs and len(bs) == 1:
                c.baseline = next(iter(bs))
