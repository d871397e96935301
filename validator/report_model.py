"""The corpus contradiction report's model: from a corpus's statements to plain, deterministic groups.

Why: a person needs to see, per claim key (metric, subject, baseline), what the corpus
states, which statements really contradict (same key, comparable conditions, values apart
beyond the precision they were written with), which are merely not comparable (a condition
facet, or the way the load is described, differs), and which a newer source superseded.

Statements, not pairs. A key's figures collapse into distinct *statements* — one interval,
unit, kind, phase and setup (``facts.Statement``, whose id the claim ledger stores with each
claim). Restating a figure a thousand times adds a thousand figures to one statement and no
work: contradiction and "not comparable" are decided between statements, and a
contradiction's pair count is the product of the two statements' sizes, less the pairs
stated in one sentence (a deliberate list). The figures themselves are only read to be
written out, statement by statement.

Who does what:
- an *engine* groups a corpus's figures into statements and compares them — the default
  (``validator/report_python.py``) groups in the SQLite claim ledger one key at a time and
  compares in Python; ``report_duckdb.py`` and ``report_spark.py`` do both as SQL over the
  ledger or over Parquet exports (``caveat ledger export``);
- this module turns an engine's statements and statement pairs into the report's groups
  (ids, order, counts, what contradicts and supersedes what, the listed pairs), the same
  for every engine, so their summaries and per-key counts are identical;
- ``validator/report.py`` runs a report (ledger, engine, model, writer);
- the renderers (``validator/render/report_*.py``) write the model group by group to the
  open file, reading each statement's figures from the engine as they go: nothing holds
  the whole report.

The model is deterministic: paths relative to the corpus roots, stable ordering, no
timestamps, floats rounded to a fixed number of significant digits — so the sample report
kept in the repository can be regenerated and compared byte for byte. Its JSON form is
documented by ``validator/schemas/report.schema.json`` (``render/report_json.REPORT_VERSION``).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

from validator import facts

# Blocks whose figures are the corpus's claims (the contradiction rule's `roles`); warnings
# sections, sources tables and references restate or list other figures.
CLAIM_ROLES = ("body", "header", "summary")
UNVERIFIED_MARKERS = ("unverified", "abstract_only")
MAX_LISTED_PAIRS = 500    # statement pairs listed per group; the counts stay exact


def order_key(date, path, line, col) -> str:
    """The sort key of a figure: date (undated last), path, line, column. Every engine builds
    the same string, so statements are numbered alike everywhere."""
    return f"{date or '9999'}\x01{path}\x01{int(line or 0):09d}\x01{int(col or 0):09d}"


# -- what an engine hands over ----------------------------------------------------------

@dataclass
class Statement:
    """One distinct statement of a claim key, as an engine grouped it."""
    sig: str                    # facts.statement_id
    phase: str
    setup: dict                 # normalized effective conditions (facts.conditions_of)
    base_unit: Optional[str]
    kind_class: str
    lo: Optional[float]         # admitted interval in base units (facts.interval)
    hi: Optional[float]
    n_figures: int
    n_files: int
    last_date: Optional[str]
    order: str                  # order_key of its first figure
    first: dict                 # the first figure: path, line, col, surface, kind, value, low, high,
    #                             base_value, base_low, base_high, date, conditions (as written:
    #                             facet -> value), borrowed, markers, role, metric, subject, baseline


@dataclass
class Pair:
    """Two statements of one key that contradict or are not comparable."""
    a: str                      # statement sigs
    b: str
    status: str                 # 'contradict' | 'not_comparable'
    differ: tuple = ()          # the facets (or facet groups) that differ
    figure_pairs: int = 0       # figure pairs, less those stated in one sentence


# -- the comparison rule, shared by every engine -----------------------------------------
# The same test as the contradiction rule of `caveat check` (validator/kinds/contradiction.py,
# with validator/facts.py's intervals and condition matching), so the report and the check
# never disagree: statements of one key and phase whose unit and kind match and whose
# intervals are disjoint contradict when their setups share a facet and none differs
# (a facet group such as the load counts as one facet: facts.FACET_GROUPS); a differing
# facet makes them "not comparable"; a figure whose setup is unknown (no conditions, none
# borrowable in its document) is not judged; two figures of one sentence are not compared.

def condition_verdict(a: dict, b: dict) -> tuple:
    """('contradict' | 'not_comparable' | 'agree', differing facets) for two setups whose
    figures disagree in value."""
    shared_eq, differ = facts.compare_conditions(a, b)
    if differ:
        return "not_comparable", tuple(differ)
    if shared_eq >= 1:
        return "contradict", ()
    return "agree", ()          # no facet in common: the setups cannot be matched


def values_disagree(a: Statement, b: Statement) -> bool:
    """Same phase, unit and kind, both intervals known, and the intervals disjoint."""
    if a.phase != b.phase or (a.base_unit or "") != (b.base_unit or "") or a.kind_class != b.kind_class:
        return False
    if a.lo is None or a.hi is None or b.lo is None or b.hi is None:
        return False
    return a.hi < b.lo or b.hi < a.lo


# -- groups ------------------------------------------------------------------------------

@dataclass
class Group:
    """The report of one claim key: its statements, numbered in order of first statement."""
    key: dict
    statements: list            # [Statement], numbered S1.. in this order
    ids: dict                   # sig -> 'S<n>'
    contradictions: int
    not_comparable: int
    n_figures: int
    contradicts: dict           # sig -> [ids it contradicts]
    differs: dict               # sig -> [ids it is not comparable with]
    superseded_by: dict         # sig -> id of the newer contradicting statement
    pairs: list                 # listed pairs: [{a, b, status, reason, figure_pairs}]
    pairs_omitted: int
    id: str = ""
    claim_key: str = ""
    conflict_figures: int = 0   # figures of the statements that contradict another (the order)


def build_group(claim_key: str, statements: list, pairs: list) -> Optional[Group]:
    """The group of one claim key from its statements and its disagreeing statement pairs,
    or None when nothing disagrees. Statement pairs with no figure pair left (every one
    stated in one sentence) say nothing."""
    pairs = [p for p in pairs if p.figure_pairs > 0]
    if not pairs:
        return None
    statements = sorted(statements, key=lambda s: s.order)
    index = {s.sig: i for i, s in enumerate(statements)}
    ids = {s.sig: f"S{i}" for i, s in enumerate(statements, 1)}
    by_sig = {s.sig: s for s in statements}
    contradicts: dict = {}
    differs: dict = {}
    newer: dict = {}
    n_contra = n_nc = 0
    for p in pairs:
        if p.status == "contradict":
            n_contra += p.figure_pairs
            contradicts.setdefault(p.a, []).append(p.b)
            contradicts.setdefault(p.b, []).append(p.a)
            # the newest statement of a figure supersedes the contradicting older ones
            for old, new in ((p.a, p.b), (p.b, p.a)):
                od, nd = by_sig[old].last_date, by_sig[new].last_date
                if od and nd and nd > od:
                    cur = newer.get(old)
                    if cur is None or (nd, -index[new]) > (by_sig[cur].last_date, -index[cur]):
                        newer[old] = new
        else:
            n_nc += 1
            differs.setdefault(p.a, []).append(p.b)
            differs.setdefault(p.b, []).append(p.a)

    def named(sigs):
        return [ids[x] for x in sorted(set(sigs), key=index.__getitem__)]

    ordered = heapq.nsmallest(MAX_LISTED_PAIRS, pairs, key=lambda p: (p.status != "contradict",)
                              + ((index[p.a], index[p.b]) if index[p.a] < index[p.b] else (index[p.b], index[p.a])))
    listed = [_listed(p, by_sig, ids, index) for p in ordered]
    first = statements[0].first
    return Group(
        key={"metric": first.get("metric"), "subject": first.get("subject"), "baseline": first.get("baseline")},
        statements=statements, ids=ids, contradictions=n_contra, not_comparable=n_nc,
        n_figures=sum(s.n_figures for s in statements),
        contradicts={k: named(v) for k, v in contradicts.items()},
        differs={k: named(v) for k, v in differs.items()},
        superseded_by={k: ids[v] for k, v in newer.items()},
        pairs=listed, pairs_omitted=max(0, len(pairs) - MAX_LISTED_PAIRS), claim_key=claim_key,
        conflict_figures=sum(s.n_figures for s in statements if s.sig in contradicts))


def _listed(p: Pair, by_sig, ids, index) -> dict:
    a, b = sorted((p.a, p.b), key=index.__getitem__)
    if p.status == "contradict":
        reason = "values disagree beyond the precision written under the same conditions"
    else:
        reason = "; ".join(f"{f} differs ({describe(by_sig[a], f)} vs {describe(by_sig[b], f)})"
                           for f in sorted(p.differ))
    return {"a": ids[a], "b": ids[b], "status": p.status, "reason": reason, "figure_pairs": p.figure_pairs}


def describe(s: Statement, facet: str) -> str:
    """A setup facet as its first figure wrote it (a facet group: its descriptors)."""
    written = s.first.get("conditions") or {}
    if facet in written:
        return str(written[facet])
    members = facts.FACET_GROUPS.get(facet)
    if members:
        return ", ".join(f"{f.replace('_', ' ')}: {written.get(f) or s.setup[f]}" for f in members if f in s.setup)
    return s.setup.get(facet, "")


def order_groups(groups: list) -> list:
    """Most figures in conflict first (a reviewer starts where most of the corpus is at
    stake), then most contradicting pairs, then by key; numbered G1.. Groups with nothing in
    conflict (only "not comparable") come last."""
    groups.sort(key=lambda g: (-g.conflict_figures, -g.contradictions, g.key["metric"] or "", g.key["subject"] or "",
                               g.key["baseline"] or "", g.claim_key))
    for n, g in enumerate(groups, 1):
        g.id = f"G{n}"
    return groups


# -- the report ----------------------------------------------------------------------------

@dataclass
class Report:
    """The report of one corpus: the summary and groups in memory (statements, not figures);
    figures, unverified figures and files read from the engine as they are written."""
    corpus: list
    summary: dict
    groups: list
    source: object              # the engine: figures(), unverified(), files(), show()
    errors: list = field(default_factory=list)
    roots: list = field(default_factory=list)   # the corpus folders (absolute) the display paths
    #                                             are relative to; empty for Parquet exports

    def figures(self, only: Optional[list] = None) -> Iterator[tuple]:
        """(group, statement, figure) in report order: group, statement, first stated first.
        ``only``: [(group, statements)] to read instead of every statement of every group
        (a renderer showing part of the report reads only that part)."""
        only = [(g, g.statements) for g in self.groups] if only is None else only
        order = [(g.claim_key, s.sig) for g, sts in only for s in sts]
        where = {(g.claim_key, s.sig): (g, s) for g, sts in only for s in sts}
        if not order:
            return
        for key, sig, fig in self.source.figures(order):
            g, s = where[(key, sig)]
            yield g, s, fig

    def unverified(self) -> Iterator[dict]:
        return self.source.unverified()

    def files(self) -> Iterator[dict]:
        return self.source.files()


def build(source, corpus_names: list, roots: Optional[list] = None) -> Report:
    """The report model from an engine: every key's statements compared, groups ordered.
    ``roots``: the corpus folders, so a renderer can link each figure to its file."""
    groups = []
    for key, statements, pairs in source.groups():
        g = build_group(key, statements, pairs)
        if g is not None:
            groups.append(g)
    order_groups(groups)
    counts = source.counts()
    errors = source.errors()
    summary = {
        "files": counts["files"],
        "claims": counts["claims"],
        "groups": len(groups),
        "contradictions": sum(g.contradictions for g in groups),
        "not_comparable": sum(g.not_comparable for g in groups),
        "superseded": sum(len(g.superseded_by) for g in groups),
        "unverified": counts["unverified"],
        "unreadable_files": len(errors),
    }
    return Report(corpus=corpus_names, summary=summary, groups=groups, source=source, errors=errors,
                  roots=[str(Path(r).resolve()) for r in roots or ()])


def statement_pairs(statements: list) -> Iterator[tuple]:
    """(a, b, verdict, differ) for every pair of a key's statements (``a.sig < b.sig``) that
    disagrees in value under setups that contradict or are not comparable: the default
    engine's comparison (the SQL engines join on the same test). A key's statements share
    few setups: the setups are compared pair by pair, and only the statements of setup pairs
    that can disagree are compared by value."""
    by_setup: dict = {}
    for s in statements:
        by_setup.setdefault(_setup_key(s.setup), []).append(s)
    setups = list(by_setup.items())
    for i, (ka, group_a) in enumerate(setups):
        for kb, group_b in setups[i:]:
            verdict, differ = condition_verdict(dict(ka), dict(kb))
            if verdict == "agree":
                continue
            same = group_a is group_b
            for a in group_a:
                for b in group_b:
                    if (same and a.sig >= b.sig) or not values_disagree(a, b):
                        continue
                    yield (a, b, verdict, differ) if a.sig < b.sig else (b, a, verdict, differ)


def _setup_key(setup: dict) -> tuple:
    return tuple(sorted(setup.items()))
