"""Text output: ``path:line:col: CODE message`` lines, or grouped with source and caret.

Plain lines are for pipes, editors and CI logs (stable, greppable, no colour).
On a terminal (or with ``--color always`` / ``FORCE_COLOR``) the findings are grouped
by file, each with the offending line and a caret under the figure. A line wider than
the terminal is cropped around the figure (``…`` where text was cut), so it never
wraps and the caret stays under the figure. Caret width counts East Asian wide
characters as two columns so it lands under Chinese text correctly. Every path is
shown relative to the working directory.

``render_statistics`` is ``--statistics``: one row per code with its count.
"""
from __future__ import annotations

import unicodedata

from validator.paths import display
from validator.render.common import SEVERITY_ORDER, end_position, sort_key

SEV_COLOUR = {"error": "red", "warning": "yellow", "info": "blue"}
ELLIPSIS = "…"
# Context kept left of the figure when a long line is cropped, as a share of the room
# left beside the figure: the words before a figure say what it is.
LEFT_SHARE = 0.6


def char_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def width(s: str) -> int:
    return sum(char_width(ch) for ch in s)


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
    if s.get("skipped"):
        line += f" ({s['skipped']} outside the scope)"
    verdicts = []
    bad = s.get("input_errors") or 0
    if bad:
        # a file that could not be read was not checked: whatever the findings, nothing passed
        verdicts.append(f"{bad} error{'s' * (bad != 1)}: {bad} file{'s' * (bad != 1)} "
                        f"could not be checked")
    if s["fail_on"] == "never":
        verdicts.append("gate off (--fail-on never)")
    elif s["failing"]:
        verdicts.append(f"gate failed: {s['failing']} at or above {s['fail_on']}")
    elif not bad:
        verdicts.append(f"gate passed (--fail-on {s['fail_on']})")
    return f"{line} — {'; '.join(verdicts)}"


def _shown(findings, quiet: bool):
    """What is listed: never suppressed findings; with ``quiet`` only what needs action."""
    return sorted((f for f in findings if not f.suppressed and not (quiet and f.acknowledged)),
                  key=sort_key)


def render_plain(findings, summary: dict, quiet: bool = False) -> str:
    out = [f"{display(f.path)}:{f.line}:{f.col}: {f.code} {f.message}{_status(f)}"
           for f in _shown(findings, quiet)]
    if not quiet:
        out.append(summary_line(summary))
    return "\n".join(out) + ("\n" if out else "")


def crop(src: str, start: int, stop: int, room: int) -> tuple:
    """(text, lead, span): ``src`` cut to at most ``room`` columns around the characters
    ``start:stop``, with ``…`` where something was cut; ``lead`` and ``span`` are the
    columns before and under the caret in the result."""
    start = max(0, min(start, len(src)))
    stop = max(start, min(stop, len(src)))
    total = width(src)
    span_w = max(1, width(src[start:stop]))
    if total <= room or room < 8:
        return src, width(src[:start]), span_w
    ell = width(ELLIPSIS)
    # the figure itself, cropped when it alone is wider than the room
    avail = room - 2 * ell
    if span_w > avail:
        kept, w = start, 0
        while kept < stop and w + char_width(src[kept]) <= avail:
            w += char_width(src[kept])
            kept += 1
        head = ELLIPSIS if start > 0 else ""
        tail = ELLIPSIS if kept < len(src) else ""
        return head + src[start:kept] + tail, width(head), max(1, w)
    spare = avail - span_w
    a, lw = start, 0
    while a > 0 and lw + char_width(src[a - 1]) <= int(spare * LEFT_SHARE):
        a -= 1
        lw += char_width(src[a])
    b, rw = stop, 0
    while b < len(src) and lw + rw + char_width(src[b]) <= spare:
        rw += char_width(src[b])
        b += 1
    # the right side ended early: what is left goes to more context on the left
    while a > 0 and lw + rw + char_width(src[a - 1]) <= spare:
        a -= 1
        lw += char_width(src[a])
    head = ELLIPSIS if a > 0 else ""
    tail = ELLIPSIS if b < len(src) else ""
    return head + src[a:b] + tail, width(head) + width(src[a:start]), span_w


def render_terminal(findings, summary: dict, line_text, colour: bool = True,
                    columns: int = 0, quiet: bool = False) -> str:
    """Grouped output; ``line_text(path, line) -> str | None`` supplies the source line;
    ``columns`` is the terminal width (0: never crop)."""
    import click

    def st(text, **kw):
        return click.style(text, **kw) if colour else text

    out = []
    shown = _shown(findings, quiet)
    current = None
    for f in shown:
        if f.path != current:
            if current is not None:
                out.append("")
            out.append(st(display(f.path), bold=True, underline=True))
            current = f.path
        sev = st(f"{f.severity:<7}", fg=SEV_COLOUR.get(f.severity), bold=f.severity == "error")
        code = st(f.code, bold=True)
        ack = st(" [acknowledged]", dim=True) if f.acknowledged else ""
        out.append(f"  {f.line}:{f.col}  {sev} {code}  {f.message}{ack}")
        src = line_text(f.path, f.line) if line_text else None
        gutter = " " * (len(str(f.line)) + 5)
        if src is not None:
            src = src.replace("\t", " ").rstrip("\r\n")
            end_line, end_col = end_position(f)
            stop = end_col - 1 if end_line == f.line else len(src)
            room = columns - len(f"    {f.line} | ") if columns else 10 ** 9
            shown_src, lead, span = crop(src, f.col - 1, stop, room)
            out.append(st(f"    {f.line} | ", dim=True) + shown_src)
            out.append(st(f"{gutter}| ", dim=True) + " " * lead +
                       st("^" * span, fg=SEV_COLOUR.get(f.severity), bold=True))
        for ev in f.evidence or ():
            ev = ev if isinstance(ev, dict) else ev.__dict__
            where = f"{display(ev.get('path') or f.path)}:{ev.get('line')}"
            note = f" ({ev['note']})" if ev.get("note") else ""
            surface = f" “{ev['surface']}”" if ev.get("surface") else ""
            out.append(st(f"{gutter}= ", dim=True) + f"see {where}{surface}{note}")
        if f.help:
            out.append(st(f"{gutter}= ", dim=True) + st("help: ", bold=True) + f.help)
    if shown and not quiet:
        out.append("")
    if not quiet:
        verdict_colour = "red" if summary["failing"] or summary.get("input_errors") else "green"
        out.append(st(summary_line(summary), fg=verdict_colour, bold=True))
    return "\n".join(out) + ("\n" if out else "")


def render_statistics(findings, summary: dict, rules_meta: dict) -> str:
    """``--statistics``: per code, how many findings (and how many of them acknowledged),
    most frequent first, then the summary line."""
    counts: dict = {}
    for f in findings:
        if f.suppressed:
            continue
        c = counts.setdefault(f.code, [0, 0, f.severity])
        c[0] += 1
        c[1] += bool(f.acknowledged)
    rows = sorted(counts.items(), key=lambda kv: (-kv[1][0], kv[0]))
    out = []
    if rows:
        nw = max(len(str(c[0])) for _, c in rows)
        cw = max(len(code) for code, _ in rows)
        for code, (n, ack, sev) in rows:
            summ = " ".join(str((rules_meta.get(code) or {}).get("summary", "")).split())
            acked = f"  ({ack} acknowledged)" if ack else ""
            out.append(f"{n:>{nw}}  {code:<{cw}}  {sev:<7}  {summ}{acked}".rstrip())
    out.append(summary_line(summary))
    return "\n".join(out) + "\n"


def severity_sorted(findings):
    return sorted(findings, key=lambda f: (SEVERITY_ORDER.get(f.severity, 3),) + sort_key(f))
