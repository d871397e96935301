"""Declared counts whose items the document structure identifies: a section heading over
the entries under it, a summary line over the entries its word names (or the cited arXiv
ids), a header count over the list right below it, and a per-project table of issue and PR
counts over the references of each project's part of the document."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .count_claims import CELL_COUNT, count_column
from .count_records import CountStatement, Item, Reading
from .count_words import EMOJI, plain, section_end, summary_blocks, vocab
from .pattern_cache import compile_re  # compiled once per machine, not per process


_REPO = compile_re(r"github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull|pulls|discussions)/", re.IGNORECASE)


def _repo(url: str) -> Optional[str]:
    m = _REPO.search(url or "")
    return m.group(1).lower() if m else None


@dataclass
class _Ref:
    number: str                 # '#12345'
    kind: Optional[str]         # 'issue' | 'pr' | None (a bare '#123')
    linked: bool                # written as a link to /issues/ or /pull/
    line: int
    col: int
    closed: bool = False


def _closed_near(doc, r, v) -> bool:
    """Is the reference marked closed: in its own clause ('（#34006，CLOSED）', '#26763 closed',
    '#17620 为重复提案，已关闭'), or by the sentence that introduces it ('另有若干历史问题处于已关闭
    状态：#14716、#17235 …')?"""
    from .structure import sentence_at
    text = doc.text
    ls = doc.line_starts[r.line - 1]
    le = doc.line_starts[r.line] if r.line < len(doc.line_starts) else len(text)
    tail = text[r.end:min(le, r.end + 40)]
    cut = re.search(r"[。；;]|\)\s|）|#\d|https?://|\[", tail)
    tail = tail[:cut.start()] if cut else tail
    if v["closed"].search(tail) or v["closed"].search(text[max(ls, r.start - 12):r.start]):
        return True
    sent = sentence_at(doc, r.start)
    if sent is None:
        return False
    head = text[sent.start:r.start]
    m = None
    for m in v["closed"].finditer(head):
        pass
    return m is not None and bool(re.search(r"[：:]", head[m.end():]))


def _refs_in(doc, lo: int, hi: int) -> dict:
    """Issue and PR references on lines lo..hi, one per (repo, number): repo -> {number: _Ref}."""
    v = vocab()
    by_repo = {}
    bare = []
    for r in doc.references:
        if r.kind not in ("issue", "pr") or not (lo <= r.line <= hi) or not r.ids:
            continue
        num = r.ids[0]
        repo = _repo(r.url)
        if r.url:
            kind, linked = r.kind, True
        elif r.ref[:1].isalpha():
            kind, linked = r.kind, False     # 'PR #678', 'Issue 12'
        else:
            bare.append(r)
            continue
        d = by_repo.setdefault(repo, {})
        cur = d.get(num)
        if cur is None or (linked and not cur.linked):
            d[num] = _Ref(num, kind, linked, r.line, r.col, _closed_near(doc, r, v) or (cur.closed if cur else False))
        elif _closed_near(doc, r, v):
            cur.closed = True
    main = max(by_repo, key=lambda k: (k is not None, len(by_repo[k])), default=None)
    d = by_repo.setdefault(main, {})
    for r in bare:
        num = r.ids[0]
        closed = _closed_near(doc, r, v)
        if any(num in dd for repo, dd in by_repo.items() if repo not in (main, None)) and num not in d:
            continue        # the number of another project's link
        if num in d:
            d[num].closed = d[num].closed or closed
            continue
        d[num] = _Ref(num, None, False, r.line, r.col, closed)
    if main is not None and None in by_repo:
        for num, x in by_repo.pop(None).items():
            d.setdefault(num, x)
    return by_repo


def _ref_readings(refs: dict, kind: str, known: dict) -> Optional[Reading]:
    """Issues or PRs among ``refs`` (number -> _Ref): at least the open ones linked as that kind
    (a table may count only what is still open), at most every one that may be of it (named by
    word, or bare with no kind known elsewhere, or marked closed)."""
    sure, maybe = [], []
    for num, r in refs.items():
        k = r.kind or known.get(num)
        item = Item(r.line, num, r.col, r.closed)
        if r.linked and k == kind:
            sure.append(item)
        elif k == kind or k is None:
            maybe.append(item)
    if not sure and not maybe:
        return None
    what = "issues" if kind == "issue" else "PRs"
    low = sum(1 for it in sure if not it.closed)
    return Reading(what, sure + maybe, low, len(sure) + len(maybe))


def known_kinds(doc) -> dict:
    out = {}
    for r in doc.references:
        if r.kind in ("issue", "pr") and r.ids and (r.url or r.ref[:1].isalpha()):
            out.setdefault(r.ids[0], r.kind)
    return out


def _starts_with(title: str, label: str) -> bool:
    t, lab = plain(title).lower(), label.lower()
    return bool(lab) and t.startswith(lab) and not t[len(lab):len(lab) + 1].isalnum()


def _parts(doc, labels: list) -> dict:
    """label -> [(first line, last line)]: the sections whose heading starts with the label,
    each up to the next heading of its level or the next heading naming another label."""
    heads = [(s.line, s.level, s.title) for s in doc.sections] + \
            [(e.line, 9, e.title) for e in doc.entries]
    heads.sort()
    out = {}
    for lab in labels:
        rng = []
        for k, (ln, lv, ti) in enumerate(heads):
            if lv == 9 or not _starts_with(ti, lab):
                continue
            end = len(doc.line_starts)
            for ln2, lv2, ti2 in heads[k + 1:]:
                if (lv2 <= lv) or any(_starts_with(ti2, o) for o in labels if o.lower() != lab.lower()):
                    end = ln2 - 1
                    break
            rng.append((ln, end))
        out[lab] = rng
    return out


def _row_name(row) -> str:
    return next((c.text[:40] for c in row.cells if c.text), "")


def present_under(doc, k: int) -> list:
    """Readings of the items under section k: entries, sub-sections, table rows, top-level
    list items (the reading that gives the declared number is the one meant)."""
    s = doc.sections[k]
    end = section_end(doc, k)
    out = []
    ents = [e for e in doc.entries if s.line < e.line <= end]
    if ents:
        out.append(Reading("entries", [Item(e.line, e.label) for e in ents], len(ents), len(ents)))
    subs = [t for t in doc.sections[k + 1:] if s.line < t.line <= end and t.level > s.level]
    if subs:
        top = min(t.level for t in subs)
        subs = [t for t in subs if t.level == top]
        out.append(Reading("subsections", [Item(t.line, t.title) for t in subs], len(subs), len(subs)))
    tables = [t for t in doc.tables if s.line < t.line <= end]
    rows = [r for t in tables for r in t.rows]
    if rows:
        out.append(Reading("table rows", [Item(r.line, _row_name(r)) for r in rows], len(rows), len(rows)))
    if len(tables) == 1:
        # a table may set its items side by side: '三组压测' over '| 指标 | 并发 1 | 并发 4 | 并发 8 |'
        cols = [c for c in tables[0].header if c.column >= 1 and c.text.strip()]
        if len(cols) >= 2:
            out.append(Reading("table columns", [Item(tables[0].line, c.text[:40]) for c in cols],
                               len(cols), len(cols)))
    bl = _top_bullets(doc, k)
    if bl:
        out.append(Reading("bullets", [Item(b.line, b.text[:40]) for b in bl], len(bl), len(bl)))
    return out


_NOUN_OF = compile_re(r"^\s*\d+\s*(?P<noun>[A-Za-z][A-Za-z ]{0,14}[A-Za-z]|[\u4e00-\u9fff]{1,3})\s*$")


def _summed_under(doc, bullets: list, surface: str):
    """'#### Remaining Work (20 points)' over bullets that each state their points ('(8 points)',
    '(5 points)', '(7 points)'): the heading's number is their sum, not how many there are.
    A reading 'summed' when every bullet under the heading states one amount of that noun."""
    m = _NOUN_OF.match(surface or "")
    if m is None or len(bullets) < 2 or not vocab()["summed_noun"].match(m.group("noun")):
        return None         # '（6 条）' over '第 1 条 … 第 3 条': items, whose ordinals add up to nothing
    noun, amount = m.group("noun").lower(), vocab()["amount"]
    total = 0
    for b in bullets:
        got = [int(x.group("n")) for x in amount.finditer(b.text) if x.group("noun").lower() == noun]
        if len(got) != 1:
            return None
        total += got[0]
    return Reading("summed", [Item(b.line, b.text[:40]) for b in bullets], total, total)


def _top_bullets(doc, k: int) -> list:
    """The top-level bullets of section k's own text (not the packed points of its entries)."""
    s, end = doc.sections[k], section_end(doc, k)
    bl = [doc.blocks[it.block] for it in doc.items if it.depth == 0 and doc.blocks[it.block].entry is None
          and s.line < doc.blocks[it.block].line <= end]
    return [b for i, b in enumerate(bl) if i == 0 or bl[i - 1].line != b.line]


def section_counts(doc) -> list:
    out = []
    for k, s in enumerate(doc.sections):
        if s.declared_count is None:
            continue
        cands = present_under(doc, k)
        if not cands:
            continue
        summed = _summed_under(doc, _top_bullets(doc, k), s.count_surface)
        if summed is not None:
            cands.append(summed)
        surface = s.count_surface or str(s.declared_count)
        col = s.count_col or max(1, doc.line_text(s.line).find(surface) + 1)
        start = doc.line_starts[s.line - 1] + col - 1
        out.append(CountStatement("section", s.line, col, start, start + len(surface), surface,
                                  int(s.declared_count), readings=cands))
    return out


_CLS = r"(?:条|件|个|篇|项|则|items?|entries|papers?|ids?)"


# 'label：N 条（parts）'; in English the counter word may be left out: 'Increments: 5 (2 … + 3 …)'
_DECL = compile_re(
    r"(?P<label>[^\s：:，,；;（()）|](?:[^：:，,；;（()）|\n]{0,22}?[^\s：:，,；;（()）|])?)\s*[:：]\s*(?P<n>\d{1,5})"
    r"(?:\s*(?P<cls>" + _CLS + r")|(?=\s*[（(]|\s|$))"
    r"(?:\s*[（(](?P<parts>[^）)\n]{1,200})[）)])?", re.IGNORECASE)


def _label_ok(label: str) -> bool:
    """A counted label is words ('增量条数', 'Projects covered'), not a time ('01:46')."""
    return bool(re.search(r"[A-Za-z]{2}|[\u4e00-\u9fff]", label)) and not label.rstrip()[-1:].isdigit()


_PART = compile_re(r"(?P<n>\d{1,5})\s*(?P<cls>" + _CLS + r")?\s*(?P<label>[^+＋]*)", re.IGNORECASE)


_COUNT_SUFFIX = compile_re(r"(?:条数|总数|个数|数量|篇数|件数|数|号|count|number of|total)$", re.IGNORECASE)


def _clean_label(t: str) -> str:
    t = EMOJI.sub("", t)
    return re.sub(r"\s+", " ", t).strip(" ·-—:：,，/")


def _entries_for(doc, word: str, summary_lines: set) -> Optional[list]:
    """Entries a counted word refers to: labels starting with it, else the section titled with it."""
    w = word.lower()
    if not w:
        return None
    if w.endswith("s") and w.isascii():
        w = w[:-1]          # 'Increments: 5' counts the 'Increment N' entries
    ents = [e for e in doc.entries if e.label.lower().startswith(w) and e.line not in summary_lines]
    if ents:
        return ents
    for k, s in enumerate(doc.sections):
        if w in s.title.lower() and s.role != "summary":
            end = section_end(doc, k)
            got = [e for e in doc.entries if s.line < e.line <= end]
            if got:
                return got
    return None


def _arxiv_ids(doc, exclude_lines) -> dict:
    ids = {}
    for r in doc.references:
        if r.kind == "arxiv" and r.line not in exclude_lines:
            ids.setdefault(r.ref, r.line)
    return ids


def summary_counts(doc) -> list:
    out = []
    blocks = summary_blocks(doc)
    summary_lines = {doc.blocks[bi].line for bi in blocks}
    for bi in blocks:
        b = doc.blocks[bi]
        for m in _DECL.finditer(b.text):
            label, n = m.group("label"), int(m.group("n"))
            if not _label_ok(label):
                continue
            s0 = b.start + m.start("n")
            e0 = b.start + (m.end("cls") if m.group("cls") else m.end("n"))
            line, col = doc.line_col(s0)
            surface = doc.text[s0:e0]
            if re.search(r"arxiv", label, re.IGNORECASE):
                ids = _arxiv_ids(doc, summary_lines)
                items = [Item(ln, i) for i, ln in sorted(ids.items(), key=lambda x: x[1])]
                out.append(CountStatement("summary", line, col, s0, e0, surface, n,
                                          readings=[Reading("arXiv ids", items, len(items), len(items))]))
                continue
            word = _COUNT_SUFFIX.sub("", _clean_label(label)).strip()
            ents = _entries_for(doc, word, summary_lines)
            if ents is None and re.search(r"[/、&]", word):
                # '矛盾/待核实：3 条' counts the section whose title names every part
                got = [_entries_for(doc, w.strip(), summary_lines) for w in re.split(r"[/、&]", word) if w.strip()]
                if got and all(g is not None for g in got) and all(
                        [e.line for e in g] == [e.line for e in got[0]] for g in got):
                    ents = got[0]
            if ents is None:
                continue
            items = [Item(e.line, e.label) for e in ents]
            out.append(CountStatement("summary", line, col, s0, e0, surface, n,
                                      readings=[Reading("entries", items, len(items), len(items))]))
            if not m.group("parts"):
                continue
            base = b.start + m.start("parts")
            for pm in _PART.finditer(m.group("parts")):
                plabel = _clean_label(pm.group("label"))
                if len(plabel) < 2:
                    continue
                hits = [e for e in ents if plabel.lower() in e.title.lower()]
                if not hits:
                    continue
                ps = base + pm.start()
                pe = base + pm.start() + len(pm.group().rstrip())
                pl, pc = doc.line_col(ps)
                hit_items = [Item(e.line, e.label) for e in hits]
                out.append(CountStatement("summary_part", pl, pc, ps, pe, doc.text[ps:pe], int(pm.group("n")),
                                          readings=[Reading("entries", hit_items, len(hits), len(hits))]))
    return out


# a statistics line of a generated report: '- **Total PRs Merged:** 5', '**新建 Issue 数**：3'
_STAT_LINE = compile_re(r"^[*_\s]*(?P<label>[A-Za-z\u4e00-\u9fff][A-Za-z\u4e00-\u9fff ]{1,40}?)[*_\s]*[:：][*_\s]*(?P<n>\d{1,4})[*_\s]*$")
# what the items counted were done: the line's word and the words a section title uses for it
_STATES = {"merged": ("merged", "合并", "已合并"), "created": ("created", "new", "opened", "新建", "新增", "新开"),
           "closed": ("closed", "关闭", "已关闭")}
_PEOPLE = compile_re(r"(?i)contributors?|authors?|贡献者")
# a section of some of the items only: 'Top PRs', 'Key Issues', '重点 PR'
_SOME_OF = compile_re(r"(?i)(?<![A-Za-z])(?:top|key|notable|selected|featured|highlights?|important)(?![A-Za-z])|重点|重要|精选|亮点")


def _state_of(text: str) -> Optional[str]:
    t = text.lower()
    return next((k for k, words in _STATES.items() if any(w in t for w in words)), None)


def stat_counts(doc) -> list:
    """A statistics line of a generated report ('**Total PRs Merged:** 5') against the items of
    the section that lists them ('## 🚀 Merged Pull Requests' over three PR links): the same kind
    of item (PRs, issues) in the same state (merged, created, closed), every one of them (a 'Top
    PRs' section lists some)."""
    v = vocab()
    out = []
    for b in doc.blocks:
        if b.kind not in ("bullet", "paragraph") or ":" not in b.text and "：" not in b.text:
            continue
        m = _STAT_LINE.match(b.text)
        if not m:
            continue
        label = m.group("label")
        kind = next((k for k in ("pr", "issue") if v["ref_nouns"][k].search(label)), None)
        state = _state_of(label) if kind else None
        if state is None or _PEOPLE.search(label):
            continue        # 'Contributors with Merged PRs: 2' counts people
        target = [(k, sec) for k, sec in enumerate(doc.sections) if sec.line > b.line and v["ref_nouns"][kind].search(sec.title)
                  and _state_of(sec.title) == state and not _SOME_OF.search(sec.title)]
        if len(target) != 1:
            continue
        k, sec = target[0]
        refs = {}
        for d in _refs_in(doc, sec.line, section_end(doc, k)).values():
            refs.update(d)
        items = [Item(r.line, num, r.col, r.closed) for num, r in refs.items() if r.linked and r.kind == kind]
        if not items:
            continue
        s0 = b.start + m.start("n")
        line, col = doc.line_col(s0)
        what = "PRs" if kind == "pr" else "issues"
        out.append(CountStatement("summary", line, col, s0, b.start + m.end("n"), m.group("n"), int(m.group("n")),
                                  readings=[Reading(what, items, len(items), len(items))],
                                  label=label.strip()))
    return out


def header_counts(doc) -> list:
    """'覆盖项目: 6 个' in the header, directly followed by a list: the list's length."""
    out = []
    lists = {}
    for it in doc.items:
        lists.setdefault(it.list_id, []).append(it)
    first = {its[0].block: its for its in lists.values()}
    for bi, b in enumerate(doc.blocks):
        if b.role != "header" or b.kind != "paragraph" or (":" not in b.text and "：" not in b.text):
            continue
        nxt = first.get(bi + 1)
        if nxt is None or doc.blocks[bi + 1].line - b.line > 2:
            continue        # the count must be right above its list
        for m in _DECL.finditer(b.text):
            if not _label_ok(m.group("label")):
                continue
            items = [Item(doc.blocks[it.block].line, doc.blocks[it.block].text[:40]) for it in nxt if it.depth == 0]
            s0 = b.start + m.start("n")
            e0 = b.start + (m.end("cls") if m.group("cls") else m.end("n"))
            line, col = doc.line_col(s0)
            out.append(CountStatement("header", line, col, s0, e0, doc.text[s0:e0], int(m.group("n")),
                                      readings=[Reading("bullets", items, len(items), len(items))]))
    return out


def _table_notes(doc, k: int) -> list:
    """Blocks that annotate table k: its caption and the paragraphs right before and after it."""
    t = doc.tables[k]
    out = []
    for bi, b in enumerate(doc.blocks):
        if b.table is not None or b.kind not in ("paragraph", "bullet"):
            continue
        last = doc.line_col(max(b.start, b.end - 1))[0]
        if 0 < t.line - last <= 3 or 0 < b.line - t.end_line <= 3:
            out.append(b)
    return out


def _note_rows(doc, notes, labels) -> tuple:
    """(does a note say the counts are of the items cited, labels a note exempts): a note
    sentence naming a row and a population word but no cited word exempts that row
    ('Unsloth counts are … "10 issues and 59 PRs updated"')."""
    v = vocab()
    cited, exempt, named = False, set(), set()

    def names_in(sent):
        return {lab for lab in labels if re.search(r"(?<![\w.])%s(?![\w])" % re.escape(lab), sent, re.IGNORECASE)}
    for b in notes:
        for sent in re.split(r"(?<=[。；;.!?])\s*", b.text):
            has_cited = bool(v["cited"].search(sent))
            cited = cited or has_cited
            if has_cited and v["count_note"].search(sent):
                named |= names_in(sent)
            if has_cited or not v["population"].search(sent) or not v["count_note"].search(sent):
                continue
            exempt |= names_in(sent)
    if named:
        # 'Counts for vLLM, SGLang, Ollama, and LiteLLM reflect issues/PRs cited': the other
        # rows count something the note does not say
        exempt |= set(labels) - named
    return cited, exempt


MAX_TABLE_ROWS = 60


def table_counts(doc, counts: list) -> list:
    """A per-project table of Issue / PR counts against the references of each project's part
    of the document, when the table or its note says it counts the items the document cites."""
    v = vocab()
    out = []
    by_cell = {}
    for c in counts:
        b = doc.blocks[c.block] if c.block is not None else None
        if b is not None and b.kind == "table_cell" and b.table is not None:
            by_cell.setdefault((b.table, b.row, b.cell), []).append(c)
    known = None
    for k, t in enumerate(doc.tables):
        cols = {}
        for cell in t.header:
            kind = count_column(t, cell.column)
            if kind in ("issue", "pr"):
                rest = v["ref_nouns"][kind].sub("", cell.text)
                if v["population"].search(rest):
                    continue        # 'Issues 活跃度 (新品及高优)', 'Issues 动态': not the cited items
                cols[cell.column] = (kind, bool(v["cited"].search(rest)))
        if not cols or not t.rows or len(t.rows) > MAX_TABLE_ROWS:
            continue        # a per-project summary is a short table
        labels = [plain(r.cells[0].text) for r in t.rows if r.cells and plain(r.cells[0].text)]
        notes = _table_notes(doc, k)
        note_cited, exempt = _note_rows(doc, notes, labels)
        if not (note_cited or any(head for _, head in cols.values()) or any(
                v["cited"].search(c.text) for r in t.rows for c in r.cells if c.column in cols)):
            continue        # the table does not say it counts the items the document cites
        parts = _parts(doc, labels)
        if known is None:
            known = known_kinds(doc)
        for r in t.rows:
            if not r.cells:
                continue
            lab = plain(r.cells[0].text)
            rng = parts.get(lab) or []
            if not rng or lab in exempt:
                continue
            refs = {}
            for lo, hi in rng:
                for repo, d in _refs_in(doc, lo, hi).items():
                    refs.setdefault(repo, {}).update(d)
            main = max(refs, key=lambda x: len(refs[x]), default=None)
            mine = refs.get(main, {})
            for cell in r.cells:
                if cell.column not in cols or cell.block is None:
                    continue
                kind, head_cited = cols[cell.column]
                if not (head_cited or note_cited or v["cited"].search(cell.text)):
                    continue
                m = CELL_COUNT.match(cell.text)
                if not m:
                    continue
                rest = m.group("rest")
                if rest and (not rest.startswith(("（", "(")) or v["population"].search(rest)
                             or not v["cited"].search(rest)):
                    continue        # '117 个更新', '52（官方 24h 更新）', '**125 repo-wide**'
                cs = by_cell.get((k, r.index, cell.column)) or []
                if not cs:
                    continue
                c = cs[0]
                reading = _ref_readings(mine, kind, known)
                if reading is None:
                    reading = Reading("issues" if kind == "issue" else "PRs", [], 0, 0)
                head = t.column_name(cell.column)
                out.append(CountStatement("table", c.line, c.col, c.start, c.end, c.surface, int(c.value),
                                          c.approx, c.bound, [reading], f"{lab} · {plain(head)}", lab))
    return out
