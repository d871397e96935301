"""Split a briefing into blocks: the units of prose the figure finder reads.

``segment(text, path)`` returns a ``claims.model.Document`` whose blocks carry
their line/column, section (Markdown ``#`` headings and Chinese ordinal lines
such as ``四、值得警惕的矛盾或待核实说法（3 条）``), entry (``增量 2 · …``,
``⚠️ T1 …``, ``### 1. …``), role, packed bullets (``要点： - a - b``, one block
per bullet), table cells (rows may be broken across lines) and the masked
ranges (inline code, URLs, link targets, HTML comments and tags, file paths,
star ratings) that must produce no claims.  Fenced/indented code, HTML
comments spanning lines and front matter produce no blocks at all.

markdown-it-py decides which lines are code, HTML or headings (it knows
CommonMark's corner cases); the briefing conventions that are not Markdown
(ordinal sections, entries, packed bullets, broken table rows) are line-level
logic here.  Every step is linear in the input: markdown-it runs block-level
only (no inline pass) with its nesting limit, the line walk is a single pass,
and every regular expression is anchored or bounded.
"""
from __future__ import annotations

import bisect
import re
from functools import lru_cache

from . import markdown as md
from . import structure
from ._data import load
from .markers import marker_names
from .markdown import parse_sources
from .model import Block, Cell, Document, Entry, Row, Section, Source, Table
from .pattern_cache import compile_re  # compiled once per machine, not per process

# ---------------------------------------------------------------- patterns


@lru_cache(maxsize=None)
def _rx():
    d = load("sections.yaml")
    roles = [(role, [compile_re(p) for p in pats]) for role, pats in d["roles"].items()]
    return {
        "roles": roles,
        "ordinal": compile_re(d["ordinal_section"]),
        "count": compile_re(d["declared_count"], re.IGNORECASE),
        "entries": [compile_re(p) for p in d["entries"]],
        "source_line": compile_re(d["source_line"], re.IGNORECASE),
        "label_line": compile_re(d["label_line"]),
    }


_QUOTE = compile_re(r"^\s{0,3}(?:>\s?)+")
_BULLET = compile_re(r"^(\s{0,12})(?:[-*+•]|\d{1,3}[.)、])\s+")
# '要点： - a - b': a short label ending in a colon, then ' - '.
_PACKED = compile_re(r"^[^|\n]{0,30}?[：:]\s*-\s+\S")
# split points of a packed line: ' - ' not between two digits ('2 - 5%' is a range)
_PACK_SPLIT = compile_re(r"(?<!\d)\s{1,4}-\s{1,4}|\s{1,4}-\s{1,4}(?!\d)")
_ATX_MARKS = compile_re(r"^\s{0,3}#{1,6}\s*")
_CLOSING_MARKS = compile_re(r"\s+#+\s*$")
_NUMBERED_HEADING = compile_re(r"^\s*(?P<label>\d{1,3})[.、)]\s+\S")
_DELIM_ROW = md.DELIM_ROW
# Language share by byte classes of the UTF-8 text: lead bytes E4-E9 start U+4000-U+9FFF (the
# CJK ideographs); a regex class over those ranges costs ~15 ms to compile at every start-up.
_NOT_HAN_LEAD = bytes(b for b in range(256) if not 0xE4 <= b <= 0xE9)
_NOT_LATIN = bytes(b for b in range(256) if not (65 <= b <= 90 or 97 <= b <= 122))
_DATE = compile_re(r"(?<!\d)(20\d{2}|19\d{2})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)")

_STARS = compile_re(r"[⭐★]")
_IMAGE = compile_re(r"\.(?:png|jpe?g|gif|svg|webp|bmp|ico)$", re.IGNORECASE)   # pictures are not sources


def _section_role(title: str):
    for role, rxs in _rx()["roles"]:
        for rx in rxs:
            if rx.search(title):
                return role
    return None


def _strip_bold(title: str) -> str:
    """'**Performance Results**' -> 'Performance Results' (emphasis around a whole heading is markup)."""
    t = title.strip()
    for mark in ("**", "__"):
        if len(t) > 4 and t.startswith(mark) and t.endswith(mark) and mark not in t[2:-2]:
            return t[2:-2].strip()
    return t


def clean_title(title: str) -> str:
    t = title.strip().strip("*").strip()
    t = re.sub(r"^(?:[一二三四五六七八九十]{1,3}\s*[、．.]|[IVX]{1,5}\.\s|\d{1,3}(?:\.\d{1,3})*[.、)]?)\s*", "", t)
    t = _rx()["count"].sub("", t).strip()
    return t


# ------------------------------------------------------------ segmenter

class _Walk:
    """State of the single pass over the lines."""

    def __init__(self, doc: Document, lines: list, starts: list, ends: list = None, markup=None):
        self.doc = doc
        self.lines = lines
        self.starts = starts
        self.ends = ends
        self.markup = markup
        self.stack = []            # open section indexes, outermost first
        self.entry = None          # open entry index
        self.open_block = None     # index of a paragraph/bullet block a continuation line extends
        self.title_done = False
        self.table_row = None      # row counter while inside a table
        self.src_lines = set()     # lines that cite sources
        self.extended = set()      # blocks grown by continuation lines

    # -- sections and entries
    @property
    def section(self):
        return self.stack[-1] if self.stack else None

    def role(self):
        if self.section is None:
            return "header"
        return self.doc.sections[self.section].role

    def close_entry(self, line):
        if self.entry is not None:
            self.doc.entries[self.entry].end_line = line - 1
            self.entry = None

    def open_section(self, title: str, line: int, level: int, s: int, e: int):
        """A heading or ordinal line at 1-based ``line``; title spans text[s:e]."""
        doc = self.doc
        self.close_entry(line)
        while self.stack and doc.sections[self.stack[-1]].level >= level:
            doc.sections[self.stack.pop()].end_line = line - 1
        parent = self.stack[-1] if self.stack else None
        clean = clean_title(title)
        role = _section_role(clean) or (doc.sections[parent].role if parent is not None else None) or "body"
        sec = Section(title=_strip_bold(title), line=line, level=level, role=role, parent=parent)
        m = _rx()["count"].search(title)
        masked = []
        if m:
            sec.declared_count = int(m.group("n"))
            sec.count_surface = m.group(0).strip("（）() ")
            off = s + m.start() + m.group(0).index(sec.count_surface)
            sec.count_col = off - self.starts[line - 1] + 1
            masked.append((s + m.start(), s + m.end()))
        doc.sections.append(sec)
        self.stack.append(len(doc.sections) - 1)
        self.add_block(s, e, line, "heading", masked=masked)
        self.open_block = None

    def open_entry(self, label: str, title: str, line: int, s: int, e: int):
        doc = self.doc
        self.close_entry(line)
        ent = Entry(label=label.strip(), title=title.strip(), line=line, section=self.section)
        doc.entries.append(ent)
        self.entry = len(doc.entries) - 1
        ent.sources.extend(parse_sources(doc.text, s, e, line, self.starts[line - 1], "inline"))
        self.add_block(s, e, line, "entry_heading")
        self.open_block = None

    # -- blocks
    def add_block(self, s: int, e: int, line: int, kind: str, bullet: int = 0, row=None, cell=None, masked=None):
        text = self.doc.text
        while s < e and text[s] in " \t\r\n":
            s += 1
        while e > s and text[e - 1] in " \t\r\n":
            e -= 1
        if s >= e:
            return None
        col = s - self.starts[line - 1] + 1
        b = Block(start=s, end=e, line=line, col=col, text=text[s:e], role=self.role(),
                  section=self.section, entry=self.entry, kind=kind, bullet=bullet, row=row, cell=cell,
                  masked=list(masked or []))
        self.doc.blocks.append(b)
        return len(self.doc.blocks) - 1

    # -- the walk: one reader per kind of line, each returning the next line index (or None
    #    when the line is not of its kind)
    def run(self, first: int):
        n = len(self.lines)
        i = first
        readers = (self.read_heading, self.read_table, self.read_ordinal, self.read_entry)
        while i < n:
            nxt = self.skip(i)
            if nxt is None:
                for reader in readers:
                    nxt = reader(i)
                    if nxt is not None:
                        break
            if nxt is None:
                self.read_source_line(i)
                nxt = self.read_prose(i)
            i = nxt

    def close(self):
        """Close what is still open at the end of the document."""
        doc, n = self.doc, len(self.lines)
        self.close_entry(n + 1)
        for k in self.extended:
            doc.blocks[k].text = doc.text[doc.blocks[k].start:doc.blocks[k].end]
        _inline_sources(doc)
        for k in self.stack:
            doc.sections[k].end_line = n
        for ent in doc.entries:
            if not ent.end_line:
                ent.end_line = n

    def skip(self, i):
        """Code, rules, blank lines and lines wholly inside an HTML comment produce nothing."""
        c = self.markup.cls.get(i)
        s, e = self.starts[i], self.ends[i]
        if c in ("code", "skip") or not self.lines[i].strip():
            self.open_block = None
            self.table_row = None
            return i + 1
        ranges = self.markup.comment_ranges
        k = bisect.bisect_right(ranges, (s, float("inf"))) - 1
        if k >= 0 and ranges[k][0] <= s and ranges[k][1] >= e:
            return i + 1
        return None

    def read_heading(self, i):
        """A Markdown heading (markdown-it's): the title, a section, or a numbered entry."""
        c = self.markup.cls.get(i)
        if not isinstance(c, tuple):
            self.title_done = True
            return None
        doc, text, content = self.doc, self.doc.text, self.lines[i]
        s = self.starts[i]
        _, level, last = c
        m = _ATX_MARKS.match(content)
        ts = s + (m.end() if m else len(content) - len(content.lstrip()))
        te = self.ends[last]
        tail = _CLOSING_MARKS.search(text, ts, te)
        if tail:
            te = tail.start()
        title = text[ts:te].strip()
        nm = _NUMBERED_HEADING.match(title)
        line_no = i + 1
        if level == 1 and not self.title_done and not doc.sections:
            self.title_done = True
            doc.title = doc.title or title
            self.add_block(ts, te, line_no, "heading")
        elif nm and level >= 3 and self.section is not None:
            self.open_entry(nm.group("label"), title, line_no, ts, te)
        else:
            self.open_section(title, line_no, level, ts, te)
        self.table_row = None
        return last + 1

    def read_table(self, i):
        """A '|' row followed by a delimiter row, and the rows after it (a row may be broken
        across lines)."""
        lines, cls, n = self.lines, self.markup.cls, len(self.lines)
        content = lines[i]
        if not ("|" in content and (self.table_row is not None or (
                i + 1 < n and _DELIM_ROW.match(lines[i + 1]) and cls.get(i + 1) is None))):
            self.table_row = None
            return None
        if _DELIM_ROW.match(content):
            return i + 1
        stripped = content.strip()
        last = i
        # a row broken across lines: starts with '|' but does not end with one
        if stripped.startswith("|") and not stripped.endswith("|"):
            j = i + 1
            while j < n and j - i < 50 and lines[j].strip() and cls.get(j) is None \
                    and not lines[j].lstrip().startswith("|") and not _DELIM_ROW.match(lines[j]):
                last = j
                if lines[j].rstrip().endswith("|"):
                    break
                j += 1
        row = 0 if self.table_row is None else self.table_row
        _table_row(self, self.doc, self.starts[i], self.ends[last], i + 1, row)
        self.table_row = row + 1
        self.open_block = None
        return last + 1

    def _body(self, i):
        # the line-kind patterns read the line without its indentation: a regex starting
        # '^\s*' on a line with a huge indent would backtrack through it
        content = self.lines[i]
        lead = len(content) - len(content.lstrip())
        return lead, content[lead:]

    def read_ordinal(self, i):
        """An ordinal section line without '#': '四、…（3 条）', 'IV. … (2 items)'."""
        lead, body = self._body(i)
        if self.markup.cls.get(i) == "html" or not _rx()["ordinal"].match(body):
            return None
        # the title text is the whole line
        self.open_section(body, i + 1, 2, self.starts[i] + lead, self.ends[i])
        return i + 1

    def read_entry(self, i):
        """An entry line: '增量 2 · …', '⚠️ T1 待核实 · …', 'Increment 2 · …'."""
        lead, body = self._body(i)
        ent = next((m for m in (erx.match(body) for erx in _rx()["entries"]) if m), None)
        if not ent or _BULLET.match(self.lines[i]):
            return None
        self.open_entry(ent.group("label"), self.lines[i].strip(), i + 1, self.starts[i] + lead, self.ends[i])
        return i + 1

    def read_source_line(self, i):
        """A source line '来源：…' / 'Sources reviewed: …' cites its entry's (or section's, or
        the document's) sources; its text is still prose."""
        lead, body = self._body(i)
        sm = _rx()["source_line"].match(body)
        if not sm:
            return
        doc, s, line_no = self.doc, self.starts[i], i + 1
        srcs = parse_sources(doc.text, s + lead + sm.start("rest"), self.ends[i], line_no, s, "line")
        if not srcs:
            return
        for src in srcs:
            src.origin = "line"
        if self.entry is not None:
            doc.entries[self.entry].sources.extend(srcs)
        elif self.section is not None:
            doc.sections[self.section].sources.extend(srcs)
        else:
            doc.header_sources.extend(srcs)
        self.src_lines.add(line_no)

    def read_prose(self, i):
        """A paragraph line, a bullet, or a packed line of bullets ('要点： - a - b')."""
        doc, text, content = self.doc, self.doc.text, self.lines[i]
        s, e, line_no = self.starts[i], self.ends[i], i + 1
        c = self.markup.cls.get(i)
        _lead, body = self._body(i)
        # a block quote's '>' marks are not prose; what follows them may be a bullet
        qm = _QUOTE.match(content)
        q = qm.end() if qm else 0
        bm = _BULLET.match(content[q:]) if q else _BULLET.match(content)
        body_s = s + q + (bm.end() if bm else len(content[q:]) - len(content[q:].lstrip()))
        if _PACKED.match(text[body_s:e]):
            self._packed(body_s, e, line_no, bool(bm), bool(q))
            self.open_block = None
            return i + 1
        if bm:
            self.open_block = self.add_block(body_s, e, line_no, "bullet")
        elif (self.open_block is not None and not _rx()["label_line"].match(body)
              # a block quote starts its own block ('> **Note:** …' right under a list item)
              and c != "html" and bool(q) == bool(doc.blocks[self.open_block].quoted) and (_wraps(text, doc.blocks[self.open_block].end, self.starts[i - 1] if i else -1)
                                   or c == "item" and doc.blocks[self.open_block].kind == "bullet")):
            self.extend_block(self.open_block, e)     # a wrapped paragraph or bullet line
        else:
            self.open_block = self.add_block(body_s, e, line_no, "paragraph")
        if q and self.open_block is not None:
            doc.blocks[self.open_block].quoted = True
        if c == "html" and self.open_block is not None:
            doc.blocks[self.open_block].html = True
        return i + 1

    def _packed(self, body_s, e, line_no, bulleted, quoted):
        """One block per piece of a packed line; the label before the first ' - ' is a paragraph."""
        pieces = []
        p = body_s
        for sp in _PACK_SPLIT.finditer(self.doc.text, body_s, e):
            pieces.append((p, sp.start()))
            p = sp.end()
        pieces.append((p, e))
        k = 0
        for n, (ps, pe) in enumerate(pieces):
            idx = self.add_block(ps, pe, line_no, "paragraph" if (n == 0 and not bulleted) else "bullet", bullet=k)
            if idx is not None:
                self.doc.blocks[idx].quoted = quoted
                k += 1

    def extend_block(self, idx: int, e: int):
        b = self.doc.blocks[idx]
        text = self.doc.text
        while e > b.start and text[e - 1] in " \t\r\n":
            e -= 1
        b.end = e           # b.text is cut once at the end: re-slicing per line would be quadratic
        self.extended.add(idx)


def _valid_date(y, m, d):
    y, m, d = int(y), int(m), int(d)
    if 1 <= m <= 12 and 1 <= d <= 31:
        return f"{y:04d}-{m:02d}-{d:02d}"
    return None


_MONTHS = {m: i + 1 for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}
_EN_DATE = compile_re(r"\b(?:(?P<m1>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}\.?\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y1>(?:19|20)\d{2})"
                      r"|(?P<d2>\d{1,2})\s+(?P<m2>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}\.?,?\s+(?P<y2>(?:19|20)\d{2}))\b",
                      re.IGNORECASE)


def _find_date(s: str):
    for m in _DATE.finditer(s or ""):
        v = _valid_date(*m.groups())
        if v:
            return v
    m = _EN_DATE.search(s or "")      # 'May 5, 2025', '5 May 2025'
    if m:
        mon = (m.group("m1") or m.group("m2")).lower()[:3]
        return _valid_date(m.group("y1") or m.group("y2"), _MONTHS[mon], m.group("d1") or m.group("d2"))
    return None


_MANAGED = compile_re(r"<!--\s*caveat:warnings:start\s*-->(.*?)<!--\s*caveat:warnings:end\s*-->", re.S)


def _managed_blocks_are_warnings(doc: Document) -> None:
    """Entries caveat wrote (between its warnings markers) are warnings text wherever the
    block stands: a section found only through a config pattern still discloses them, and
    their figures are never read as new body claims."""
    if "caveat:warnings:start" not in doc.text:
        return
    spans = [m.span(1) for m in _MANAGED.finditer(doc.text)]
    starts = [a for a, _ in spans]
    for b in doc.blocks:
        k = bisect.bisect_right(starts, b.start) - 1
        if k >= 0 and b.start < spans[k][1]:
            b.role = "warnings"


# a footnote definition: '[^3]: …', '[^note]: …' (and the '[^3^]: …' some writers use)
_FOOTNOTE_DEF = compile_re(r"\[\^[^\]\s]{1,24}\]:")


def _footnote_definitions_are_references(doc: Document) -> None:
    """A footnote definition cites a source (its quotation is the source's words backing the
    body): it is a reference entry wherever it stands, as the items of a References section."""
    if "[^" not in doc.text:
        return
    for b in doc.blocks:
        if b.role != "warnings" and b.text.startswith("[^") and _FOOTNOTE_DEF.match(b.text):
            b.role = "references"


def segment(text: str, path=None, *, bom: bool = False, newline=None) -> Document:
    """Split ``text`` (already decoded, BOM removed) into a Document.

    Four passes: the lines and what the Markdown reader says of them (code, headings,
    comments, masks); the walk over the lines that opens sections and entries and cuts
    blocks; each block's masks; the document's facts (markers, sources, language, date,
    title) and its typed structure (claims.structure)."""
    if newline is None:
        i = text.find("\n")
        newline = "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"
    doc = Document(path=str(path) if path is not None else "<text>", text=text, newline=newline, bom=bom)
    starts, ends, lines = _lines_of(text)
    doc.line_starts = starts
    # front matter: no blocks; its title/date still describe the document
    fm = doc.front_matter = md.front_matter(lines)
    fm_date, fm_title = _front_matter_fields(lines, fm)
    markup = _read_markup(doc, lines, starts, ends, fm)
    w = _Walk(doc, lines, starts, ends, markup)
    w.run(fm)
    w.close()
    _mask_blocks(doc, markup.masks + markup.code_masks)
    _entry_markers(doc)
    _managed_blocks_are_warnings(doc)
    _footnote_definitions_are_references(doc)
    _collect_sources(doc)
    doc.lang = _language(doc)
    name = str(path).replace("\\", "/").rsplit("/", 1)[-1] if path else ""
    doc.date = fm_date or _find_date(name) or _find_date(doc.title or fm_title or "") \
        or _find_date(" ".join(lines[fm:fm + 5]))
    if doc.title is None:
        doc.title = fm_title or next((ln.strip() for ln in lines[fm:] if ln.strip()), None)
    structure.build(doc, clean_title)
    return doc


def _lines_of(text: str) -> tuple:
    """(starts, ends, lines): each line's start and end offsets (end before '\r\n') and text."""
    starts = [0]
    pos = text.find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    n = len(starts)
    ends = [(starts[i + 1] - 1 if i + 1 < n else len(text)) for i in range(n)]
    ends = [e - 1 if e > starts[i] and text[e - 1] == "\r" else e for i, e in enumerate(ends)]
    return starts, ends, [text[starts[i]:ends[i]] for i in range(n)]


_FM_FIELD_LINE = compile_re(r"^\s*(date|title)\s*[:=]\s*['\"]?(.*?)['\"]?\s*$")


def _front_matter_fields(lines: list, fm: int) -> tuple:
    """(date, title) a leading front matter gives, each None when absent."""
    fm_date = fm_title = None
    for i in range(1, max(fm - 1, 1)):
        m = _FM_FIELD_LINE.match(lines[i])
        if m and m.group(1) == "date" and fm_date is None:
            fm_date = _find_date(m.group(2))
        elif m and m.group(1) == "title" and fm_title is None:
            fm_title = m.group(2)
    return fm_date, fm_title


class _Markup:
    """What the Markdown reader says of the lines: their classes, the comments, the masks."""

    __slots__ = ("cls", "comment_ranges", "masks", "code_masks")

    def __init__(self, cls, comment_ranges, masks, code_masks):
        self.cls, self.comment_ranges, self.masks, self.code_masks = cls, comment_ranges, masks, code_masks


def _read_markup(doc, lines, starts, ends, fm) -> _Markup:
    text, n = doc.text, len(lines)
    cls, code_blocks = md.line_classes(lines, set(range(fm)))
    # inline code of every line outside code blocks (and front matter); then the HTML
    # comments that are Markdown, not text shown inside code
    code_masks = []
    if "`" in text:
        for i in range(fm, n):
            if cls.get(i) != "code" and text.find("`", starts[i], ends[i]) >= 0:
                md.code_spans(text, starts[i], ends[i], code_masks)
    doc.code = md.code_regions(code_blocks, code_masks, starts, ends)
    comment_ranges = [(c.start, c.end) for c in md.real_comments(
        text, md.html_comments(text), doc.code, doc.line_col)]
    doc.comments = md.real_comments(text, comment_ranges, (), doc.line_col)
    masks = list(comment_ranges)
    for m in md.mask_pattern(text).finditer(text):
        masks.append((m.start(), m.end()))
    return _Markup(cls, comment_ranges, masks, code_masks)


def _mask_blocks(doc, ranges) -> None:
    """Each block's masked ranges: the document's masks that fall inside it."""
    all_masks = md.merge(ranges)
    mstarts = [a for a, _ in all_masks]
    for b in doc.blocks:
        k = max(bisect.bisect_right(mstarts, b.start) - 1, 0)
        while k < len(all_masks) and all_masks[k][0] < b.end:
            a, z = all_masks[k]
            if z > b.start:
                b.masked.append((max(a, b.start), min(z, b.end)))
            k += 1
        b.masked = md.merge(b.masked)


# A Chinese line hard-wrapped by a translator or an editor is long and stops mid-sentence
# ('…发送约 10,000 Token 的请求时，首' / 'Token 延迟从 4.3 秒 …'); a briefing's own lines are one
# statement each and end in punctuation, a label or a short title.
_CJK_WRAP_MIN = 30


def _wraps(text: str, prev_end: int, line_start: int = -1) -> bool:
    """Does the previous line read as wrapped prose that the current line continues?

    A line ending in Latin text, a digit or a comma/dash (English hard-wrapping) is
    continued; so is a long line that stops on a Chinese character without sentence
    punctuation (``line_start`` is where that line begins)."""
    if prev_end <= 0:
        return False
    ch = text[prev_end - 1]
    if ch.isascii():
        return ch not in ".!?:;|"
    if "\u4e00" <= ch <= "\u9fff" and line_start >= 0:
        return prev_end - line_start >= _CJK_WRAP_MIN
    return False


def _table_row(w: _Walk, doc: Document, s: int, e: int, line_no: int, row: int):
    """One block per cell of a (possibly multi-line) table row text[s:e]."""
    text = doc.text
    cuts = [m.start() for m in re.finditer(r"(?<!\\)\|", text[s:e])]
    bounds = []
    prev = 0
    for c in cuts:
        bounds.append((prev, c))
        prev = c + 1
    bounds.append((prev, e - s))
    # outer pipes leave empty first/last cells
    if bounds and not text[s + bounds[0][0]:s + bounds[0][1]].strip():
        bounds = bounds[1:]
    if bounds and not text[s + bounds[-1][0]:s + bounds[-1][1]].strip():
        bounds = bounds[:-1]
    if row == 0 or not doc.tables:
        doc.tables.append(Table(line=line_no, end_line=line_no, header=[], rows=[], section=w.section,
                                entry=w.entry, role=w.role()))
    table_index = len(doc.tables) - 1
    table = doc.tables[table_index]
    cells = []
    row_cells = []
    for ci, (a, z) in enumerate(bounds):
        cs, ce = s + a, s + z
        # the line of a cell in a row broken across lines
        ln = bisect.bisect_right(doc.line_starts, cs) if cs < len(text) else line_no
        while cs < ce and text[cs] in " \t":
            cs += 1
        if cs < ce and text[cs] in "\r\n":
            while cs < ce and text[cs] in " \t\r\n":
                cs += 1
            ln = bisect.bisect_right(doc.line_starts, cs)
        idx = w.add_block(cs, ce, ln, "table_cell", row=row, cell=ci)
        if idx is not None:
            doc.blocks[idx].table = table_index
            b = doc.blocks[idx]
            row_cells.append(Cell(b.start, b.end, b.line, b.col, b.text.strip(), ci, idx))
        else:
            row_cells.append(Cell(cs, cs, ln, cs - doc.line_starts[ln - 1] + 1, "", ci, None))
        cells.append((idx, cs, ce, ln))
    if row == 0:
        table.header = row_cells
    else:
        table.rows.append(Row(line_no, row_cells, row))
    table.end_line = bisect.bisect_right(doc.line_starts, max(s, e - 1))
    # sources tables and references: the cited files, URLs, arXiv ids and their ratings
    role = w.role()
    has_stars = any(_STARS.search(text, cs, ce) for _, cs, ce, _ in cells)
    if row == 0 or not cells or not (role in ("sources_table", "references") or has_stars):
        return
    rating, rating_text = None, ""
    for _, cs, ce, _ in cells:
        cell = text[cs:ce].strip()
        stars = len(_STARS.findall(cell))
        if stars:
            rating, rating_text = stars, cell
        elif role == "sources_table" and cell in ("基线", "参考", "baseline", "reference"):
            rating_text = cell
    first = cells[0]
    srcs = parse_sources(text, first[1], first[2], first[3], doc.line_starts[first[3] - 1], "table")
    if not srcs and role == "references":
        for m in md.BARE_ARXIV.finditer(text, first[1], first[2]):
            srcs.append(Source("arxiv", m.group(0), first[3], m.start() - doc.line_starts[first[3] - 1] + 1, origin="table"))
    for src in srcs:
        src.rating, src.rating_text = rating, rating_text
        src.origin = "table"
    doc.sources.extend(srcs)


def _inline_sources(doc: Document):
    """Paths, URLs and arXiv ids named in an entry's lines (or in the header) are sources
    of that entry (or of the document) too, after any '来源：' line."""
    text = doc.text
    for b in doc.blocks:
        if b.kind == "table_cell" or b.kind == "entry_heading":
            continue
        if b.entry is not None:
            target = doc.entries[b.entry].sources
        elif b.section is None:
            target = doc.header_sources
        else:
            continue
        t = b.text
        if "/" not in t and ".md" not in t and "rxiv" not in t and "RXIV" not in t:
            continue     # cheap test first: no path, URL or arXiv id can be here
        have = {s.ref for s in target}
        ls = doc.line_starts[b.line - 1]
        for src in parse_sources(text, b.start, b.end, b.line, ls, "inline"):
            if b.entry is None and src.kind != "path":
                continue     # links above the first section (project pages, badges) are not the document's sources
            if src.ref not in have:
                if "\n" in text[b.start:b.end]:
                    src.line, src.col = doc.line_col(text.find(src.ref, b.start, b.end))
                target.append(src)
                have.add(src.ref)


_HAS_DIGIT = compile_re(r"\d")


def _has_digit_outside_masks(doc, b) -> bool:
    """Does the block hold a digit in its prose (not in a comment, URL, code span or path)?"""
    pos = b.start
    for a, z in b.masked:
        if _HAS_DIGIT.search(doc.text, pos, a):
            return True
        pos = max(pos, z)
    return _HAS_DIGIT.search(doc.text, pos, b.end) is not None


def _entry_markers(doc: Document):
    """An entry's own markers: those of its heading ('⚠️ T1 待核实 · …') and of a line that is
    only a note about the entry ('状态：未经精读'), not the marker of one figure's sentence
    ('0.87 (unverified; vendor blog only)'), which speaks of that figure alone."""
    if not doc.entries:
        return
    by_entry = {}
    for b in doc.blocks:
        if b.entry is not None:
            by_entry.setdefault(b.entry, []).append(b)
    for k, ent in enumerate(doc.entries):
        names = set()
        for b in by_entry.get(k, ()):
            if b.kind == "entry_heading" or not _has_digit_outside_masks(doc, b):
                names.update(marker_names(b.text))
        ent.markers = sorted(names)


def _collect_sources(doc: Document):
    """doc.sources: every source cited anywhere (lines, tables, entry headings), deduplicated by ref and line."""
    seen = {(s.ref, s.line) for s in doc.sources}
    allsrc = list(doc.header_sources)
    for sec in doc.sections:
        allsrc.extend(sec.sources)
    for ent in doc.entries:
        allsrc.extend(ent.sources)
    for s in allsrc:
        if (s.ref, s.line) not in seen:
            seen.add((s.ref, s.line))
            doc.sources.append(s)
    doc.sources.sort(key=lambda s: (s.line, s.col))
    # ratings from a sources table reach the same file cited elsewhere
    ratings = {s.ref: (s.rating, s.rating_text) for s in doc.sources if s.origin == "table" and (s.rating or s.rating_text)}
    if ratings:
        for s in allsrc:
            if s.ref in ratings and s.rating is None and not s.rating_text:
                s.rating, s.rating_text = ratings[s.ref]


def _language(doc: Document) -> str:
    """'zh' when Han characters are a meaningful share of the prose (a Han character ~ a word)."""
    han = latin = 0
    for b in doc.blocks:
        raw = b.text.encode("utf-8", "surrogatepass")
        han += len(raw.translate(None, _NOT_HAN_LEAD))
        latin += len(raw.translate(None, _NOT_LATIN))
        if han + latin > 200000:
            break
    if han == 0:
        return "en"
    return "zh" if han / (han + latin / 5.0) >= 0.3 else "en"


def section_path(doc: Document, index) -> list:
    """Titles from the outermost section down to ``index``."""
    out = []
    seen = 0
    while index is not None and seen < 64:
        sec = doc.sections[index]
        out.append(sec.title)
        index = sec.parent
        seen += 1
    return out[::-1]
