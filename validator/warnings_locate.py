"""Where a briefing's warnings section, its managed block and its summary line are.

Works on the raw lines of the file (so every byte can be put back as it was):
finds headings (Markdown `#` lines and Chinese ordinal lines such as
`四、值得警惕的矛盾或待核实说法（1 条）`, never inside fenced code or front matter),
gives each a role (the segmenter's role from the Document when it has one, else the
patterns in claims/data/warnings.yaml extended by the config key
`warnings-patterns`), and finds the block caveat manages between
`<!-- caveat:warnings:start -->` and `<!-- caveat:warnings:end -->`.
"""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from typing import Optional

import yaml

START = "<!-- caveat:warnings:start -->"
END = "<!-- caveat:warnings:end -->"

_DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "claims", "data", "warnings.yaml")

_MD_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_ORDINAL = re.compile(r"^([一二三四五六七八九十百]+)、\s*(\S.*)$")
_BULLET = re.compile(r"^([-*+])\s+\S")
_LINE = re.compile(r"[^\n]*\n|[^\n]+$")


class LayoutError(Exception):
    """The managed block is broken (a start marker without its end): one line with the line number."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


@functools.lru_cache(maxsize=1)
def style_data() -> dict:
    with open(_DATA, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@functools.lru_cache(maxsize=32)
def _compile(patterns: tuple) -> tuple:
    return tuple(re.compile(p) for p in patterns)


def role_patterns(extra_warnings: tuple = ()) -> dict:
    """role -> compiled heading patterns; config `warnings-patterns` come first."""
    data = style_data()["section_patterns"]
    return {role: _compile(tuple(extra_warnings if role == "warnings" else ()) + tuple(pats))
            for role, pats in data.items()}


def split_lines(text: str) -> tuple:
    """(contents, ends): each line without its newline, and that newline ('\\n', '\\r\\n' or '')."""
    contents, ends = [], []
    for m in _LINE.finditer(text):
        s = m.group(0)
        if s.endswith("\r\n"):
            contents.append(s[:-2]); ends.append("\r\n")
        elif s.endswith("\n"):
            contents.append(s[:-1]); ends.append("\n")
        else:
            contents.append(s); ends.append("")
    return contents, ends


def join_lines(contents: list, ends: list) -> str:
    return "".join(c + e for c, e in zip(contents, ends))


@dataclass
class Heading:
    line: int          # 1-based
    level: int
    title: str
    kind: str          # 'md' | 'ordinal'
    role: str = "body"


@dataclass
class Layout:
    contents: list
    ends: list
    headings: list = field(default_factory=list)
    code_lines: set = field(default_factory=set)         # lines inside fences / front matter
    managed: Optional[tuple] = None                       # (start_line, end_line) of the markers, 1-based

    def section_end(self, h: Heading) -> int:
        """Last line (1-based, inclusive) of the section opened by heading h."""
        for other in self.headings:
            if other.line > h.line and other.level <= h.level:
                return other.line - 1
        return len(self.contents)

    def first(self, role: str, outside_managed: bool = True) -> Optional[Heading]:
        for h in self.headings:
            if h.role == role and not (outside_managed and self.in_managed(h.line)):
                return h
        return None

    def in_managed(self, line: int) -> bool:
        return self.managed is not None and self.managed[0] <= line <= self.managed[1]


def parse_layout(text: str, doc_roles: Optional[dict] = None, extra_patterns: tuple = ()) -> Layout:
    """Headings with roles, code lines and the managed block of `text`.

    doc_roles maps a heading's line to the role the segmenter gave it; a role other
    than body from there wins over the patterns."""
    contents, ends = split_lines(text)
    lay = Layout(contents, ends)
    pats = role_patterns(tuple(extra_patterns))
    start = None
    # code and front matter as the one Markdown reader sees them (claims.markdown): a heading
    # or a marker shown inside a code block is text, not structure
    from claims.markdown import code_lines
    lay.code_lines = code_lines(contents)
    i = 0
    n = len(contents)
    while i < n:
        line_no = i + 1
        s = contents[i]
        if line_no in lay.code_lines:
            i += 1
            continue
        stripped = s.strip()
        if stripped == START:
            if start is not None:
                raise LayoutError(line_no, f"second '{START}' before '{END}' (opened at line {start})")
            start = line_no
        elif stripped == END:
            if start is None:
                raise LayoutError(line_no, f"'{END}' without '{START}' before it")
            if lay.managed is not None:
                raise LayoutError(line_no, "more than one caveat-managed warnings block")
            lay.managed = (start, line_no)
            start = None
        else:
            hm = _MD_HEADING.match(s)
            om = None if hm else _ORDINAL.match(s)
            if hm or om:
                title = (hm.group(2) if hm else s.strip())
                level = len(hm.group(1)) if hm else 2
                role = "body"
                given = (doc_roles or {}).get(line_no)
                if given in ("warnings", "summary", "references"):
                    role = given
                else:
                    bare = _ORDINAL.sub(r"\2", title).strip()
                    for r in ("warnings", "summary", "references"):
                        if any(p.search(bare) for p in pats.get(r, ())):
                            role = r
                            break
                lay.headings.append(Heading(line_no, level, title, "md" if hm else "ordinal", role))
        i += 1
    if start is not None:
        raise LayoutError(start, f"'{START}' without '{END}' after it")
    return lay


def heading_count_span(title_line: str) -> Optional[tuple]:
    """(start, end, n) of the number in a declared count '（3 条）' / '(3 items)', or None."""
    m = re.search(style_data()["heading_count"], title_line)
    if not m:
        return None
    return m.start("n"), m.end("n"), int(m.group("n"))


def is_summary_line(s: str) -> bool:
    return re.match(style_data()["summary_line"], s) is not None


def entry_match(s: str):
    return re.match(style_data()["entry_line"], s)


def bullet_match(s: str):
    return _BULLET.match(s)
