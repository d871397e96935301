"""JUnit XML output (``--format junit``) for CI test reporters (GitLab, Jenkins, Azure…).

One ``<testsuite name="caveat">``; one ``<testcase>`` per checked file (its path as the
name); a ``<failure>`` per finding that fails the gate, typed by its code, with the
``path:line:col: CODE message`` line as the message and the fix and evidence in the
body. Findings that do not fail the gate (acknowledged, below ``--fail-on``) are listed
in the file's ``<system-out>``; suppressed ones are left out. A file that could not be
read is a testcase with an ``<error>``, as is an error that names no file.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from validator.gate import fails_gate
from validator.paths import display
from validator.render.common import sort_key

SUITE = "caveat"


def _line(f) -> str:
    return f"{display(f.path)}:{f.line}:{f.col}: {f.code} {f.message}"


def _body(f) -> str:
    out = [_line(f)]
    for ev in f.evidence or ():
        ev = ev if isinstance(ev, dict) else ev.__dict__
        where = f"{display(ev.get('path') or f.path)}:{ev.get('line')}"
        note = f" ({ev['note']})" if ev.get("note") else ""
        surface = f" “{ev['surface']}”" if ev.get("surface") else ""
        out.append(f"  see {where}{surface}{note}")
    if f.help:
        out.append(f"  help: {f.help}")
    return "\n".join(out)


def render(findings, checked_paths, errors, fail_on: str, error_dicts=()) -> str:
    """``checked_paths``: every file that was checked (a file without findings is a passing
    testcase); ``error_dicts``: the errors as validator.render.json_out.error_dict gives them."""
    by_path: dict = {}
    for p in checked_paths:
        by_path.setdefault(display(p), [])
    for f in sorted(findings, key=sort_key):
        if f.suppressed:
            continue
        by_path.setdefault(display(f.path), []).append(f)
    suite = ET.Element("testsuite", name=SUITE)
    n_fail = n_err = 0      # testcases (files) failed or in error, as reporters count them
    for path in sorted(by_path):
        case = ET.SubElement(suite, "testcase", classname=SUITE, name=path, file=path, time="0")
        passing = []
        failed = False
        for f in by_path[path]:
            if fails_gate(f, fail_on):
                el = ET.SubElement(case, "failure", type=f.code, message=_line(f))
                el.text = _body(f)
                failed = True
            else:
                passing.append(_line(f) + (" [acknowledged]" if f.acknowledged else ""))
        n_fail += failed
        if passing:
            ET.SubElement(case, "system-out").text = "\n".join(passing)
    for e in error_dicts or [{"path": None, "message": str(x), "text": str(x)} for x in errors]:
        name = e.get("path") or "caveat"
        case = ET.SubElement(suite, "testcase", classname=SUITE, name=name, time="0")
        if e.get("path"):
            case.set("file", e["path"])
        el = ET.SubElement(case, "error", type="input error", message=e["text"])
        el.text = e["text"]
        n_err += 1
    tests = len(suite)
    for k, v in (("tests", tests), ("failures", n_fail), ("errors", n_err), ("skipped", 0),
                 ("time", "0")):
        suite.set(k, str(v))
    root = ET.Element("testsuites", name=SUITE, tests=str(tests), failures=str(n_fail),
                      errors=str(n_err), time="0")
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
