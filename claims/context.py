"""Give each extracted figure its context: what it is about and under which conditions.

``annotate(doc, claims)`` fills, for every claim whose ``block`` is set:

- ``role``, ``section`` (title), ``entry`` (label) from its block;
- ``subject`` / ``baseline``: canonical system names (entities.yaml) — the
  label before the figure (``LMDeploy：2,430 tok/s``), an owner (``SpecInfer's
  1.6×``, ``SpecInfer 的 1.3×``), the nearest system before it in the
  sentence, block, entry heading or section heading; the baseline is the system
  after ``vs`` / ``than`` / ``比`` / ``领先`` …;
- ``metric`` from claims/data/metrics.yaml (closest keyword of its clause);
- ``conditions``: facet -> Condition with the nearest scope that names it:
  sentence, bullet (the block, or the table row), entry (its heading and its
  setup line ``实测条件（…）`` / ``Setup: …``), section, document;
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
from .conditions import find_conditions, find_conditions_in_spans
from .entities import find_entities, find_entities_in_spans, guarded
from .markers import find_markers
from .model import Condition

_WINDOW = 400     # characters looked at on each side of a figure
# ' + ' joins separate statements in briefing summaries ('EAGLE-3 3.1× + LMDeploy 35% 领先')
_SENT_END = re.compile(r"[。！？!?；;]|\.(?=\s|$)(?<!\d\.)|\n\s*\n|\s\+\s")
_CLAUSE_END = re.compile(r"[。！？!?；;，、]|\.(?=\s|$)|,(?!\d{3})|\s[-–—+]\s|[（(]|[）)]")
_BASELINE_CUE = re.compile(
    r"(?:\bvs\.?|\bversus|\bthan|\bover|\bcompared (?:to|with)|\brelative to|\bagainst|\bbeats?|\boutperforms?|\bleads?|\btrails?"
    r"|比|相比于?|相较于?|对比|较|领先于?|超过|落后于?|胜过|优于|高于|低于)\s*(?:the\s+)?$", re.IGNORECASE)
_POSSESSIVE = re.compile(r"^(?:'s|’s|\s*的)")
_ANAPHORA = re.compile(r"\s*(?:That|This|It|These|Those|Which|Its|这|该|其|此|它)", re.IGNORECASE)
_LABEL_GAP = re.compile(r"^\s*(?:v?\d{1,3}(?:\.\d{1,3}){0,2})?\s*(?:\*\*)?\s*[：:]\s*(?:\*\*)?\s*$")


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
    return comp("quantity"), comp("change"), kinds, d.get("by_kind") or {}, d.get("percent_speedup_is") or "speedup"


@lru_cache(maxsize=None)
def _setup_rx():
    d = load("sections.yaml")
    return re.compile(d["setup_line"], re.IGNORECASE), guarded(d["setup_paren"], re.IGNORECASE)


@lru_cache(maxsize=None)
def _setup_section_rx():
    d = load("sections.yaml")
    return re.compile(d["setup_section"]), re.compile(d["appendix_section"])


@lru_cache(maxsize=None)
def _label_rx():
    return re.compile(load("sections.yaml")["label_line"])


@lru_cache(maxsize=None)
def _intro_section_rx():
    d = load("sections.yaml")
    return re.compile(d.get("intro_section") or r"(?!)")


# The title and the first paragraphs before any section state what the whole document is
# about ('MOSS-TTS-Local-Transformer-v1.5 在 SGLang-Omni 中…', 'We ran Llama 3.1 70B on 8×H100'):
# every condition they name is the document's.  Later header blocks count only their setup lines.
_LEAD_BLOCKS = 4


_FM_FIELD = re.compile(r"[ \t]*(?:title|summary|description|subtitle|excerpt)[ \t]*[:=]", re.IGNORECASE)


def _front_matter_conditions(text):
    """Conditions named in the title / summary / description fields of a leading front matter."""
    if not text.startswith(("---", "+++")):
        return []
    from .markdown import front_matter as _detect_front_matter
    head = text[:20000].split("\n")
    n = _detect_front_matter(head)
    out, pos = [], 0
    for i, line in enumerate(head[:n]):
        if i and _FM_FIELD.match(line):
            out.extend(find_conditions(text, pos, pos + len(line)))
        pos += len(line) + 1
    return out


def _unmasked(spans, masked, text=None, starts=None):
    """Drop mentions that start inside a masked range (URL, path, tag).  With ``text``, a
    mention inside inline code is kept: '**Model**: `Qwen/Qwen-32B`' names the model.
    ``starts`` (the masked ranges' starts, once per block) keeps a per-sentence call from
    rebuilding them: that would cost every masked range of the block per sentence."""
    if not masked:
        return spans
    if starts is None:
        starts = [a for a, _ in masked]
    out = []
    for sp in spans:
        k = bisect.bisect_right(starts, sp[2]) - 1
        if k >= 0 and masked[k][0] <= sp[2] < masked[k][1] and not (text is not None and text[masked[k][0]] == "`"):
            continue
        out.append(sp)
    return out


class _BlockInfo:
    """Entities, conditions and markers of one block, each computed once and only when asked."""

    __slots__ = ("doc", "b", "_systems", "_conds", "_markers", "_setup", "_keys", "_names",
                 "_found_conds", "_found_systems")

    def __init__(self, doc, b, names=None, conds=None, systems=None):
        # names / conds / systems: what the document-wide scans found in this block, if any
        self.doc, self.b, self._names = doc, b, names
        self._found_conds, self._found_systems = conds, systems
        self._systems = self._conds = self._markers = self._setup = None
        self._keys = {}

    def keys(self, what):
        """Sorted start offsets of ``systems`` / ``conds`` / ``markers`` / ``masked`` (and the
        systems' ends), built once: a figure bisects to its window instead of scanning every
        mention of the block, which made a block with N figures and M mentions cost N*M."""
        k = self._keys.get(what)
        if k is None:
            if what == "system_ends":
                k = [m[3] for m in self.systems]   # non-overlapping matches: ends ascend too
            elif what == "masked":
                k = [a for a, _ in self.b.masked]
            else:
                pos = 1 if what == "markers" else 2
                k = [m[pos] for m in getattr(self, what)]
            self._keys[what] = k
        return k

    def within(self, what, lo, hi):
        """The items of ``what`` (sorted by start) starting in [lo, hi), in their order."""
        starts = self.keys(what)
        return getattr(self, what)[bisect.bisect_left(starts, lo):bisect.bisect_left(starts, hi)]

    @property
    def systems(self):
        if self._systems is None:
            b = self.b
            found = self._found_systems
            if found is None:
                found = find_entities(self.doc.text, b.start, b.end, kinds=("system",))
            self._systems = _unmasked(found, b.masked)
        return self._systems

    @property
    def conds(self):
        if self._conds is None:
            b = self.b
            found = self._found_conds
            if found is None:
                found = find_conditions(self.doc.text, b.start, b.end, self._names)
            self._conds = _unmasked(found, b.masked, self.doc.text)
        return self._conds

    @property
    def markers(self):
        if self._markers is None:
            self._markers = find_markers(self.doc.text, self.b.start, self.b.end)
        return self._markers

    @property
    def setup(self):
        if self._setup is None:
            self._setup = _setup_conditions(self.doc, self.b, self)
        return self._setup


def _setup_conditions(doc, b, info):
    """Conditions stated by a setup line or a '实测条件（…）' parenthesis in this block."""
    line_rx, paren_rx = _setup_rx()
    text = doc.text
    m = line_rx.match(b.text)      # on the block's own text: '^' anchors at its start
    if m and "（" not in m.group(0) and "(" not in m.group(0):
        # a setup line without parentheses states conditions for its whole line
        return [c for c in info.conds if c[2] >= b.start + m.end()]
    parens = list(paren_rx.finditer(text, b.start, b.end))
    if not parens:
        return []
    out = []
    for m in parens:
        out.extend(info.within("conds", m.start("body"), m.end("body")))
    return out


def _bounds(text, lo, hi, s, e, rx):
    """(start, end) of the sentence/clause around text[s:e] within [lo, hi) (bounded window)."""
    a = max(lo, s - _WINDOW)
    left = a
    for m in rx.finditer(text, a, s):
        left = m.end()
    z = min(hi, e + _WINDOW)
    m = rx.search(text, e, z)
    right = m.start() if m else z
    return left, right


def _cue_before(text, pos, lo):
    return bool(_BASELINE_CUE.search(text[max(lo, pos - 24):pos]))


_APPROX_TAIL = re.compile(r"(?:约|大约|近|~|～|≈|about|roughly|around)\s*$")
_CLAUSE_MARK = re.compile(r"[，,;；。]")


def _pick_subject(text, c, systems, sent, block_lo, bi=None):
    """(subject, how) for claim c from the block's system mentions (sorted, non-overlapping;
    ``bi`` gives their sorted offsets so only the figure's window is looked at)."""
    if bi is None:
        before = [m for m in systems if m[3] <= c.start]
        after = [m for m in systems if m[2] >= c.end]
    else:
        before = _Tail(systems, bisect.bisect_right(bi.keys("system_ends"), c.start))
        after = _Head(systems, bisect.bisect_left(bi.keys("systems"), c.end))
    # 1. a label right before the figure: 'LMDeploy：2,430 tok/s', 'TGI 3.2：2,400'
    if before:
        m = before[-1]
        gap = text[m[3]:c.start]
        # the figure's own approx word ('约') may sit between
        gap = _APPROX_TAIL.sub("", gap)
        if len(gap) <= 12 and _LABEL_GAP.match(gap):
            return m[1], "label"
    # 2. an owner: "SpecInfer's best case of 1.6×", 'SpecInfer 的 1.3–1.6×'
    for m in reversed(before):
        if m[2] < sent[0]:
            break
        if _POSSESSIVE.match(text[m[3]:m[3] + 4]) and not _CLAUSE_MARK.search(text, m[3], c.start):
            return m[1], "owner"
    # 3. the nearest system before it in the sentence that is not a baseline
    for m in reversed(before):
        if m[2] < sent[0]:
            break
        if not _cue_before(text, m[2], block_lo):
            return m[1], "sentence"
    # 4. a system after it in the sentence, not a baseline
    for m in after:
        if m[2] >= sent[1]:
            break
        if not _cue_before(text, m[2], block_lo):
            return m[1], "sentence"
    # 5. earlier in the block, when the sentence refers back to it
    #    ('… EAGLE-3 … . That is roughly 50% better …', '…。这比 …')
    if not _ANAPHORA.match(text, sent[0], sent[1]):
        return None, None
    for m in reversed(before):
        if m[2] < c.start - _WINDOW:
            break
        if not _cue_before(text, m[2], block_lo):
            return m[1], "block"
    return None, None


def _pick_baseline(text, c, systems, sent, subject, block_lo, bi=None):
    for m in (systems if bi is None else bi.within("systems", sent[0], sent[1])):
        if sent[0] <= m[2] < sent[1] and m[1] != subject and _cue_before(text, m[2], block_lo):
            return m[1]
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
_DIGIT = re.compile(r"\d")


def _hits(group, text, lo, hi):
    """(name, order, start, end) of every keyword of a metric group in text[lo:hi]."""
    names, rx = group
    out = []
    for m in rx.finditer(text, lo, hi):
        k = int(m.lastgroup[1:])
        out.append((names[k], k, m.start(), m.end()))
    return out


def _metric(text, c, clause, block, prev_same_kind):
    quantity, change, kinds, by_kind, pct_speedup = _metrics()
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
        if best is None or (d, order) < best[0]:
            best = ((d, order), name)
    change_hit = best[1] if best else None
    qbest = None
    for name, order, ms, me in _hits(quantity, text, clause[0], clause[1]):
        if ms < c.end and me > c.start:
            continue
        d = c.start - me if me <= c.start else ms - c.end
        if qbest is None or (d, order) < qbest[0]:
            qbest = ((d, order), name)
    qhit = qbest[1] if qbest else None
    if change_hit and c.kind in _RELATIVE:
        # a percent written right before its change word is that change ('a 73% reduction'),
        # unless the clause names what was measured ('P99 延迟下降 38%')
        if change_hit == "speedup" and c.kind == "percent":
            change_hit = pct_speedup
        if qhit and change_hit in ("reduction", "increase"):
            return qhit
        return change_hit
    if qhit:
        return qhit
    if c.kind in by_kind:
        return by_kind[c.kind]
    if prev_same_kind is not None:
        return prev_same_kind
    if change_hit:
        return change_hit
    # last resort: what the block says it measures, nearest before the figure ('内存占用 62 GB，比上一版本多 12%')
    best = None
    for name, order, ms, me in _hits(quantity, text, max(block.start, c.start - _WINDOW), c.start):
        if best is None or (c.start - me, order) < best[0]:
            best = ((c.start - me, order), name)
    return best[1] if best else None


def _scope_conditions(entries):
    """facet -> Condition from a list of (scope, [(facet, value, s, e, surface)]) nearest first."""
    return entries


def annotate(doc, claims, names=None) -> list:
    """Fill the context fields of ``claims`` (in place).
    ``names``: block index -> the hardware and model names already found in that block."""
    from .markdown import parse_sources
    from .segment import _clean_title

    text = doc.text
    blocks = doc.blocks
    info = {}
    # the systems of every block holding a figure, and the conditions of those that are not
    # prose paragraphs (a paragraph's are read per sentence), each from one scan per run of
    # such blocks instead of one per block (claims.entities.matches_in_spans)
    found_conds, found_systems = {}, {}
    if names:
        # only the blocks that hold figures: the others may never be asked
        read = sorted({c.block for c in claims if c.block in names})
        found_systems = dict(zip(read, find_entities_in_spans(
            text, [(blocks[i].start, blocks[i].end) for i in read], kinds=("system",))))
        listed = [i for i in read if blocks[i].kind != "paragraph"]
        found_conds = dict(zip(listed, find_conditions_in_spans(
            text, [(blocks[i].start, blocks[i].end) for i in listed], [names[i] for i in listed])))

    def binfo(i):
        bi = info.get(i)
        if bi is None:
            bi = info[i] = _BlockInfo(doc, blocks[i], names.get(i) if names else None,
                                      found_conds.get(i), found_systems.get(i))
        return bi

    # blocks of each entry / section / table row, and their setup conditions
    entry_blocks, section_blocks, header_blocks, row_blocks = {}, {}, [], {}
    for i, b in enumerate(blocks):
        if b.entry is not None:
            entry_blocks.setdefault(b.entry, []).append(i)
        elif b.section is not None:
            section_blocks.setdefault(b.section, []).append(i)
        else:
            header_blocks.append(i)
        if b.kind == "table_cell" and b.row is not None:
            row_blocks.setdefault((b.section, b.line, b.row), []).append(i)

    entry_conds, section_conds, doc_conds = {}, {}, None

    def setup_of(idxs, heading_kinds):
        # a setup line ('实测条件（8×H100，…）') is more precise than the heading ('… 在 H100 上 …')
        setup, heading = [], []
        for i in idxs:
            b = blocks[i]
            bi = binfo(i)
            if b.kind in heading_kinds:
                heading.extend(bi.conds)
            else:
                setup.extend(bi.setup)
        return setup + heading

    def conds_entry(k):
        if k not in entry_conds:
            entry_conds[k] = setup_of(entry_blocks.get(k, ()), ("entry_heading",))
        return entry_conds[k]

    setup_children, doc_setup = {}, []
    setup_rx, appendix_rx = _setup_section_rx()
    for k, sec in enumerate(doc.sections):
        if setup_rx.match(_clean_title(sec.title)):
            parent = sec.parent
            if parent is None or appendix_rx.match(_clean_title(doc.sections[parent].title)):
                doc_setup.append(k)      # a top-level or appendix setup section: the whole document's setup
            else:
                setup_children.setdefault(parent, []).append(k)

    def conds_section(k):
        if k not in section_conds:
            section_conds[k] = []      # guards against a cycle while this one is computed
            own = setup_of(section_blocks.get(k, ()), ("heading",))
            # a '### 测试配置' child states the setup of its parent and its siblings
            for ch in setup_children.get(k, ()):
                own = own + [x for i in section_blocks.get(ch, ()) for x in binfo(i).conds]
            section_conds[k] = own
            parent = doc.sections[k].parent
            if parent is not None:    # a sub-section inherits its parent's setup
                own_facets = {x[0] for x in section_conds[k]}
                section_conds[k] = section_conds[k] + [c for c in conds_section(parent) if c[0] not in own_facets]
        return section_conds[k]

    def conds_doc():
        nonlocal doc_conds
        if doc_conds is None:
            # only in a document about one thing: a digest's header line lists the figures of
            # its entries ('基线：… EAGLE-3 3.1× + TensorRT-LLM FP8 1.9× …'), not their setup
            single = not doc.entries and sum(1 for sec in doc.sections if sec.level == 1) <= 1
            # a labelled metadata line ('执行体：…', '基线：inference.md v322（EAGLE-3 3.1× + … FP8 1.9× …）')
            # summarises several entries; its names are not the whole document's setup
            label_rx = _label_rx()
            # and a bullet is one statement among others ('- AWQ … for a 70B model' is not the setup
            # of the TensorRT-LLM bullet above it)
            lead = [i for i in header_blocks if blocks[i].role in ("header", "body")
                    and blocks[i].kind in ("heading", "paragraph")
                    and not label_rx.match(blocks[i].text)][:_LEAD_BLOCKS] \
                if single else []
            doc_conds = [x for i in lead for x in binfo(i).conds]
            doc_conds = doc_conds + setup_of([i for i in header_blocks if i not in lead], ("heading",))
            for k in doc_setup:
                doc_conds = doc_conds + [x for i in section_blocks.get(k, ()) for x in binfo(i).conds]
            # front matter has no blocks, but its title / summary describe the whole post
            # ('summary: "… on Qwen3.5-397B-A17B-NVFP4 with GB200 NVL72 …"')
            doc_conds = doc_conds + _front_matter_conditions(text)
            # a leading 'Overview' / 'TL;DR' / '背景' section introduces the whole document
            intro_rx = _intro_section_rx()
            for k in [k for k, sec in enumerate(doc.sections) if sec.parent is None and single][:2]:
                if intro_rx.match(_clean_title(doc.sections[k].title)):
                    doc_conds = doc_conds + [x for i in section_blocks.get(k, ()) for x in binfo(i).conds]
        return doc_conds

    bsrc = {}
    ratings = {s.ref: (s.rating, s.rating_text) for s in doc.sources
               if s.origin == "table" and (s.rating is not None or s.rating_text)}

    def block_sources(i):
        if i not in bsrc:
            b = blocks[i]
            t = b.text
            bsrc[i] = [] if ("/" not in t and "rxiv" not in t.lower()) else parse_sources(
                text, b.start, b.end, b.line, doc.line_starts[b.line - 1], "inline")
            for src in bsrc[i]:          # the sources table's rating follows the file wherever it is cited
                if src.ref in ratings:
                    src.rating, src.rating_text = ratings[src.ref]
        return bsrc[i]

    def first_uncued(i):
        """The first system of block i that is not a baseline, or None."""
        return next((m[1] for m in binfo(i).systems if not _cue_before(text, m[2], blocks[i].start)), None)

    # a figure without a subject of its own takes its entry heading's, else its section
    # heading's: one answer per entry / section, computed once (not per figure)
    ent_subj, sec_subj = {}, {}

    def entry_subject(k):
        if k not in ent_subj:
            ent_subj[k] = next((s for s in (first_uncued(i) for i in entry_blocks.get(k, ())
                                            if blocks[i].kind == "entry_heading") if s), None)
        return ent_subj[k]

    def section_subject(k):
        if k not in sec_subj:
            sec_subj[k] = next((first_uncued(i) for i in section_blocks.get(k, ())[:1]
                                if blocks[i].kind == "heading"), None)
        return sec_subj[k]

    # lists shared by many figures (a block's, row's, entry's, section's, document's conditions)
    # are reduced once to the first mention of each facet: that is all ``put`` keeps of them,
    # and walking the whole list per figure made a long block quadratic
    firsts, rows = {}, {}

    def first_per_facet(found):
        f = firsts.get(id(found))
        if f is None or f[0] is not found:
            seen, out = set(), []
            for x in found:
                if x[0] not in seen:
                    seen.add(x[0])
                    out.append(x)
            f = firsts[id(found)] = (found, out)
        return f[1]

    made = {}            # (mention, scope) -> Condition
    sent_conds = {}      # (block, sentence span) -> conditions, for paragraphs
    last_metric = {}     # (block or entry, kind) -> metric of the previous figure of that kind
    for c in claims:
        if c.block is None:
            continue
        b = blocks[c.block]
        bi = binfo(c.block)
        c.role = b.role
        c.section = doc.sections[b.section].title if b.section is not None else None
        c.entry = doc.entries[b.entry].label if b.entry is not None else None
        sent = _bounds(text, b.start, b.end, c.start, c.end, _SENT_END)
        clause = _bounds(text, b.start, b.end, c.start, c.end, _CLAUSE_END)

        # subject and baseline
        subject, how = _pick_subject(text, c, bi.systems, sent, b.start, bi)
        if subject is None and b.entry is not None:
            subject = entry_subject(b.entry)
        if subject is None and b.section is not None:
            subject = section_subject(b.section)
        c.subject = subject
        if c.kind in _RELATIVE:
            c.baseline = _pick_baseline(text, c, bi.systems, sent, subject, b.start, bi)

        # metric
        scope_key = (c.block, c.kind)
        entry_key = (b.entry, b.section, c.kind)
        c.metric = _metric(text, c, clause, b, last_metric.get(scope_key))
        if c.metric is None and c.kind == "ratio":
            # 'SpecInfer on the same setup: 1.3–1.6×' under '… speedup: 2.4×' is a speedup too
            c.metric = last_metric.get(entry_key)
        if c.metric:
            last_metric[scope_key] = c.metric
            last_metric[entry_key] = c.metric

        # conditions: nearest scope wins per facet
        conds = {}

        def put(found, scope):
            for x in found:
                facet = x[0]
                if facet in conds:
                    continue
                # one Condition per mention and scope, shared by every figure it applies to
                # (a section's setup applies to all its figures; never mutated afterwards)
                k = (x, scope)
                cond = made.get(k)
                if cond is None:
                    cond = made[k] = Condition(facet=facet, value=x[1], scope=scope,
                                               line=doc.line_col(x[2])[0], surface=x[4])
                conds[facet] = cond

        if b.kind == "paragraph" and bi._conds is None:
            # long prose: read only the figure's sentence, not the whole paragraph
            key = (c.block, sent)
            if key not in sent_conds:
                sent_conds[key] = _unmasked(find_conditions(text, sent[0], sent[1]), b.masked, text,
                                            bi.keys("masked"))
            in_sent = list(sent_conds[key])
        else:
            in_sent = bi.within("conds", sent[0], sent[1])
        # nearest mention first within the sentence
        in_sent.sort(key=lambda x: abs(x[2] - c.start))
        put(in_sent, "sentence")
        if b.kind == "paragraph" and sent[0] > b.start and _ANAPHORA.match(text, sent[0], sent[1]):
            # 'That is roughly 50% better than …' speaks of the previous sentence's setup
            prev = _bounds(text, b.start, b.end, sent[0] - 1, sent[0] - 1, _SENT_END)
            key = (c.block, prev)
            if key not in sent_conds:
                sent_conds[key] = _unmasked(find_conditions(text, prev[0], prev[1]), b.masked, text,
                                            bi.keys("masked"))
            put(sent_conds[key], "bullet")
        if b.kind == "table_cell" and b.row is not None:
            rk = (b.section, b.line, b.row)
            if rk not in rows:
                rows[rk] = [x for i in row_blocks.get(rk, ()) for x in binfo(i).conds]
            put(first_per_facet(rows[rk]), "bullet")
        elif b.kind == "bullet":
            # a bullet is one statement; a paragraph's other sentences speak of other figures
            put(first_per_facet(bi.conds), "bullet")
        if b.entry is not None:
            put(first_per_facet(conds_entry(b.entry)), "entry")
        if b.section is not None:
            put(first_per_facet(conds_section(b.section)), "section")
        put(first_per_facet(conds_doc()), "document")
        c.conditions = conds

        # markers: the entry's, plus those of the figure's own sentence
        marks = set()
        if b.entry is not None:
            marks.update(doc.entries[b.entry].markers)
        for name, s, e in bi.within("markers", sent[0], sent[1]):
            marks.add(name)
        c.markers = sorted(marks)

        # sources: the entry's, else those linked in the figure's own block, else the nearest
        # section's, else the document's
        srcs = []
        if b.entry is not None:
            srcs = doc.entries[b.entry].sources
        if not srcs:
            srcs = block_sources(c.block)
        k = b.section
        while not srcs and k is not None:
            srcs = doc.sections[k].sources
            k = doc.sections[k].parent
        if not srcs:
            srcs = doc.header_sources
        c.sources = list(srcs)

    _inherit(claims)


def _inherit(claims):
    """What a figure leaves unsaid, the document may say elsewhere.

    'EAGLE-3 3.1×' in a header line is the 3.1× speedup its entry states: a figure
    without a metric takes the metric of a figure with the same subject, kind and
    value (else the one metric its subject and kind have).  'LMDeploy 35% 领先'
    means the same lead over vLLM the entry states: a relative figure without a
    baseline takes the one baseline its (subject, metric) has elsewhere."""
    by_value, by_kind = {}, {}
    for c in claims:
        if c.metric and c.subject:
            by_value.setdefault((c.subject, c.kind, c.value, c.low, c.high), set()).add(c.metric)
            by_kind.setdefault((c.subject, c.kind), set()).add(c.metric)
    for c in claims:
        if c.metric is None and c.subject:
            ms = by_value.get((c.subject, c.kind, c.value, c.low, c.high)) or by_kind.get((c.subject, c.kind))
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
