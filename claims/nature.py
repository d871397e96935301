"""What a figure is: a measured or claimed performance result, or something else.

``classify(doc, claims)`` sets ``Claim.nature`` (DESIGN.md, "The claim"):

- ``result``: a measured or claimed performance or quality figure — the only nature that
  needs preconditions;
- ``setting``: a configured limit, timeout, window, rate cap, threshold;
- ``capacity``: hardware or model size, a device's memory, a download or file size, a
  network link's speed (a memory figure is a capacity unless it is used while serving);
- ``size``: the length of a piece of media or input ('每 2 秒音频', 'a 10 s clip');
- ``hypothetical``: supposed, illustrative, theoretical or target values;
- ``symptom``: a value quoted from a bug report, a user-interface or start-up delay;
- ``count``: a number of items;
- ``quote``: a figure inside another document's title, a catalogue of sources, a changelog;
- ``withdrawn``: a figure the text itself says was wrong ('showed 18x but was incorrect');
- ``interval``: a lifetime or the time between events, not a latency ('KV 的 P99 寿命 97 秒');
- ``market``: a business figure of a news item (sales, revenue, prices, growth of a company);
- ``log``: a build or test step's duration logged with its outcome ('构建全部通过：… 75.5 秒').

The decision is a table of named tests (``_TESTS``), each reading the words around the
figure through the document model (its sentence, clause, block and table); the first test
that holds names the nature.  The words are data: claims/data/nature.yaml.
"""
from __future__ import annotations

import bisect

import re
from functools import lru_cache

from ._data import load
from .entities import guarded
from .scopes import bounds
from .structure import CLAUSE_END, SENT_END
from .names import quoted_titles
from .pattern_cache import compile_re  # compiled once per machine, not per process

# words that say what was measured: a latency or duration next to one of them is a result
_PERF_WORD = compile_re(r"延迟|时延|耗时|加载|吞吐|首\s?token|(?<![A-Za-z])(?:latency|TTFT|TPOT|ITL|load(?:s|ing|ed)?|"
                        r"throughput|tok(?:en)?s?/s|req(?:uest)?s?/s|faster|slower)(?![A-Za-z])", re.IGNORECASE)
_RATE_UNIT = compile_re(r"QPS|RPS|req(?:uest)?s?\s?/\s?s|请求/秒", re.IGNORECASE)
_NEEDS = compile_re(r"需要|(?<![A-Za-z])(?:needs?|requires?|takes?)(?![A-Za-z])", re.IGNORECASE)
_CATALOGUE_HEAD = compile_re(r"^(?:files?|paths?|repo(?:sitory)?|commits?|licen[cs]es?|urls?|links?|sources?|authors?|"
                             r"文件|路径|仓库|许可(?:证)?|来源|链接|作者)$", re.IGNORECASE)
_CHANGELOG_TITLE = compile_re(r"(?i)^(?:change\s?log|changes|release notes|what'?s new|更新日志|变更日志|发布说明)\b")
# a release heading ('v0.6.0', '[1.2.0] - 2024-09-05', '0.7 (2024-10-01)', '## 2.1'), not a
# numbered section ('1.1 RadixAttention', '2.1 各场景吞吐量对比')
_VERSION_HEADING = compile_re(r"^\[?(?:v\d+(?:\.\d+)+|\d+\.\d+\.\d+|\d+\.\d+(?=\]?\s*(?:$|[-–—(（]|\d{4}-)))\]?(?:\s|$)")


@lru_cache(maxsize=None)
def _rx():
    d = load("nature.yaml")
    return {k: _compile("|".join("(?:%s)" % p for p in v)) for k, v in d.items()}


def _compile(pattern: str):
    # searched for at every figure: a guard on the first characters skips most positions
    # (entities.guarded, same matches); a pattern anchored at '^' is only ever matched
    if all(p.startswith("^") for p in pattern[3:-1].split(")|(?:")):
        return compile_re(pattern, re.IGNORECASE)
    return guarded(pattern, re.IGNORECASE)


class _Around:
    """The text around one figure, cut once: its sentence and clause, and near windows."""

    __slots__ = ("text", "c", "sent", "clause")

    def __init__(self, doc, b, c, cut=None):
        self.text, self.c = doc.text, c
        if cut is None:
            cut = (bounds(doc.text, b.start, b.end, c.start, c.end, SENT_END),
                   bounds(doc.text, b.start, b.end, c.start, c.end, CLAUSE_END))
        self.sent, self.clause = cut

    def before_in_sentence(self):
        return self.text[self.sent[0]:self.c.start]

    def near(self, left, right):
        return self.text[max(self.sent[0], self.c.start - left):min(self.sent[1], self.c.end + right)]

    def clause_text(self):
        return self.text[self.clause[0]:self.clause[1]]

    def sentence_text(self):
        return self.text[self.sent[0]:self.sent[1]]


def _catalogue_tables(doc) -> set:
    """Tables that inventory other documents (columns file / repository / path / commit /
    licence …): their cells quote those documents, they claim nothing."""
    out = set()
    for k, t in enumerate(doc.tables):
        heads = [c.text.strip("*_ ").strip() for c in t.header]
        if sum(1 for h in heads if _CATALOGUE_HEAD.match(h)) >= 2:
            out.add(k)
    return out


def _description_columns(doc, rx) -> set:
    """(table, column) of the description column of a listing of other projects: a table with
    a name column and a description column ('| 项目名称 | 语言 | 项目介绍 |')."""
    out = set()
    for k, t in enumerate(doc.tables):
        heads = [(c.column, c.text.strip("*_ ").strip()) for c in t.header]
        if not any(rx["listing_name_head"].match(h) for _, h in heads):
            continue
        out |= {(k, col) for col, h in heads if rx["listing_description_head"].match(h)}
    return out


def _is_changelog(doc) -> bool:
    title = (doc.title or "").strip("# ").strip()
    if _CHANGELOG_TITLE.match(title):
        return True
    heads = [s for s in doc.sections if s.level <= 3]
    return len(heads) >= 3 and sum(1 for s in heads if _VERSION_HEADING.match(s.title)) * 2 > len(heads)


def _in_title_quote(a: _Around, rx) -> bool:
    """Inside 《…》, or inside a quoted span that a title cue introduces ('blog, "v0.6.0: 2.7x …"')."""
    t, c = a.text, a.c
    lo = max(a.sent[0], c.start - 200)
    open_cn = t.rfind("《", lo, c.start)
    if open_cn >= 0 and t.find("》", open_cn, c.start) < 0 and t.find("》", c.end, c.end + 200) >= 0:
        return True
    for o, e in (("“", "”"), ('"', '"')):
        q = t.rfind(o, lo, c.start)
        if q < 0 or t.find(e, c.end, c.end + 200) < 0 or (o == e and t.count('"', lo, c.start) % 2 == 0):
            continue
        if o != e and t.find(e, q + 1, c.start) >= 0:
            continue
        if rx["title_cue"].search(t, max(lo, q - 40), q):
            return True
    return False


def _test_withdrawn(ctx, a, c):
    """The sentence says the figure was wrong, right after it and before any other figure:
    'showed 18x speedup but was incorrect … the actual speedup is 4.4x' (the 4.4x is the result)."""
    return bool(ctx["rx"]["withdrawn"].match(a.text, c.end, a.sent[1]))


def _test_count(ctx, a, c):
    return c.kind == "count"


def _test_quote(ctx, a, c):
    b = ctx["doc"].blocks[c.block]
    if ctx["changelog"] or b.role in ("sources_table", "references"):
        return True
    if b.table is not None and b.table in ctx["catalogue"]:
        return True
    if b.table is not None and b.cell is not None and (b.table, b.cell) in ctx["descriptions"]:
        return True     # a listed project's own blurb ('30秒网页部署，1分钟手机通知')
    if b.quoted and _quotes_a_source(ctx["doc"], c.block):
        return True
    # a figure in a quoted issue or PR title ('fix(app): shorten … transition to 160ms (#48702)')
    # is its author's, as the title is
    titles = ctx["titles"]
    k = bisect.bisect_right(titles, (c.start, float("inf"))) - 1
    if k >= 0 and titles[k][0] <= c.start < titles[k][1]:
        return True
    return _in_title_quote(a, ctx["rx"])


def _quotes_a_source(doc, bi) -> bool:
    """A block quote that reproduces a cited source: the quote itself, or the paragraph right
    before it, links another page ('参考 [continuous-batching](https://…)' then '> - Up to 23x …').
    A quoted note or benchmark line of the document's own ('> **Benchmark（…）：**') links none."""
    k = bi
    while k >= 0 and doc.blocks[k].quoted:
        if "](http" in doc.blocks[k].text:
            return True
        k -= 1
    if k < 0 or k == bi:
        return False
    prev = doc.blocks[k]
    return prev.kind == "paragraph" and "](http" in prev.text and doc.blocks[k + 1].line - prev.line <= 2


def _under_header(ctx, c, rx) -> bool:
    """A table cell whose column header (a block of its own) matches ``rx``."""
    doc = ctx["doc"]
    b = doc.blocks[c.block]
    if b.kind != "table_cell" or b.table is None:
        return False
    head = doc.tables[b.table].header_of(b.cell)
    if head is None or head.block == c.block:
        return False
    hb = doc.blocks[head.block]
    return bool(rx.match(doc.text[hb.start:hb.end].strip("| \t")))


def _under_target_header(ctx, c) -> bool:
    """A table cell under a column headed as a goal ('| Target TPS |', '| 目标吞吐 |', '| Expected |'):
    the column states what is aimed at, not what was measured."""
    return _under_header(ctx, c, ctx["rx"]["target_header"])


def _test_hypothetical(ctx, a, c):
    rx = ctx["rx"]
    if _under_target_header(ctx, c):
        return True
    before = a.before_in_sentence()
    # the figure's own bound word may carry the cue's verb: '应' + '超过 90%'
    return bool(rx["hypothetical"].search(before) or rx["modal_before"].search(before[-8:])
                or rx["hypothetical"].match(a.text, c.end, min(a.sent[1], c.end + 6))
                or rx["potential_after"].match(a.text, c.end, min(a.sent[1], c.end + 24))
                or _in_scenario(ctx, c))


def _in_scenario(ctx, c) -> bool:
    """A list item of a worked scenario: its list opens with 'suppose …' / '假设 …'."""
    doc = ctx["doc"]
    it = ctx["items"].get(c.block)
    if it is None:
        return False
    first = ctx["first_item"].get(it.list_id)
    if first is None or first == c.block:
        return False
    return bool(ctx["rx"]["scenario"].match(doc.blocks[first].text))


def _test_media(ctx, a, c):
    return c.kind in ("latency", "duration") and bool(ctx["rx"]["media"].search(a.near(16, 16)))


def _test_load(ctx, a, c):
    """A request rate written as the load a measurement ran under, not a result."""
    if c.kind != "throughput" or not _RATE_UNIT.search(c.surface):
        return False
    rx = ctx["rx"]
    after = a.text[c.end:min(a.sent[1], c.end + 24)]
    if rx["load"].match(after):
        return True
    before = a.text[max(a.sent[0], c.start - 16):c.start]
    # 'from 3 QPS to 60 QPS of traffic', 'at 32 QPS': a rate after a preposition, with a load word near
    return bool(rx["load_before"].search(before) and rx["load_word"].search(a.text, c.end, min(a.sent[1], c.end + 40)))


def _test_run_length(ctx, a, c):
    """How long a load test ran ('持续20秒', '4线程 x 10秒', 'ran for 60 s', a '| 时长(s) |' column):
    the length the test was given, not a latency it measured."""
    if c.kind not in ("latency", "duration"):
        return False
    rx = ctx["rx"]
    return bool(rx["run_length_before"].search(a.text, max(a.clause[0], c.start - 16), c.start)) \
        or _under_header(ctx, c, rx["run_length_header"])


def _test_level(ctx, a, c):
    """'For 0% hit rate, the kernel yields 6% worse throughput': the hit rate is the level the
    6% was measured at, a setting of the run."""
    if c.kind != "percent":
        return False
    rx = ctx["rx"]
    return bool(rx["level_after"].match(a.text, c.end, min(a.sent[1], c.end + 30))
                and rx["level_before"].search(a.text, max(a.sent[0], c.start - 12), c.start))


def _test_setting(ctx, a, c):
    # the limit word governs the figure: written right before or right after it
    # ('timeout of 30 s', '每隔 5 秒', '60 RPM per key'), not anywhere in its sentence
    return bool(ctx["rx"]["setting"].search(a.near(14, 12)) or ctx["rx"]["service_level"].search(a.near(40, 0)))


def _test_ui(ctx, a, c):
    # a delay of the interface or of start-up ('白屏 1-2 秒', '需要先花约 6 秒导入 torch … 浏览器'),
    # unless its clause says what was measured ('冷启动/权重加载 … <1 秒' is a load time)
    if c.kind not in ("latency", "duration") or _PERF_WORD.search(a.clause_text()):
        return False
    return bool(ctx["rx"]["ui"].search(a.sentence_text()))


_ISSUE_LABEL = compile_re(r"^\s{0,2}\[?#\d{1,7}\]?\(\s*https?://[^)\s]*/issues/\d+")


def _in_issue_row(ctx, c) -> bool:
    """A table row that lists an issue ('| [#18953](…/issues/18953) | 复杂 Shell 命令执行速度极慢 |
    性能问题 | … | 100 倍 slowdown |'): its figures are what the issue reports."""
    doc = ctx["doc"]
    b = doc.blocks[c.block]
    if b.kind != "table_cell" or b.table is None:
        return False
    row = next((r for r in doc.tables[b.table].rows if r.index == b.row), None)
    return bool(row is not None and row.cells and row.cells[0].column == 0
                and _ISSUE_LABEL.match(row.cells[0].text))


def _test_symptom(ctx, a, c):
    rx = ctx["rx"]
    if c.kind in ("ratio", "percent", "latency", "duration") and _in_issue_row(ctx, c):
        return True
    # the sentence, or the clause after a ';' that ends it ('… 3x lower throughput; a fix is in progress')
    if c.kind in ("ratio", "percent") and rx["tool_bug"].search(a.text, a.sent[0], min(len(a.text), a.sent[1] + 60)):
        return True     # what a tool's bug report measured ('… 低约 3 倍，修复程序正在进行中')
    if c.kind == "percent":
        return bool(rx["occupancy"].search(a.text, c.end, min(len(a.text), c.end + 14)))
    if c.kind == "memory":
        # free memory, a pagefile, a negative estimate in a bug's description
        return c.negative or bool(rx["symptom"].search(a.sentence_text()))
    if c.kind in ("latency", "duration"):
        # a delay in a bug's description ('继续服务模型最长 30 秒 … 的问题'), unless the clause says
        # what was measured (a load time, a latency)
        return not _PERF_WORD.search(a.clause_text()) and bool(rx["symptom"].search(a.sentence_text()))
    return False


def _test_constraint(ctx, a, c):
    # the latency another figure was measured under ('P99 TTFT 2.25s / TBT 0.5s 下，…',
    # 'under a P99 TTFT SLO of 2 s'): written right before or after it in its clause
    if c.kind not in ("latency", "duration"):
        return False
    rx = ctx["rx"]
    return bool(rx["constraint_after"].match(a.text, c.end, min(len(a.text), a.sent[1] + 2))
                or rx["constraint_before"].search(a.text, max(a.clause[0], c.start - 60), c.start))


def _test_interval(ctx, a, c):
    # a lifetime or an interval between events, named in the figure's clause, its list item's
    # lead or its table row's label ('Carrier lifetime at the edge | 6.51ns')
    if c.kind not in ("latency", "duration"):
        return False
    rx = ctx["rx"]["interval"]
    if rx.search(a.clause_text()):
        return True
    doc = ctx["doc"]
    b = doc.blocks[c.block]
    if b.table is not None:
        row = next((r for r in doc.tables[b.table].rows if r.index == b.row), None)
        return bool(row is not None and row.cells and row.cells[0].column == 0 and rx.search(row.cells[0].text))
    # a bullet's bold lead names what its figures are ('- **复用时距**决定 …：… to-B <10 秒')
    return b.kind == "bullet" and bool(rx.search(_LEAD.match(b.text).group(0)))


_LEAD = compile_re(r"^\s{0,4}(?:\*\*[^*\n]{1,40}\*\*|__[^_\n]{1,40}__)?")


def _test_build_log(ctx, a, c):
    """A build or test step's duration logged with its outcome: its sentence names the step and
    says it passed or failed ('三条增量构建全部通过：`//:th_transformer` 75.530 秒'), or its table
    row gives the outcome and the row, the header or the section title names the step ('| target |
    结果 | 耗时/s |' under '## 构建及验证').  A clause that says what was measured (a latency, a
    throughput) keeps its figure a result."""
    if c.kind not in ("latency", "duration") or _PERF_WORD.search(a.clause_text()):
        return False
    rx = ctx["rx"]
    doc = ctx["doc"]
    b = doc.blocks[c.block]
    if b.table is None:
        sent = a.sentence_text()
        return bool(rx["build_step"].search(sent) and rx["step_outcome"].search(sent))
    t = doc.tables[b.table]
    row = next((r for r in t.rows if r.index == b.row), None)
    if row is None:
        return False
    cells = " | ".join(x.text for x in row.cells)
    if not rx["step_outcome"].search(cells):
        return False
    title = doc.sections[t.section].title if t.section is not None else ""
    return bool(rx["build_step"].search(" | ".join([cells, title, *(h.text for h in t.header)])))


def _test_market(ctx, a, c):
    # a sales, revenue or growth figure of a news item ('销量 … 同比增长 9 倍', 'revenue grew 3x'),
    # or a growth clause of a sentence about one ('ARR 已超过 3 亿美元，两年内增长三倍')
    if c.kind not in ("ratio", "percent"):
        return False
    rx = ctx["rx"]["market"]
    clause = a.clause_text()
    if rx.search(clause):
        return True
    return bool(ctx["rx"]["growth"].search(clause) and not _PERF_WORD.search(clause)
                and rx.search(a.sentence_text()))


def _test_capacity(ctx, a, c):
    if c.kind == "bandwidth":
        return not ctx["rx"]["measured_rate"].search(a.clause_text())
    if c.kind != "memory":
        return False
    # a memory figure is a footprint only when the clause says it is used while serving, or a
    # serving system needs it ('TGI 3.2 needs 62 GB'; '需 ≥32 GB 共享内存' for an iGPU is a spec)
    clause = a.clause_text()
    if c.subject and _NEEDS.search(clause):
        return False
    return c.negative or not ctx["rx"]["usage"].search(clause)


# (nature, test): the first test that holds names the figure's nature; each has its cases in
# tests/claims/test_nature.py
_TESTS = (
    ("count", _test_count),
    ("quote", _test_quote),
    ("withdrawn", _test_withdrawn),
    ("hypothetical", _test_hypothetical),
    ("size", _test_media),
    ("setting", _test_load),
    ("setting", _test_run_length),
    ("setting", _test_level),
    ("setting", _test_setting),
    ("symptom", _test_ui),
    ("symptom", _test_symptom),
    ("setting", _test_constraint),
    ("interval", _test_interval),
    ("log", _test_build_log),
    ("market", _test_market),
    ("capacity", _test_capacity),
)


def classify(doc, claims, around=None) -> None:
    """Set ``nature`` on every claim of ``doc`` (in place).  ``around``: id(claim) ->
    (sentence, clause) offsets as ``context.annotate`` cut them (cut again when absent)."""
    if not claims:
        return
    first_item = {}
    for it in doc.items:
        first_item.setdefault(it.list_id, it.block)
    rx = _rx()
    ctx = {"doc": doc, "rx": rx, "catalogue": _catalogue_tables(doc), "changelog": _is_changelog(doc),
           "descriptions": _description_columns(doc, rx),
           "items": {it.block: it for it in doc.items}, "first_item": first_item,
           "titles": quoted_titles(doc, links=False)}
    for c in claims:
        if c.block is None:
            c.nature = "count" if c.kind == "count" else "result"
            continue
        a = _Around(doc, doc.blocks[c.block], c, around.get(id(c)) if around else None)
        for name, test in _TESTS:
            if test(ctx, a, c):
                c.nature = name
                break
        else:
            c.nature = "result"
