"""GitHub Actions workflow-command annotations, within GitHub's display caps.

GitHub shows at most 10 annotations of each type (error, warning, notice) per
step and 50 per job; the rest are dropped silently.  So: errors first, one
annotation per claim (findings on the same figure are merged), at most
``PER_TYPE`` of each type and ``TOTAL`` overall, then a plain line saying how
many were left out.  When ``$GITHUB_STEP_SUMMARY`` is set the full table goes
there (Markdown), so nothing is lost.  Acknowledged and suppressed findings are
not annotated (they do not fail the gate) but appear in the summary table.
"""
from __future__ import annotations

from validator.render.common import SEVERITY_ORDER, end_position, rel_uri, sort_key

PER_TYPE = 10
TOTAL = 50
# GitHub rejects a step summary above 1 MiB; stop adding rows well before that.
SUMMARY_BYTES = 900 * 1024
COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(s: str) -> str:
    return str(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def annotation(level: str, message: str, file=None, line=None, col=None,
               end_line=None, end_col=None, title=None) -> str:
    props = []
    for k, v in (("file", file), ("line", line), ("col", col), ("endLine", end_line),
                 ("endColumn", end_col), ("title", title)):
        if v is not None and v != "":
            props.append(f"{k}={escape_property(v)}")
    return f"::{level} {','.join(props)}::{escape_data(message)}" if props else \
        f"::{level}::{escape_data(message)}"


def _claims(findings):
    """Group unacknowledged, unsuppressed findings by the figure they are about."""
    groups: dict = {}
    for f in sorted(findings, key=lambda f: (SEVERITY_ORDER.get(f.severity, 3),) + sort_key(f)):
        if f.suppressed or f.acknowledged:
            continue
        groups.setdefault((f.path, f.line, f.col, f.surface), []).append(f)
    # the worst finding on a claim decides its annotation type
    return sorted(groups.values(), key=lambda fs: (SEVERITY_ORDER.get(fs[0].severity, 3),) + sort_key(fs[0]))


def render(findings, errors=(), summary_text: str = "") -> tuple[str, int]:
    """(workflow-command text, number of claims left out by the caps)."""
    lines, used, total, left_out = [], {"error": 0, "warning": 0, "notice": 0}, 0, 0
    for e in errors:          # files that could not be read: an error each, first of all
        if used["error"] < PER_TYPE and total < TOTAL:
            path, rest = _split_error(str(e))
            lines.append(annotation("error", rest, file=path, title="caveat: input error"))
            used["error"] += 1
            total += 1
        else:
            left_out += 1
    for group in _claims(findings):
        f = group[0]
        level = COMMAND.get(f.severity, "warning")
        if used[level] >= PER_TYPE or total >= TOTAL:
            left_out += 1
            continue
        end_line, end_col = end_position(f)
        codes = ", ".join(dict.fromkeys(g.code for g in group))
        msg = "\n".join(f"{g.code}: {g.message}" + (f" — {g.help}" if g.help else "") for g in group) \
            if len(group) > 1 else f.message + (f" — {f.help}" if f.help else "")
        lines.append(annotation(level, msg, file=rel_uri(f.path), line=f.line, col=f.col,
                                end_line=end_line, end_col=end_col,
                                title=codes))
        used[level] += 1
        total += 1
    if left_out:
        lines.append(f"caveat: {left_out} more finding(s) not annotated (GitHub shows at most "
                     f"{PER_TYPE} per type and {TOTAL} per job); see the job summary or the SARIF output")
    if summary_text:
        lines.append(summary_text)
    return "\n".join(lines) + ("\n" if lines else ""), left_out


def _split_error(msg: str):
    """'path:12: message' -> ('path', 'message (line 12)'); messages without a path stay whole."""
    parts = msg.split(": ", 1)
    if len(parts) == 2 and parts[0] and " " not in parts[0]:
        head, rest = parts
        bits = head.split(":")
        if len(bits) >= 2 and bits[-1].isdigit():
            return ":".join(bits[:-1]), f"{rest} (line {bits[-1]})"
        return head, rest
    return None, msg


def _cell(s) -> str:
    return str(s).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def step_summary(findings, errors, summary_text: str) -> str:
    """The full Markdown table for $GITHUB_STEP_SUMMARY."""
    out = ["## caveat", "", summary_text, ""]
    if errors:
        out += ["**Files that could not be checked**", ""] + [f"- {_cell(e)}" for e in errors] + [""]
    rows = sorted(findings, key=lambda f: (SEVERITY_ORDER.get(f.severity, 3),) + sort_key(f))
    if rows:
        out += ["| Severity | Code | Location | Figure | Message | Status |",
                "|---|---|---|---|---|---|"]
        size = sum(len(x.encode("utf-8")) + 1 for x in out)
        for i, f in enumerate(rows):
            status = "suppressed" if f.suppressed else "acknowledged" if f.acknowledged else "open"
            row = (f"| {f.severity} | `{f.code}` | `{_cell(rel_uri(f.path))}:{f.line}:{f.col}` | "
                   f"{_cell(f.surface)} | {_cell(f.message)} | {status} |")
            size += len(row.encode("utf-8")) + 1
            if size > SUMMARY_BYTES:
                out += ["", f"… {len(rows) - i} more rows left out (GitHub caps a step summary at 1 MiB); "
                            "use the SARIF or JSON output for the full list."]
                break
            out.append(row)
        out.append("")
    return "\n".join(out) + "\n"
