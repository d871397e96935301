"""SARIF 2.1.0 output in the subset GitHub code scanning reads.

Rules carry id, name, short/full description, help (text and Markdown), a
``helpUri`` (the rule's page under docs/rules/) and the default level; results carry
ruleId, level, message, one physical location with a URI relative to the repository
root (``%SRCROOT%`` in ``originalUriBaseIds``: the folder holding ``.git`` above the
working directory, else the working directory) and a full region,
``partialFingerprints`` from the claim fingerprint (line-independent, so alerts
survive edits that move lines; unique per finding, see
``common.unique_fingerprints``), the evidence as ``relatedLocations``, and
``suppressions`` for findings that are acknowledged in the briefing, suppressed
inline, or accepted by the baseline — GitHub then shows them as dismissed instead of
open.
"""
from __future__ import annotations

import json
import os

from validator.paths import git_root
from validator.render.common import (
    PROJECT_URL, end_position, rel_uri, rule_doc_url, sort_key, unique_fingerprints, version,
)

LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = PROJECT_URL


def _rule(code: str, meta: dict | None) -> dict:
    meta = meta or {"code": code, "name": code.lower(), "summary": code, "why": "",
                    "fix": "", "severity": "warning", "family": "", "acknowledgeable": False}
    summary = meta.get("summary") or code
    why = meta.get("why") or summary
    fix = meta.get("fix") or ""
    text = f"{summary}\n\n{why}" + (f"\n\nFix: {fix}" if fix else "")
    md = (f"**{code}** ({meta.get('family', '')}): {summary}\n\n{why}"
          + (f"\n\n**Fix:** {fix}" if fix else "")
          + ("\n\nThis finding may be acknowledged in the briefing's warnings section."
             if meta.get("acknowledgeable") else ""))
    name = "".join(p.capitalize() for p in str(meta.get("name", code)).replace(".", "_").split("_"))
    out = {
        "id": code,
        "name": name or code,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": why},
        "help": {"text": text, "markdown": md},
        "defaultConfiguration": {"level": LEVEL.get(meta.get("severity", "warning"), "warning")},
        "properties": {"tags": [t for t in (meta.get("family"), "caveat") if t],
                       "precision": "medium",
                       "problem.severity": {"error": "error", "warning": "warning"}.get(
                           meta.get("severity"), "recommendation")},
    }
    url = rule_doc_url(code, bool(meta.get("builtin")))
    if url:
        out["helpUri"] = url
    return out


def _location(path, line, col, end_line=None, end_col=None, root=None) -> dict:
    region = {"startLine": max(1, int(line or 1)), "startColumn": max(1, int(col or 1))}
    if end_line:
        region["endLine"] = max(region["startLine"], int(end_line))
        region["endColumn"] = max(1, int(end_col or 1))
    uri = rel_uri(path, root)
    art = {"uri": uri}
    if not os.path.isabs(uri) and not uri.startswith("/"):
        art["uriBaseId"] = "%SRCROOT%"
    return {"physicalLocation": {"artifactLocation": art, "region": region}}


def _file_uri(root: str) -> str:
    from pathlib import Path
    return Path(root).as_uri().rstrip("/") + "/"


def _relative(text: str, root: str) -> str:
    """An error line with the repository root taken out of the paths it names."""
    return text.replace(root.rstrip(os.sep) + os.sep, "")


def _suppressions(f) -> list:
    out = []
    kind = getattr(f, "suppression_kind", None)
    if f.suppressed:
        k, why = kind or ("inSource", "")
        s = {"kind": k, "status": "accepted"}
        if why:
            s["justification"] = why
        out.append(s)
    if f.acknowledged:
        out.append({"kind": "inSource", "status": "accepted",
                    "justification": "acknowledged in the briefing's warnings section"})
    return out


def render(findings, rules_meta: dict, errors=(), root: str | None = None) -> str:
    root = os.path.abspath(root or git_root(os.getcwd()) or os.getcwd())
    ordered = sorted(findings, key=sort_key)
    fingerprints = unique_fingerprints(ordered, root)
    codes = sorted({f.code for f in ordered} | set(rules_meta))
    rules = [_rule(c, rules_meta.get(c)) for c in codes]
    index = {c: i for i, c in enumerate(codes)}
    results = []
    for f in ordered:
        end_line, end_col = end_position(f)
        fp = fingerprints[id(f)]
        res = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": LEVEL.get(f.severity, "warning"),
            "message": {"text": f.message + (f" — {f.help}" if f.help else "")},
            "locations": [_location(f.path, f.line, f.col, end_line, end_col, root)],
            "partialFingerprints": {"caveatFingerprint/v1": fp},
            "properties": {"family": f.family, "surface": f.surface,
                           "acknowledged": bool(f.acknowledged)},
        }
        related = []
        for i, ev in enumerate(f.evidence or ()):
            ev = ev if isinstance(ev, dict) else ev.__dict__
            loc = _location(ev.get("path") or f.path, ev.get("line") or 1, ev.get("col") or 1, root=root)
            loc["id"] = i + 1
            text = " ".join(x for x in (ev.get("note"), f"“{ev['surface']}”" if ev.get("surface") else "") if x)
            loc["message"] = {"text": text or "related location"}
            related.append(loc)
        if related:
            res["relatedLocations"] = related
        sup = _suppressions(f)
        if sup:
            res["suppressions"] = sup
        results.append(res)
    notifications = [{"level": "error", "message": {"text": _relative(str(e), root)}} for e in errors]
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "caveat", "version": version(),
                                "informationUri": INFO_URI, "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": _file_uri(root)}},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": not errors,
                             "toolExecutionNotifications": notifications}],
            "results": results,
        }],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
