"""JSON output: ``{"schema_version", "version", "findings", "suppressed", "summary", "errors"}``.

The document follows a published JSON Schema, ``validator/schemas/json.schema.json``
(``caveat schema json``), whose version is ``schema_version``: a change that could break
a consumer raises it. ``version`` is caveat's own version.

``findings`` holds every finding that can still matter (acknowledged ones
included, flagged); findings silenced by an inline comment or the baseline go to
``suppressed`` so consumers counting ``findings`` do not count them twice. Paths,
the findings' and their evidence's, are relative to the working directory.
``errors`` are the inputs that could not be checked, one object each.
"""
from __future__ import annotations

import json
import re

from validator.paths import display
from validator.render.common import sort_key, version

SCHEMA_VERSION = 1


def finding_dict(f) -> dict:
    d = f.to_dict()
    d["path"] = display(f.path)
    d["evidence"] = [dict(ev, path=display(ev.get("path") or f.path)) for ev in d.get("evidence") or ()]
    return d


_ERR = re.compile(r"^(?P<path>.+?)(?::(?P<line>\d+))?: (?P<message>.+)$", re.S)


def error_dict(text: str, known_paths=()) -> dict:
    """'path:line: message' -> {path, line, message, text}; a known path is matched whole
    first (file names may hold ': ')."""
    text = str(text)
    for p in sorted(known_paths, key=len, reverse=True):
        if text.startswith(p + ":"):
            rest = text[len(p) + 1:]
            m = re.match(r"^(\d+): (.*)$", rest, re.S)
            if m:
                return {"path": display(p), "line": int(m.group(1)), "message": m.group(2), "text": text}
            return {"path": display(p), "line": None, "message": rest.lstrip(), "text": text}
    m = _ERR.match(text)
    if m and " " not in m.group("path"):
        return {"path": display(m.group("path")), "line": int(m.group("line")) if m.group("line") else None,
                "message": m.group("message"), "text": text}
    return {"path": None, "line": None, "message": text, "text": text}


def render(findings, summary: dict, errors, known_paths=()) -> str:
    ordered = sorted(findings, key=sort_key)
    doc = {
        "schema_version": SCHEMA_VERSION,
        "version": version(),
        "findings": [finding_dict(f) for f in ordered if not f.suppressed],
        "suppressed": [finding_dict(f) for f in ordered if f.suppressed],
        "summary": summary,
        "errors": [error_dict(e, known_paths) for e in errors],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
