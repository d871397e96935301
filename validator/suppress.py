"""Inline suppressions: ``<!-- caveat: ignore CV301 reason="…" -->`` and ``ignore-file``.

``ignore`` applies to findings on the comment's own line or the line after it
(the comment sits on the line or on the line before); ``ignore-file`` to the whole
file.  Codes may be prefixes (``CV3``); no code means every rule.  A suppression
that matches no finding is reported as CV001 (warning, not acknowledgeable) so
stale comments do not pile up, the way ruff's RUF100 works.  A directive is a real
HTML comment of the Markdown: one shown in inline, indented or fenced code is an
example, not a directive.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from validator.finding import Finding
from validator.gate import code_matches, is_enabled

UNUSED_CODE = "CV001"
# what a comment's body says: 'caveat: ignore CV301 reason="…"' (the comment itself was found
# by the document model: claims.markdown, real comments only, never text shown in code)
DIRECTIVE = re.compile(r"\s*caveat\s*:\s*(ignore-file|ignore)\b(.*)", re.S)
REASON = re.compile(r"""reason\s*=\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)')""")
CODE = re.compile(r"\b(CV\d{0,3}|ALL|precondition|unverified|contradiction|arithmetic|count|entity|reference)\b", re.I)


@dataclass
class Suppression:
    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    codes: list            # upper-case codes or prefixes; empty = every rule
    reason: str
    file_level: bool
    surface: str
    used: set = field(default_factory=set)   # codes that matched ('*' for a blanket one)


def parse(doc, path=None) -> list:
    """Every suppression directive among the document's HTML comments (``doc.comments``:
    real comments of the Markdown, so a directive shown in inline, indented or fenced code
    is text, not a directive)."""
    path = doc.path if path is None else path
    out = []
    for c in doc.comments:
        m = DIRECTIVE.match(c.body)
        if not m:
            continue
        body = m.group(2)
        r = REASON.search(body)
        reason = next((g for g in r.groups() if g is not None), "") if r else ""
        codes_part = body[: r.start()] if r else body
        codes = [x.upper() if x.upper().startswith(("CV", "ALL")) else x.lower()
                 for x in CODE.findall(codes_part)]
        end_line, end_col = doc.line_col(max(c.start, c.end - 1))
        out.append(Suppression(
            path=path, line=c.line, col=c.col, end_line=end_line, end_col=end_col + 1,
            codes=codes, reason=reason, file_level=m.group(1) == "ignore-file",
            surface=doc.text[c.start:c.end]))
    return out


def _norm(path: str) -> str:
    return os.path.normcase(os.path.normpath(os.path.abspath(path)))


def _covers(s: Suppression, f: Finding) -> bool:
    if s.file_level:
        return True
    return s.line <= f.line <= s.end_line + 1


def apply(findings, suppressions) -> None:
    """Mark findings that a suppression covers as ``suppressed`` and record the use."""
    by_path: dict = {}
    for s in suppressions:
        by_path.setdefault(_norm(s.path), []).append(s)
    for f in findings:
        if f.code == UNUSED_CODE:
            continue
        for s in by_path.get(_norm(f.path), ()):
            if not _covers(s, f):
                continue
            if not s.codes:
                s.used.add("*")
            else:
                hits = [c for c in s.codes if code_matches(f.code, [c], f.family, f.rule)]
                if not hits:
                    continue
                s.used.update(hits)
            f.suppressed = True
            # SARIF reports how a result was suppressed and why
            f.suppression_kind = ("inSource", s.reason)


def unused(suppressions, select=(), ignore=(), lang_of=lambda path: "en") -> list:
    """CV001 findings for suppressions (or codes in them) that matched nothing.

    A code this run does not check (deselected) cannot be called unused."""
    if not is_enabled(UNUSED_CODE, select, ignore):
        return []
    out = []
    for s in suppressions:
        if not s.codes:
            idle = [] if s.used else ["(all rules)"]
        else:
            idle = [c for c in s.codes if c not in s.used and
                    (c == "ALL" or is_enabled(c, select, ignore) or any(
                        sel.startswith(c) for sel in select))]
        if not idle:
            continue
        names = ", ".join(idle)
        zh = lang_of(s.path) == "zh"
        msg = (f"未使用的 caveat 抑制注释：{names} 在此处没有匹配任何发现；删除该注释或改正代码"
               if zh else
               f"unused suppression: {names} matches no finding here; remove the comment or fix its code")
        out.append(Finding(
            code=UNUSED_CODE, family="reference", severity="warning", path=s.path,
            line=s.line, col=s.col, end_line=s.end_line, end_col=s.end_col,
            surface=s.surface, message=msg, acknowledgeable=False,
            rule="meta.unused-suppression", key="suppression:" + ",".join(s.codes or ["*"]),
            help="删除不再需要的抑制注释" if zh else "delete suppressions that no longer match anything"))
    return out
