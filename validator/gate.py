"""The publication gate and the code selectors shared by the command line and config.

A finding fails the gate when it is not suppressed (inline comment or baseline),
not acknowledged by the briefing's warnings section, and at or above the
``--fail-on`` level.  ``never`` turns the gate off.
"""
from __future__ import annotations

import re

from validator.finding import SEVERITY_RANK

FAIL_ON_LEVELS = ("error", "warning", "info", "never")


def parse_codes(value) -> list[str]:
    """'CV3, CV101' or ['CV3', 'CV101'] -> ['CV3', 'CV101'] (codes upper-cased, blanks dropped;
    family and rule names such as 'precondition' keep their case)."""
    if value is None:
        return []
    items = value if isinstance(value, (list, tuple)) else [value]
    out = []
    for item in items:
        for part in str(item).split(","):
            part = part.strip()
            if re.match(r"^(cv\d*|all)$", part, re.I):
                part = part.upper()
            if part:
                out.append(part)
    return out


def _hit(code: str, sel: str, family: str = "", name: str = "") -> bool:
    sel_u = sel.upper()
    return (sel_u == "ALL" or code.upper().startswith(sel_u)
            or (family and sel.lower() == family) or (name and sel.lower() == name))


def code_matches(code: str, selectors, family: str = "", name: str = "") -> bool:
    """A selector matches a code it is a prefix of ('CV3' matches 'CV301'), its family
    ('precondition'), its dotted rule name, or everything ('ALL')."""
    return any(_hit(code, s, family, name) for s in selectors)


def is_enabled(code: str, select, ignore, family: str = "", name: str = "") -> bool:
    """Selected (or no --select given) and not ignored; the more specific selector wins,
    so ``--ignore CV3 --select CV301`` keeps CV301 the way ruff does."""
    def best(selectors):
        hits = [(0 if s.upper() == "ALL" else 1 if not s.upper().startswith("CV") else len(s))
                for s in selectors if _hit(code, s, family, name)]
        return max(hits) if hits else -1
    sel = best(select) if select else 0
    ign = best(ignore)
    if sel < 0:
        return False
    return ign < 0 or sel > ign


def fails_gate(finding, fail_on: str) -> bool:
    if fail_on == "never" or finding.suppressed or finding.acknowledged:
        return False
    return SEVERITY_RANK.get(finding.severity, 0) >= SEVERITY_RANK[fail_on]


def gate_failed(findings, fail_on: str) -> bool:
    return any(fails_gate(f, fail_on) for f in findings)


def summarize(findings, files: int = 0, errors: int = 0, fail_on: str = "warning",
              skipped: int = 0) -> dict:
    """Counts every renderer prints the same way. ``errors``: inputs that could not be
    checked (a run with any does not pass, whatever its findings); ``skipped``: files
    named on the command line that the scope left out (``force-exclude``)."""
    shown = [f for f in findings if not f.suppressed]
    by_sev = {s: 0 for s in ("error", "warning", "info")}
    by_family: dict = {}
    by_code: dict = {}
    for f in shown:
        by_sev[f.severity] = by_sev.get(f.severity, 0) + 1
        by_family[f.family] = by_family.get(f.family, 0) + 1
        by_code[f.code] = by_code.get(f.code, 0) + 1
    return {
        "files": files,
        "findings": len(shown),
        "errors": by_sev["error"],
        "warnings": by_sev["warning"],
        "info": by_sev["info"],
        "acknowledged": sum(1 for f in shown if f.acknowledged),
        "suppressed": len(findings) - len(shown),
        "failing": sum(1 for f in findings if fails_gate(f, fail_on)),
        "input_errors": errors,
        "by_family": dict(sorted(by_family.items())),
        "by_code": dict(sorted(by_code.items())),
        "skipped": skipped,
        "fail_on": fail_on,
        "passed": not gate_failed(findings, fail_on) and not errors,
    }
