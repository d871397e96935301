"""A stand-in for validator.run.check_paths with fixed, predictable findings.

The surface tests (formats, gate, config, suppression, baseline) must not depend on
which rules the real packs fire on a given day, so they run the real command line
over this engine: every occurrence of a trigger word in a file becomes one finding.
Documents are real ``claims.model.Document`` objects, so suppression comments and
source lines are read exactly as with the real engine.
"""
from __future__ import annotations

import os
import re
from types import SimpleNamespace

from claims.segment import segment
from validator.finding import Evidence, Finding

# surface -> (code, family, severity, acknowledgeable)
TRIGGERS = {
    "29%": ("CV101", "precondition", "warning", True),
    "SpecInfr": ("CV601", "entity", "error", False),
    "2.8×": ("CV301", "contradiction", "warning", True),
    "约 5 倍": ("CV201", "unverified", "info", True),
}
ACK_MARK = "(disclosed)"


def _doc(path, text):
    doc = segment(text, path)     # the real document model: comments, code, lines
    doc.lang = "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"
    return doc


def check_paths(paths, options=None, progress=None):
    findings, errors, analyses = [], [], {}
    for path in paths:
        if progress:
            progress(path)
        if not os.path.exists(path):
            errors.append(f"{path}: no such file")
            continue
        data = open(path, "rb").read()
        if b"\0" in data:
            errors.append(f"{path}:1: binary file (NUL byte at offset {data.index(0)})")
            continue
        text = data.decode("utf-8")
        doc = _doc(path, text)
        analyses[path] = SimpleNamespace(document=doc, claims=[], comparisons=[])
        for surface, (code, family, sev, ack) in TRIGGERS.items():
            for m in re.finditer(re.escape(surface), text):
                line, col = doc.line_col(m.start())
                findings.append(Finding(
                    code=code, family=family, severity=sev, path=path, line=line, col=col,
                    end_line=line, end_col=col + len(surface), surface=surface,
                    message=f"{surface} is suspicious", acknowledgeable=ack,
                    acknowledged=ack and ACK_MARK in doc.line_text(line),
                    rule=f"{family}.fake", key=f"{family}:{surface}", help="fix it",
                    evidence=[Evidence(path=path, line=1, surface="first line", note="see")]))
    return SimpleNamespace(findings=findings, errors=errors, analyses=analyses)


def install():
    """Route validator.cli to this engine (for subprocess tests)."""
    import validator.cli as cli

    def run_engine(files, options, show_progress):
        return check_paths(files, options)
    cli._run_engine = run_engine
