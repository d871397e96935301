"""The text of caveat-managed warnings entries, in the briefing's own style and language.

Two styles: labelled entries like the author's (`⚠️ T2 矛盾 · title` followed by
`现象：` / `风险：` / `建议：` lines) and Markdown list items. Every entry names the
figure exactly as written (so coverage recognises it), its line, and the evidence
(the conflicting figure and where it stands, the line stating the conditions, the
cited source). Wording lives in claims/data/warnings.yaml.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Optional

from validator.warnings_locate import style_data

# Characters that would break the summary line's '+'-separated list or the '（T2）' labels.
_TITLE_BAD = re.compile(r"[+（）()：:\[\]|`<>*_#]")
_CONTEXT_CUT = re.compile(r".*(?:[：:，,；;（(|·。!！?？]|\s[-–—+]\s|^\s*[-*+]\s)")
_SPACES = re.compile(r"\s+")


@dataclass
class Style:
    kind: str = "labelled"      # 'labelled' | 'list'
    lang: str = "en"
    prefix: str = "⚠️ "         # what stands before the label on an entry line
    letter: str = "T"
    bullet: str = "-"
    fields: Optional[dict] = None   # {'issue': '现象', 'risk': '风险', 'fix': '建议'}
    colon: str = "："


@dataclass
class Entry:
    label: str                  # 'T2' for labelled entries, '' for list items
    title: str                  # short, safe to list in the summary line
    lines: list                 # the entry's lines, without newlines


def _words(lang: str) -> dict:
    return style_data()["words"]["zh" if lang == "zh" else "en"]


def family_words(family: str, lang: str) -> dict:
    fam = style_data()["families"]
    return fam.get(family, fam["other"])["zh" if lang == "zh" else "en"]


def _one_line(s: str) -> str:
    return _SPACES.sub(" ", (s or "").replace("<!--", "<! --")).strip()


_DELIMS = re.compile(r"[：:，,；;（(）)|·。!！?？]|\s[-–—+]\s|^\s*[-*+]\s")


def context_before(line_text: str, col: int, surface: str) -> str:
    """The few words before the figure on its line ('EAGLE-3' in '（EAGLE-3 3.1× + …'); when the
    figure directly follows a label ('TGI 3.2：2,400 tok/s'), the label's words."""
    idx = col - 1
    if not (0 <= idx <= len(line_text)) or not line_text.startswith(surface, idx):
        found = line_text.find(surface)
        idx = found if found >= 0 else 0
    parts = _DELIMS.split(line_text[:idx])
    look = 2 if line_text[:idx].rstrip().endswith(("：", ":")) else 1
    for part in reversed(parts[-look:]):
        before = _SPACES.sub(" ", _TITLE_BAD.sub(" ", part)).strip()
        if len(before) > 24:
            before = before[-24:]
            cut = before.find(" ")
            if 0 <= cut < 12:
                before = before[cut + 1:]
        if _figure_free(before):
            return before
    return ""


_CONTEXT_AFTER_CUT = re.compile(r"(?:[：:，,；;（()）|·。!！?？]|\s[-–—+]\s).*")


def _figure_free(words: str) -> str:
    """Drop the tokens that read as figures ('128K', '2.4×', '35%'), so a title adds no claim."""
    keep = [t for t in words.split() if not (t[0].isdigit() or any(ch in t for ch in "%×～~"))]
    return " ".join(keep)


def context_after(line_text: str, col: int, surface: str) -> str:
    idx = col - 1
    if not (0 <= idx <= len(line_text)) or not line_text.startswith(surface, idx):
        found = line_text.find(surface)
        idx = found if found >= 0 else len(line_text)
    after = _CONTEXT_AFTER_CUT.sub("", line_text[idx + len(surface):])
    after = _SPACES.sub(" ", _TITLE_BAD.sub(" ", after)).strip()
    return after[:24].strip()


def make_title(finding, line_text: str, lang: str) -> str:
    """A short title for the entry and the summary line.

    Chinese titles carry no figure (the summary line they are listed in is prose the
    extractor reads, and the figure is named on the entry's first field line anyway);
    English titles, used only for labelled English entries, lead with the figure."""
    fw = family_words(finding.family, lang)
    if lang == "zh":
        ctx = _figure_free(context_before(line_text, finding.col, finding.surface)) \
            or _figure_free(context_after(line_text, finding.col, finding.surface))
        return _SPACES.sub(" ", f"{ctx} {fw['title']}").strip()
    surface = _TITLE_BAD.sub(" ", finding.surface).strip()
    return _SPACES.sub(" ", f"{surface} {fw['title']}").strip()


def display_path(path: str, briefing: str, roots: tuple) -> Optional[str]:
    """Evidence path as a reader finds it: corpus-relative, or None for the briefing itself."""
    if not path:
        return None
    try:
        if os.path.realpath(path) == os.path.realpath(briefing):
            return None
    except (OSError, ValueError):
        pass
    if os.path.isabs(path):
        for root in roots:
            rel = os.path.relpath(path, root)
            if not rel.startswith(".."):
                return rel.replace(os.sep, "/")
        base = os.path.dirname(os.path.abspath(briefing))
        rel = os.path.relpath(path, base)
        return (rel if not rel.startswith("..") else path).replace(os.sep, "/")
    return path.replace(os.sep, "/")


def evidence_text(finding, lang: str, briefing: str, roots: tuple) -> str:
    w = _words(lang)
    items = []
    for ev in finding.evidence:
        where = display_path(ev.path, briefing, roots)
        place = w["here"] if where is None else where
        if ev.line:
            gap = "" if where is None and (lang == "zh" or not place) else " "
            place += gap + w["line"].format(line=ev.line)
        elif not place:
            place = "this briefing"
        if ev.surface:
            place += f"「{_one_line(ev.surface)}」" if lang == "zh" else f" ({_one_line(ev.surface)})"
        if ev.note:
            place += f"（{_one_line(ev.note)}）" if lang == "zh" else f", {_one_line(ev.note)}"
        items.append(_relative_paths(place, roots))
    return w["sep"].join(items)


def _relative_paths(s: str, roots: tuple) -> str:
    """Messages may quote absolute corpus paths; show them the way the briefing cites them."""
    for root in roots:
        a = os.path.abspath(root).rstrip(os.sep) + os.sep
        s = s.replace(a, "")
    return s


def render_entry(findings, label: str, line_text: str, style: Style, briefing: str, roots: tuple) -> Entry:
    """One entry for the findings about one figure (the first names the entry's family)."""
    if not isinstance(findings, (list, tuple)):
        findings = [findings]
    finding = findings[0]
    lang = style.lang
    w = _words(lang)
    fw = family_words(finding.family, lang)
    title = make_title(finding, line_text, lang)
    where = w["line"].format(line=finding.line)
    msgs, fixes, evid = [], [], []
    for f in findings:
        m = _relative_paths(_one_line(f.message), roots).rstrip("。.")
        if m and m not in msgs:
            msgs.append(m)
        fx = _relative_paths(_one_line(f.help), roots).rstrip("。.") or family_words(f.family, lang)["fix"]
        if fx not in fixes:
            fixes.append(fx)
        ev = evidence_text(f, lang, briefing, roots)
        if ev and ev not in evid:
            evid.append(ev)
    message = w["sep"].join(msgs)
    evidence = w["sep"].join(evid)
    fix = w["sep"].join(fixes)
    if style.kind == "labelled":
        names = style.fields or style_data()["fields"]["zh" if lang == "zh" else "en"]
        c = style.colon
        if lang == "zh":
            issue = f"{where}「{finding.surface}」：{message}"
            if evidence:
                issue += f"（{w['evidence']}：{evidence}）"
        else:
            issue = f"{where}, {finding.surface}: {message}."
            if evidence:
                issue += f" {w['evidence']}: {evidence}."
        lines = [
            f"{style.prefix}{label} {fw['tag']} · {title}",
            f"{names['issue']}{c}{issue}",
            f"{names['risk']}{c}{fw['risk']}",
            f"{names['fix']}{c}{fix}",
        ]
        return Entry(label, title, lines)
    if lang == "zh":
        text = f"{style.bullet} **{fw['tag']}** · {where}「{finding.surface}」：{message}"
        if evidence:
            text += f"（{w['evidence']}：{evidence}）"
        text += f" 建议：{fix}"
    else:
        text = f"{style.bullet} **{fw['tag']}** · {where}, {finding.surface}: {message}."
        if evidence:
            text += f" {w['evidence']}: {evidence}."
        text += f" Fix: {fix}."
    return Entry("", title, [text])
