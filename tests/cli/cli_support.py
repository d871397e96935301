"""Plain helpers shared by the command-line tests (a module of its own: test folders
each have a conftest.py, so `from conftest import …` depends on collection order)."""
from __future__ import annotations

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def as_json(result):
    return json.loads(result.stdout)
