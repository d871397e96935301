"""The corpus report as JSON: the report model itself, with stable key order and indentation."""
from __future__ import annotations

import json


# Indented JSON goes through the pure-Python encoder (~10x slower); a corpus-scale
# report is written compactly, one group per line, which stays diffable.
INDENT_MAX_FIGURES = 2000


def render(model: dict) -> str:
    n = sum(len(g["figures"]) for g in model["groups"])
    if n <= INDENT_MAX_FIGURES:
        return json.dumps(model, ensure_ascii=False, indent=2) + "\n"
    head = {k: v for k, v in model.items() if k != "groups"}
    lines = ["{", '"groups": [']
    lines += [json.dumps(g, ensure_ascii=False) + ("," if i < len(model["groups"]) - 1 else "")
              for i, g in enumerate(model["groups"])]
    lines.append("],")
    lines.append(json.dumps(head, ensure_ascii=False)[1:-1])
    lines.append("}")
    return "\n".join(lines) + "\n"
