"""The corpus report as Markdown: summary table, the groups table (most figures in conflict
first), then one section per claim key with contradicting statements and one collapsed
``<details>`` line per key whose statements are only not comparable (the first ``top``
groups; report.json has every group and every figure). Each source is a link relative to
the report's folder (report_links.py). Written line by line to the open file."""
from __future__ import annotations

from datetime import date
from functools import lru_cache
from typing import Optional

# A corpus-scale group can hold hundreds of statements; the Markdown and HTML list the
# statements involved in a contradiction first and at most this many rows, and at most this
# many pairs (report.json has all).
MAX_ROWS = 60
TOP_GROUPS = 50             # groups shown in full by default; the rest only in the groups table
MAX_UNVERIFIED = 500        # unverified figures listed (report.json has all)
MAX_IDS = 8                 # statement ids named in one status cell

SUMMARY_ROWS = (
    ("files", "Files"), ("claims", "Claims"), ("groups", "Groups with disagreeing statements"),
    ("contradictions", "Contradicting pairs"), ("not_comparable", "Not comparable statement pairs"),
    ("superseded", "Superseded statements"), ("unverified", "Unverified figures"),
    ("unreadable_files", "Unreadable files"),
)


def _cell(s) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def fmt_value(f: dict, unit) -> str:
    """Normalized value of a figure as text: '0.29', '0.02–0.05', with its base unit."""
    if f["base_value"] is not None:
        v = f"{f['base_value']:.6g}"
    else:
        lo, hi = f["base_low"], f["base_high"]
        v = f"{'' if lo is None else f'{lo:.6g}'}–{'' if hi is None else f'{hi:.6g}'}"
    unit = unit if unit and unit != "dimensionless" else ""
    return f"{v} {unit}".strip()


def fmt_conditions(conds: dict, borrowed: dict | None = None) -> str:
    """As stated; a figure stated bare is compared under the setup its own document gives
    the same figure elsewhere ('as at line 12: …')."""
    if conds:
        return ", ".join(f"{k}: {v}" for k, v in conds.items())
    if borrowed:
        return f"as at line {borrowed['line']}: " + ", ".join(f"{k}: {v}" for k, v in borrowed["conditions"].items())
    return "—"


def key_title(key: dict) -> str:
    t = f"{key['metric']} — {key['subject']}"
    return t + (f" vs {key['baseline']}" if key["baseline"] else "")


def _ids(ids: list) -> str:
    return ", ".join(ids[:MAX_IDS]) + (f" and {len(ids) - MAX_IDS} more" if len(ids) > MAX_IDS else "")


def status_of(g, s) -> str:
    parts = []
    if g.contradicts.get(s.sig):
        parts.append("contradicts " + _ids(g.contradicts[s.sig]))
    if g.superseded_by.get(s.sig):
        parts.append(f"superseded by {g.superseded_by[s.sig]}")
    if s.first["markers"]:
        parts.append(", ".join(s.first["markers"]))
    return "; ".join(parts) or "—"


def where(s) -> str:
    f = s.first
    more = f" (+{s.n_files - 1} files)" if s.n_files > 1 else ""
    return f"{f['path']}:{f['line']}{more}"


def dates(s) -> str:
    first, last = s.first["date"], s.last_date
    if not first and not last:
        return "—"
    return first if not last or first == last else f"{first or '—'} – {last}"


@lru_cache(maxsize=4096)
def day(d) -> Optional[int]:
    try:
        return date.fromisoformat(str(d)[:10]).toordinal()
    except (TypeError, ValueError):
        return None


def date_span(s) -> tuple:
    """(first, last) source date of a statement as day numbers (None: undated)."""
    a, b = day(s.first.get("date")), day(s.last_date)
    return (a if a is not None else b), (b if b is not None else a)


def newest(g) -> set:
    """The sig of the group's newest statement: the one stated last (latest source date),
    when one is later than all others — none when the latest date is shared (nothing is
    newer than anything else then; the dates column shows the tie)."""
    last = sorted(((d, s.sig) for s in g.statements for d in (day(s.last_date) or day(s.first.get("date")),)
                   if d is not None), reverse=True)
    if not last or (len(last) > 1 and last[0][0] == last[1][0]):
        return set()
    if len(last) == 1 and len(g.statements) == 1:
        return set()
    return {last[0][1]}


def shown_statements(g) -> tuple:
    """(statements to list, how many are left out): contradicting ones first, then in order."""
    sts = g.statements
    if len(sts) <= MAX_ROWS:
        return sts, 0
    keep = {s.sig for s in sorted(sts, key=lambda s: (not g.contradicts.get(s.sig), s.order))[:MAX_ROWS]}
    return [s for s in sts if s.sig in keep], len(sts) - MAX_ROWS


class Lines:
    """Lines written to the open file; blank lines between blocks, none at the end."""

    def __init__(self, fh):
        self.fh, self._blank, self._any = fh, False, False

    def __call__(self, line: str = "") -> None:
        if not line:
            self._blank = self._any
            return
        if self._blank:
            self.fh.write("\n")
            self._blank = False
        self.fh.write(line + "\n")
        self._any = True


def _link(links, path, line) -> str:
    """``path:line`` as a relative Markdown link to the file (report_links.py), or as text."""
    text = f"{path}:{line}"
    href = links.href(path, line) if links is not None else None
    return f"[{_cell(text)}](<{href}>)" if href else _cell(text)


def source(s, links) -> str:
    f = s.first
    more = f" (+{s.n_files - 1} files)" if s.n_files > 1 else ""
    return _link(links, f["path"], f["line"]) + more


def write(report, fh, top=None, links=None) -> None:
    """Groups with contradictions as sections, most figures in conflict first; a group
    without one collapsed into ``<details>`` (one line until opened, as in the HTML)."""
    top = TOP_GROUPS if top is None else top
    w = Lines(fh)
    s = report.summary
    w(f"# Contradiction report: {', '.join(report.corpus)}")
    w()
    w("| | |")
    w("|---|---:|")
    for k, label in SUMMARY_ROWS:
        w(f"| {label} | {s[k]} |")
    w()
    groups = report.groups
    if groups:
        w("| Group | Key | Statements | Figures | In conflict | Contradicting | Not comparable |")
        w("|---|---|---:|---:|---:|---:|---:|")
        for i, g in enumerate(groups):
            name = f"[{g.id}](#{g.id.lower()})" if i < top else g.id
            w(f"| {name} | {_cell(key_title(g.key))} | {len(g.statements)} | {g.n_figures} | "
              f"{g.conflict_figures} | {g.contradictions} | {g.not_comparable} |")
        w()
        if len(groups) > top:
            w(f"The first {top} groups are shown below; report.json has all {len(groups)}.")
            w()
    for g in groups[:top]:
        if g.contradictions:
            w(f"## {g.id}")
            w()
            w(f"**{_cell(key_title(g.key))}** — {g.conflict_figures} figures in conflict, "
              f"{g.contradictions} contradicting pairs")
        else:
            w(f'<details id="{g.id.lower()}"><summary>{g.id} · {_cell(key_title(g.key))} — '
              f"{len(g.statements)} statements, {g.n_figures} figures; no contradiction, "
              f"{g.not_comparable} not comparable pairs</summary>")
        w()
        w("| Statement | As written | Normalized | Conditions | Source | Figures | Date | Status |")
        w("|---|---|---|---|---|---:|---|---|")
        shown, hidden = shown_statements(g)
        new = newest(g)
        for st in shown:
            f = st.first
            status = status_of(g, st)
            if st.sig in new:
                status = "newest" + ("" if status == "—" else "; " + status)
            w(f"| {g.ids[st.sig]} | `{_cell(f['surface'])}` | {_cell(fmt_value(f, st.base_unit))} | "
              f"{_cell(fmt_conditions(f['conditions'], f['borrowed']))} | {source(st, links)} | "
              f"{st.n_figures} | {dates(st)} | {_cell(status)} |")
        if hidden:
            w(f"| … | {hidden} more statements in report.json | | | | | | |")
        w()
        for p in g.pairs[:MAX_ROWS]:
            word = "contradict" if p["status"] == "contradict" else "not comparable"
            n = f" ({p['figure_pairs']} figure pairs)" if p["status"] == "contradict" and p["figure_pairs"] > 1 else ""
            w(f"- {p['a']} ↔ {p['b']}: **{word}**{n} — {p['reason']}")
        more = len(g.pairs) - MAX_ROWS + g.pairs_omitted
        if more > 0:
            w(f"- … {more} more statement pairs in report.json")
        w()
        if not g.contradictions:
            w("</details>")
            w()
    if s["unverified"]:
        w("## Unverified figures")
        w()
        for i, u in enumerate(report.unverified()):
            if i == MAX_UNVERIFIED:
                w(f"- … {s['unverified'] - MAX_UNVERIFIED} more in report.json")
                break
            w(f"- {_link(links, u['path'], u['line'])}: `{_cell(u['surface'])}` ({', '.join(u['markers'])})")
        w()
    if report.errors:
        w("## Files that could not be read")
        w()
        for e in report.errors:
            w(f"- {e}")
