"""The text of caveat-managed warnings entries, in the briefing's own style and language.

Two styles: labelled entries like the author's (`⚠️ T2 矛盾 · title` followed by
`现象：` / `风险：` / `建议：` lines) and Markdown list items. An entry reads as the
author's disclosure of a figure ("⚠️ T4 待核实 · P99 延迟下降 38%（第 16 行）未见于所引来源"),
never as the finding's message to the author ("… the warnings section does not list
it"): each rule code has its disclosure wording (``disclosures`` in
claims/data/warnings.yaml), filled from the rule's own variables (``Finding.vars``).
Every entry names the figure exactly as written (so coverage recognises it), the
lines it stands on (one entry for one figure stated on several lines), and the
evidence (the conflicting figure and where it stands, the line stating the
conditions, the cited source).
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


def _lines_text(lines, lang: str) -> str:
    w = _words(lang)
    nums = sorted(set(int(n) for n in lines if n))
    if len(nums) == 1:
        return w["line"].format(line=nums[0])
    return w["lines"].format(lines=w["lines_sep"].join(str(n) for n in nums))


class _Values(dict):
    def __missing__(self, key):
        raise KeyError(key)


def _fill(template: str, values: dict):
    """``template`` with ``{name}``s from ``values``; None when one is missing (the caller
    then falls back to the finding's message)."""
    try:
        return template.format_map(_Values(values))
    except (KeyError, ValueError, IndexError, AttributeError):
        return None


def _disclosure(code: str, lang: str) -> Optional[dict]:
    return (style_data().get("disclosures") or {}).get(code, {}).get("zh" if lang == "zh" else "en")


def _values(f, lines: str, roots: tuple) -> dict:
    vals = {k: _relative_paths(_one_line(str(v)), roots)
            for k, v in (getattr(f, "vars", None) or {}).items() if isinstance(v, (str, int, float))}
    vals.update(surface=f.surface, lines=lines)
    return vals


def disclosure_parts(findings, lang: str, roots: tuple) -> tuple:
    """(head of the first finding, sentences, fixes): what the entry says of its figure,
    in the entry's language. Findings that say the same on several lines are said once
    with all their lines; what is said of the same lines shares one subject
    ('第 20 行的 两倍 在正文中标为待核实，尚未核实；未经核实（数字来自摘要）')."""
    data = style_data()
    lk = "zh" if lang == "zh" else "en"
    by_say: dict = {}
    order = []
    for f in findings:
        tmpl = _disclosure(f.code, lang)
        said = _fill(tmpl["says"], _values(f, "", roots)) if tmpl else None
        key = (f.code, said if said is not None else _one_line(f.message))
        if key not in by_say:
            by_say[key] = []
            order.append(key)
        by_say[key].append(f)
    head, fixes = None, []
    subjects: dict = {}          # lines text -> [what is said of the figure on those lines]
    for key in order:
        group = by_say[key]
        f = group[0]
        lines = _lines_text([g.line for g in group], lang)
        tmpl = _disclosure(f.code, lang)
        vals = _values(f, lines, roots)
        said = _fill(tmpl["says"], vals) if tmpl else None
        if said is None:     # a rule without disclosure wording: its message
            said = _relative_paths(_one_line(f.message), roots).rstrip("。.")
            subjects.setdefault((lines, False), []).append(said)
        else:
            subjects.setdefault((lines, True), []).append(said)
        fix = (_fill(tmpl["fix"], vals) if tmpl else None) or family_words(f.family, lang)["fix"]
        if fix not in fixes:
            fixes.append(fix)
        if head is None:
            head = (_fill(tmpl["head"], vals) if tmpl else None) or family_words(f.family, lang)["title"]
    sentences = []
    for (lines, worded), saids in subjects.items():
        saids = list(dict.fromkeys(saids))
        if worded:
            subject = data["subject"][lk].format(lines=lines, surface=_one_line(findings[0].surface))
            sentences.append(subject + data["also"][lk].join(saids))
        else:
            sentences.append(f"{lines}{'：' if lang == 'zh' else ': '}" + _words(lang)["sep"].join(saids))
    return head, sentences, fixes


def headline(findings, line_text: str, lang: str, head: str) -> str:
    """'EAGLE-3 3.1×（第 2、12 行）与 … 不一致': the words before the figure, the figure, its
    lines, what is wrong with it."""
    f = findings[0]
    ctx = _figure_free(context_before(line_text, f.col, f.surface))
    lines = _lines_text([g.line for g in findings], lang)
    if lang == "zh":
        return _SPACES.sub(" ", f"{ctx} {_one_line(f.surface)}").strip() + f"（{lines}）{head}"
    return _SPACES.sub(" ", f"{ctx} {_one_line(f.surface)} ({lines}) {head}").strip()


def render_entry(findings, label: str, line_text: str, style: Style, briefing: str, roots: tuple) -> Entry:
    """One entry for the findings about one figure (the first names the entry's family);
    ``line_text`` is the first finding's line."""
    if not isinstance(findings, (list, tuple)):
        findings = [findings]
    finding = findings[0]
    lang = style.lang
    w = _words(lang)
    fw = family_words(finding.family, lang)
    title = make_title(finding, line_text, lang)
    head, sentences, fixes = disclosure_parts(findings, lang, roots)
    evid = []
    for f in findings:
        ev = evidence_text(f, lang, briefing, roots)
        if ev and ev not in evid:
            evid.append(ev)
    said = w["sep"].join(sentences)
    evidence = w["sep"].join(evid)
    fix = w["sep"].join(fixes)
    if style.kind == "labelled":
        names = style.fields or style_data()["fields"]["zh" if lang == "zh" else "en"]
        c = style.colon
        if lang == "zh":
            issue = said + (f"（{w['evidence']}：{evidence}）" if evidence else "")
        else:
            issue = _sentence(said) + (f" {w['evidence']}: {evidence}." if evidence else "")
        lines = [
            f"{style.prefix}{label} {fw['tag']} · {headline(findings, line_text, lang, head)}",
            f"{names['issue']}{c}{issue}",
            f"{names['risk']}{c}{fw['risk']}",
            f"{names['fix']}{c}{_cap(fix) if lang != 'zh' else fix}",
        ]
        return Entry(label, title, lines)
    if lang == "zh":
        text = f"{style.bullet} **{fw['tag']}** · {said}"
        if evidence:
            text += f"（{w['evidence']}：{evidence}）"
        text += f"。{w['todo']}：{fix}"
    else:
        text = f"{style.bullet} **{fw['tag']}** · {_sentence(said)}"
        if evidence:
            text += f" {w['evidence']}: {evidence}."
        text += f" {w['todo']}: {fix}."
    return Entry("", title, [text])


def _sentence(s: str) -> str:
    """An English clause as a sentence: a full stop (never a capital: the clause may begin
    with the figure as written, 'about 450 ms', which the entry must name exactly)."""
    s = s.strip().rstrip(".")
    return s + "." if s else s


def _cap(s: str) -> str:
    s = s.strip().rstrip(".")
    return (s[:1].upper() + s[1:] + ".") if s else s
