"""Writing the corpus report's files: report.md, report.html and report.json, each streamed
to a file beside its place and renamed into place when complete (a reader never sees half
a report; an interrupted run leaves the previous one)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from validator.render import report_html, report_json, report_md
from validator.render.report_links import Links

FORMATS = ("md", "html", "json")


def write_report(report, out_dir, formats=("md", "html", "json"), top: Optional[int] = None) -> list:
    """Write report.md / report.html / report.json into ``out_dir``, each streamed to its
    file (written beside it and renamed into place when complete); returns the paths.
    ``top``: groups shown in full in the Markdown and HTML (the rest are summarized).
    Their figures link to the corpus files relative to ``out_dir`` (report_links.py)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    writers = {"md": report_md.write, "html": report_html.write, "json": report_json.write}
    links = Links(report.roots, out)
    shown = None
    if "html" in formats and "json" in formats:
        # report.json streams every figure: the HTML's few are kept on the way (one pass)
        shown = report_html.ShownFigures(report, top)
        formats = ["json", *(f for f in formats if f != "json")]
    written = {}
    for fmt in formats:
        p = out / f"report.{fmt}"
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
                if fmt == "json":
                    writers[fmt](report, fh, figures=shown.tap(report.figures()) if shown else None)
                elif fmt == "html":
                    writers[fmt](report, fh, top=top, links=links, figures=shown)
                else:
                    writers[fmt](report, fh, top=top, links=links)
            os.replace(tmp, p)
        finally:
            if tmp.exists():
                tmp.unlink()
        written[fmt] = p
    return [written[f] for f in FORMATS if f in written]
