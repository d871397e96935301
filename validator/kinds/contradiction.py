"""Contradiction kind (CV3xx): the same figure for the same thing, stated two ways.

Claims are grouped by claim key ``(metric, subject, baseline)`` in Python (the
document's groups, and the corpus's distinct statements of the same key) — never an
all-pairs join. Two figures conflict when their values disagree beyond the tolerance
their written precision allows (ranges as intervals, approximations widened) AND their
conditions are compatible: both state a setup, they share at least one facet, and no
shared facet differs. A figure without conditions borrows those of the same figure
stated with conditions elsewhere in its document (a headline restating an entry).
Before/after sides of a change and same-line lists are compared position by position.

When a shared facet differs the pair is "not comparable" — noted (info) only when the
source the figure cites measured it under another setup and under no matching one
(within a document or across a corpus, other setups are the norm, not news). A figure that agrees with the source it cites is not blamed for a
corpus file that disagrees: that file is reported when it is checked.

One fact per figure that has a same-key partner: ``conflicts`` counts conflicting
statements, ``not_comparable`` the statements that differ under other conditions.
Within a document only the later figure of a pair gets the fact (one finding per
contradiction).
"""
from __future__ import annotations

import os
from itertools import chain, islice

from claims.structure import sentence_index

from ..facts import (base_fact, compare_conditions, evidence_of, facets_with_several_values,
                     one_sided, statements, statements_agree)

NAME = "contradiction.figure"
FAMILY = "contradiction"
ACKNOWLEDGEABLE = True  # a warnings-section entry may acknowledge these findings
PARAMS = {"roles": list, "approx_rel": float, "scopes": list, "max_evidence": int, "kinds": list,
          "max_ratio": float}
DEFAULTS = {"roles": ["body", "header", "summary"], "approx_rel": 0.1,
            "scopes": ["document", "corpus"], "max_evidence": 5, "max_ratio": 5.0,
            "kinds": ["percent", "percentage_point", "ratio", "throughput", "latency", "duration",
                      "memory", "bandwidth", "currency", "compute"]}
FIELDS = {"conflicts": int, "not_comparable": int, "scope": str, "metric": str, "kind": str,
          "role": str}
WHEN = {"field": "conflicts", "gt": 0}
VARS = {"other", "where", "facet", "subject", "other_value"}

_FACETS = {"zh": {"hardware": "硬件", "model": "模型", "workload": "负载", "dataset": "数据集",
                  "concurrency": "并发", "precision": "精度", "context_length": "上下文长度",
                  "batch_size": "batch size", "output_length": "输出长度", "request_rate": "请求速率",
                  "parallelism": "并行方式", "load": "负载描述"}}


def _far_apart(a, b, max_ratio: float) -> bool:
    """Two figures of one document more than ``max_ratio`` apart are two quantities the
    reader did not tell apart (a decode step's 9013.8 µs and its attention's 25.1 µs, a
    per-layer copy and a per-step lead), not one misreported: an author restating a figure
    does not miss it fivefold. The same digits under another unit ('12.6 ms', '12.6 µs') are
    one figure with a slip of the unit, and stay comparable."""
    x, y = a.base_value, b.base_value
    if not x or not y or (x > 0) != (y > 0):
        return False
    if a.value is not None and a.value == b.value:
        return False
    return max(abs(x), abs(y)) / min(abs(x), abs(y)) > max_ratio


def _judge(mine, theirs, approx_rel):
    """'conflict' | 'differ' (with facets) | None for two statements of one key.
    (``compare_conditions`` is memoized by setup pair: across a corpus the same few
    setups meet each other thousands of times.)"""
    if mine.phase != theirs.phase or not mine.conds or not theirs.conds:
        return None, ()
    shared_eq, differ = compare_conditions(mine.conds, theirs.conds)
    if not differ and shared_eq < 1:
        return None, ()
    if statements_agree(mine, theirs) is not False:
        return None, ()
    return ("differ", differ) if differ else ("conflict", ())


def _by_conditions(caches, key, approx_rel, groups) -> dict:
    """The corpus's distinct statements of ``key`` by condition signature (in the run's
    caches: every checked file with this key asks)."""
    cache = caches.by_conditions
    ck = (key, approx_rel, id(groups))
    if ck not in cache:
        out = {}
        for st, members in groups:
            # the members' real paths as a set: a claim that agrees with a statement
            # restated in hundreds of files takes them all in one union
            out.setdefault(st.sig[1], []).append((st, members))
        cache[ck] = (groups, out)       # the groups are kept alive with their id
    return cache[ck][1]


def _comparable(by_cond, mine, cited, rel) -> list:
    """[(condition comparison, statements)] of the corpus setups (``by_cond``) worth a look
    for a figure stated under ``mine``'s conditions. The same for every figure of one key
    stated under one setup: most are dropped (no shared facet; another setup and no cited
    source), so the list is made once per (key, setup, cites or not) and reused."""
    rk = (id(by_cond), mine.sig[1], cited)
    got = rel.get(rk)
    if got is None:
        got = []
        for csig, sts in by_cond.items():
            cmp = compare_conditions(mine.conds, dict(csig))
            if not cmp[1] and cmp[0] < 1:
                continue      # no shared facet: nothing to compare
            if cmp[1] and not cited:
                continue      # other setups elsewhere in the corpus are not news
            got.append((cmp, sts))
        rel[rk] = got
    return got


def _one_table(doc, a, b) -> bool:
    """Both figures are cells of one table."""
    if a.block is None or b.block is None:
        return False
    ta, tb = doc.blocks[a.block].table, doc.blocks[b.block].table
    return ta is not None and ta == tb


def _item_parents(doc) -> dict:
    """Block of a nested list item -> block of the item it sits under (from the document
    model's list items: the nearest earlier item of its list with a smaller depth)."""
    out, stack = {}, []     # stack: (list id, depth, block) of the open items
    for it in doc.items:
        while stack and (stack[-1][0] != it.list_id or stack[-1][1] >= it.depth):
            stack.pop()
        if stack:
            out[it.block] = stack[-1][2]
        stack.append((it.list_id, it.depth, it.block))
    return out


def _sibling_cases(parents: dict, a, b) -> bool:
    """Both figures are in sub-lists under two different items of one list ('**Tiny-Moe (E1)**'
    over '- GPU Baseline Gen: 545 t/s', '**Phi-mini-MoE (E2)**' over '- … 218 t/s'): each parent
    item is a case of its own, as a table's rows are."""
    pa, pb = parents.get(a.block), parents.get(b.block)
    return pa is not None and pb is not None and pa != pb


# what a figure is when it states no measured value (claims/nature.py): a plan's target, a
# configured limit, a quoted title, a bug's symptom, a build step's logged duration -- none
# restates or contradicts a result
_NOT_STATED = ("hypothetical", "setting", "quote", "symptom", "withdrawn", "log")


def _sentence_of(ctx, claim):
    """The index of the document-model sentence holding the claim (None in a table or when unknown)."""
    doc = ctx.document
    if doc is None or claim.block is None or claim.block >= len(doc.blocks) \
            or doc.blocks[claim.block].kind == "table_cell":
        return None
    return sentence_index(doc, claim.start)


def _agrees_with_its_pair(ctx, claim, other, group, mine_all) -> bool:
    """``other`` is stated in one sentence with another figure of its key that ``claim`` agrees
    with: the sentence compares two things ('achieves 85.6% top-1⏎accuracy (vs 70.2% for naive
    Q4_0)', hard-wrapped), and the claim restates one side of it."""
    k = _sentence_of(ctx, other)
    if k is None:
        return False
    mine = mine_all[id(claim)]
    for c in group:
        if c is other or c is claim or _sentence_of(ctx, c) != k:
            continue
        st = mine_all.get(id(c))
        if st is not None and statements_agree(mine, st):
            return True
    return False


def _states_no_level(doc, claim) -> bool:
    """The figure states no level another could contradict: a difference ('4GB more' says by how
    much, not how much), a target, setting, quote or symptom, or a table header's label
    ('AllReduce 2GB busbw')."""
    if "difference" in (claim.traits or ()) or claim.nature in _NOT_STATED:
        return True
    if doc is None or claim.block is None or claim.block >= len(doc.blocks):
        return False
    b = doc.blocks[claim.block]
    return b.kind == "table_cell" and not b.row


def _elsewhere(claim) -> bool:
    return "other_experiment" in (claim.traits or ())


def _cited(ctx, claim) -> set:
    """Real paths of the claim's cited sources that resolve in the corpus."""
    return {os.path.realpath(p) for p, _ in ctx.cited_analyses(claim)}


def _doc_cited(ctx) -> set:
    """Real paths of every source the document cites anywhere (sources table included)."""
    doc = ctx.caches.of(ctx.analysis)
    if doc.cited is None:
        doc.cited = set()
        if ctx.corpus is not None:
            for s in ctx.document.sources or ():
                if getattr(s, "kind", "") == "path":
                    p = ctx.corpus.resolve(s.ref, ctx.path)
                    if p:
                        doc.cited.add(os.path.realpath(p))
    return doc.cited


def facts(rule, ctx):
    """Facts are the same for every rule of this kind with the same params: computed once."""
    sig = repr(sorted((k, repr(v)) for k, v in rule.params.items()))
    for f in ctx.memo(("contradiction.figure", sig), lambda: list(_facts(rule, ctx))):
        yield dict(f)


def _facts(rule, ctx):
    roles = set(rule.params.get("roles") or ())
    kinds = set(rule.params.get("kinds") or ())
    approx_rel = float(rule.params.get("approx_rel", 0.1))
    scopes = set(rule.params.get("scopes") or ())
    max_ev = int(rule.params.get("max_evidence", 5))
    max_ratio = float(rule.params.get("max_ratio", 5.0))
    lang = ctx.lang
    parents = ctx.memo(("contradiction.item_parents",), lambda: _item_parents(ctx.document))
    mine_all = statements(ctx.analysis, approx_rel, ctx.caches)
    here = os.path.realpath(ctx.path)
    corpus = ctx.corpus if "corpus" in scopes else None
    rel = ctx.caches.comparable
    several = facets_with_several_values(st.conds for st in mine_all.values() if st.conds)

    def short(p):
        return ctx.corpus.short(p) if ctx.corpus is not None else p

    def disp(p):
        return ctx.corpus.display_path(p) if ctx.corpus is not None else p

    for key, group in ctx.groups().items():
        # counts of things (entries, GPUs, requests) are the count family's business
        in_scope = [c for c in group if c.role in roles and c.kind in kinds]
        if not in_scope:
            continue
        ext = corpus.statement_groups(key, approx_rel) if corpus is not None else []
        for i, claim in enumerate(in_scope):
            mine = mine_all.get(id(claim))
            if mine is None or not mine.conds:
                continue          # the setup is unknown: nothing can be said
            if _states_no_level(ctx.document, claim):
                continue
            # (rank, path, claim, kind, facets); rank orders the evidence: cited source first
            found = []
            if "document" in scopes:
                for other in in_scope[:i]:
                    # figures of one line with one key are a deliberate list, not two statements
                    if other.line == claim.line or (other.block is not None
                                                    and other.block == claim.block):
                        continue
                    if _one_table(ctx.document, claim, other):
                        continue      # a table's rows are its cases: two rows never contradict
                    if _sibling_cases(parents, claim, other):
                        continue      # nor do two items' sub-lists
                    if _states_no_level(ctx.document, other):
                        continue
                    if _far_apart(claim, other, max_ratio):
                        continue      # a step's total and a kernel's time: two quantities
                    if _elsewhere(claim) != _elsewhere(other):
                        continue      # a cited paper's or a quick test's figure is another experiment's
                    theirs = mine_all[id(other)]
                    if theirs.conds and one_sided(mine.conds, theirs.conds, several):
                        continue      # one names a model or load the document has several of
                    verdict, dif = _judge(mine, theirs, approx_rel)
                    # a document listing one metric under several setups is normal: only
                    # conflicts count here ('not comparable' is kept for cited sources)
                    if verdict == "conflict" and not _agrees_with_its_pair(ctx, claim, other, group, mine_all):
                        # ('85.6% … (vs 70.2% for naive Q4_0)': a ~86% restates the 85.6%, not the 70.2%)
                        found.append((1, ctx.path, other, verdict, dif))
            cited = _cited(ctx, claim) if ext else set()
            if ext and cited:
                supported = False
                for st, members in ext:
                    # the files stating a statement are read last, for the few that agree
                    if st.phase == mine.phase and statements_agree(mine, st) \
                            and not compare_conditions(mine.conds, st.conds)[1] \
                            and not cited.isdisjoint(members.reals):
                        supported = True
                        break
                if supported:
                    # the cited source backs the figure: a disagreeing corpus file is the one
                    # in error, and is reported when that file is checked
                    ext_here = []
                else:
                    ext_here = ext
            else:
                ext_here = ext
            doc_cited = _doc_cited(ctx) if ext_here else set()
            by_cond = _by_conditions(ctx.caches, key, approx_rel, ext_here) if ext_here else {}
            ext_found, agreeing_files = [], set()
            for cmp, sts in _comparable(by_cond, mine, bool(cited), rel) if by_cond else ():
                for st, members in sts:
                    if not cmp[1] and st.phase == mine.phase and \
                            statements_agree(mine, st) is True:
                        agreeing_files |= members.reals
                        continue
                    verdict, dif = _judge(mine, st, approx_rel)
                    if not verdict:
                        continue
                    reals = members.reals
                    cited_here = reals & cited if cited else frozenset()
                    if verdict == "differ" and not cited_here:
                        continue
                    other_files = reals - {here}
                    if not other_files:
                        continue      # the only statement of this kind is this very file
                    # one group may hold many files: show the most telling one first, then
                    # the others (their claims are read only as far as the evidence goes)
                    doc_here = other_files & doc_cited
                    rank = 0 if cited_here else 2 if doc_here else 3
                    ordered = list(islice(chain(
                        members.entries(only=cited_here),
                        members.entries(only=doc_here, skip=cited_here),
                        members.entries(only=other_files, skip=cited_here | doc_here)), max_ev))
                    p, r, c = ordered[0]
                    ext_found.append((rank, p, c, verdict, dif, other_files, ordered))
            agreeing_files.discard(here)
            conflicting_files = set().union(*(f[5] for f in ext_found if f[3] == "conflict")) \
                if ext_found else set()
            if conflicting_files and len(agreeing_files) > len(conflicting_files) and \
                    not any(f[0] == 0 and f[3] == "conflict" for f in ext_found):
                # more files state this figure than contradict it: the outliers are reported
                # when they are checked, not every file that agrees with the majority
                ext_found = [f for f in ext_found if f[3] != "conflict"]
            if agreeing_files & cited:
                # the cited source states this figure under this setup too: that it also
                # measured other setups is not worth a note
                ext_found = [f for f in ext_found if f[3] != "differ"]
            found += [f[:5] + (f[6],) for f in ext_found]
            conflicts = sorted((f for f in found if f[3] == "conflict"), key=lambda f: f[0])
            differing = sorted((f for f in found if f[3] == "differ"), key=lambda f: f[0])
            if not conflicts and not differing:
                continue
            rank, path, other, _, dif = (conflicts or differing)[0][:5]
            facet = "" if conflicts else ", ".join(_FACETS.get(lang, {}).get(f, f) for f in dif)
            where = (f"第 {other.line} 行" if lang == "zh" else f"line {other.line}") \
                if path == ctx.path else f"{short(path)}:{other.line}"
            note_c = "conflicting figure" if lang == "en" else "矛盾的数字"
            note_d = "figure under other conditions" if lang == "en" else "条件不同的数字"
            evidence = []
            for group_found, note in ((conflicts, note_c), (differing, note_d)):
                for f in group_found:
                    # every file of a group of restatements, most telling first
                    members = f[5] if len(f) > 5 else [(f[1], None, f[2])]
                    for p, _, o in members:
                        if len(evidence) < max_ev:
                            evidence.append(evidence_of(o, note, disp(p) if p != ctx.path else p))
            fact = base_fact(claim, ctx.document)
            fact.update({
                "conflicts": len(conflicts), "not_comparable": len(differing),
                "scope": "source" if rank == 0 else "document" if rank == 1 else "corpus",
                "metric": claim.metric or "", "kind": claim.kind, "role": claim.role,
                "_side": {"evidence": evidence, "vars": {
                    "other": other.surface, "other_value": other.surface, "where": where,
                    "facet": facet, "subject": claim.subject or ""}},
            })
            yield fact
