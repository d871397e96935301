"""The corpus report as JSON: the report model itself, with stable key order and indentation."""
from __future__ import annotations

import json


def render(model: dict) -> str:
    return json.dumps(model, ensure_ascii=False, indent=2) + "\n"
