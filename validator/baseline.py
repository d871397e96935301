"""Baseline files: accept today's findings so only new ones fail the gate.

``--write-baseline FILE`` records each finding by its fingerprint (rule code,
path, normalized claim key and surface — never the line), with the path taken
relative to the baseline file so the file works from any directory.  ``--baseline
FILE`` marks matching findings suppressed; duplicates are counted, so a second
copy of an accepted finding is new.  Entries for checked files that no longer
match anything are reported as stale (CV002, info).  One entry per line keeps the
file diff-friendly and gives stale entries a line to point at.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import replace

from validator.errors import UsageError
from validator.finding import Finding

STALE_CODE = "CV002"
FORMAT_VERSION = 1


class BaselineError(UsageError):
    """An unreadable baseline file: ``str()`` is the one line to print (exit 2)."""


def _rel(path: str, base_dir: str) -> str:
    return os.path.relpath(os.path.abspath(path), base_dir).replace(os.sep, "/")


def fingerprint(f: Finding, base_dir: str) -> str:
    return replace(f, path=_rel(f.path, base_dir)).fingerprint


def write(path: str, findings) -> int:
    """Write the baseline of every finding not already suppressed inline; returns the count."""
    base_dir = os.path.dirname(os.path.abspath(path))
    rows = []
    for f in findings:
        if f.suppressed or f.code == STALE_CODE:
            continue
        rows.append({"fingerprint": fingerprint(f, base_dir), "code": f.code,
                     "path": _rel(f.path, base_dir), "surface": f.surface,
                     "message": f.message})
    rows.sort(key=lambda r: (r["path"], r["code"], r["surface"], r["fingerprint"]))
    body = ",\n".join("    " + json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows)
    text = ('{\n  "tool": "caveat",\n  "version": %d,\n  "entries": [\n%s%s  ]\n}\n'
            % (FORMAT_VERSION, body, "\n" if rows else ""))
    tmp = path + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise BaselineError(f"{path}: cannot write baseline: {exc.strerror or exc}") from None
    return len(rows)


def load(path: str) -> list:
    """Entries with the baseline line each sits on (``_line``)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise BaselineError(f"{path}: cannot read baseline: {exc.strerror or exc}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}:{exc.lineno}: not a caveat baseline: {exc.msg}")
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise BaselineError(f"{path}:1: not a caveat baseline: no 'entries' list")
    lines = text.splitlines()
    entries, cursor = [], 0
    for i, e in enumerate(data["entries"]):
        if not isinstance(e, dict) or not isinstance(e.get("fingerprint"), str):
            raise BaselineError(f"{path}: entry {i + 1} has no fingerprint")
        line = None
        for j in range(cursor, len(lines)):
            if e["fingerprint"] in lines[j]:
                line, cursor = j + 1, j + 1
                break
        entries.append(dict(e, _line=line or 1))
    return entries


def apply(path: str, findings, checked_paths, lang_of=lambda p: "en") -> list:
    """Suppress baselined findings; return CV002 findings for stale entries.

    Only entries for files checked in this run can be stale: checking one file must
    not call the rest of the baseline stale."""
    entries = load(path)
    base_dir = os.path.dirname(os.path.abspath(path))
    budget = Counter(e["fingerprint"] for e in entries)
    for f in findings:
        if f.suppressed:
            continue
        fp = fingerprint(f, base_dir)
        if budget[fp] > 0:
            budget[fp] -= 1
            f.suppressed = True
            f.suppression_kind = ("external", f"accepted by the baseline {os.path.basename(path)}")
    checked = {_rel(p, base_dir) for p in checked_paths}
    stale = []
    for e in entries:
        if budget[e["fingerprint"]] <= 0 or e.get("path") not in checked:
            continue
        budget[e["fingerprint"]] -= 1
        zh = lang_of(os.path.join(base_dir, e.get("path", ""))) == "zh"
        what = f"{e.get('code', '?')} '{e.get('surface', '')}' in {e.get('path')}"
        msg = (f"过期的基线条目：{what} 已不再出现；用 --write-baseline 重写基线"
               if zh else
               f"stale baseline entry: {what} no longer occurs; rewrite the baseline with --write-baseline")
        stale.append(Finding(
            code=STALE_CODE, family="reference", severity="info", path=path,
            line=e["_line"], col=1, end_line=e["_line"], end_col=1,
            surface=e["fingerprint"], message=msg, acknowledgeable=False,
            rule="meta.stale-baseline", key="baseline:" + e["fingerprint"],
            help="rewrite the baseline with --write-baseline"))
    return stale
