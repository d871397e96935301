"""JSON output: ``{"version", "findings", "suppressed", "summary", "errors"}``.

``findings`` holds every finding that can still matter (acknowledged ones
included, flagged); findings silenced by an inline comment or the baseline go to
``suppressed`` so consumers counting ``findings`` do not count them twice.
"""
from __future__ import annotations

import json

from validator.render.common import sort_key, version


def render(findings, summary: dict, errors) -> str:
    ordered = sorted(findings, key=sort_key)
    doc = {
        "version": version(),
        "findings": [f.to_dict() for f in ordered if not f.suppressed],
        "suppressed": [f.to_dict() for f in ordered if f.suppressed],
        "summary": summary,
        "errors": list(errors),
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
