"""Text output: ``path:line:col: CODE message`` lines, or grouped with source and caret on a terminal.

Plain lines are for pipes, editors and CI logs (stable, greppable, no colour).
On a terminal the findings are grouped by file, each with the offending line and
a caret under the figure; colour is used only there and never when ``NO_COLOR``
is set.  Caret width counts East Asian wide characters as two columns so it lands
under Chinese text correctly.
"""
from __future__ import annotations

import unicodedata

from validator.render.common import SEVERITY_ORDER, end_position, sort_key

SEV_COLOUR = {"error": "red", "warning": "yellow", "info": "blue"}


def width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else
               0 if unicodedata.combining(ch) else 1 for ch in s)


def _status(f) -> str:
    return " [acknowledged]" if f.acknowledged else ""


def summary_line(summary: dict) -> str:
    s = summary
    n = s["findings"]
    parts = [f"{s['errors']} error{'s' * (s['errors'] != 1)}",
             f"{s['warnings']} warning{'s' * (s['warnings'] != 1)}",
             f"{s['info']} info"]
    extra = [f"{s['acknowledged']} acknowledged"]
    if s.get("suppressed"):
        extra.append(f"{s['suppressed']} suppressed")
    line = (f"{n} finding{'s' * (n != 1)} ({', '.join(parts)}; {', '.join(extra)}) "
            f"in {s['files']} file{'s' * (s['files'] != 1)}")
    if s.get("input_errors"):
        line += f"; {s['input_errors']} file{'s' * (s['input_errors'] != 1)} could not be checked"
    if s["fail_on"] == "never":
        verdict = "gate off (--fail-on never)"
    elif s["failing"]:
        verdict = f"gate failed: {s['failing']} at or above {s['fail_on']}"
    else:
        verdict = f"gate passed (--fail-on {s['fail_on']})"
    return f"{line} — {verdict}"


def render_plain(findings, summary: dict) -> str:
    out = [f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}{_status(f)}"
           for f in sorted(findings, key=sort_key) if not f.suppressed]
    out.append(summary_line(summary))
    return "\n".join(out) + "\n"


def render_terminal(findings, summary: dict, line_text, colour: bool = True) -> str:
    """Grouped output; ``line_text(path, line) -> str | None`` supplies the source line."""
    import click

    def st(text, **kw):
        return click.style(text, **kw) if colour else text

    out = []
    shown = sorted((f for f in findings if not f.suppressed), key=sort_key)
    current = None
    for f in shown:
        if f.path != current:
            if current is not None:
                out.append("")
            out.append(st(f.path, bold=True, underline=True))
            current = f.path
        sev = st(f"{f.severity:<7}", fg=SEV_COLOUR.get(f.severity), bold=f.severity == "error")
        code = st(f.code, bold=True)
        ack = st(" [acknowledged]", dim=True) if f.acknowledged else ""
        out.append(f"  {f.line}:{f.col}  {sev} {code}  {f.message}{ack}")
        src = line_text(f.path, f.line) if line_text else None
        gutter = " " * (len(str(f.line)) + 5)
        if src is not None:
            src = src.replace("\t", " ")
            out.append(st(f"    {f.line} | ", dim=True) + src)
            end_line, end_col = end_position(f)
            stop = end_col - 1 if end_line == f.line else len(src)
            lead = width(src[: max(0, f.col - 1)])
            span = max(1, width(src[f.col - 1: stop]))
            out.append(st(f"{gutter}| ", dim=True) + " " * lead +
                       st("^" * span, fg=SEV_COLOUR.get(f.severity), bold=True))
        for ev in f.evidence or ():
            ev = ev if isinstance(ev, dict) else ev.__dict__
            where = f"{ev.get('path')}:{ev.get('line')}"
            note = f" ({ev['note']})" if ev.get("note") else ""
            surface = f" “{ev['surface']}”" if ev.get("surface") else ""
            out.append(st(f"{gutter}= ", dim=True) + f"see {where}{surface}{note}")
        if f.help:
            out.append(st(f"{gutter}= ", dim=True) + st("help: ", bold=True) + f.help)
    if shown:
        out.append("")
    verdict_colour = "red" if summary["failing"] else "green"
    out.append(st(summary_line(summary), fg=verdict_colour, bold=True))
    return "\n".join(out) + "\n"


def severity_sorted(findings):
    return sorted(findings, key=lambda f: (SEVERITY_ORDER.get(f.severity, 3),) + sort_key(f))
