"""Where a figure's conditions can come from: the scopes of the document model, nearest first.

A figure is conditioned by what its own sentence says (a parenthesis right after it first:
``+156ms (Gemma E4B)``), then an earlier sentence of its paragraph, its table row, its
table's header and caption, its list item and the sentence that introduces the list, its
entry (heading and setup lines), its section (heading, setup blocks, a setup sub-section,
the parent sections), the region above the first section of a post, and the document's own
setup (title, front matter, top-level setup sections, the lead of a post).  ``Scopes``
answers that chain for each figure from per-block mentions computed once.

Mentions are ``(facet, value, start, end, surface)`` tuples from ``claims.conditions``.
"""
from __future__ import annotations

import bisect
import re
from functools import lru_cache

from ._data import load
from .conditions import find_conditions
from .entities import find_entities, guarded, local_pattern
from .markers import find_markers
from .model import Mention
from .structure import ANAPHORA, CLAUSE_END, SENT_END
from .pattern_cache import compile_re  # compiled once per machine, not per process

WINDOW = 800      # characters looked at on each side of a figure for its sentence (a digest's
                  # sentence carries long link targets between its subject and its figures)
_LEAD_BLOCKS = 8  # paragraphs above the first section that state a post's setup
_DOMINANT_MIN = 2       # mentions of one GPU or model before it is the setup of a whole post …
_DOMINANT_SHARE = 0.8   # … when it is at least this share of all such mentions
_FM_FIELD = compile_re(r"[ \t]*(?:title|summary|description|subtitle|excerpt)[ \t]*[:=]", re.IGNORECASE)
_COUNT_PREFIX = compile_re(r"^\d+\s*[×x]\s*")
_POOL = compile_re(r"^\s*(\d{1,5})\s{0,3}(?:[×xX*]|块|张|卡|颗)")
_CARRIED = ("hardware", "model", "platform", "precision")
_PAREN_AFTER = compile_re(r"\s{0,2}[（(]")


@lru_cache(maxsize=None)
def _rx():
    d = load("sections.yaml")
    # the searched ones carry a guard on their first characters (entities.guarded: same matches)
    return (compile_re(d["setup_line"], re.IGNORECASE), guarded(d["setup_paren"], re.IGNORECASE),
            compile_re(d["label_line"]), compile_re(d.get("intro_section") or r"(?!)"),
            guarded(d.get("other_experiment") or r"(?!)"),
            compile_re(d.get("own_implementation") or r"(?!)"),
            compile_re(d.get("unsupported_on") or r"(?!)"))


_PAPER_LINK = compile_re(r"arxiv\.org/|openreview\.net/|aclanthology\.org/|proceedings\.|papers\.nips", re.IGNORECASE)


def unmasked(spans, masked, text=None, starts=None):
    """Drop mentions that start inside a masked range (URL, path, tag).  With ``text``, a
    mention inside inline code is kept: '**Model**: `Qwen/Qwen-32B`' names the model.
    ``starts`` (the masked ranges' starts, once per block) keeps a per-sentence call from
    rebuilding them."""
    if not masked:
        return spans
    if starts is None:
        starts = [a for a, _ in masked]
    out = []
    for sp in spans:
        k = bisect.bisect_right(starts, sp.start) - 1
        if k >= 0 and masked[k][0] <= sp.start < masked[k][1] and not (text is not None and text[masked[k][0]] == "`"):
            continue
        out.append(sp)
    return out


class BlockInfo:
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
                k = [m.end for m in self.systems]   # non-overlapping matches: ends ascend too
            elif what == "masked":
                k = [a for a, _ in self.b.masked]
            else:
                k = [m.start for m in getattr(self, what)]
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
                found = find_entities(self.doc.text, b.start, b.end, kinds=("system",),
                                      local=local_pattern(self.doc.systems))
            self._systems = unmasked(found, b.masked)
        return self._systems

    @property
    def conds(self):
        if self._conds is None:
            b = self.b
            found = self._found_conds
            if found is None:
                found = find_conditions(self.doc.text, b.start, b.end, self._names)
            self._conds = unmasked(found, b.masked, self.doc.text)
        return self._conds

    @property
    def markers(self):
        if self._markers is None:
            self._markers = find_markers(self.doc.text, self.b.start, self.b.end)
        return self._markers

    @property
    def setup(self):
        """Conditions this block states as a setup: after a setup label ('实测条件：…', 'Setup: …'),
        inside a setup parenthesis ('Test conditions (8×H100, …)'), else none."""
        if self._setup is None:
            line_rx, paren_rx = _rx()[:2]
            b, text = self.b, self.doc.text
            m = line_rx.match(b.text)      # on the block's own text: '^' anchors at its start
            if m and "（" not in m.group(0) and "(" not in m.group(0):
                # what the label introduces: a mention reaching past the label (a labelled
                # value's mention, '**模型**：`kaldi_…`', starts at the label itself)
                self._setup = [c for c in self.conds if c[3] > b.start + m.end()]
            else:
                out = []
                for pm in paren_rx.finditer(text, b.start, b.end):
                    out.extend(self.within("conds", pm.start("body"), pm.end("body")))
                self._setup = out
        return self._setup


def bounds(text, lo, hi, s, e, rx=SENT_END):
    """(start, end) of the sentence/clause around text[s:e] within [lo, hi) (bounded window)."""
    a = max(lo, s - WINDOW)
    left = a
    for m in rx.finditer(text, a, s):
        left = m.end()
    z = min(hi, e + WINDOW)
    m = rx.search(text, e, z)
    right = m.start() if m else z
    return left, right


def _front_matter_conditions(doc):
    """Conditions named in the title / summary / description fields of a leading front matter."""
    if not doc.front_matter:
        return []
    text = doc.text
    out = []
    for i in range(1, doc.front_matter - 1):
        s = doc.line_starts[i]
        e = doc.line_starts[i + 1] if i + 1 < len(doc.line_starts) else len(text)
        if _FM_FIELD.match(text, s, e):
            out.extend(find_conditions(text, s, e))
    return out


def _first_per_facet(found):
    seen, out = set(), []
    for x in found:
        if x.kind not in seen:
            seen.add(x.kind)
            out.append(x)
    return out


class Scopes:
    """Per-document answers to "which conditions apply to a figure in this block?", each
    scope's list computed once and reduced to its first mention per facet."""

    def __init__(self, doc, names=None, found_conds=None, found_systems=None):
        self.doc = doc
        self.names = names or {}
        self.found_conds = found_conds or {}
        self.found_systems = found_systems or {}
        self._info = {}
        self._memo = {}
        blocks = doc.blocks
        self.entry_blocks, self.section_blocks, self.header_blocks = {}, {}, []
        self.row_blocks = {}
        for i, b in enumerate(blocks):
            if b.entry is not None:
                self.entry_blocks.setdefault(b.entry, []).append(i)
            elif b.section is not None:
                self.section_blocks.setdefault(b.section, []).append(i)
            else:
                self.header_blocks.append(i)
            if b.kind == "table_cell" and b.row is not None:
                self.row_blocks.setdefault((b.table, b.row), []).append(i)
        self.item_of = {it.block: it for it in doc.items}
        self.entry_setups, self.section_setups, self.doc_setups = {}, {}, []
        for st in doc.setups:
            if st.entry is not None:
                self.entry_setups.setdefault(st.entry, []).append(st)
            elif st.section is not None:
                self.section_setups.setdefault(st.section, []).append(st)
            else:
                self.doc_setups.append(st)
        self.post = doc.kind == "post"

    # ---- blocks

    def info(self, i) -> BlockInfo:
        bi = self._info.get(i)
        if bi is None:
            bi = self._info[i] = BlockInfo(self.doc, self.doc.blocks[i], self.names.get(i),
                                           self.found_conds.get(i), self.found_systems.get(i))
        return bi

    def _once(self, key, fn):
        v = self._memo.get(key)
        if v is None:
            v = self._memo[key] = _first_per_facet(fn())
        return v

    def _setup_mentions(self, st):
        """What a Setup record states: a setup line or parenthesis its labelled part, any other
        setup (section, list, paragraph) every mention of its blocks."""
        if st.kind in ("code", "row", "subject"):
            return list(st.mentions)
        out = []
        for k, i in enumerate(st.blocks):
            bi = self.info(i)
            if st.kind in ("line", "paren") and k == 0:
                out.extend(bi.setup or (bi.conds if st.kind == "line" else ()))
            else:
                out.extend(bi.conds)
        # a setup section's fenced blocks ('### 硬件配置' over a pasted system report)
        return out + list(st.mentions) if st.mentions else out

    # ---- the scopes, each as a list of mentions (first per facet)

    def row(self, b):
        return self._once(("row", b.table, b.row),
                          lambda: [x for i in self.row_blocks.get((b.table, b.row), ()) for x in self.info(i).conds])

    def table(self, b, own_column: bool = True):
        """The table's header cells and its caption: the cell's own column header first; a
        facet that several column headers name with different values ('| 4090 Desktop | 3090
        Desktop |') is each column's own, not the whole table's."""
        col = b.cell if own_column and b.kind == "table_cell" else None

        def compute():
            t = self.doc.tables[b.table]
            heads = [(c.column, self.info(c.block).conds) for c in t.header if c.block is not None]
            values = {}
            for _, conds in heads:
                for x in conds:
                    values.setdefault(x.kind, set()).add(x.value)
            own = [x for k, conds in heads if k == col for x in conds]
            out = own + [x for k, conds in heads if k != col for x in conds if len(values[x.kind]) < 2]
            for i in reversed(t.caption_blocks):     # the sentence nearest the table first
                out += self.info(i).conds
            return out
        return self._once(("table", b.table, col), compute)

    def item(self, bidx):
        return self._once(("item", bidx), lambda: list(self.info(bidx).conds))

    def _right_under(self, bidx, b) -> list:
        """[(scope, mentions)] of the table or list that ends right above paragraph ``bidx``:
        the table's header and caption, the list's introduction."""
        if bidx == 0:
            return []
        prev = self.doc.blocks[bidx - 1]
        if prev.section != b.section or prev.entry != b.entry or b.line - prev.line > 3:
            return []
        if prev.kind == "table_cell" and prev.table is not None:
            t = self.doc.tables[prev.table]
            if b.line - t.end_line <= 2:
                # a paragraph under the table speaks of all of it, not of its last column
                return [("table", self.table(prev, own_column=False)), ("table", self.every_row(prev.table))]
        if prev.kind == "bullet":
            return [("list", self.intro(bidx - 1))]
        return []

    def every_row(self, k: int) -> list:
        """What every row of table ``k`` states, as one mention per facet whose value lists the
        rows' values ('256×4096 / 1024×8192 / 4096×8192'): a figure summing the table up (its
        geometric mean, its range) was measured over all of them."""
        key = ("every_row", k)
        got = self._memo.get(key)
        if got is not None:
            return got
        t = self.doc.tables[k]
        per_row = []
        for row in t.rows:
            seen = {}
            for i in self.row_blocks.get((k, row.index), ()):
                for x in self.info(i).conds:
                    seen.setdefault(x.kind, x)
            per_row.append(seen)
        got = []
        if len(per_row) >= 2:
            for facet in per_row[0]:
                if all(facet in row for row in per_row):
                    first = per_row[0][facet]
                    values = list(dict.fromkeys(str(row[facet].value) for row in per_row))
                    got.append(Mention(facet, " / ".join(values), first.start, first.end, first.surface))
        self._memo[key] = got
        return got

    def parents(self, bidx) -> list:
        """The blocks of the items a nested list item sits under, nearest first."""
        key = ("parents", bidx)
        got = self._memo.get(key)
        if got is not None:
            return got
        got = self._memo[key] = self._parents(bidx)
        return got

    def _parents(self, bidx) -> list:
        it = self.item_of.get(bidx)
        if it is None or it.depth == 0:
            return []
        out, depth = [], it.depth
        k = bidx - 1
        while k >= 0 and depth > 0:
            other = self.item_of.get(k)
            if other is None or other.list_id != it.list_id:
                break
            if other.depth < depth:
                out.append(k)
                depth = other.depth
            k -= 1
        return out

    def intro(self, bidx):
        """The sentence that introduces a list item's list ('On a single 8× B300 node:')."""
        it = self.item_of.get(bidx)
        if it is None or it.intro is None:
            return []

        def compute():
            ib = self.doc.blocks[it.intro]
            info = self.info(it.intro)
            if ib.text.rstrip().endswith((":", "：")) or ib.kind != "paragraph":
                return list(info.conds)
            last = bounds(self.doc.text, ib.start, ib.end, ib.end, ib.end)
            return [x for x in info.conds if x.start >= last[0]]
        return self._once(("intro", it.intro), compute)

    def entry(self, k):
        def compute():
            out = []
            heading, named = [], []
            for i in self.entry_blocks.get(k, ()):
                if self.doc.blocks[i].kind == "entry_heading":
                    heading.extend(self.info(i).conds)
            for st in self.entry_setups.get(k, ()):
                out.extend(self._setup_mentions(st))
            # a setup line ('实测条件（8×H100，…）') is more precise than the heading ('… 在 H100 上 …')
            return out + heading
        return self._once(("entry", k), compute)

    def section(self, k):
        key = ("section", k)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = []      # guards against a cycle while this one is computed
        own, heading = [], []
        for i in self.section_blocks.get(k, ())[:1]:
            if self.doc.blocks[i].kind == "heading":
                heading.extend(self.info(i).conds)
        for st in self.section_setups.get(k, ()):
            own.extend(self._setup_mentions(st))
        found = _first_per_facet(own + heading)
        parent = self.doc.sections[k].parent
        if parent is not None:    # a sub-section inherits its parent's setup
            have = {x.kind for x in found}
            found = found + [x for x in self.section(parent) if x.kind not in have]
        self._memo[key] = found
        return found

    def told_before(self, blocks_of, k, c):
        """What the paragraphs of a post's section or numbered part said before the figure (the CI
        machine, the model under test): a post's section is one experiment, and its setup is
        written before its results.  A later sentence refines a later figure, not this one."""
        found = self._memo.get(("told", id(blocks_of), k))
        if found is None:
            blocks = self.doc.blocks
            # the machine and the model carry over; a workload, a concurrency or a prompt length
            # is said of one measurement
            found = self._memo[("told", id(blocks_of), k)] = [
                x for i in blocks_of.get(k, ()) if blocks[i].kind == "paragraph" for x in self.info(i).conds
                if x.kind in _CARRIED and not self._unsupported(blocks[i], x)]
        # the mentions are in text order: keep those before the figure, nearest last
        return [x for x in found if x.end <= c.start]

    def _unsupported(self, b, x) -> bool:
        """Does the sentence of mention ``x`` name its machine as one a feature does not run on
        ('比如 V100 显卡就不支持 flash-attention2')?"""
        if x.kind != "hardware":
            return False
        text = self.doc.text
        lo, hi = bounds(text, b.start, b.end, x.start, x.end)
        return _rx()[6].search(text, lo, hi) is not None

    def header(self):
        """A post's region above its first section: its paragraphs describe the post's lead
        figures (a TL;DR and the caption under its chart)."""
        def compute():
            blocks = self.doc.blocks
            # paragraphs only: one bullet's model is not another bullet's setup
            return [x for i in self.header_blocks if blocks[i].role in ("header", "body")
                    and blocks[i].kind in ("paragraph", "heading") for x in self.info(i).conds]
        return self._once(("header",), compute)

    def document(self):
        def compute():
            doc, blocks = self.doc, self.doc.blocks
            label_rx = _rx()[2]
            out = []
            if self.post:
                # the title and the lead paragraphs of a post state what the whole post is about
                # ('We ran Llama 3.1 70B on 8×H100'); a labelled metadata line ('基线：…') and a
                # bullet are statements among others, not the setup
                # (a chart's caption in an HTML block describes that chart, not the whole post)
                lead = [i for i in self.header_blocks if blocks[i].role in ("header", "body")
                        and blocks[i].kind in ("heading", "paragraph") and not blocks[i].html
                        and not label_rx.match(blocks[i].text)][:_LEAD_BLOCKS]
                out += [x for i in lead for x in self.info(i).conds]
            else:
                # a digest's title line only ('# 推理 · 日报' names no setup of its entries)
                out += [x for i in self.header_blocks[:1] if blocks[i].kind == "heading"
                        for x in self.info(i).conds]
            for st in self.doc_setups:
                out += self._setup_mentions(st)
            out += _front_matter_conditions(doc)
            if self.post:
                out += self._dominant()
                out += self._one_launch()
                # a leading 'Overview' / 'TL;DR' / '背景' section introduces the whole document
                intro_rx = _rx()[3]
                from .segment import clean_title
                tops = [k for k, sec in enumerate(doc.sections) if sec.parent is None][:2]
                for k in tops:
                    if intro_rx.match(clean_title(doc.sections[k].title)):
                        out += [x for i in self.section_blocks.get(k, ()) for x in self.info(i).conds]
            return out
        return self._once(("document",), compute)

    def _one_launch(self):
        """A post whose launch commands all serve one model (on one GPU type) was measured with
        it: 'vllm serve /data/Qwen3-8B' in every startup block of a report on three methods."""
        code = [st for st in self.doc.setups if st.kind == "code"]
        out = []
        for kind in ("model", "hardware"):
            ms = [x for st in code for x in st.mentions if x.kind == kind]
            if ms and len({x.value for x in ms}) == 1:
                out.append(ms[0])
        return out

    def _dominant(self):
        """A post that names one GPU (or one model) nearly everywhere it names one states its
        setup for the whole post: 'RTX 4090' fourteen times and two other cards once each.  The
        first mention of such a value is a document-wide condition.  A post naming several
        (B300 for one test, GB300 for another) leaves each figure to say its own."""
        tally = {}
        blocks = self.doc.blocks
        for i, ents in self.names.items():
            if blocks[i].role not in ("header", "body", "summary"):
                continue
            for mention in unmasked(ents, blocks[i].masked, self.doc.text):
                kind, canon, sf = mention.kind, mention.value, mention.surface
                if kind not in ("hardware", "model"):
                    continue
                key = _COUNT_PREFIX.sub("", canon).lower()
                slot = tally.setdefault(kind, {}).setdefault(key, [0, mention, set(), set()])
                slot[0] += 1
                slot[3].add(blocks[i].section)
                pool = _POOL.match(sf)       # '1xH100' is written with its count, canonical 'H100'
                if pool:
                    slot[2].add(int(pool.group(1)))
        out = []
        for kind, vals in tally.items():
            total = sum(v[0] for v in vals.values())
            best = max(vals.values(), key=lambda v: v[0])
            # '1xH100' and '4xH100' are two setups of one GPU type, not one
            # ... and named in more than one section: a section about it ('## Apple Silicon Achieves
            # Tier 1 Status') names it in its heading and its text, and is about no measurement
            if best[0] >= _DOMINANT_MIN and best[0] >= _DOMINANT_SHARE * total and len(best[2]) <= 1 \
                    and (len(best[3]) > 1 or len(self.doc.sections) <= 1):
                out.append(best[1])
        return out

    # ---- the chain for one figure

    def chain(self, c, b, sent):
        """[(scope, mentions)] for figure ``c`` in block ``b`` whose sentence spans ``sent``,
        nearest scope first; within the sentence, nearest mention first."""
        text = self.doc.text
        bi = self.info(c.block)
        in_sent = list(bi.within("conds", sent[0], sent[1]))
        paren = _PAREN_AFTER.match(text, c.end)
        p_end = text.find(")" if text[paren.end() - 1] == "(" else "）", paren.end(), sent[1] + 1) if paren else -1

        clause = bounds(text, sent[0], sent[1], c.start, c.end, CLAUSE_END)

        def distance(x):
            if paren and paren.end() <= x.start and (p_end < 0 or x.start < p_end):
                return (-1, 0)             # the parenthesis right after the figure
            d = c.start - x.end if x.end <= c.start else x.start - c.end
            # a mention in the figure's own clause before one of another clause of the sentence
            return (0 if clause[0] <= x.start < clause[1] else 1, d)
        in_sent.sort(key=distance)
        out = [("sentence", in_sent)]
        if b.kind == "paragraph" and sent[0] > b.start:
            if ANAPHORA.match(text, sent[0], sent[1]):
                # 'That is roughly 50% better than …' speaks of the previous sentence's setup
                prev = bounds(text, b.start, b.end, sent[0] - 1, sent[0] - 1)
                out.append(("sentence", bi.within("conds", prev[0], prev[1])))
            if self.post:
                # an earlier sentence of the same paragraph of a post ('On the CI machine (1× H100)
                # … . Throughput fell 55%'); a digest's paragraph strings unrelated statements
                out.append(("paragraph", list(reversed(bi.within("conds", max(b.start, sent[0] - 4 * WINDOW),
                                                                 sent[0])))))
            elif text.startswith("**", b.start):
                # … unless it is one item under its bold lead ('**中电信开源 星辰 Xing4.0-29B-A4B：…** —
                # 9/17 开源 … 训练吞吐提升约 96%'): the lead names what the item's figures are of
                lead_end = text.find("**", b.start + 2, sent[0])
                if lead_end > 0:
                    out.append(("paragraph", bi.within("conds", b.start, lead_end)))
        if b.kind == "paragraph":
            # a paragraph right under a table or a list speaks of it ('几何平均 6.23×' after an
            # 'H200 microbenchmark：' table, '同时 C1 TTFT +10.29%' after an 'MI350X、8k1k：' list)
            out.extend(self._right_under(c.block, b))
        if b.kind == "table_cell" and b.table is not None:
            out.append(("row", self.row(b)))
            out.append(("table", self.table(b)))
        elif b.kind == "bullet":
            out.append(("bullet", self.item(c.block)))
            # a nested item's parents ('* GB300 NVL72 相对 H200 NVL8：' over '  * DeepSeek: 15×'),
            # unless the item names its own model and the parent another: then the parent
            # heads several subjects and its setup is the other's ('Llama 3.3 70B GB200 和
            # Kimi 模型回归：' over '  * Kimi K2.6 … 3.7%')
            own = {x.value for x in self.item(c.block) if x.kind == "model"}
            for p in self.parents(c.block):
                up = self.item(p)
                if own and any(x.kind == "model" and x.value not in own for x in up):
                    break
                out.append(("bullet", up))
            out.append(("list", self.intro(c.block)))
        if self.elsewhere(c, b, sent):
            # a figure from another experiment (a quick test, a cited paper) keeps its own words
            # only; a quick test told of in a post about one model ran that model (a cited
            # paper did not)
            if self.post and self._told_elsewhere(sent) and not self._cited_paper(c, b, sent):
                out.append(("document", [x for x in self.document() if x.kind == "model"]))
            return out
        if b.entry is not None:
            out.append(("entry", self.entry(b.entry)))
            if self.post:
                out.append(("entry", list(reversed(self.told_before(self.entry_blocks, b.entry, c)))))
        if b.section is not None:
            out.append(("section", self.section(b.section)))
            if self.post:
                k, seen = b.section, 0
                while k is not None and seen < 16:     # the section, then the sections it is part of
                    out.append(("section", list(reversed(self.told_before(self.section_blocks, k, c)))))
                    k, seen = self.doc.sections[k].parent, seen + 1
        elif self.post:
            out.append(("header", self.header()))
        out.append(("document", self.document()))
        return out

    def elsewhere(self, c, b, sent) -> bool:
        """Does the figure report another experiment than the document's own: its sentence says
        so ('In a simple test …', 'Early experiments show …'), or it quotes a cited paper (its
        sentence or the one before it, or the line right before its block, links an arXiv or
        conference paper; a paper linked earlier in a long paragraph is what a method comes
        from, not where the figure does)?"""
        return self._told_elsewhere(sent) or self._cited_paper(c, b, sent) or self._table_elsewhere(b)

    def _table_elsewhere(self, b) -> bool:
        """A table cell whose caption says the table is another experiment's ('某某的论文在 332 MB
        embedding 的场景下测得:', 'In a quick test …:')."""
        if b.table is None:
            return False
        key = ("table elsewhere", b.table)
        got = self._memo.get(key)
        if got is None:
            t = self.doc.tables[b.table]
            caption = t.caption_blocks or ([t.caption] if t.caption is not None else [])
            rx, text, blocks = _rx()[4], self.doc.text, self.doc.blocks
            got = self._memo[key] = any(rx.search(text, blocks[i].start, blocks[i].end) for i in caption)
        return got

    def _told_elsewhere(self, sent) -> bool:
        """The figure's sentence says it comes from another experiment ('初步实验', 'a quick test')."""
        key = ("elsewhere", sent)
        told = self._memo.get(key)      # the figures of one sentence share its words
        if told is None:
            told = self._memo[key] = bool(_rx()[4].search(self.doc.text, sent[0], sent[1]))
        return told

    def _cited_paper(self, c, b, sent) -> bool:
        """The figure quotes a cited paper (its sentence or the one before it, or the line right
        before its block, links an arXiv or conference paper), unless the sentence says the
        method is implemented here ('… is implemented by fusing … and achieves ~3X speedup')."""
        cited = self._cites_paper(c.block) and self._cites_paper_near(b, sent)
        if not cited:
            prev = c.block - 1
            cited = prev >= 0 and self.doc.blocks[prev].line + 1 >= b.line and self._cites_paper(prev)
        return cited and not _rx()[5].search(self.doc.text, sent[0], sent[1])

    def _cites_paper_near(self, b, sent) -> bool:
        text = self.doc.text
        lo = bounds(text, b.start, b.end, sent[0] - 1, sent[0] - 1)[0] if sent[0] > b.start else sent[0]
        part = text[lo:sent[1]]
        return bool(_PAPER_LINK.search(part) or "arxiv:" in part.lower())

    def _cites_paper(self, i) -> bool:
        key = ("paper", i)
        got = self._memo.get(key)
        if got is None:
            b = self.doc.blocks[i]
            got = self._memo[key] = [bool(("rxiv" in b.text.lower() or "://" in b.text)
                                          and (_PAPER_LINK.search(b.text) or "arxiv:" in b.text.lower()))]
        return got[0]


def document_facets(doc, claims) -> dict:
    """facet -> (line, surface) of the first mention of its most named value anywhere in the
    document (see ``Analysis.named_facets``)."""
    seen = {}      # facet -> {value: [count, line, surface]}

    def tally(mentions):
        for facet, v, s, _e, sf in mentions:
            key = _COUNT_PREFIX.sub("", str(v)).lower()    # '2×H100' is H100
            slot = seen.setdefault(facet, {}).setdefault(key, [0, doc.line_col(s)[0], sf])
            slot[0] += 1
    for b in doc.blocks:
        # a name in inline code counts, as in a block's own conditions ('**GPU**: `Tesla T4`')
        tally(unmasked(find_conditions(doc.text, b.start, b.end), b.masked, doc.text))
    for st in doc.setups:
        if st.kind == "code":      # a launch command in a code block states its model and GPU too
            tally(st.mentions)
    out = {f: tuple(max(vals.values(), key=lambda x: (x[0], -x[1]))[1:]) for f, vals in seen.items()}
    for c in claims:      # what the scopes gave figures (setup lines …)
        for f, cond in (c.conditions or {}).items():
            if f not in out and getattr(cond, "value", None):
                out[f] = (getattr(cond, "line", 0) or c.line, getattr(cond, "surface", "") or "")
    return out
