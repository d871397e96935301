"""Shared helpers for the warnings tests: hand-built findings and a tiny fake analyzer.

The fake analyzer stands in for the rule engine where a test is about the writer,
not the rules: every 'N%' outside code becomes one finding whose family depends on N,
so the same base text always yields the same findings."""
from __future__ import annotations

import re

from validator.finding import Evidence, Finding
from validator.warnings_locate import parse_layout
from validator.warnings_section import prepare, update

FAMILIES = ("precondition", "contradiction", "unverified", "arithmetic")


def finding(path, text, line, surface, family="precondition", code="CV101", message=None,
            evidence=(), acknowledgeable=None, acknowledged=False):
    lines = text.replace("\r\n", "\n").split("\n")
    col = lines[line - 1].find(surface) + 1
    assert col > 0, (line, surface, lines[line - 1])
    if acknowledgeable is None:
        acknowledgeable = family in ("precondition", "unverified", "contradiction")
    return Finding(code, family, "warning", path, line, col, line, col + len(surface), surface,
                   message or f"{surface} needs attention.", list(evidence),
                   acknowledged=acknowledged, acknowledgeable=acknowledgeable)


_PCT = re.compile(r"(?<![\d.])(\d{1,3})%")


def fake_findings(path, base_text):
    lay = parse_layout(base_text)
    out = []
    for i, line in enumerate(lay.contents, 1):
        if i in lay.code_lines or "<!--" in line:
            continue
        for m in _PCT.finditer(line):
            n = int(m.group(1))
            fam = FAMILIES[n % len(FAMILIES)]
            ev = [Evidence(path, 1, "x")] if fam == "contradiction" else []
            out.append(Finding(f"CV{FAMILIES.index(fam) + 1}01", fam, "warning", path, i, m.start() + 1,
                               i, m.end() + 1, m.group(0), f"{m.group(0)} is doubtful.", ev,
                               acknowledgeable=fam != "arithmetic"))
    return out


def write_once(text, path="doc.md", findings_of=fake_findings, lang=None):
    prep = prepare(text)
    return update(prep, findings_of(path, prep.base_text), path=path, lang=lang)
