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
# the built-in code of each family the fake analyzer reports, with the variables its rule
# gives its texts (the writer words its disclosure with them)
CODES = {"precondition": "CV101", "contradiction": "CV301", "unverified": "CV201", "arithmetic": "CV401"}
VARS = {
    "CV101": {"en": {"missing": "hardware", "metric_name": "throughput", "where": ""},
              "zh": {"missing": "硬件", "metric_name": "吞吐", "where": ""}},
    "CV301": {"en": {"other": "31%", "where": "notes.md:1"}, "zh": {"other": "31%", "where": "notes.md:1"}},
    "CV201": {"en": {"marker_name": "unverified"}, "zh": {"marker_name": "待核实"}},
}


def finding(path, text, line, surface, family="precondition", code="CV101", message=None,
            evidence=(), acknowledgeable=None, acknowledged=False, vars=None):
    lines = text.replace("\r\n", "\n").split("\n")
    col = lines[line - 1].find(surface) + 1
    assert col > 0, (line, surface, lines[line - 1])
    if acknowledgeable is None:
        acknowledgeable = family in ("precondition", "unverified", "contradiction")
    f = Finding(code, family, "warning", path, line, col, line, col + len(surface), surface,
                message or f"{surface} needs attention.", list(evidence),
                acknowledged=acknowledged, acknowledgeable=acknowledgeable)
    if vars is not None:
        f.vars = dict(vars)
    return f


_PCT = re.compile(r"(?<![\d.])(\d{1,3})%")


def fake_findings(path, base_text):
    lay = parse_layout(base_text)
    lang = "zh" if re.search(r"[\u4e00-\u9fff]", base_text) else "en"
    out = []
    for i, line in enumerate(lay.contents, 1):
        if i in lay.code_lines or "<!--" in line:
            continue
        for m in _PCT.finditer(line):
            n = int(m.group(1))
            fam = FAMILIES[n % len(FAMILIES)]
            ev = [Evidence(path, 1, "x")] if fam == "contradiction" else []
            f = Finding(CODES[fam], fam, "warning", path, i, m.start() + 1,
                        i, m.end() + 1, m.group(0), f"{m.group(0)} is doubtful.", ev,
                        acknowledgeable=fam != "arithmetic")
            f.vars = dict(VARS.get(CODES[fam], {}).get(lang, {}))
            out.append(f)
    return out


def write_once(text, path="doc.md", findings_of=fake_findings, lang=None):
    prep = prepare(text)
    return update(prep, findings_of(path, prep.base_text), path=path, lang=lang)
