"""Derived figures that rest on a table: a speedup column, a total column, and prose that
summarizes cells ('57x faster than approximate-scheduling', 'over double the throughput',
'SGLang 比 vLLM 快 3 倍').

Tables come from the document model (``Document.tables``: header, rows, cells); a cell's
figure is the claim it holds, or its number read as a bare figure.  Part of
``claims.derive``: each function returns ``claims.model.Derivation`` records.

Prose is tied to a table by name: a sentence in the table's section (or a section below it)
that names one of the table's row labels or column headers, states a ratio or a percentage
beside a lead, gap or comparison word, and compares its subject with a baseline.  The
subject, the baseline and the measured quantity each may be read several ways (two
columns of one metric, a baseline that is 'the others'): every reading is one
``Derivation`` of the first one's ``alternatives``, and the statement holds when any
reading recomputes.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import replace
from functools import lru_cache
from typing import Optional

from ._data import load
from .derive_vocab import alternation, word_in
from .figures import find_figures
from .model import Claim, Derivation
from .structure import CELL_MARKUP
from .pattern_cache import compile_re  # compiled once per machine, not per process
from .units import canonical, kind_of

# ---------------------------------------------------------------- cells

_CELL_NUM = compile_re(r"\s*(?:\*\*)?\s*(?P<n>\d[\d,]*(?:\.(?P<d>\d+))?)\s*(?P<u>[A-Za-zμ/%]*)\s*(?:\*\*)?\s*")
_CELL_RATIO = compile_re(r"\s*(?:\*\*)?\s*[~约≈]?\s*\d+(?:\.\d+)?\s*(?:×|x|X|倍)\s*(?:\*\*)?\s*")
# a signed percent change cell: '**\+11.5%**', '−10.5%', '-16.94% (即降低了约17%)'
# ... after a mark ('✅ 57% faster', '🤯 20% less') and before the word saying which way it goes
# (derivations.yaml tables.change_cell_words)
@lru_cache(maxsize=None)
def _change_cell():
    words = load("derivations.yaml")["tables"]["change_cell_words"]
    alts = alternation([w for ws in words.values() for w in ws])
    return compile_re(r"\s*(?:[^\w\s%+＋\-−–.*|（(]{1,3}\s*)?(?:\*\*)?\s*(?P<sign>\\?[+＋]|[-−–])?\s*\d+(?:\.\d+)?\s*%\s*"
                      r"(?:\*\*)?(?:\s*(?P<word>WORDS)(?![A-Za-z]))?(?:\s*\*\*)?"
                      r"(?:\s*[（(][^）)]{0,40}[）)])?\s*".replace("WORDS", alts), re.IGNORECASE), \
        {k: tuple(w.lower() for w in ws) for k, ws in words.items()}


def cell_direction(m) -> tuple:
    """(direction, of a speed) of a change cell: its sign, else its word ('57% faster' is +1 of
    a speed: a shorter time; '20% less' is -1 as written); (0, False) when it says neither."""
    sign, word = m.group("sign"), (m.group("word") or "").lower()
    if sign is not None:
        return (1 if sign.endswith(("+", "＋")) else -1), False
    words = _change_cell()[1]
    for key, way, of_speed in (("up", 1, False), ("down", -1, False), ("better", 1, True), ("worse", -1, True)):
        if word in words[key]:
            return way, of_speed
    return 0, False


def bare_figure(doc, num: str, start: int, like=None) -> Claim:
    """A number that is no claim of its own, read as an operand: '6.78' of '6.78 → 8.95
    req/s' takes the unit of ``like``; without one it is a plain number."""
    v = float(num.replace(",", ""))
    dec = len(num.split(".")[1]) if "." in num else 0
    line, col = doc.line_col(start)
    c = Claim(path=doc.path, line=line, col=col, start=start, end=start + len(num), surface=num,
              kind="number", value=v, base_value=v, unit="dimensionless", base_unit="dimensionless",
              decimals=dec)
    if like is not None and (like.value or like.low):
        w, b = (like.value, like.base_value) if like.value else (like.low, like.base_low)
        factor = b / w if b is not None else 1.0
        c.kind, c.unit, c.base_unit, c.base_value = like.kind, like.unit, like.base_unit, v * factor
        c.block = like.block
    return c


def figure_at(doc, start: int, end: int, alone: bool = False) -> Optional[Claim]:
    """The one figure that spans ``doc.text[start:end]`` exactly, as a claim of ``doc``; None
    when the span holds none or more.  ``alone`` reads the span without the text around it
    (the figure reader refuses a number right after '×', as in '4096x4096', or inside code)."""
    if alone:
        got, shift = find_figures(doc.text[start:end]), start
    else:
        got, shift = find_figures(doc.text, start, end), 0
    if len(got) != 1 or got[0].start + shift != start or got[0].end + shift != end:
        return None
    c = got[0]
    c.start, c.end = c.start + shift, c.end + shift
    c.path = doc.path
    c.line, c.col = doc.line_col(c.start)
    return c


def claims_by_block(claims) -> dict:
    out = {}
    for c in claims:
        out.setdefault(c.block, []).append(c)
    return out


def cell_figure(doc, cell, by_block: dict, kind: str = "number") -> Optional[Claim]:
    """The figure a table cell holds: the cell's one claim ('65.8 ms', '2.14x'), else its
    number read as a bare figure ('1.286', '**8730.0**'); None when the cell holds no single
    figure.  A count beside a measurement ('73GB（32 个专家）') does not count."""
    if cell is None:
        return None
    own = by_block.get(cell.block, ())
    measured = [c for c in own if c.kind != "count"]
    if len(measured) == 1:
        return measured[0]
    if own:
        return own[0] if len(own) == 1 and kind == "count" else None
    m = _CELL_NUM.fullmatch(cell.text)
    if not m or m.group("u"):
        return None
    c = bare_figure(doc, m.group("n"), doc.text.find(m.group("n"), cell.start, cell.end))
    c.kind, c.block = kind, cell.block
    return c


def cell_name(doc, figure) -> tuple:
    """(row label, column header) of a figure read from a table cell, () for a figure of
    prose: what the reader looks up ('load-scheduling', 'Output toks/s')."""
    b = doc.blocks[figure.block] if figure.block is not None and 0 <= figure.block < len(doc.blocks) else None
    if b is None or b.kind != "table_cell" or b.table is None:
        return ()
    t = doc.tables[b.table]
    row = next((r for r in t.rows if r.index == b.row), None)
    label = row.cells[0].text.replace("*", "").replace("`", "").strip() if row is not None and row.cells else ""
    head = t.column_name(b.cell).replace("*", "").strip()
    return tuple(x for x in (label, head) if x) or ("",)


def _written_unit(cell) -> Optional[str]:
    m = _CELL_NUM.fullmatch(cell.text) if cell is not None else None
    return (m.group("u") or "") if m else None


def _same_dim(a, b) -> bool:
    return a.kind == b.kind and (a.base_unit or a.unit) == (b.base_unit or b.unit)


# ---------------------------------------------------------------- vocabulary

@lru_cache(maxsize=None)
def _words():
    d = load("derivations.yaml")
    t = d["tables"]
    return {
        "ratio_head": tuple(w.lower() for w in t["ratio_header"]),
        "pointer": compile_re(r"(?:" + alternation(t["pointer"]) + r")\s*[:：.。]?", re.IGNORECASE),
        "bare_ratio_head": tuple(w.lower() for w in t["bare_ratio_header"]),
        "total_head": tuple(w.lower() for w in t["total_header"]),
        "mean_label": frozenset(w.lower() for w in t["mean_label"]),
        "summary_label": frozenset(w.lower() for w in t["summary_label"]),
        "change_head": tuple(w.lower() for w in t["change_header"]),
        "change_not_derived": tuple(w.lower() for w in t["change_not_derived"]),
        "improvement_head": tuple(w.lower() for w in t["improvement_header"]),
        "level_head": compile_re(alternation(t["level_header"]), re.IGNORECASE),
        "baseline_head": compile_re(alternation(t["baseline_header"]), re.IGNORECASE),
        "relative_to": alternation(t["relative_to"]),
        "verb_before_object": compile_re(r"(?<![A-Za-z])(?:%s)\s{1,2}[~≈约]?$" % alternation(t["verb_before_object"]),
                                         re.IGNORECASE),
        "multipliers": {w.lower(): float(v) for w, v in t["multipliers"].items()},
        "bound_before": {w.lower(): b for w, b in t["bound_before"].items()},
        "total_before": compile_re(r"(?:%s)(?:\s{1,2}of)?\s{0,3}(?:有|了)?\s{0,3}$" % alternation(d["total_before"]), re.IGNORECASE),
        "total_after": compile_re(r"^\s{0,3}[\u4e00-\u9fffA-Za-z]{0,12}?\s{0,3}(?:%s)" % alternation(d["total_after"]),
                                  re.IGNORECASE),
    }


@lru_cache(maxsize=None)
def _metric_patterns():
    """metric -> pattern of its quantity words (claims/data/metrics.yaml, the figures' own list)."""
    d = load("metrics.yaml")
    return {name: compile_re("|".join("(?:%s)" % p for p in pats), re.IGNORECASE)
            for name, pats in (d.get("quantity") or {}).items()}


_LOWER_IS_BETTER = ("ttft", "tpot", "latency_p99", "latency", "cost")
_TIME_IN_HEADER = compile_re(r"[(（]\s*(?:s|ms|us|μs|sec|秒|毫秒)\s*[)）]|\b(?:time|duration|耗时|时长)\b", re.IGNORECASE)


def metrics_in(text: str) -> set:
    """The metrics ``text`` names, the most specific reading of each stretch: '首字延迟' and
    'Average time to first token' name TTFT, not also the latency that their words contain."""
    spans = {name: [m.span() for m in rx.finditer(text) if m.end() > m.start()]
             for name, rx in _metric_patterns().items()}
    spans = {name: sp for name, sp in spans.items() if sp}
    if len(spans) < 2:
        return set(spans)

    def covered(a, b, name):
        return any(n != name and any(x <= a and b <= y and (x, y) != (a, b) for x, y in sp)
                   for n, sp in spans.items())
    return {name for name, sp in spans.items() if not all(covered(a, b, name) for a, b in sp)}


# ---------------------------------------------------------------- speedup and total columns

def ratio_columns(doc, by_block) -> list:
    """Rows of tables with a speedup column (加速比, speedup, ratio) right after two numeric
    columns of the same written unit: the stated ratio must be the larger over the smaller."""
    out = []
    heads, bare_heads = _words()["ratio_head"], _words()["bare_ratio_head"]
    for t in doc.tables:
        cols = [c.column for c in t.header if c.column >= 2 and any(w in c.text.lower() for w in heads)]
        pairs = {k: _named_pair(t, k, heads, cols) for k in cols}
        bare = {k for k in cols if any(w in t.column_name(k).lower() for w in bare_heads)}
        bare = {k for k in bare if _column_is_ratio(t, k, *pairs[k])}
        for row in t.rows if cols else ():
            cells = {c.column: c for c in row.cells}
            for k in cols:
                ka, kb = pairs[k]
                z, a, b = cells.get(k), cells.get(ka), cells.get(kb)
                if z is None:
                    continue
                if not _CELL_RATIO.fullmatch(z.text):
                    # '| 157 | 50 | 3.4 |' under '| … Latency (ms) | … Latency (ms) | Speedup |': a
                    # speedup written as a bare number, over two cells the headers give one unit
                    if k not in bare or _CELL_NUM.fullmatch(z.text) is None or _CELL_NUM.fullmatch(z.text).group("u"):
                        continue
                    d = _bare_ratio(doc, by_block, z, a, b)
                    if d is not None:
                        out.append(d)
                    continue
                d = _cell_ratio(doc, by_block, z, a, b)
                if d is not None:
                    out.append(d)
    return out


def _cell_ratio(doc, by_block, z, a, b) -> Optional[Derivation]:
    """The ratio cell ``z`` over the cells ``a`` and ``b`` it compares, when both write one unit
    ('65.6 ms | 34.0 s': one of them is misprinted, not a ratio to check)."""
    ua, ub = _written_unit(a), _written_unit(b)
    if ua is None or ua != ub:
        return None
    fz, fa, fb = (cell_figure(doc, z, by_block, "ratio"), cell_figure(doc, a, by_block),
                  cell_figure(doc, b, by_block))
    if fz is None or fa is None or fb is None or fz.kind != "ratio":
        return None
    if not ua and not _same_dim(fa, fb):
        # '| 时间 (ms) | GFLOPS | 加速比 |': bare cells the headers give two units are two quantities
        # (the speedup is then down the column, over another row)
        return None
    return Derivation(form="ratio_column", stated=fz, operands=(fa, fb))


def _column_is_ratio(t, k, ka, kb) -> bool:
    """Is bare column ``k`` the ratio of columns ``ka`` and ``kb``: do at least half of its rows
    give the larger over the smaller within 3%?  Bare numbers under 'FT speedup' may each be
    over a baseline column further left ('TF(ms)'): then no row fits the two columns before it,
    and the column is not read as their ratio (a misprinted row stands out against the rest)."""
    fit = n = 0
    for row in t.rows:
        cells = {c.column: c for c in row.cells}
        got = [_bare_value(cells.get(j)) for j in (k, ka, kb)]
        if None in got or 0 in got:
            continue
        z, a, b = got
        n += 1
        fit += abs(z - max(a, b) / min(a, b)) <= 0.03 * z
    return n > 0 and fit * 2 >= n


def _bare_value(cell) -> Optional[float]:
    m = _CELL_NUM.fullmatch(cell.text) if cell is not None else None
    return float(m.group("n").replace(",", "")) if m and not m.group("u") else None


def _bare_ratio(doc, by_block, z, a, b) -> Optional[Derivation]:
    """A bare speedup cell ``z`` over two bare cells their headers give one measured unit
    ('Latency (ms)'): without that unit the two columns may hold anything (a batch size and a
    sequence length)."""
    if _written_unit(a) != "" or _written_unit(b) != "":
        return None
    fz, fa, fb = (cell_figure(doc, z, by_block, "ratio"), cell_figure(doc, a, by_block),
                  cell_figure(doc, b, by_block))
    if fz is None or fa is None or fb is None or fa.kind in ("number", "count") or not _same_dim(fa, fb):
        return None
    return Derivation(form="ratio_column", stated=fz, operands=(fa, fb))


def _group_label(row) -> Optional[str]:
    """The label of a row that heads a group of rows: its one filled cell is the first
    ('| **H100** |', '| **Speedup** |')."""
    full = [c for c in row.cells if c.text.strip()]
    if len(full) == 1 and full[0].column == 0:
        return CELL_MARKUP.sub("", full[0].text).strip()
    return None


def group_ratios(doc, by_block) -> list:
    """Tables cut into groups by label rows ('| **H100** |', '| **A100** |', '| **Speedup** |'):
    when the last of three groups is labelled a speedup (加速比, ratio) and has as many rows as
    each of the two before it, each of its ratio cells is the larger over the smaller of the
    same cell of the two groups' rows, matched row by row (the rows' other cells, the
    configuration, must read the same)."""
    out = []
    heads = _words()["ratio_head"]
    for t in doc.tables:
        if len(t.header) < 3:
            continue
        groups = []
        for r in t.rows:
            lab = _group_label(r)
            if lab is not None:
                groups.append((lab, []))
            elif groups:
                groups[-1][1].append(r)
        if len(groups) != 3 or not any(w in groups[2][0].lower() for w in heads):
            continue
        (_, ra), (_, rb), (_, rz) = groups
        if not (len(ra) == len(rb) == len(rz)) or not rz:
            continue
        for xa, xb, xz in zip(ra, rb, rz):
            ca, cb = {c.column: c for c in xa.cells}, {c.column: c for c in xb.cells}
            ratio_cols, same = [], True
            for z in xz.cells:
                a, b = ca.get(z.column), cb.get(z.column)
                if a is None or b is None:
                    same = False
                    break
                if _CELL_RATIO.fullmatch(z.text):
                    ratio_cols.append((z, a, b))
                elif not (CELL_MARKUP.sub("", z.text).strip() == CELL_MARKUP.sub("", a.text).strip()
                          == CELL_MARKUP.sub("", b.text).strip()):
                    same = False        # another configuration: not the row the ratio is of
                    break
            if not same:
                continue
            out += [d for d in (_cell_ratio(doc, by_block, z, a, b) for z, a, b in ratio_cols) if d is not None]
    return out


# the baseline row of a speedup column: '1.0×', '1x', '1.00 倍', '基线', 'baseline'
_UNIT_RATIO = compile_re(r"\s*(?:\*\*)?\s*(?:1(?:\.0{1,3})?\s*(?:×|x|X|倍)|基线|baseline|Baseline)\s*(?:\*\*)?\s*")
# the kinds of measurement a speedup is the quotient of (a table's baseline row, a sentence's pair)
MEASURED_KINDS = ("latency", "duration", "throughput")


def baseline_row_ratios(doc, by_block) -> list:
    """Rows of tables whose speedup column reads against one baseline row ('| π0.5 | 45.8 ms
    | 1.0× |' then '| FlashVLA | 22.1 ms | 2.43× |'): each stated speedup of at least 1 must be
    the larger over the smaller of its row's measurement and the baseline row's, in the one
    measurement column of the table (a table with several is left alone: which one the
    speedup is of cannot be told)."""
    out = []
    heads = _words()["ratio_head"]
    for t in doc.tables:
        cols = [c.column for c in t.header if c.column >= 1 and any(w in c.text.lower() for w in heads)]
        if len(cols) != 1 or len(t.rows) < 2:
            continue
        k = cols[0]
        grid = [{c.column: c for c in row.cells} for row in t.rows]
        base = [i for i, cells in enumerate(grid) if cells.get(k) is not None and _UNIT_RATIO.fullmatch(cells[k].text)]
        if len(base) != 1:
            continue
        base_cells = grid[base[0]]
        measured = [j for j, cell in base_cells.items() if j != k and
                    (f := cell_figure(doc, cell, by_block)) is not None and f.kind in MEASURED_KINDS]
        if len(measured) != 1:
            continue
        m = measured[0]
        fb = cell_figure(doc, base_cells[m], by_block)
        for i, cells in enumerate(grid):
            z, a = cells.get(k), cells.get(m)
            if i == base[0] or z is None or a is None or not _CELL_RATIO.fullmatch(z.text):
                continue
            fz, fa = cell_figure(doc, z, by_block, "ratio"), cell_figure(doc, a, by_block)
            if fz is None or fa is None or fz.kind != "ratio" or fz.value is None or fz.value < 1:
                continue        # a slowdown written below 1× reads the other way round
            if not _same_dim(fa, fb) or not fa.value or not fb.value:
                continue
            # ... or over the row right above it: a table of steps ('| v0 Naive | 14.3 | 1.0x |',
            # '| v2 | 0.86 | 16.6x |', '| v3 | 0.43 | 2.0x |') gives each step's own speedup
            steps = ()
            if i - 1 > base[0]:
                fp = cell_figure(doc, grid[i - 1].get(m), by_block)
                if fp is not None and _same_dim(fp, fa) and fp.value:
                    steps = (Derivation(form="ratio_column", stated=fz, operands=(fp, fa)),)
            out.append(Derivation(form="ratio_column", stated=fz, operands=(fb, fa), alternatives=steps))
    return out


# a column of percentages of a baseline row: '| vs Single GPU |', '| relative to FP16 |', '| 相对基线 |'
_SHARE_HEAD = compile_re(r"(?i)(?:^|[\s*_])(?:vs\.?|versus|relative(?:\s+to)?|of\s+baseline|相对|相比|对比)(?![A-Za-z])")
_HUNDRED = compile_re(r"\s*(?:\*\*)?\s*100(?:\.0{1,2})?\s*%\s*(?:\*\*)?\s*")
_CELL_PERCENT = compile_re(r"\s*(?:\*\*)?\s*[~约≈]?\s*\d+(?:\.\d+)?\s*%\s*(?:\*\*)?\s*")


def baseline_row_shares(doc, by_block) -> list:
    """Rows of tables whose percent column reads against a baseline row marked 100% ('| Single
    GPU | 9.2 | 100% |' then '| PP=2 | 40.2 | 112% |'): each row's percent must be its measurement
    over that of the nearest baseline row above it (a table of several models repeats its
    baseline row per model), in the one measurement column of the table."""
    out = []
    for t in doc.tables:
        cols = [c.column for c in t.header if c.column >= 1 and _SHARE_HEAD.search(c.text)]
        if len(cols) != 1 or len(t.rows) < 2:
            continue
        k = cols[0]
        grid = [{c.column: c for c in row.cells} for row in t.rows]
        bases = [i for i, cells in enumerate(grid) if cells.get(k) is not None and _HUNDRED.fullmatch(cells[k].text)]
        if not bases:
            continue
        measured = [j for j, cell in grid[bases[0]].items() if j != k and
                    (f := cell_figure(doc, cell, by_block)) is not None and f.kind in MEASURED_KINDS]
        if len(measured) != 1:
            continue
        m = measured[0]
        for i, cells in enumerate(grid):
            above = [b for b in bases if b < i]
            if i in bases or not above:
                continue
            base_cells = grid[above[-1]]
            z, a = cells.get(k), cells.get(m)
            if z is None or a is None or base_cells.get(m) is None or not _CELL_PERCENT.fullmatch(z.text):
                continue
            fz, fa = cell_figure(doc, z, by_block), cell_figure(doc, a, by_block)
            fb = cell_figure(doc, base_cells[m], by_block)
            if fz is None or fa is None or fb is None or fz.kind != "percent" or not fb.value \
                    or not _same_dim(fa, fb) or fa.value is None:
                continue
            out.append(Derivation(form="share", stated=fz, operands=(fb, fa)))
    return out


# the baseline row's own change cell: '基准', 'baseline', '—', '0%'
_BASE_MARK = compile_re(r"\s*(?:\*\*)?\s*(?:基准|基线|baseline|base|reference|参照|[-—–]|[±+]?0(?:\.0+)?\s*%)\s*(?:\*\*)?\s*",
                        re.IGNORECASE)


def _row_label(row) -> str:
    return row.cells[0].text.replace("*", "").replace("`", "").strip() if row.cells else ""


def baseline_row_changes(doc, by_block) -> list:
    """Rows of tables whose change column reads against one baseline row: the row marked
    '基准' / 'baseline' / '—' in that column, or the row the column's header names
    ('| 性能提升（基于 vLLM V0 比较） |', then '| vLLM V1 | 236.00 | 2686.49 | +14% |'). Which
    measurement the change is of is not said, so every measurement column is a reading (a
    time's change may be its fall or the speed it gives): the statement holds when one
    recomputes. A change read from the columns of its own row is ``change_columns``'."""
    out = []
    w = _words()
    heads = w["change_head"] + w["improvement_head"]
    for t in doc.tables:
        if len(t.rows) < 2:
            continue
        changes = [c for c in t.header if c.column >= 1 and any(h in c.text.lower() for h in heads)
                   and word_in(w["level_head"], c.text) is None
                   and not any(p in c.text.lower() for p in w["change_not_derived"])]
        if len(changes) != 1:
            continue
        k, head = changes[0].column, changes[0].text
        grid = [{c.column: c for c in row.cells} for row in t.rows]
        base = [i for i, cells in enumerate(grid) if cells.get(k) is not None and _BASE_MARK.fullmatch(cells[k].text)]
        if not base:
            # the header names the baseline row: the longest row label it contains
            named = [(len(lab), i) for i, row in enumerate(t.rows)
                     if len(lab := _row_label(row)) >= 2 and lab.lower() in head.lower()]
            base = [max(named)[1]] if named else []
        if len(base) != 1:
            continue
        b = base[0]
        improve = any(h in head.lower() for h in w["improvement_head"])
        columns = [c.column for c in t.header if 1 <= c.column != k]
        for i, cells in enumerate(grid):
            z = cells.get(k)
            m = _change_cell()[0].fullmatch(z.text) if z is not None and i != b else None
            if m is None:
                continue
            fz = cell_figure(doc, z, by_block, "percent")
            if fz is None or fz.kind != "percent":
                continue
            direction = cell_direction(m)[0]
            readings = []
            for j in columns:
                fa, fb = cell_figure(doc, cells.get(j), by_block), cell_figure(doc, grid[b].get(j), by_block)
                if fa is None or fb is None or fa.kind == "percent" or not _same_dim(fa, fb) \
                        or not fa.value or not fb.value:
                    continue
                timed = fa.kind in ("latency", "duration") or _writes_time(t.column_name(j))
                if timed:
                    readings.append(Derivation(form="change", stated=fz, operands=(fb, fa),
                                               direction=direction, inverse=True))
                if not (timed and improve):
                    readings.append(Derivation(form="change", stated=fz, operands=(fb, fa), direction=direction))
            if readings:
                out.append(replace(readings[0], alternatives=tuple(readings[1:])))
    return out


_HEAD_WORD = compile_re(r"[A-Za-z][A-Za-z0-9]+|[\u4e00-\u9fff]{2,}")


def _named_pair(t, k, heads, skip) -> tuple:
    """The two columns a ratio column ``k`` compares: those whose headers name the metric its
    own header names ('Speedup TTFT' over 'llama.cpp TTFT (ms)' and 'SGLang TTFT (ms)', in a
    table that also has TPOT columns), else the two columns right before it."""
    head = t.column_name(k).lower()
    for h in sorted(heads, key=len, reverse=True):
        head = head.replace(h, " ")
    phrase = " ".join(_HEAD_WORD.findall(head) + re.findall(r"[\u4e00-\u9fff]", head))
    if phrase:
        rest = " ".join(head.split()).strip(" ()（）:：-")
        others = [c for c in t.header if 1 <= c.column < k and c.column not in skip]
        # the header's words as a phrase ('首 token 延迟' of '首 token 延迟加速比'), else as words
        named = [c.column for c in others if rest and rest in " ".join(c.text.lower().split())]
        if len(named) != 2:
            words = set(_HEAD_WORD.findall(head))
            named = [c.column for c in others if words & set(_HEAD_WORD.findall(c.text.lower()))]
        if len(named) == 2:
            return named[0], named[1]
    return k - 2, k - 1


def _name_word(header: str) -> str:
    """The word a column is called by in prose: the first of its header ('HMA' of 'HMA tok/s')."""
    words = _HEAD_WORD.findall(header.lower())
    return words[0] if words else ""


def _later_is_base(doc, t, ja: int, jb: int) -> bool:
    """The later of two measured columns is the baseline their change column is relative to:
    its header says so and the earlier one's does not, or the text introducing the table says
    '<earlier> relative to <later>' ('以 HMA 相对 full-context 计算')."""
    w = _words()
    ha, hb = t.column_name(ja).lower(), t.column_name(jb).lower()
    if word_in(w["baseline_head"], hb) and not word_in(w["baseline_head"], ha):
        return True
    a, b = _name_word(ha), _name_word(hb)
    if len(a) < 2 or len(b) < 2 or a == b:
        return False
    said = compile_re(r"(?<![a-z0-9])%s[^。；;\n]{0,30}?(?:%s)\s*[\"'“”‘’`*]*\s*%s" % (
        re.escape(a), w["relative_to"], re.escape(b)), re.IGNORECASE)
    return any(said.search(doc.blocks[i].text) for i in t.caption_blocks)


def change_columns(doc, by_block) -> list:
    """Rows of tables with a change column (Difference, Δ, 提升百分比) after the two
    measurements it compares ('| 581.34 tok/s | 648.22 tok/s | **+11.5%** |'): the stated
    percent is the change from the earlier column to the later one, or from the later to the
    earlier when the later one is the baseline (``_later_is_base``)."""
    out = []
    improve = _words()["improvement_head"]
    level = _words()["level_head"]
    for t in doc.tables:
        changes, plain = _change_heads(t)
        better = {c.column: any(w in c.text.lower() for w in improve) for c in t.header}
        levels = {c.column: word_in(level, c.text) for c in t.header}
        base_later = {}     # (earlier, later column) -> the later is the baseline: once per table
        pairs = {k: _change_pair(t, k, plain, changes) for k in changes}
        # a change of two times written as the speed's ('| baseline (µs) | adaptive (µs) | 观测差异 |'
        # over '| 352.642 | 348.225 | +1.268% |'): the column's convention, from its rows
        speedwise = {k for k in changes if _speed_convention(t, k, pairs[k])}
        for row in t.rows if changes else ():
            cells = {c.column: c for c in row.cells}
            for k in sorted(changes):
                z = cells.get(k)
                m = _change_cell()[0].fullmatch(z.text) if z is not None else None
                if m is None or pairs[k] is None:
                    continue
                before = pairs[k]
                a, b = cells.get(before[0]), cells.get(before[1])
                ua, ub = _written_unit(a), _written_unit(b)
                if ua is None or ua != ub or ua == "%":
                    continue
                ha, hb = _header_units(t.column_name(before[0])), _header_units(t.column_name(before[1]))
                if not ua and ha and hb and ha.isdisjoint(hb):
                    # '| ms/step | samples/s | 较前一项提升 |': bare numbers under two units are
                    # two quantities (the change is down the column, from the row before)
                    continue
                fz, fa, fb = (cell_figure(doc, z, by_block, "percent"), cell_figure(doc, a, by_block),
                              cell_figure(doc, b, by_block))
                if fz is None or fa is None or fb is None or fz.kind != "percent":
                    continue
                sign = m.group("sign")
                if levels[k]:
                    if sign is None:    # '提升至 192%': the later column as a share of the earlier
                        out.append(Derivation(form="share", stated=fz, operands=(fa, fb)))
                    continue
                direction, of_speed = cell_direction(m)
                # an 'Improvement' of a time: -5% is 5% slower, a longer time; or, as a column of
                # targets writes it ('| P99 | 159ms | 50ms | 提升 -68% |'), the minus is the time's
                # own fall: both readings are kept, and a '+' on a time that rose stays a flip
                timed = fa.kind in ("latency", "duration")
                plain_fall = better[k] and timed and direction == -1
                as_speed = timed and (better[k] or of_speed or k in speedwise)
                written = direction
                if as_speed:
                    direction = -direction
                pair = (before[0], before[1])
                if pair not in base_later:
                    base_later[pair] = _later_is_base(doc, t, *pair)
                ops = (fb, fa) if base_later[pair] else (fa, fb)
                # more measurements before it ('| PM→PM | VM→PM | VM→VM | 开销 |'): the change
                # between any two of them is a reading; the statement holds when one recomputes
                others = []
                for i, j in [(i, j) for i in plain if i < k for j in plain if i < j < k]:
                    if (i, j) == pair:
                        continue
                    ci, cj = cells.get(i), cells.get(j)
                    if _written_unit(ci) != ua or _written_unit(cj) != ua:
                        continue
                    fi, fj = cell_figure(doc, ci, by_block), cell_figure(doc, cj, by_block)
                    if fi is not None and fj is not None and fi.kind == fj.kind == fa.kind:
                        others.append(Derivation(form="change", stated=fz, operands=(fi, fj), direction=direction))
                if plain_fall:
                    others.insert(0, Derivation(form="change", stated=fz, operands=ops, direction=-1))
                if as_speed:
                    # the speed's gain (A / B - 1) or the time saved (1 - B / A), signed as written
                    out.append(Derivation(form="change", stated=fz, operands=ops, direction=written,
                                          inverse=True, alternatives=tuple(others)))
                    continue
                out.append(Derivation(form="change", stated=fz, operands=ops, direction=direction,
                                      alternatives=tuple(others)))
    return out


def _change_heads(t) -> tuple:
    """(the change columns, the plain columns) of table ``t``: a change column's header names a
    change or a level ('Difference', 'Δ', '提升至'), after two columns at least; 'paired change',
    'median change' are computed run by run, not from the columns shown, and are no change column."""
    w = _words()
    heads, level, paired = w["change_head"], w["level_head"], w["change_not_derived"]

    def is_change(cell):
        return any(h in cell.text.lower() for h in heads) or word_in(level, cell.text) is not None
    changes = {c.column for c in t.header if c.column >= 3 and is_change(c)
               and not any(p in c.text.lower() for p in paired)}
    return changes, [c.column for c in t.header if c.column >= 1 and not is_change(c)]


def _change_pair(t, k, plain, changes) -> Optional[tuple]:
    """The two columns change column ``k`` compares: those of the quantity its header names
    ('| v4.0 QPS | v4.0 latency | v5.0 QPS | v5.0 latency | QPS improvement |'), else the two
    plain columns before it; None when there are not two."""
    w = _words()
    before = [j for j in plain if j < k][-2:]
    named = _named_pair(t, k, w["change_head"] + w["improvement_head"], changes)
    if named != (k - 2, k - 1) and named[0] in plain and named[1] in plain:
        before = list(named)
    return tuple(before) if len(before) == 2 else None


def signs_times_as_speed(doc) -> bool:
    """Does a table of the document sign a change column of two times as a speed does, by the
    column's rows alone (no 'faster', 'improvement' or level word in its header)?"""
    w = _words()
    for t in doc.tables:
        changes, plain = _change_heads(t)
        for k in changes:
            head = t.column_name(k)
            if word_in(w["level_head"], head) is None and not any(h in head.lower() for h in w["improvement_head"]) \
                    and _speed_convention(t, k, _change_pair(t, k, plain, changes)):
                return True
    return False


def _speed_convention(t, k, pair) -> bool:
    """Does change column ``k`` of two time columns (``pair``) sign its cells as a speed does (a
    shorter time is '+') in more of its rows than as the time does?  The header says
    'difference' or 'change' and no more; the rows say which way it counts."""
    if pair is None or not _writes_time(t.column_name(pair[0])) or not _writes_time(t.column_name(pair[1])):
        return False
    votes = rows = 0
    for row in t.rows:
        cells = {c.column: c for c in row.cells}
        z = cells.get(k)
        m = _change_cell()[0].fullmatch(z.text) if z is not None else None
        if m is None or m.group("sign") is None:
            continue
        va, vb = _bare_value(cells.get(pair[0])), _bare_value(cells.get(pair[1]))
        if va is None or vb is None or va == vb:
            continue
        sign = 1 if m.group("sign").endswith(("+", "＋")) else -1
        rows += 1
        votes += 1 if sign == (1 if vb < va else -1) else -1
    # (three rows at least: one row signed so may be a slip the other way, '| 100 | 80 | +25% |')
    return rows >= 3 and votes > 0


def change_rows(doc, by_block) -> list:
    """Tables laid out the other way round: the systems are rows, and a row labelled a change
    or a ratio ('| 同比 | +20.65% | … |', '| Speedup | 1.21x | … |') compares the two rows
    right above it (the only two of the table, or since the last such row), column by column ('| xinference-vllm | 34.28 |' then '| grps-trtllm |
    41.36 |': +20.65%). A percent is the change from either row to the other, its sign the
    direction; a ratio the larger over the smaller."""
    out = []
    w = _words()
    heads = w["change_head"] + w["ratio_head"] + w["improvement_head"]
    paired, level = w["change_not_derived"], w["level_head"]

    def label(row):
        c = next((c for c in row.cells if c.column == 0), None)
        return CELL_MARKUP.sub("", c.text).strip().lower() if c is not None else ""

    def is_change(row):
        lab = label(row)
        return bool(lab) and any(h in lab for h in heads) and not any(h in lab for h in paired) \
            and word_in(level, lab) is None
    for t in doc.tables:
        for i in range(2, len(t.rows)):
            rz, ra, rb = t.rows[i], t.rows[i - 2], t.rows[i - 1]
            if not is_change(rz) or is_change(ra) or is_change(rb):
                continue
            if i >= 3 and not is_change(t.rows[i - 3]):
                # more rows above ('| Throughput Increase* |' under five systems): it compares
                # with a best baseline or a footnote's choice, not the row above
                continue
            ca, cb = {c.column: c for c in ra.cells}, {c.column: c for c in rb.cells}
            for z in rz.cells:
                a, b = ca.get(z.column), cb.get(z.column)
                if z.column == 0 or a is None or b is None:
                    continue
                if _CELL_RATIO.fullmatch(z.text):
                    d = _cell_ratio(doc, by_block, z, a, b)
                    if d is not None:
                        out.append(d)
                    continue
                m = _change_cell()[0].fullmatch(z.text)
                ua, ub = _written_unit(a), _written_unit(b)
                if m is None or ua is None or ua != ub or ua == "%":
                    continue
                fz, fa, fb = (cell_figure(doc, z, by_block, "percent"), cell_figure(doc, a, by_block),
                              cell_figure(doc, b, by_block))
                if fz is None or fa is None or fb is None or fz.kind != "percent" or not fa.value or not fb.value:
                    continue
                direction = cell_direction(m)[0]
                out.append(Derivation(form="change", stated=fz, operands=(fa, fb), direction=direction,
                                      alternatives=(Derivation(form="change", stated=fz, operands=(fb, fa),
                                                               direction=direction),)))
    return out


# a header that names the quotient of two other columns: '导入性能 （DolphinDB / InfluxDB）'
_QUOTIENT_HEAD = compile_re(r"(?P<x>[A-Za-z][\w.+-]*|[\u4e00-\u9fff]{2,})\s{0,2}/\s{0,2}(?P<y>[A-Za-z][\w.+-]*|[\u4e00-\u9fff]{2,})")


def _cell_figures(cell, by_block) -> list:
    """The measured figures a cell holds, counts aside ('1,500,000 条/秒, 共 20 秒': a rate and a time)."""
    if cell is None:
        return []
    return [c for c in by_block.get(cell.block, ()) if c.kind != "count" and c.value]


def _column_named(t, word: str, before: int) -> Optional[int]:
    """The one column before ``before`` whose header is ``word`` or starts with it (case
    aside): 'DolphinDB' of 'DolphinDB 用时 (ms)'."""
    w = word.lower()
    got = [c.column for c in t.header if 0 <= c.column < before
           and (CELL_MARKUP.sub("", c.text).strip().lower() == w or _name_word(CELL_MARKUP.sub("", c.text)) == w)]
    return got[0] if len(got) == 1 else None


# what a cell of figures may hold besides them: '1,070,000 条/秒    28 秒', '2,900,000 条/秒, 共 38 分钟'
_BETWEEN_FIGURES = compile_re(r"[\s,，、;；/()（）*`~约共计]*")


def _figures_only(doc, cell, figures) -> bool:
    """A cell that holds figures and nothing else: a measurement, not a row's label ('4.2 GB
    设备传感器记录小数据集' names a dataset by its size)."""
    if cell is None or not figures:
        return False
    k = cell.start
    for f in sorted(figures, key=lambda f: f.start):
        if f.start < k or not _BETWEEN_FIGURES.fullmatch(doc.text, k, f.start):
            return False
        k = f.end
    return bool(_BETWEEN_FIGURES.fullmatch(doc.text, k, cell.end))


def _pairs_of_one_dimension(xs, ys) -> list:
    """(x, y) of the figures of two cells measured in one base unit: a rate with a rate, a
    time with a time ('20 秒' and '25 分钟 10 秒')."""
    return [(x, y) for x in xs for y in ys
            if (x.base_unit or x.unit) == (y.base_unit or y.unit) and x.kind not in ("percent", "ratio")]


def _bare_number(cell) -> bool:
    return _bare_value(cell) is not None


def quotient_columns(doc, by_block) -> list:
    """Rows of tables with a column of multiples whose header names the two columns it divides
    ('| DolphinDB | InfluxDB | 导入性能 （DolphinDB / InfluxDB） |' over '| 1,500,000 条/秒, 共 20 秒
    | 20,000 条/秒, 25 分钟 10 秒 | 75 倍 |'): the multiple is the larger over the smaller of the two
    cells' figures of one dimension; when the cells hold several (a rate and a time), any one
    pair that recomputes will do."""
    out = []
    ratio_heads = _words()["ratio_head"]
    for t in doc.tables:
        for h in t.header:
            if h.column < 2 or any(w in h.text.lower() for w in ratio_heads):
                continue        # a speedup column is ratio_columns'
            m = _QUOTIENT_HEAD.search(h.text)
            if m is None:
                continue
            ja, jb = _column_named(t, m.group("x"), h.column), _column_named(t, m.group("y"), h.column)
            if ja is None or jb is None or ja == jb:
                continue
            for row in t.rows:
                cells = {c.column: c for c in row.cells}
                z = cells.get(h.column)
                if z is None or not (_CELL_RATIO.fullmatch(z.text) or _bare_number(z)):
                    continue
                fz = cell_figure(doc, z, by_block, "ratio")
                xs, ys = (_cell_figures(cells.get(j), by_block) for j in (ja, jb))
                if (ja == 0 and not _figures_only(doc, cells.get(ja), xs)) or not xs or not ys:
                    continue
                if len(xs) == len(ys) == 1 and xs[0].kind == "number":
                    pairs = [(xs[0], ys[0])]    # '| 2 | 6,680 | 3,340 |' under 'DolphinDB 用时 (ms)'
                else:
                    pairs = _pairs_of_one_dimension(xs, ys)
                if fz is None or fz.kind != "ratio" or not pairs:
                    continue
                ds = [Derivation(form="ratio_column", stated=fz, operands=p) for p in pairs]
                out.append(replace(ds[0], alternatives=tuple(ds[1:])))
    return out


def difference_columns(doc, by_block) -> list:
    """Rows of tables with a change column (Δ, 差值, difference) written in the unit of the
    measurements before it ('| 20 秒 | 25 分钟 10 秒 | … | Δ 20 分钟 |', '| 1.2 GB | 1.2 GB | 6.2 GB |'):
    the stated figure is the difference of the two, whichever is larger.  The two are the
    only earlier columns of the row that hold one figure of that dimension."""
    out = []
    w = _words()
    heads, level, paired = w["change_head"], w["level_head"], w["change_not_derived"]
    for t in doc.tables:
        ks = [c.column for c in t.header if c.column >= 3 and any(x in c.text.lower() for x in heads)
              and not word_in(level, c.text) and not any(x in c.text.lower() for x in paired)]
        for row in t.rows if ks else ():
            cells = {c.column: c for c in row.cells}
            for k in ks:
                zs = _cell_figures(cells.get(k), by_block)
                if len(zs) != 1 or zs[0].kind in ("percent", "ratio", "percentage_point"):
                    continue
                z = zs[0]
                dim = z.base_unit or z.unit
                ops = []
                for j in range(0, k):
                    figs = _cell_figures(cells.get(j), by_block)
                    if j == 0 and not _figures_only(doc, cells.get(j), figs):
                        continue    # the row's label, even when it names a size ('4.2 GB 数据集')
                    same = [f for f in figs if (f.base_unit or f.unit) == dim]
                    if len(same) > 1:
                        ops = None
                        break
                    ops += same
                if ops is None or len(ops) != 2:
                    continue
                out.append(Derivation(form="difference", stated=z, operands=tuple(ops)))
    return out


_WORD_RUN = compile_re(r"[A-Za-zμ]+(?:/[A-Za-z]+)*")
# a Chinese unit is read only when it is the whole parenthesis ('总耗时 (秒)', '吞吐（次/秒）'):
# inside running header words a CJK run is a word ('秒级', '每秒请求数'), not a unit
_CJK_PAREN_UNIT = compile_re(r"[(（]\s*([\u4e00-\u9fff]{1,3}(?:/[\u4e00-\u9fffA-Za-z]{1,3})?)\s*[)）]")


def _writes_time(header: str) -> bool:
    """A header that writes a time unit ('Avg ms', 'P95 ms', 'ms/step'): its cells are times,
    lower is better, even when they are bare numbers."""
    return any(kind_of(u.split("/")[0]) == "time" for u in _header_units(header))


def _header_units(header: str) -> set:
    """The units a column header writes, by the figure reader's unit vocabulary ('ms/step' is
    milliseconds per step, 'samples/node/s' samples, 'TTFT (ms)' milliseconds); empty when it
    writes none."""
    out = set()
    for tok in _WORD_RUN.findall(header) + _CJK_PAREN_UNIT.findall(header):
        parts = tok.split("/")
        head = canonical(parts[0])
        per = [canonical(p) for p in parts[1:]]
        # 'req/s', 'ops/sec': a count per time is a rate even when the count's word is not a unit
        if kind_of(head) != "number" or any(kind_of(p) == "time" for p in per):
            out.add("/".join([head] + per))
    return out


# the noun a count counts, right after it: '14个项目', '14 projects'
_COUNTED_NOUN = compile_re(r"\s{0,2}([\u4e00-\u9fff]{2}|[A-Za-z]{3,}?)(?:s\b|[\u4e00-\u9fff]|\b)")
_SURFACE_NOUN = compile_re(r"\d\s{0,2}(?:个|家|款|种|项|条)?\s{0,2}([\u4e00-\u9fff]{2}|[A-Za-z]{3,}?)(?:e?s)?$")
_CLASSIFIER = compile_re(r"\s{0,2}(?:个|家|款|种|项|条)")


def caption_totals(doc, by_block) -> list:
    """A table of counts under a sentence that states their total ('本周共有14个项目上榜。根据开发
    语言中项目的数量，汇总情况如下：' over '| Python项目 | 3 |' …): the column's counts must add up
    to it.  The total counts what the column counts: its noun is in the column's header or in
    the rows' labels; a table with a total row of its own is ``row_totals``' (and sums itself)."""
    out = []
    w = _words()
    for t in doc.tables:
        blocks = t.caption_blocks or ([t.caption] if t.caption is not None else [])
        if not blocks or len(t.rows) < 2 or len(t.rows) > 60:
            continue
        labels = [_row_label(r) for r in t.rows]
        if any(any(h in lab.lower() for h in w["total_head"]) for lab in labels):
            continue
        stated = []
        text = doc.text
        for c in (c for bi in blocks for c in by_block.get(bi, ())):
            if c.kind != "count" or c.bound or c.value is None:
                continue
            before = text[max(doc.blocks[c.block].start, c.start - 14):c.start]
            if not (w["total_before"].search(before) or w["total_after"].match(text, c.end, c.end + 24)):
                continue
            # the noun is the count's own ('12 projects') or written after it ('14个项目', '14 个项目')
            m = _SURFACE_NOUN.search(c.surface)
            if m is None:
                k = None if c.surface.endswith(("个", "家", "款", "种", "项", "条")) else _CLASSIFIER.match(text, c.end)
                m = _COUNTED_NOUN.match(text, k.end() if k else c.end)
            if m is not None:
                stated.append((c, m.group(1).lower()))
        if len(stated) != 1:
            continue
        total, noun = stated[0]
        for col in (c.column for c in t.header if c.column >= 1):
            head = t.column_name(col).lower()
            if noun not in head and sum(noun in lab.lower() for lab in labels) * 2 < len(labels):
                continue
            cells = [next((x for x in r.cells if x.column == col), None) for r in t.rows]
            parts = [cell_figure(doc, x, by_block, "count") if x is not None and _bare_number(x) else None
                     for x in cells]
            if all(f is not None and f.value is not None and float(f.value).is_integer() for f in parts):
                out.append(Derivation(form="sum", stated=total, operands=tuple(parts)))
                break
    return out


# a summary cell that is a signed or plain whole number ('+8,750', '4,320')
_SUM_CELL = compile_re(r"\s*(?:\*\*)?\s*(?P<sign>[+＋])?\s*\d{1,3}(?:,\d{3})+\s*(?:\*\*)?\s*|\s*(?:\*\*)?\s*(?P<sign2>[+＋])?\s*\d+\s*(?:\*\*)?\s*")
_TITLE_NOISE = compile_re(r"[^\w\u4e00-\u9fff]+")


def _key(text: str) -> str:
    return _TITLE_NOISE.sub("", text).lower()


_EMPTY_CELL = compile_re(r"\s*(?:-|—|–|/|n/?a|N/?A)?\s*")
_DIGITS = compile_re(r"\d[\d,]*")


def _whole(doc, cell, by_block) -> Optional[Claim]:
    """The whole number a cell writes ('+900', '4,320'): its claim, else the number read bare."""
    own = [c for c in by_block.get(cell.block, ()) if c.value is not None]
    if len(own) == 1:
        return own[0]
    m = _DIGITS.search(cell.text)
    if m is None or own:
        return None
    c = bare_figure(doc, m.group(0), cell.start + m.start())
    c.block = cell.block
    return c


def section_totals(doc, by_block) -> list:
    """A summary table whose rows name sections of the document ('| AI | 15 | +8,750 |' over
    '### AI 领域 Top 15' and its table of '+3,200', '+1,500' …): a whole-number cell is the total
    of the one column of that section's table written the same way (signed or not, with no
    unit), when exactly one such column holds only whole numbers."""
    from .segment import clean_title
    out = []
    titles = [(k, _key(clean_title(sec.title))) for k, sec in enumerate(doc.sections)]
    tables_of = {}
    for t in doc.tables:
        if t.section is not None:
            tables_of.setdefault(t.section, []).append(t)
    for t in doc.tables:
        if len(t.rows) > 60:
            continue        # a summary by section is a short table
        rows = {}
        for r in t.rows:
            lab = _key(_row_label(r))
            if len(lab) < 2:
                continue
            hits = [k for k, title in titles if title.startswith(lab) and k != t.section]
            if len(hits) == 1 and len(tables_of.get(hits[0], ())) == 1:
                rows[r.index] = tables_of[hits[0]][0]
        if len(rows) < 2 or len({doc.sections[x.section].parent for x in rows.values()}) != 1:
            continue        # the sections a summary sums up are parts of one whole
        for r in t.rows:
            part = rows.get(r.index)
            if part is None:
                continue
            for z in r.cells:
                m = _SUM_CELL.fullmatch(z.text) if z.column >= 1 else None
                if m is None:
                    continue
                signed = bool(m.group("sign") or m.group("sign2"))
                if not signed and "," not in z.text:
                    continue        # a plain small number is a count of rows, not a sum
                cols = []
                for h in part.header:
                    cells = [next((x for x in pr.cells if x.column == h.column), None) for pr in part.rows]
                    # a '-' cell is a row with nothing to add ('| Copilot | - |')
                    ms = [_SUM_CELL.fullmatch(x.text) if x is not None else None for x in cells
                          if x is None or not _EMPTY_CELL.fullmatch(x.text)]
                    if all(mm is not None and bool(mm.group("sign") or mm.group("sign2")) == signed for mm in ms):
                        cols.append(cells)
                if len(cols) != 1:
                    continue
                fz = _whole(doc, z, by_block)
                parts = [_whole(doc, x, by_block) for x in cols[0] if not _EMPTY_CELL.fullmatch(x.text)]
                if fz is None or any(f is None for f in parts) or len(parts) < 2:
                    continue
                out.append(Derivation(form="sum", stated=fz, operands=tuple(parts)))
    return out


def row_totals(doc, by_block) -> list:
    """Rows of tables with a total column (合计, 总计, total): the row's other figures of the
    same unit are its parts ('10.5GB | 73GB | 0.04GB | 1GB | ~84.5GB')."""
    out = []
    heads = _words()["total_head"]
    for t in doc.tables:
        cols = [c.column for c in t.header if c.column >= 1 and any(w in c.text.lower() for w in heads)]
        for row in t.rows if len(cols) == 1 else ():
            cells = {c.column: c for c in row.cells}
            total = cell_figure(doc, cells.get(cols[0]), by_block)
            if total is None or total.value is None or total.kind in ("percent", "ratio", "number"):
                continue
            parts = []
            for k, cell in sorted(cells.items()):
                if k in (0, cols[0]):
                    continue
                f = cell_figure(doc, cell, by_block)
                if f is not None and _same_dim(f, total):
                    parts.append(f)
            if len(parts) >= 2:
                out.append(Derivation(form="row_total", stated=total, operands=tuple(parts)))
    return out


def _label_of(text: str) -> str:
    """A row's or column's label without its markup and its unit ('**Average (ms)**' -> 'average')."""
    t = _LABEL_UNIT.sub("", CELL_MARKUP.sub("", text))
    return " ".join(t.strip().rstrip(":：").lower().split())


def table_means(doc, by_block) -> list:
    """A table's average row ('| Avg | **204172.76** | … |' under '| Round 1 | … |' to '| Round 5 |')
    or average column ('| Run 1 | Run 2 | Avg |') over the runs of one measurement: each of its
    cells is the mean of the cells it averages (the rows above it in its column, or the other
    cells of its row), other summary rows and columns ('Median', 'Max', '合计') left out."""
    w = _words()
    means, summary = w["mean_label"], w["summary_label"]
    out = []
    for t in doc.tables:
        labels = [(ri, _label_of(r.cells[0].text)) for ri, r in enumerate(t.rows) if r.cells and r.cells[0].column == 0]
        rows = [ri for ri, lab in labels if lab in means]
        if len(rows) == 1:
            avg = rows[0]
            data = [ri for ri, lab in labels if ri < avg and lab not in means and lab not in summary]
            if len(data) >= 2 and _repeats([lab for ri, lab in labels if ri in data]):
                cells = [{c.column: c for c in t.rows[ri].cells} for ri in data]
                for cell in t.rows[avg].cells:
                    if cell.column == 0:
                        continue
                    _mean_of(doc, by_block, cell, [cs.get(cell.column) for cs in cells], out)
        heads = {c.column: _label_of(c.text) for c in t.header}
        cols = [k for k, h in heads.items() if k >= 1 and h in means]
        if len(cols) == 1:
            avg = cols[0]
            data = [k for k, h in heads.items() if k >= 1 and k != avg and h not in means and h not in summary]
            if len(data) >= 2 and _repeats([heads[k] for k in data]):
                for row in t.rows:
                    cs = {c.column: c for c in row.cells}
                    _mean_of(doc, by_block, cs.get(avg), [cs.get(k) for k in data], out)
    return out


# a run's label: the same words with its number ('Round 3', '第 3 次', 'run-3', '#3', '3')
_RUN_NUMBER = compile_re(r"\d+")


def _repeats(labels: list) -> bool:
    """Are the averaged labels runs of one measurement ('Round 1' … 'Round 5', '第1次' … '第3次')?
    Only their plain mean is the average: over categories ('STEM', 'Humanities', 'Hard') an
    'Average' is often weighted by their sizes, which the table does not print."""
    stems = {_RUN_NUMBER.sub("#", lab) for lab in labels}
    return len(stems) == 1 and "#" in next(iter(stems)) and len(set(labels)) == len(labels)


def _mean_of(doc, by_block, cell, parts, out) -> None:
    mean = cell_figure(doc, cell, by_block)
    if mean is None or mean.value is None or mean.bound or mean.low is not None:
        return
    figs = [cell_figure(doc, c, by_block) for c in parts]
    if len(figs) < 2 or any(f is None or f.value is None or f.low is not None or not _same_dim(f, mean)
                            for f in figs):
        return      # an empty or a ranged cell: which cells the mean is over is not known
    out.append(Derivation(form="mean", stated=mean, operands=tuple(figs)))


# the work items whose count over a row's time is the row's rate: what a data system reads or
# serves. A token count in a table row is a length (prompt 2048 tokens), not the work the
# row's time measured, so tokens are left out.
_RATE_ITEMS = ("row", "record", "request", "sample", "image", "item")


def row_rates(doc, by_block) -> list:
    """Table rows holding a count of work items, a time and a rate of those items per second
    ('| 10,000 rows | 0.01s | 934,747 rows/sec |'): the rate is the count over the time.
    Only a row with one figure of each is read (two times or two counts leave it open)."""
    out = []
    for t in doc.tables:
        for row in t.rows:
            figs = []
            for cell in row.cells:
                f = cell_figure(doc, cell, by_block, kind="count")
                if f is not None and f.value is not None and f.low is None:
                    figs.append(f)
            counts = [f for f in figs if f.kind == "count" and f.base_unit in _RATE_ITEMS]
            times = [f for f in figs if f.kind in ("latency", "duration") and f.base_unit == "second"]
            if len(counts) != 1 or len(times) != 1:
                continue
            want = f"{counts[0].base_unit} / second"
            rates = [f for f in figs if f.kind == "throughput" and f.base_unit == want]
            if len(rates) == 1:
                out.append(Derivation(form="quotient", stated=rates[0], operands=(counts[0], times[0])))
    return out


# ---------------------------------------------------------------- prose about a table

_NON_WORD = compile_re(r"[\W_]+")
_NUMERIC_LABEL = compile_re(r"[\d\s.,:%×x+\-–/]*")


def _normalized(text: str) -> tuple:
    """(normalized text, offsets): lowercase, markup and punctuation as single spaces; the
    offset in ``text`` of every character of the normalized text."""
    out, offs = [], []
    prev_space = True
    for i, ch in enumerate(text):
        if ch.isalnum():
            out.append(ch.lower())
            offs.append(i)
            prev_space = False
        elif not prev_space:
            out.append(" ")
            offs.append(i)
            prev_space = True
    return "".join(out), offs


# the unit a label writes last: '每输出 token 能耗 (J/token)', '压测耗时 (s)'
_LABEL_UNIT = compile_re(r"[(（\[]\s*([^()（）\[\]]{1,16}?)\s*[)）\]]\s*(?:\*\*)?\s*$")


class _Label:
    __slots__ = ("index", "norm", "tokens", "own", "unit", "raw")

    def __init__(self, index, text):
        self.index = index
        self.raw = text.replace("*", "").replace("`", "").strip()
        m = _LABEL_UNIT.search(text)
        self.unit = " ".join(m.group(1).lower().split()) if m else ""
        self.norm = " ".join(_NON_WORD.sub(" ", text.replace("*", "").replace("`", "")).lower().split())
        self.tokens = [w for w in self.norm.split() if len(w) >= 2 or not w.isascii()]
        self.own = []       # the tokens no other label of the axis has


def _labels(texts) -> list:
    """Labels worth looking for in prose: not empty, not a bare number ('16', '2K')."""
    out = []
    for i, text in texts:
        lab = _Label(i, text)
        if lab.norm and not _NUMERIC_LABEL.fullmatch(lab.norm) and lab.tokens:
            out.append(lab)
    for lab in out:
        others = {t for o in out if o is not lab for t in o.tokens}
        lab.own = [t for t in lab.tokens if t not in others and (len(t) >= 3 or not t.isascii())]
    return out


# rows named by a pattern ('Standard view operations (`ViewX_All`) … 12% to 15%' over rows
# View0_All … View8_All): a capitalised word, a placeholder X, N or *, the rest of the name
_WILDCARD = compile_re(r"(?<![A-Za-z0-9_])([A-Z][a-z]+)(?:X|N|\*)(_[A-Za-z0-9]+)(?![A-Za-z0-9])")
WILDCARD_MIN_ROWS = 3
_MOST = compile_re(r"(?<![A-Za-z])(?:[Mm]ost|[Mm]ostly|the majority of|[Tt]ypically)(?![A-Za-z])|大部分|大多数|多数|大多")


def _wildcards(seg: str) -> list:
    """(pattern, start, end) of each name pattern the sentence writes."""
    return [(re.compile(re.escape(m.group(1)) + r"\d+" + re.escape(m.group(2))), m.start(), m.end())
            for m in _WILDCARD.finditer(seg)]


def _tables_of_part(doc, sec) -> list:
    """(index, table) of every table of the part a section belongs to: its parent section's
    sub-sections ('### Performance' and the '#### View & Query Operations' of one release)."""
    if sec is None:
        return list(enumerate(doc.tables))
    top = doc.sections[sec].parent
    if top is None:
        top = sec

    def under(k):
        seen = 0
        while k is not None and seen < 32:
            if k == top:
                return True
            k, seen = doc.sections[k].parent, seen + 1
        return False
    return [(k, t) for k, t in enumerate(doc.tables) if under(t.section)]


def _wildcard_mentions(labels, wild, seg_start: int) -> list:
    """The labels a name pattern of the sentence matches, when it matches several."""
    out = []
    for rx, s, e in wild:
        hit = [lab for lab in labels if rx.fullmatch(lab.raw)]
        if len(hit) >= WILDCARD_MIN_ROWS:
            out += [(lab, seg_start + s, seg_start + e) for lab in hit]
    return out


def _mentions(labels, norm: str, offs: list) -> list:
    """[(label, start, end)] of the labels named in a normalized text (start/end are offsets
    into the original text): the whole label; or all its words within a few words of each
    other ('SGLang with default expert imbalance' names 'SGLang (Default)'); or all the words
    only it has ('the simulated perfect EPLB case' names 'SGLang + Simulated Perfect EPLB')."""
    out = []
    words = [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", norm)]
    for lab in labels:
        k = _find_word_seq(norm, lab.norm)
        if k is not None:
            out.append((lab, offs[k], offs[k + len(lab.norm) - 1] + 1))
            continue
        for toks in (lab.tokens if len(lab.tokens) >= 2 else None, lab.own):
            hit = _words_near(words, norm, toks) if toks else None
            if hit is not None:
                out.append((lab, offs[hit[0]], offs[hit[1] - 1] + 1))
                break
    return out


def _words_near(words, norm, toks):
    pos = []
    for tok in toks:
        hit = next((w for w in words if w[0] == tok or (not tok.isascii() and tok in w[0])), None)
        if hit is None:
            return None
        if hit[0] != tok:
            # a Chinese token inside a longer run ('原版' in '比原版降低约'): its own place, so
            # the word before it ('比') is read as what comes before the label
            k = hit[1] + hit[0].find(tok)
            hit = (tok, k, k + len(tok))
        pos.append(hit)
    first, last = min(p[1] for p in pos), max(p[2] for p in pos)
    if len(norm[first:last].split()) > len(toks) + 4:
        return None
    return first, last


def _find_word_seq(norm: str, needle: str) -> Optional[int]:
    start = 0
    while True:
        k = norm.find(needle, start)
        if k < 0:
            return None
        # (a Latin label abutting Chinese is bounded by it: '最终pp ocrv4在速度可比情况下')
        before_ok = k == 0 or norm[k - 1] == " " or not needle[0].isascii() or not norm[k - 1].isascii()
        e = k + len(needle)
        after_ok = e == len(norm) or norm[e] == " " or not needle[-1].isascii() or not norm[e].isascii()
        if before_ok and after_ok:
            return k
        start = k + 1


class _Grid:
    """A table as two labelled axes and the figures at their crossings."""

    def __init__(self, doc, t, by_block):
        self.t = t
        self.rows = _labels((ri, r.cells[0].text) for ri, r in enumerate(t.rows) if r.cells and r.cells[0].column == 0)
        self.cols = _labels((c.column, c.text) for c in t.header if c.column >= 1)
        self.value = {}
        for ri, r in enumerate(t.rows):
            for c in r.cells:
                if c.column >= 1:
                    f = cell_figure(doc, c, by_block)
                    if f is not None and f.value is not None:
                        self.value[(ri, c.column)] = f
        self.col_metric = {c.column: metrics_in(c.text) for c in t.header}
        self.col_lower = {c.column: bool(self.col_metric[c.column] & set(_LOWER_IS_BETTER)
                                         or _TIME_IN_HEADER.search(c.text) or _writes_time(c.text))
                          for c in t.header}
        self.row_metric = {ri: metrics_in(r.cells[0].text) if r.cells else set() for ri, r in enumerate(t.rows)}

    def cell(self, entity_axis: str, e: int, m: int):
        return self.value.get((e, m) if entity_axis == "rows" else (m, e))

    def measures(self, entity_axis: str) -> list:
        """[(index, metrics, lower is better)] along the other axis."""
        if entity_axis == "rows":
            return [(c.column, self.col_metric.get(c.column, set()), self.col_lower.get(c.column, False))
                    for c in self.t.header if c.column >= 1]
        return [(ri, self.row_metric[ri], bool(self.row_metric[ri] & set(_LOWER_IS_BETTER)))
                for ri in range(len(self.t.rows))]


def _tables_above(doc, by_section, captions, s, b) -> list:
    """The tables a sentence may summarize: the one it captions, and in its section and each
    section above it the last table before it (a later table ends an earlier one's scope)."""
    out = list(captions.get(s.block, ())) if _introduces(doc, s, b) else []
    prev = _previous_sibling(doc, b.section)
    if prev is not None and not by_section.get(b.section, ((), ()))[0]:
        # '### 12.4 解读' after '### 12.3 端到端指标对比': a section of prose right after a
        # section that ends in a table reads that table
        tabs, _ = by_section.get(prev, ((), ()))
        if tabs:
            out.append(tabs[-1])
    k = b.section
    while True:
        tabs, lines = by_section.get(k, ((), ()))
        i = bisect.bisect_left(lines, b.line) - 1 if tabs else -1
        if i >= 0 and tabs[i] not in out:
            out.append(tabs[i])
        if k is None:
            return out
        k = doc.sections[k].parent


def _introduces(doc, s, b) -> bool:
    """Of a caption paragraph, the sentence that introduces the table after it: its last one,
    or one ending with a colon ('…，我们进一步看服务日志：').  An earlier sentence of the same
    paragraph may speak of another result ('就得到了开篇的结果：… 提升约 37.9%')."""
    rest = doc.text[s.end:b.end].strip()
    if not rest or doc.text[s.start:s.end].rstrip().endswith((":", "：")):
        return True
    # ... or the one right before a last sentence that only points at the table ('…提升4.5%，效果
    #大幅提升。具体指标如下表所示：', '… 2.1x faster. The table below shows the details:'):
    # what the table details is what that sentence says
    return _words()["pointer"].fullmatch(rest) is not None




def _in_scope(doc, t, nxt, s, b) -> bool:
    """A sentence may summarize table ``t``: it is its caption, or prose of its section (or a
    section below it) after it and before the next table there."""
    if b.entry != t.entry:
        return False
    if s.block == t.caption:
        return _introduces(doc, s, b)
    if b.line <= t.end_line or (nxt is not None and b.line >= nxt):
        return False
    if b.section == t.section:
        return True         # one section, or a document without headings
    k = b.section
    while k is not None:
        if k == t.section:
            return True
        k = doc.sections[k].parent
    return b.section is not None and t.section is not None and t.section == _previous_sibling(doc, b.section)


def _previous_sibling(doc, k):
    """The section right before section ``k`` at its level under the same parent (None when
    ``k`` is its parent's first)."""
    if k is None or k == 0:
        return None
    sec = doc.sections[k]
    for j in range(k - 1, -1, -1):
        other = doc.sections[j]
        if other.level < sec.level:
            return None
        if other.level == sec.level:
            return j if other.parent == sec.parent else None
    return None


def _item_of(doc, block):
    """The list item of a bullet block (``doc.items`` are in block order)."""
    keys = [i.block for i in doc.items]
    k = bisect.bisect_left(keys, block)
    return doc.items[k] if k < len(keys) and keys[k] == block else None


def _intro_text(doc, s, items_only: bool = False):
    """The text that introduces a sentence's list item, or (not ``items_only``) the previous
    sentence of its paragraph: where a list like 'This represents: - A 25% increase over …'
    names its subject."""
    it = _item_of(doc, s.block)
    if it is not None and it.intro is not None:
        k = it.intro
        # a hard-wrapped paragraph is one block per line: the introduction is all of its lines
        while (k > 0 and doc.blocks[k - 1].kind == "paragraph" and doc.blocks[k].kind == "paragraph"
               and doc.blocks[k - 1].line == doc.blocks[k].line - 1):
            k -= 1
        return doc.blocks[k].start, doc.blocks[it.intro].end
    if items_only:
        return None
    from .structure import sentence_at
    b = doc.blocks[s.block]
    prev = sentence_at(doc, s.start - 1) if s.start > b.start else None
    if prev is not None and prev.block == s.block:
        return prev.start, prev.end
    return None


def _multiplier(doc, s, figures) -> list:
    """Stated multiples written as words the figure reader leaves alone ('over double the
    throughput'): bare ratio figures (none inside one of the sentence's ``figures``)."""
    w = _words()
    text = doc.text
    seg = text[s.start:s.end]
    low = seg.lower()
    out = []
    for word, value in w["multipliers"].items():
        if word not in low:
            continue
        for m in re.finditer(r"(?<![A-Za-z])" + re.escape(word) + r"(?![A-Za-z])", low):
            a, e = s.start + m.start(), s.start + m.end()
            if any(c.start <= a < c.end for c in figures):
                continue
            bound, approx = None, False
            head = low[:m.start()].rstrip(" *_`")
            for bw, kind in sorted(w["bound_before"].items(), key=lambda x: -len(x[0])):
                if head.endswith(bw) and (len(head) == len(bw) or not head[-len(bw) - 1].isalpha()):
                    a = s.start + len(head) - len(bw)
                    bound, approx = (None, True) if kind == "approx" else (kind, False)
                    break
            line, col = doc.line_col(a)
            out.append(Claim(path=doc.path, line=line, col=col, start=a, end=e, surface=text[a:e], kind="ratio",
                             value=value, base_value=value, unit="dimensionless", base_unit="dimensionless",
                             approx=approx, bound=bound, block=s.block))
    return out


_CLAUSE = compile_re(r",\s*(?:while|whereas|but)\b|;|；|，\s*(?:而|但)|\bwhile\b", re.IGNORECASE)


def _clause_of(seg: str, pos: int) -> tuple:
    """(start, end) within ``seg`` of the clause holding ``pos`` ('X is 20% slower than Y,
    while Z narrows the gap to 6%' is two)."""
    lo, hi = 0, len(seg)
    for m in _CLAUSE.finditer(seg):
        if m.end() <= pos:
            lo = m.end()
        elif m.start() >= pos:
            hi = m.start()
            break
    return lo, hi


def _baselines(v, seg, seg_start, ments, z):
    """Mentions named as the baseline: after a comparison word ('than X', 'over the X
    baseline', '比 X', '相比 X'), or right before '的 z' ('是 X 的两倍')."""
    out = []
    for lab, a, e in ments:
        pre = seg[max(0, a - seg_start - 24):a - seg_start]
        if v.compare_before.search(pre) and not (e <= z.start and v.possessive_before.search(pre)):
            out.append(lab)
        elif z.start > e and re.fullmatch(r"\s*(?:\*\*|`)*\s*的\s*", seg[e - seg_start:z.start - seg_start]):
            out.append(lab)
    return out


def _is_difference(z) -> bool:
    """A figure in a quantity's own unit written as a difference ('小了0.04s', '40 ms faster'):
    the 'difference' trait of claims/context.py; percentages and multiples are leads instead."""
    return "difference" in (z.traits or ()) and z.kind not in ("percent", "ratio")


def _roles(v, seg, seg_start, ments, z, intro_ments):
    """(subjects, baselines) among label mentions, read in z's clause first, then in its
    sentence: the baseline is the label named after a comparison word; the subject another
    label, else the one label of the list's introduction.  No baseline named but a comparison
    word after z ('double the throughput of the cache-blind configurations'): every other
    label may be it (baselines None)."""
    lo, hi = _clause_of(seg, z.start - seg_start)
    zp = z.start - seg_start
    op = max(seg.rfind("（", lo, zp), seg.rfind("(", lo, zp))
    if op >= 0 and max(seg.rfind("）", op, zp), seg.rfind(")", op, zp)) < 0:
        cl = [k for k in (seg.find("）", zp), seg.find(")", zp)) if k >= 0]
        close = min(cl) if cl else hi
        if v.compare_after.search(seg, op, close) and not any(op <= m[1] - seg_start < close for m in ments):
            # '提升 QPS 1.42x（相比 baseline 提升 1.89x）', '(1.89x over the baseline)': a parenthesis
            # that compares with a baseline of its own, naming no label of the table: the table
            # gives no reading of it
            return [], []
    inside = [m for m in ments if lo <= m[1] - seg_start < hi]
    m = v.compare_after.search(seg, z.end - seg_start, hi)
    if m and m.start() - (z.end - seg_start) <= 24:
        name = _NAME_AFTER.match(seg, m.end())
        if name and not any(abs(pos - seg_start - name.start()) <= 4 for _, pos, _ in ments):
            # '4x faster than GCC, 60x faster than Rust': the comparison right after the figure
            # names its baseline, and no label of the table is it (the GCC row is the other
            # figure's baseline, not this one's)
            return [], []
    base = _baselines(v, seg, seg_start, inside, z)
    subj = [lab for lab, _, _ in inside if lab not in base]
    if not base:
        base = _baselines(v, seg, seg_start, [m for m in ments if m not in inside], z)
    if not subj:
        subj = [lab for lab, _, _ in ments if all(lab is not b for b in base)]
    if not subj:
        subj = [lab for lab, _, _ in intro_ments]
        if len({x.index for x in subj}) != 1:
            # only a baseline is named: the caller may take the table's other label
            return [], (base or [])
    if not base:
        if _is_difference(z):
            # a difference compares by itself ('在第二次测试时，首字延迟小了0.04s'): against
            # any other label, and it holds when one reading recomputes
            return subj, None
        before = seg[lo:z.start - seg_start]
        after = seg[z.end - seg_start:z.end - seg_start + 40]
        if not (v.compare_after.search(after) or _UNNAMED_BEFORE.search(before)):
            return [], []
        m = _UNNAMED_BEFORE.search(before)
        if m and _NAMED_BASELINE.search(m.group()):
            # 'V1 runner 的 TPOT 比旧 V2 runner 高约 6%': the baseline is named, and is no label of
            # the table, so no two of its cells give the figure
            return [], []
        m = v.compare_after.search(after)
        if m and _NAME_NEXT.match(after, m.end()):
            # '1.9x more performant than H100': the baseline is named, and is no label of the
            # table (an H100 figure the table does not hold), so no two cells give the figure
            return [], []
        return subj, None
    return subj, base


# any capitalised name right after a comparison word: 'than Rust', 'than the Go compiler'
_NAME_AFTER = compile_re(r"\s{1,3}(?:the\s{1,3})?[*_`]{0,2}[A-Z][\w.+#-]{0,30}")
# a name right after the comparison word: 'than H100', 'vs the A100', 'than the old V2 runner' (a model number or an acronym)
_NAME_NEXT = compile_re(r"\s{1,3}(?:the\s{1,3})?(?:[a-z]{2,12}\s{1,3}){0,2}(?:[A-Z][A-Za-z0-9]*\d[\w.-]*|[A-Z]{2,}[\w.-]*)")
# a name inside that description: a model number or an acronym ('旧 V2 runner', 'the H100')
_NAMED_BASELINE = compile_re(r"(?<![A-Za-z0-9])(?:[A-Z][A-Za-z]*\d[\w.-]*|[A-Z]{2,}[\w.-]*)")
# '是缓存盲配置吞吐量的两倍以上', '比其他配置快 3 倍': a baseline described, not named, before z
_UNNAMED_BEFORE = compile_re(r"(?:是|为|比|相比|较|相较|相对于?)[^，。；,;]{1,30}?(?:的)?\s*[*`_]*\s*$")


def _direction(v, near: str, z) -> tuple:
    """(+1 ahead / -1 behind / 0, whether the word ranks performance) from the words around z."""
    ahead = v.table_ahead.search(near)
    behind = v.table_behind.search(near)
    perf = bool(v.performance.search(near))
    if behind and not ahead:
        return -1, perf
    if ahead and not behind:
        return 1, perf
    if z.kind == "ratio" and not behind and not v.gap.search(near):
        return 1, perf          # 'twice that of', '是 X 的两倍' ('a 10.2x gap' is either way round)
    return 0, perf


def table_leads(doc, claims, by_block, taken, v) -> list:
    """Ratios and percentages in prose that compare rows (or columns) of a table."""
    tables = [(k, t) for k, t in enumerate(doc.tables) if len(t.rows) >= 2]
    if not tables:
        return []
    nxt, by_section = {}, {}
    for k, t in tables:
        by_section.setdefault(t.section, []).append((k, t))
    captions = {}
    for k, t in tables:
        if t.caption is not None:
            captions.setdefault(t.caption, []).append((k, t))
    for sec, tabs in list(by_section.items()):
        tabs.sort(key=lambda kt: kt[1].line)
        for (k, t), after in zip(tabs, tabs[1:] + [None]):
            nxt[k] = after[1].line if after is not None else None
        by_section[sec] = (tabs, [t.line for _, t in tabs])
    text = doc.text
    taken_ids = {id(c) for c in taken}
    starts = [c.start for c in claims]
    grids = {}
    own_models: dict = {}       # id(figure) -> the models its own stretch names
    table_models: dict = {}     # id(table) -> the models its heading and caption name
    out = []
    for s in doc.sentences:
        b = doc.blocks[s.block]
        if b.kind not in ("paragraph", "bullet") or b.table is not None:
            continue
        inside = claims[bisect.bisect_left(starts, s.start):bisect.bisect_left(starts, s.end)]
        # a difference in the cells' unit too ('首字延迟小了0.04s' over a row of 0.41 s and 0.34 s)
        stated = [c for c in inside if (c.kind in ("percent", "ratio") or _is_difference(c))
                  and id(c) not in taken_ids]
        stated += _multiplier(doc, s, inside)
        if not stated:
            continue
        near = [(k, t) for k, t in _tables_above(doc, by_section, captions, s, b) if _in_scope(doc, t, nxt[k], s, b)]
        seg = text[s.start:s.end]
        # ('Most `ViewX_Values` improved by 11% to 17%': most of them, not each)
        wild = _wildcards(seg) if "_" in seg and not _MOST.search(seg) else []
        if wild:
            # a release note's bullets over the results table below them: a name pattern ties
            # the sentence to a table of its section, before or after it
            for k, t in _tables_of_part(doc, b.section):
                if (k, t) not in near and _wildcard_mentions(_labels((ri, r.cells[0].text) for ri, r in enumerate(t.rows)
                                                                     if r.cells and r.cells[0].column == 0), wild, 0):
                    near.append((k, t))
        if not near:
            continue
        # the earlier tables of its section, read only to let a statement hold: a summary under
        # several tables ('Qwen-2512 的 Text Encoder 加速达 32 倍，而较小的 Wan 14B 为 10 倍' after a
        # Qwen table and a Wan table) may speak of one above the last
        earlier = [(k, t) for k, t in by_section.get(b.section, ((), ()))[0]
                   if (k, t) not in near and t.line < b.line and t.entry == b.entry]
        norm, offs = _normalized(seg)
        offs = [s.start + o for o in offs]
        intro = _intro_text(doc, s, items_only=True)
        subject_intro = _intro_text(doc, s)
        mine = len(out)
        for k, t in near + earlier:
            secondary = (k, t) not in near
            grid = grids.get(k)
            if grid is None:
                grid = grids[k] = _Grid(doc, t, by_block)
            if len(grid.value) < 2:
                continue
            for axis, labels in (("rows", grid.rows), ("cols", grid.cols)):
                ments = _mentions(labels, norm, offs)
                if wild and axis == "rows":
                    ments += [m for m in _wildcard_mentions(labels, wild, s.start)
                              if m[0].index not in {x[0].index for x in ments}]
                intro_ments = []
                if subject_intro is not None:
                    n2, o2 = _normalized(text[subject_intro[0]:subject_intro[1]])
                    intro_ments = _mentions(labels, n2, [subject_intro[0] + o for o in o2])
                if not ments and not intro_ments:
                    continue
                metric_words = metrics_in(seg) | (metrics_in(text[intro[0]:intro[1]]) if intro else set())
                for z in stated:
                    own = own_models.get(id(z))
                    if own is None:
                        own = own_models[id(z)] = _own_models(doc, z, inside)
                    if own:
                        ctx = table_models.get(id(t))
                        if ctx is None:
                            ctx = table_models[id(t)] = _table_models(doc, t)
                        if ctx and not (own & ctx):
                            continue    # it summarizes another table's measurements
                    if _AVERAGE.search(text, s.start, z.start) and not _averages_labelled(t):
                        # '**Average**: … 54.3% smaller': the column's mean, no two rows' lead
                        # (unless the table has an average column or row: '| 平均 (ms) |')
                        continue
                    d = _row_change_of(v, grid, seg, s.start, z, metric_words) if axis == "rows" else None
                    if d is None:
                        d = _lead_of(doc, v, grid, axis, labels, seg, s.start, ments, intro_ments, z, metric_words)
                    if d is None and z.low is not None and z.high is not None \
                            and "other_experiment" not in (z.traits or ()):
                        # ('A first attempt … cost 13–35%' reports another variant, not the table)
                        said = text[max(s.start, z.start - 8):z.start]
                        # ('提升 1.06x 到 1.20x' is a multiple of the baseline, as the ratio cells are)
                        # ('LMDeploy outperforms SGLang by 21-37%': a lead is a change too)
                        clause = text[max(s.start, z.start - 40):z.start]
                        change = z.kind != "ratio" and bool(v.decrease.search(said) or v.increase.search(said)
                                                            or v.performance.search(clause))
                        d = _range_of(grid, axis, _not_excepted(text, s.start, labels, ments), z, change)
                    if d is None:
                        continue
                    k = next((i for i in range(mine, len(out)) if out[i].stated is z), None)
                    if k is None:
                        if not secondary:
                            out.append(d)
                    else:
                        # read along the other axis (or another table) too: the statement holds
                        # when any reading recomputes ('fp8 比 bf16 节省约 36%' compares columns,
                        # while its sentence also names two rows)
                        prev = out[k]
                        out[k] = replace(prev, alternatives=prev.alternatives + (replace(d, alternatives=()),)
                                         + d.alternatives)
    return out


def _models(text: str, lo: int, hi: int) -> set:
    from .entities import find_entities
    return {m.value for m in find_entities(text, lo, hi, kinds=("model",))}


def _own_models(doc, z, inside) -> set:
    """The models the figure's own stretch of its sentence names ('by 1.06x to 1.20x on
    DeepSeek-V4-Flash and by 1.19x to 1.32x on DeepSeek-V4-Pro': from the figure before it to
    the one after it, within its comma-separated piece). When none of them is a model the
    table's heading or caption names, the figure summarizes another table's measurements."""
    text = doc.text
    blk = doc.blocks[z.block]
    others = [c for c in inside if c is not z and c.kind in ("percent", "ratio")]
    lo = max([c.end for c in others if c.end <= z.start], default=blk.start)
    hi = min([c.start for c in others if c.start >= z.end], default=blk.end)
    # … and within its comma-separated piece ('在 A 上提升 1.06x 到 1.20x，在 B 上提升 …')
    p_lo, p_hi = _piece_of(text[blk.start:blk.end], z.start - blk.start, z.end - blk.start)
    return _models(text, max(lo, blk.start + p_lo), min(hi, blk.start + p_hi))


def _table_models(doc, t) -> set:
    """The models a table's section heading and caption name."""
    out = set()
    if t.section is not None:
        title = doc.sections[t.section].title
        out |= _models(title, 0, len(title))
    for bi in ([t.caption] if t.caption is not None else []) + list(t.caption_blocks or ()):
        cb = doc.blocks[bi]
        out |= _models(doc.text, cb.start, cb.end)
    return out


# a figure worded as an average of the table's rows ('Average: … 54.3% smaller', '平均提升 12%')
_AVERAGE = compile_re(r"(?i)(?<![A-Za-z])(?:average|avg|mean|on average)(?![A-Za-z])|平均|均值")


def _averages_labelled(t) -> bool:
    """Does a header cell or a row label of table ``t`` name an average ('| 平均 (ms) |', '| Mean |')?"""
    cells = list(t.header) + [r.cells[0] for r in t.rows if r.cells]
    return any(_AVERAGE.search(c.text) for c in cells)


# the comma-separated piece of a sentence a figure stands in ('…TBT 增幅约 684%，…TPS 下降约 8.5%')
_PIECE_END = compile_re(r"[，,;；。]")


def _piece_of(seg: str, lo: int, hi: int) -> tuple:
    """(start, end) within ``seg`` of the comma-separated piece holding ``seg[lo:hi]``."""
    a = max((m.end() for m in _PIECE_END.finditer(seg, 0, lo)), default=0)
    m = _PIECE_END.search(seg, hi)
    return a, (m.start() if m else len(seg))


def _lead_of(doc, v, grid, axis, labels, seg, seg_start, ments, intro_ments, z, metric_words):
    zs, ze = z.start - seg_start, z.end - seg_start
    p_lo, p_hi = _piece_of(seg, zs, ze)
    # the words around z, inside its piece: 'TBT 增幅约 684%，TPS 下降约 8.5%' is a rise, then a fall;
    # after 'by' the verb may stand several words back ('improves the end-to-end Hmean by 4.5%')
    back = 48 if _words()["verb_before_object"].search(seg, max(0, zs - 8), zs) else 16
    near = seg[max(p_lo, zs - back):min(p_hi, ze + 24)]
    # the quantity its own piece names picks the column ('TPS 下降约 8.5%': the TPS one)
    metric_words = metrics_in(seg[p_lo:p_hi]) or metric_words
    if not ments and not metric_words:
        # only the list's introduction names a label, and nothing names what the table
        # measures ('Feedforward 变化为 8/3 倍的隐含层大小' under a list that names LLaMA): no reading
        return None
    absolute = _is_difference(z)
    if not (absolute or v.table_ahead.search(near) or v.table_behind.search(near) or v.gap.search(near)
            or z.kind == "ratio"):
        return None
    subj, base = _roles(v, seg, seg_start, ments, z, intro_ments)
    if not subj and base:
        # 'Prefill gap: 10.2x (HGEMM FP16 reads vs llama.cpp fused Q4K GEMM)': only the
        # baseline is named; in a table of two the subject is the other one
        rest = [lab for lab in labels if lab.index not in {x.index for x in base}]
        subj = rest if len(rest) == 1 else subj
    if not subj:
        return None
    if base is None:
        base = [lab for lab in labels if lab.index not in {x.index for x in subj}]
        if not base and absolute:
            base = subj     # a difference between the labels it names ('first run' … 'second run')
    direction, perf = _direction(v, near, z)
    measures = grid.measures(axis)
    for x in subj:
        for mi, _, _ in measures:
            f = grid.cell(axis, x.index, mi)
            if f is not None and f.kind == z.kind and f.value is not None and f.value == z.value:
                # 'int2/g32 buys 5.33×' beside its row's 5.33× cell: the figure quotes the cell
                return None
    if metric_words:
        measures = [m for m in measures if m[1] & metric_words]
    elif z.kind == "percent":
        # a percentage with no quantity named compares what the cells measure, not a time
        measures = [m for m in measures if not (m[2] and not perf)]
    readings = []
    for x in {lab.index: lab for lab in subj}.values():
        for y in {lab.index: lab for lab in base}.values():
            if x.index == y.index or (x.unit and y.unit and x.unit != y.unit):
                continue        # rows (or columns) in two units measure two quantities
            for mi, _, lower in measures:
                fx, fy = grid.cell(axis, x.index, mi), grid.cell(axis, y.index, mi)
                if fx is None or fy is None or fx.kind != fy.kind:
                    continue
                if absolute:
                    if fx.kind == z.kind and fx.base_unit == z.base_unit:
                        readings.append(Derivation(form="difference", stated=z, operands=(fx, fy)))
                    continue
                # a time is lower-is-better whatever its row or column is called ('Total Time')
                lower_here = lower or fx.kind in ("latency", "duration")
                readings.append(Derivation(form="table_lead", stated=z, operands=(fx, fy),
                                           direction=direction, inverse=bool(lower_here and perf)))
    if not readings:
        return None
    return replace(readings[0], alternatives=tuple(readings[1:]))


# 'from 10→50 users', '10 到 50 并发': the two row labels a change is stated between
_ROW_PAIR = compile_re(r"(?<![\d.,])(\d[\d,]*)\s{0,2}(?:→|->|⇒|to|至|到)\s{0,2}(\d[\d,]*)(?![\d.,])")
_LEAD_NUMBER = compile_re(r"[\s*_]{0,4}(\d[\d,]*)(?![\d.,])")


def _row_change_of(v, grid, seg, seg_start, z, metric_words):
    """'10→50 users: +26.8% average latency' under a table whose rows are '10 users', '50 users',
    '100 users': the change from the one row to the other, in each column the words may name
    (a column of the quantity named, else every column); it holds when one reading recomputes."""
    zs = z.start - seg_start
    m = None
    for cand in _ROW_PAIR.finditer(seg):
        if abs(cand.start() - zs) <= 60:
            m = cand
            break
    if m is None:
        return None
    want = (m.group(1).replace(",", ""), m.group(2).replace(",", ""))
    rows = {}
    for ri, r in enumerate(grid.t.rows):
        if r.cells and r.cells[0].column == 0:
            n = _LEAD_NUMBER.match(r.cells[0].text)
            if n and n.group(1).replace(",", "") in want:
                rows.setdefault(n.group(1).replace(",", ""), ri)
    if len(rows) != 2 or want[0] == want[1]:
        return None
    ra, rb = rows[want[0]], rows[want[1]]
    cols = [c.column for c in grid.t.header if c.column >= 1]
    named = [k for k in cols if grid.col_metric.get(k, set()) & metric_words]
    dec, inc = v.decrease.search(seg) is not None, v.increase.search(seg) is not None
    direction = -1 if (z.value is not None and z.value < 0) or (dec and not inc) else \
        (1 if (inc and not dec) or z.surface.startswith("+") else 0)
    readings = []
    for k in (named or cols):
        fa, fb = grid.value.get((ra, k)), grid.value.get((rb, k))
        if fa is None or fb is None or fa.kind != fb.kind or fa.kind == "ratio":
            continue
        readings.append(Derivation(form="table_lead", stated=z, operands=(fb, fa), direction=direction))
    if not readings:
        return None
    return replace(readings[0], alternatives=tuple(readings[1:]))


def _is_change(vals) -> bool:
    """Figures that are changes: a signed one among them ('+3%', '−25.3%')."""
    return any(x.surface.lstrip("*_ ").startswith(("+", "-", "−", "–")) for x in vals)


# the sentence sets rows aside: '20-80% higher (except Phi & Qwen where TensorRT wins)', '除了 Qwen'
@lru_cache(maxsize=None)
def _except_before():
    words = load("derivations.yaml")["tables"]["except_before"]
    return compile_re(r"(?<![A-Za-z])(?:%s)[^。；;,，.!?()（）\n]{0,30}$" % alternation(words), re.IGNORECASE)


def _not_excepted(text, lo, labels, ments) -> list:
    """The mentions a range speaks of: those the sentence sets aside ('except Phi & Qwen') name
    the rows it does not, so it speaks of the others."""
    out = [m for m in ments if not _except_before().search(text, max(lo, m[1] - 40), m[1])]
    if out or not ments:
        return out
    gone = {lab.index for lab, _, _ in ments}
    return [(lab, None, None) for lab in labels if lab.index not in gone]


def _range_of(grid, axis, ments, z, change: bool = False):
    """'the gain is only 10% to 15%' beside a table whose 'Gain' column holds +3% and +11%: a
    range that names a column (or, in a transposed table, a row) summarizes its values — of
    the rows the sentence names, else of all of them. A range written as a change ('效率下降约
    20-25%', ``change``) summarizes changes only: a column of levels (73%, 79%) it leaves alone."""
    named = {lab.index for lab, _, _ in ments}
    if not named:
        return None
    heads = _words()["change_head"]

    def fits(vals, col=None):
        # ``col``: the column the values are of (None: a row's values, of several columns)
        if not change or _is_change(vals):
            return True
        head = grid.t.column_name(col).lower() if col is not None else ""
        return any(w in head for w in heads)
    out = None
    if len(named) >= 2:
        # '尾延迟(P99/P95 ITL,P99 TPOT)显著改善 25-30%' under a table whose rows are those metrics:
        # the values a column gives the named rows (or, transposed, a row gives the named columns)
        keys = [c.column for c in grid.t.header if c.column >= 1] if axis == "rows" else range(len(grid.t.rows))
        for k in keys:
            vals = [grid.value.get((m, k) if axis == "rows" else (k, m)) for m in sorted(named)]
            vals = [x for x in vals if x is not None and x.kind == z.kind and x.value is not None]
            if len(vals) >= 2 and len(vals) == len(named) and fits(vals, k if axis == "rows" else None):
                d = Derivation(form="range_summary", stated=z, operands=tuple(vals))
                out = d if out is None else replace(out, alternatives=out.alternatives + (d,))
    for m in named:
        # ``axis`` holds the mentioned labels: read the values along the other axis
        keys = range(len(grid.t.rows)) if axis == "cols" else [c.column for c in grid.t.header if c.column >= 1]
        vals = [grid.value.get((k, m) if axis == "cols" else (m, k)) for k in keys]
        vals = [x for x in vals if x is not None and x.kind == z.kind and x.value is not None]
        if len(vals) >= 2 and fits(vals, m if axis == "cols" else None):
            d = Derivation(form="range_summary", stated=z, operands=tuple(vals), some=True)
            out = d if out is None else replace(out, alternatives=out.alternatives + (d,))
    return out
