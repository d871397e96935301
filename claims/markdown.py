"""The one Markdown reader: which parts of a briefing are code, comments, front matter,
headings, table rules, links and masked text, and which sources a span cites.

Everything in caveat that needs to know "is this line code?", "is this a real HTML
comment?", "where does the front matter end?" asks this module, through the
``Document`` that ``claims.segment`` builds from it (``doc.code``, ``doc.comments``,
``doc.front_matter``, block masks).  No other module of the package carries a code-fence
pattern.

markdown-it-py decides which lines are code, HTML or headings (it knows CommonMark's
corner cases); it runs block-level only (no inline pass) with its nesting limit, because
the inline pass is where it is slow on hostile input.  Inline code spans, HTML comments and
the masks are found here with linear scans.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .entities import Covered
from .model import CodeRegion, Comment, Source
from .pattern_cache import compile_re  # compiled once per machine, not per process

# ------------------------------------------------------------ markdown-it


@lru_cache(maxsize=1)
def _md():
    from markdown_it import MarkdownIt   # lazy: ~20-40 ms import
    md = MarkdownIt("commonmark", {"maxNesting": 20})
    md.disable(["inline", "text_join", "reference"])
    return md


# Lines only a Markdown parser reads right: fences, HTML blocks, indented code or nested
# list content (an indented line that is no bullet: a list item's later line), setext
# underlines and rules.  A document with none of them (the common
# Chinese briefing) needs only ATX headings, so markdown-it (20-40 ms to import) is skipped.
NEEDS_MD = compile_re(r"^(?: {0,3}(?:```|~~~|<)| {1,}(?![-*+] |\d{1,3}[.)] )\S|\t| {0,3}(?:=+|-+|\*(?: *\*){2,}|_(?: *_){2,}) *$)", re.M)
_ATX = compile_re(r"^ {0,3}(#{1,6})(?:[ \t]|$)")
# a GFM table delimiter row; no two adjacent \s* (backtracking between them is quadratic on a long blank run)
DELIM_ROW = compile_re(r"^\s*(?:\|\s*)?:?-+:?(?:\s*\|\s*:?-+:?)+\s*\|?\s*$|^\s*\|\s*:?-{2,}:?\s*\|\s*$")


def line_classes(lines: list, skip: set) -> tuple:
    """(classes, code) for the lines of a document.

    ``classes`` maps a line index to 'code' | 'html' | 'skip' | 'item' (a later line of a list
    item's paragraph) | ('h', level, last_line);
    ``code`` lists (kind, first, last) line-index ranges of code blocks, kind 'fence' or
    'indented'.  ``skip`` lines (front matter) are read as blank."""
    src = "\n".join("" if i in skip else ln.replace("\r", " ") for i, ln in enumerate(lines))
    cls, code = {}, []
    if not NEEDS_MD.search(src):
        for i, ln in enumerate(lines):
            m = _ATX.match(ln) if i not in skip else None
            if m:
                cls[i] = ("h", len(m.group(1)), i)
        return cls, code
    try:
        tokens = _md().parse(src)
    except RecursionError:      # pathological nesting: fall back to line logic alone
        return cls, code
    depth = 0
    for tok in tokens:
        if tok.type == "list_item_open":
            depth += 1
        elif tok.type == "list_item_close":
            depth -= 1
        if tok.map is None:
            continue
        a, b = tok.map
        if tok.type == "paragraph_open" and depth > 0:
            # the later lines of a list item's paragraph ('- kernel  \n  [#21476] — 15× faster'):
            # they continue the item, whatever the line before ends with
            for j in range(a + 1, b):
                cls.setdefault(j, "item")
            continue
        if tok.type in ("fence", "code_block"):
            for j in range(a, b):
                cls[j] = "code"
            if b > a:
                code.append(("fence" if tok.type == "fence" else "indented", a, b - 1))
        elif tok.type == "html_block":
            for j in range(a, b):
                cls.setdefault(j, "html")
        elif tok.type == "heading_open":
            level = int(tok.tag[1])
            if tok.markup in ("=", "-"):      # setext: text lines then the underline
                cls[a] = ("h", level, b - 2)
                for j in range(a + 1, b - 1):
                    cls[j] = "skip"
                cls[b - 1] = "skip"
            else:
                cls[a] = ("h", level, a)
        elif tok.type == "hr":
            cls[a] = "skip"
    return cls, code


def code_lines(lines: list) -> set:
    """1-based numbers of the lines of ``lines`` that are code blocks (fenced or indented) or
    front matter: for a writer that edits the raw lines and must never touch code."""
    fm = front_matter(lines)
    _, code = line_classes(lines, set(range(fm)))
    out = set(range(1, fm + 1))
    for _kind, a, b in code:
        out.update(range(a + 1, b + 2))
    return out


def front_matter(lines: list) -> int:
    """Number of lines of a leading YAML/TOML front matter block (0 when none)."""
    if not lines or lines[0].rstrip("\r").strip() not in ("---", "+++"):
        return 0
    fence = lines[0].strip()
    for i in range(1, min(len(lines), 500)):
        t = lines[i].rstrip("\r").strip()
        if t == fence or (fence == "---" and t == "..."):
            return i + 1 if fence == "+++" or _yaml_mapping(lines[1:i]) else 0
    return 0


def _yaml_mapping(lines: list) -> bool:
    """Is this block a YAML front matter (a mapping, or nothing)? A post that opens with a
    rule and Markdown up to the next rule ('---' / '### 报告' / … / '---') has none: its
    text is prose to read."""
    body = "\n".join(ln.rstrip("\r") for ln in lines)
    if not body.strip():
        return True
    import yaml
    try:
        data = yaml.load(body, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except Exception:  # noqa: BLE001 - not YAML: no front matter
        return False
    return isinstance(data, dict)


# ------------------------------------------------------------ code and comments

_TICKS = compile_re(r"`+")


def code_spans(text: str, s: int, e: int, out: list):
    """Inline code spans of text[s:e] (one line or one table row): backtick runs paired with
    the next run of the same length, appended to ``out`` as (start, end)."""
    if text.find("`", s, e) < 0:
        return
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(text, s, e)]
    # next run index of each length after position k: walk from the end
    nxt = {}
    pair = [None] * len(runs)
    for k in range(len(runs) - 1, -1, -1):
        ln = runs[k][1] - runs[k][0]
        pair[k] = nxt.get(ln)
        nxt[ln] = k
    k = 0
    while k < len(runs):
        j = pair[k]
        if j is not None:
            out.append((runs[k][0], runs[j][1]))
            k = j + 1
        else:
            k += 1


def html_comments(text: str) -> list:
    """(start, end) of every ``<!-- … -->`` in text, code or not (an unclosed one runs to the end)."""
    out = []
    i = text.find("<!--")
    while i >= 0:
        j = text.find("-->", i + 4)
        if j < 0:
            out.append((i, len(text)))
            break
        out.append((i, j + 3))
        i = text.find("<!--", j + 3)
    return out


def code_regions(blocks: list, inline: list, starts: list, ends: list) -> list:
    """CodeRegion records: code blocks (line ranges from ``line_classes``) and inline spans."""
    out = [CodeRegion(kind, starts[a], ends[b], a + 1, b + 1) for kind, a, b in blocks]
    for s, e in inline:
        out.append(CodeRegion("inline", s, e, 0, 0))
    out.sort(key=lambda r: r.start)
    return out


def real_comments(text: str, ranges: list, code: list, line_col) -> list:
    """Comment records for the HTML comments that are Markdown, not text shown inside code:
    a comment whose ``<!--`` sits in a fenced, indented or inline code region is an example."""
    if not ranges:
        return []
    inside = Covered((r.start, r.end) for r in code) if code else ()
    out = []
    for s, e in ranges:
        if inside and s in inside:
            continue
        line, col = line_col(s)
        body = text[s + 4:e - 3] if text.endswith("-->", 0, e) else text[s + 4:e]
        out.append(Comment(s, e, line, col, body))
    return out


def merge(ranges: list) -> list:
    """Sorted, merged copy of (start, end) ranges (touching ranges join)."""
    ranges = sorted(ranges)
    out = []
    for s, e in ranges:
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


# ------------------------------------------------------------ masks

# masks: things inside prose that are never claims.  Each alternative with what a text must
# contain (lower-cased) for it to match anywhere; one pass runs only the alternatives the
# text can match (the path patterns alone cost half the pass), in this order, so the
# matches are those of the whole alternation.
MASK_PARTS = (
    (("http",), r"https?://[^\s<>()\[\]{}\"'，。、；）（]{1,2000}"),             # URLs
    (("www.",), r"www\.[A-Za-z0-9-]{1,200}\.[^\s<>()\[\]{}\"'，。、；）（]{1,2000}"),
    (("](",), r"\]\([^()\s]{0,2000}(?:\s+\"[^\"]{0,500}\")?\)"),            # link targets '](…)'
    (("<",), r"</?[A-Za-z][A-Za-z0-9:-]{0,40}(?:\s[^<>\n]{0,300})?/?>"),   # HTML / JSX tags
    (("/",), r"(?<![\w/.-])(?:[\w.-]{1,200}/){1,30}[\w.-]{1,200}\.(?:md|mdx|txt|py|json|ya?ml|pdf|html?|ipynb|csv|sh|rs|go|cpp|cu|h)(?![\w])"),
    ((".md", ".py", ".ipynb"), r"(?<![\w/.-])[\w.-]{1,200}\.(?:md|mdx|py|ipynb)(?![\w])"),      # bare file names
    (("arxiv",), r"arXiv\s*[:：]?\s*\d{4}\.\d{4,5}(?:v\d{1,3})?"),               # arXiv ids
    (("⭐", "★", "☆"), r"[⭐★☆]{1,20}"),                                           # star ratings
    (("&",), r"&#?[A-Za-z0-9]{1,10};"),                                      # HTML entities
    (("#",), r"(?<![\w&#])#\d{1,7}(?!\d)"),                                  # issue / PR numbers
    (("[",), r"\[\^?\d{1,3}\]"),                                            # footnote marks
)
MASK_RX = compile_re("|".join(p for _, p in MASK_PARTS), re.IGNORECASE)


@lru_cache(maxsize=64)
def _mask_rx(present: tuple):
    return compile_re("|".join(p for ok, (_, p) in zip(present, MASK_PARTS) if ok) or r"(?!)", re.IGNORECASE)


def mask_pattern(text: str):
    """The masks alternation without the alternatives that cannot match in ``text``.
    ('ſ' and 'K' fold onto s and k under IGNORECASE: a text holding them keeps the whole
    alternation rather than risk a needle its lower-casing would miss.)"""
    if "\u017f" in text or "\u212a" in text or "\u0130" in text or "\u0131" in text:
        return MASK_RX
    low = text.lower()
    return _mask_rx(tuple(any(n in low for n in needles) for needles, _ in MASK_PARTS))


# ------------------------------------------------------------ sources

URL_RX = compile_re(r"https?://[^\s<>()\[\]{}\"'，。、；）（`]{1,2000}")
ARXIV_RX = compile_re(r"(?:arXiv\s*[:：]?\s*|arxiv\.org/(?:abs|pdf)/)(\d{4}\.\d{4,5}(?:v\d{1,3})?)", re.IGNORECASE)
BARE_ARXIV = compile_re(r"(?<![\w.])(\d{4}\.\d{4,5})(v\d{1,3})?(?![\w.])")
# the look-behinds start a match only at the head of a [\w.-] run: no re-scan from inside it
_PATH_RX = compile_re(r"(?<![\w/.-])(?:[\w.-]{1,200}/){1,30}[\w.-]{1,200}\.[A-Za-z]{1,5}(?![\w])|(?<![\w/.-])[\w.-]{1,200}\.mdx?(?![\w])")
_IMAGE = compile_re(r"\.(?:png|jpe?g|gif|svg|webp|bmp|ico)$", re.IGNORECASE)   # pictures are not sources
# A program's source file ('vllm/core/scheduler.py', 'csrc/attention.cu') is code a post talks
# about, not a document it cites: a briefing cites notes, reports, pages and data
_PROGRAM = compile_re(r"\.(?:py|pyi|pyx|c|cc|cpp|cxx|h|hh|hpp|cu|cuh|rs|go|js|mjs|ts|tsx|jsx|java|kt|"
                      r"scala|swift|rb|php|sh|bash|zsh|ps1|cmake|mk|lua|pl|r|jl|zig|sol|proto)$", re.IGNORECASE)


def parse_sources(text: str, s: int, e: int, line: int, line_start: int, origin: str) -> list:
    """Sources named in text[s:e]: paths, URLs, arXiv ids (a '来源：' line, a table cell, a heading)."""
    out = []
    taken = []
    for m in URL_RX.finditer(text, s, e):
        url = m.group(0).rstrip(".,;:)")
        out.append(Source("url", url, line, m.start() - line_start + 1, origin=origin))
        taken.append((m.start(), m.end()))
    for m in ARXIV_RX.finditer(text, s, e):
        out.append(Source("arxiv", m.group(1), line, m.start(1) - line_start + 1, origin=origin))
        taken.append((m.start(), m.end()))
    # paths never overlap each other (one finditer), only URLs and arXiv ids:
    # one merged span set keeps a block with thousands of links linear
    covered = Covered(taken)
    for m in _PATH_RX.finditer(text, s, e):
        if m.start() in covered or _IMAGE.search(m.group(0)) or _PROGRAM.search(m.group(0)):
            continue
        out.append(Source("path", m.group(0), line, m.start() - line_start + 1, origin=origin))
    out.sort(key=lambda src: src.col)
    return out


def quote_marker(text: str, s: int, p: int) -> bool:
    """Is text[s:p], right before a number, only a blockquote's '>' at the start of its line
    ('> 四個實驗', a quoted line broken before its figure)? Then it is markup, not a bound;
    '>60%' (no space) at a line's start is a bound."""
    if text[s:p].strip() not in (">", "> >", ">>") or text[s:p].rstrip(" \t") == text[s:p]:
        return False
    k = text.rfind("\n", 0, s)
    return not text[k + 1:s].strip(" \t>")


def arrow_head(text: str, s: int, p: int) -> bool:
    """Is text[s:p] the head of an ASCII arrow ('283 -> 286', 'A => B')? Then the number is
    where a change goes, not a bound."""
    return text[s:p].strip() == ">" and s > 0 and text[s - 1] in "-=–"
