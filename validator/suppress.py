"""Inline suppressions: ``<!-- caveat: ignore CV301 reason="…" -->`` and ``ignore-file``.

``ignore`` applies to findings on the comment's own line or the line after it
(the comment sits on the line or on the line before); ``ignore-file`` to the whole
file.  Codes may be prefixes (``CV3``); no code means every rule.  A suppression
that matches no finding is reported as CV001 (warning, not acknowledgeable) so
stale comments do not pile up, the way ruff's RUF100 works.  Comments inside
fenced code are examples, not directives, and are skipped.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from validator.finding import Finding
from validator.gate import code_matches, is_enabled

UNUSED_CODE = "CV001"
DIRECTIVE = re.compile(r"<!--\s*caveat\s*:\s*(ignore-file|ignore)\b(.*?)-->", re.S)
REASON = re.compile(r"""reason\s*=\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)')""")
CODE = re.compile(r"\b(CV\d{0,3}|ALL|precondition|unverified|contradiction|arithmetic|count|entity|reference)\b", re.I)
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


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


def _fenced_lines(lines):
    inside, marker, out = False, "", set()
    for i, ln in enumerate(lines, 1):
        m = FENCE.match(ln)
        if m and (not inside or m.group(1)[0] == marker):
            inside, marker = (not inside), m.group(1)[0]
            out.add(i)
        elif inside:
            out.add(i)
    return out


def parse(text: str, path: str) -> list:
    """Every suppression comment in ``text`` outside fenced code."""
    if "caveat" not in text:
        return []
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    from bisect import bisect_right
    fenced = _fenced_lines(text.split("\n"))
    out = []
    for m in DIRECTIVE.finditer(text):
        line = bisect_right(line_starts, m.start())
        if line in fenced:
            continue
        end_line = bisect_right(line_starts, m.end() - 1)
        body = m.group(2)
        r = REASON.search(body)
        reason = next((g for g in r.groups() if g is not None), "") if r else ""
        codes_part = body[: r.start()] if r else body
        codes = [c.upper() if c.upper().startswith(("CV", "ALL")) else c.lower()
                 for c in CODE.findall(codes_part)]
        out.append(Suppression(
            path=path, line=line, col=m.start() - line_starts[line - 1] + 1,
            end_line=end_line, end_col=m.end() - line_starts[end_line - 1] + 1,
            codes=codes, reason=reason, file_level=m.group(1) == "ignore-file",
            surface=m.group(0)))
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
