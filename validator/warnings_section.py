"""Rewrite a briefing's warnings section from findings, touching only what caveat manages.

`update(text, findings, ...)` returns the new text. Three things may change and
nothing else: the block between the managed markers (regenerated from scratch
each time, one entry per acknowledgeable finding that no author entry covers),
the number in the section heading's count (author part kept, managed part
replaced) and the managed tail of the summary line (`…（T1）+ new（T2）`).

Idempotence rests on one idea: everything is computed on the *base* text, the file
with the previous managed block, count part and summary tail taken out, and
findings whose only reason to exist is caveat's own text are dropped (they sit
inside the managed block, or their only evidence does). So the second run sees the
same base as the first and writes the same bytes.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

from validator.warnings_locate import (
    END, START, Layout, LayoutError, bullet_match, entry_match, heading_count_span, is_summary_line,
    join_lines, parse_layout, style_data,
)
from validator.warnings_render import Style, render_entry

_FAMILY_ORDER = {"contradiction": 0, "unverified": 1, "precondition": 2}


@dataclass
class Update:
    text: str                       # the whole new text
    section: str                    # the warnings section as it now reads ('' when there is none)
    entries: list = field(default_factory=list)     # managed warnings_render.Entry objects
    findings: list = field(default_factory=list)    # the findings they stand for, same order
    author_entries: int = 0


def _roles_from_doc(doc) -> dict:
    roles = {}
    for s in getattr(doc, "sections", None) or ():
        if getattr(s, "role", "body") != "body":
            roles.setdefault(s.line, s.role)
    return roles


def _same_path(a: str, b: str, roots: tuple = ()) -> bool:
    """Whether path a (as a finding or its evidence names it) is the briefing b."""
    if not a or not b:
        return False
    if a == b:
        return True
    try:
        rb = os.path.realpath(b)
        if os.path.realpath(a) == rb:
            return True
        if not os.path.isabs(a):
            if any(os.path.realpath(os.path.join(r, a)) == rb for r in roots):
                return True
            return rb.replace(os.sep, "/").endswith("/" + a.replace(os.sep, "/").lstrip("./"))
    except (OSError, ValueError):
        pass
    return False


# ----------------------------------------------------------------------------- base text

@dataclass
class Prepared:
    """A file split into what caveat manages and the author's text (the base)."""
    text: str                       # the file as read (BOM already removed)
    base_text: str                  # without the managed block, count part and summary tail
    old_labels: list                # labels of the managed entries found ('T2', 'T3')
    old_entries: int                # how many managed entries were found
    managed: Optional[tuple]        # (start, end) lines of the old block in `text`


def _managed_labels(lay: Layout) -> list:
    if not lay.managed:
        return []
    out = []
    for i in range(lay.managed[0], lay.managed[1] - 1):
        m = entry_match(lay.contents[i])
        if m:
            line = lay.contents[i]
            title = line.split(" · ", 1)[1] if " · " in line else line[m.end():]
            out.append((m.group("letter") + m.group("num"), title))
    return out


def _strip_summary_tail(s: str, labels: list) -> str:
    """The summary line without the items caveat appended (`+ title（T2）+ title（T3）` at its end).

    Matched by the exact titles of the managed entries, so an author's own `…（T1）` stays."""
    if not labels:
        return s
    tail = "".join(r"(?: \+ |\+ |)" + re.escape(f"{title}（{lab}）") for lab, title in labels) + "$"
    return re.sub(tail, "", s, count=1)


def prepare(text: str, extra_patterns: tuple = ()) -> Prepared:
    """Take out what a previous run wrote, so every run starts from the same base text.

    Needs no roles: the managed block is found by its markers; the heading whose
    count it contributed to is the last heading above it (caveat only ever writes
    the block at the end of the warnings section, or as a section of its own,
    heading inside the block)."""
    lay = parse_layout(text, {}, extra_patterns)
    contents, ends = list(lay.contents), list(lay.ends)
    labels = _managed_labels(lay)
    n_entries = 0
    if lay.managed:
        s, e = lay.managed
        inner = [c for c in lay.contents[s:e - 1]]
        own_heading = bool(inner) and any(h.line == s + 1 for h in lay.headings)
        n_entries = len(labels) or sum(1 for c in inner if bullet_match(c))
        above = [h for h in lay.headings if h.line < s]
        if not own_heading and above:
            h = above[-1]
            span = heading_count_span(contents[h.line - 1])
            if span and span[2] >= n_entries:
                line = contents[h.line - 1]
                contents[h.line - 1] = line[:span[0]] + str(span[2] - n_entries) + line[span[1]:]
        at_eof = e == len(contents)
        last_end = ends[e - 1]
        del contents[s - 1:e]
        del ends[s - 1:e]
        if at_eof and s > 1:
            ends[s - 2] = last_end   # the newline caveat added before a block at the end of the file
    if labels:
        for i, c in enumerate(contents):
            if is_summary_line(c):
                contents[i] = _strip_summary_tail(c, labels)
    return Prepared(text, join_lines(contents, ends), labels, n_entries, lay.managed)


# ----------------------------------------------------------------------------- style and place

def _newline(ends: list) -> str:
    for e in ends:
        if e:
            return e
    return "\n"


def _detect_style(lay: Layout, sec, end: int, lang: str) -> tuple:
    """(Style, author entry count, highest author label number)."""
    st = Style(lang=lang, colon="：" if lang == "zh" else ": ")
    if sec is None:
        st.kind = "labelled" if (lang == "zh" and any(h.kind == "ordinal" for h in lay.headings)) else "list"
        if st.kind == "labelled":
            st.fields = dict(style_data()["fields"]["zh" if lang == "zh" else "en"])
        return st, 0, 0
    labelled = bullets = 0
    top = 0
    fields = {}
    bullet_chars = []
    in_code = lay.code_lines
    for ln in range(sec.line + 1, end + 1):
        if ln in in_code:
            continue
        s = lay.contents[ln - 1]
        m = entry_match(s)
        if m:
            labelled += 1
            if labelled == 1:
                st.prefix, st.letter = m.group("pre").lstrip(), m.group("letter")
            if m.group("letter") == st.letter:
                top = max(top, int(m.group("num")))
            continue
        b = bullet_match(s)
        if b:
            bullets += 1
            bullet_chars.append(b.group(1))
            continue
        fm = re.match(r"^\s*([^\s：:]{1,8})\s*([：:]\s*)", s)
        if fm and labelled:
            fields.setdefault(len(fields), (fm.group(1), fm.group(2)))
    if labelled:
        st.kind = "labelled"
        names = [f[0] for f in fields.values()]
        default = style_data()["fields"]["zh" if lang == "zh" else "en"]
        # Take the author's three field names when there are three, in the author's order.
        st.fields = {"issue": names[0], "risk": names[1], "fix": names[2]} if len(names) >= 3 else dict(default)
        if fields:
            st.colon = list(fields.values())[0][1]
        return st, labelled, top
    if bullets:
        st.kind = "list"
        st.bullet = max(set(bullet_chars), key=bullet_chars.count)
        return st, bullets, 0
    if sec.kind == "ordinal" and lang == "zh":
        st.kind = "labelled"
        st.fields = dict(style_data()["fields"]["zh"])
        return st, 0, 0
    st.kind = "list"
    return st, 0, 0


def _insert_place(lay: Layout, sec, end: int) -> int:
    """Index (0-based) in the line list where the managed block goes."""
    if sec is not None:
        last = sec.line
        for ln in range(sec.line + 1, end + 1):
            if lay.contents[ln - 1].strip():
                last = ln
        return last
    # Before the first summary or references section that follows some body text (a
    # 'TL;DR' at the very top is not where warnings go), else at the end.
    content_seen = False
    heads = {h.line: h for h in lay.headings}
    for ln, c in enumerate(lay.contents, 1):
        h = heads.get(ln)
        if h is not None:
            if h.role in ("summary", "references") and content_seen:
                return ln - 1
            continue
        if c.strip() and ln not in lay.code_lines:
            content_seen = True
    return len(lay.contents)


def _new_heading(lay: Layout, lang: str, n: int, before: Optional[int]) -> str:
    level = 2
    if before is not None:
        nxt = [h for h in lay.headings if h.line == before + 1]
        if nxt and nxt[0].kind == "md":
            level = nxt[0].level
    else:
        levels = [h.level for h in lay.headings if h.kind == "md" and h.level >= 2]
        if levels:
            level = min(levels)
    text = style_data()["new_section"]["zh" if lang == "zh" else "en"].format(n=n)
    return "#" * level + " " + text


# ----------------------------------------------------------------------------- selection

def _resolve(p: str, roots: tuple) -> str:
    if os.path.isabs(p) or os.path.exists(p):
        return p
    for r in roots:
        if os.path.exists(os.path.join(r, p)):
            return os.path.join(r, p)
    return p


def _managed_ranges(path: str, cache: dict) -> Optional[tuple]:
    """(start, end) of the managed block of another file named in evidence, or None."""
    key = os.path.realpath(path)
    if key not in cache:
        try:
            with open(key, encoding="utf-8-sig") as fh:
                cache[key] = parse_layout(fh.read()).managed
        except Exception:  # unreadable evidence: nothing to exclude
            cache[key] = None
    return cache[key]


def select(findings: Iterable, path: str, roots: tuple = ()) -> list:
    """(finding, evidence kept) for each finding that deserves a managed entry.

    Findings are in base-text numbering. Dropped: other files' findings, suppressed
    or must-fix ones, those an author entry covers (``acknowledged`` as computed on
    the base text), and those whose only evidence is caveat's own text in another
    briefing's managed block."""
    cache: dict = {}
    out = []
    seen = set()
    for f in findings:
        if not _same_path(f.path, path, roots):
            continue
        # a finding that is not acknowledgeable (its kind says: fix it) never becomes an entry
        if getattr(f, "suppressed", False) or not getattr(f, "acknowledgeable", True):
            continue
        if getattr(f, "acknowledged", False):
            continue
        if getattr(f, "severity", "warning") == "info":
            continue   # 'not comparable' and the like: nothing a reader must be warned about
        kept = []
        for ev in f.evidence:
            if ev.path and not _same_path(ev.path, path, roots):
                rng = _managed_ranges(_resolve(ev.path, roots), cache)
                if rng and rng[0] <= ev.line <= rng[1]:
                    continue
            kept.append(ev)
        if f.evidence and not kept:
            continue
        k = (f.code, f.line, f.col, f.surface, f.message)
        if k in seen:
            continue
        seen.add(k)
        out.append((f, kept))
    return out


def update(prep: Prepared, findings: Iterable, *, path: str, doc=None, lang: Optional[str] = None,
           extra_patterns: tuple = (), roots: tuple = ()) -> Update:
    """The file's text with its managed warnings part regenerated from `findings`.

    `findings` come from checking ``prep.base_text`` (so lines are base lines and
    ``acknowledged`` means an author entry covers it); `doc` is the Document of the
    base text (its section roles are used); roots are the corpus roots, used to show
    evidence paths relative to them."""
    import copy

    text = prep.base_text
    lang = lang or getattr(doc, "lang", None) or ("zh" if re.search(r"[\u4e00-\u9fff]", text) else "en")
    blay = parse_layout(text, _roles_from_doc(doc), extra_patterns)
    nl = _newline(blay.ends)

    sec = blay.first("warnings")
    end = blay.section_end(sec) if sec else len(blay.contents)
    style, author_count, top = _detect_style(blay, sec, end, lang)
    at = _insert_place(blay, sec, end)           # the block goes before base line index `at`
    chosen = select(findings, path, roots)

    # Base lines after the block move down by its length. The block's line count does
    # not depend on the line numbers it quotes: render once to learn it, then for real.
    def final_line(b: int, shift: int) -> int:
        return b + shift if b > at else b

    # One entry per figure: the findings about one figure (a missing condition, an
    # unverified mark…) read as one warning, the most serious family naming it.
    groups: dict = {}
    for f, kept in chosen:
        groups.setdefault((f.line, f.col, f.surface), []).append((f, kept))
    ordered = [sorted(g, key=lambda fe: (_FAMILY_ORDER.get(fe[0].family, 9), fe[0].code, fe[0].message))
               for _, g in sorted(groups.items(), key=lambda kv: kv[0])]

    def render(shift: int) -> tuple:
        entries, used = [], []
        for i, group in enumerate(ordered):
            members = []
            for f, kept in group:
                g = copy.copy(f)
                g.line = final_line(f.line, shift)
                evs = []
                for ev in kept:
                    e2 = copy.copy(ev)
                    if _same_path(ev.path, path, roots):
                        e2.path = path
                        e2.line = final_line(ev.line, shift)
                    evs.append(e2)
                g.evidence = evs
                members.append(g)
            f = group[0][0]
            line_text = blay.contents[f.line - 1] if 1 <= f.line <= len(blay.contents) else ""
            label = f"{style.letter}{top + i + 1}" if style.kind == "labelled" else ""
            entries.append(render_entry(members, label, line_text, style, path, roots))
            used.extend(members)
        block = [START]
        if sec is None:
            if style.kind == "list" and at > 0 and blay.contents[at - 1].strip():
                block.append("")
            block.append(_new_heading(blay, lang, len(entries), at if at < len(blay.contents) else None))
            if style.kind == "list":
                block.append("")
        for e in entries:
            block.extend(e.lines)
        if sec is None and style.kind == "list" and at < len(blay.contents) and blay.contents[at].strip():
            block.append("")
        block.append(END)
        return block, entries, used

    block, entries, used = render(0)
    if entries:
        block, entries, used = render(len(block))

    contents, ends = list(blay.contents), list(blay.ends)
    if entries:
        if at >= len(contents):
            # At the end of the file: the old last line gains a newline and the block
            # ends the way the file ended (with or without one); prepare() undoes this.
            last_end = ends[-1] if ends else nl
            if ends:
                ends[-1] = ends[-1] or nl
            contents += block
            ends += [nl] * (len(block) - 1) + [last_end]
        else:
            contents[at:at] = block
            ends[at:at] = [nl] * len(block)
        # The count in the author's heading: the author's number plus the managed entries.
        if sec is not None:
            span = heading_count_span(contents[sec.line - 1])
            if span:
                line = contents[sec.line - 1]
                contents[sec.line - 1] = line[:span[0]] + str(span[2] + len(entries)) + line[span[1]:]
        # The summary line lists the managed entries after the author's.
        if style.kind == "labelled":
            i = _summary_index(blay, sec, end)
            if i is not None:
                if i >= at:
                    i += len(block)
                tail = contents[i]
                for e in entries:
                    sep = "" if re.search(r"[:：]\s*$", tail) else ("+ " if tail.endswith(("）", ")")) else " + ")
                    tail += f"{sep}{e.title}（{e.label}）"
                contents[i] = tail
    new_text = join_lines(contents, ends)
    section = _section_text(new_text, extra_patterns, blay, sec)
    return Update(new_text, section, entries, used, author_count)


def _summary_index(lay: Layout, sec, end: int) -> Optional[int]:
    """0-based index of the line listing the warnings: in a summary section first, else anywhere else."""
    def ok(i: int) -> bool:
        ln = i + 1
        return (ln not in lay.code_lines and not (sec and sec.line <= ln <= end)
                and is_summary_line(lay.contents[i]))
    for h in lay.headings:
        if h.role == "summary":
            for i in range(h.line, lay.section_end(h)):
                if ok(i):
                    return i
    for i in range(len(lay.contents)):
        if ok(i):
            return i
    return None


def _section_text(text: str, extra_patterns: tuple, blay: Layout, sec) -> str:
    """The warnings section of the new text, heading to last non-blank line."""
    lay = parse_layout(text, {}, extra_patterns)
    if lay.managed and (sec is None or lay.managed[0] > sec.line):
        first = lay.managed[0] if sec is None else sec.line
        # the author's section (same heading line: the block is always below it) or caveat's own
        h = next((x for x in lay.headings if x.line == first + (1 if sec is None else 0)), None)
        end = max(lay.section_end(h) if h else lay.managed[1], lay.managed[1])
        if sec is None:
            end = lay.managed[1]
    elif sec is not None:
        first = sec.line
        end = blay.section_end(sec)
    else:
        return ""
    lines = lay.contents[first - 1:end]
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n"


def blank_managed(text: str) -> str:
    """`text` with every line of the managed block emptied (newlines kept, so line numbers hold)."""
    try:
        lay = parse_layout(text)
    except LayoutError:
        return text
    if not lay.managed:
        return text
    contents = list(lay.contents)
    for i in range(lay.managed[0] - 1, lay.managed[1]):
        contents[i] = ""
    return join_lines(contents, lay.ends)
