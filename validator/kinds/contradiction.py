"""Contradiction kind (CV3xx): the same figure for the same thing, stated two ways.

Claims are grouped by claim key ``(metric, subject, baseline)`` in Python (the
document's groups, and the corpus index for the same key) — never an all-pairs
join. Within a group two figures conflict when their values disagree beyond the
tolerance their written precision allows (ranges as intervals, approximations
widened) AND their conditions are compatible: both state a setup, they share at
least one facet, and no shared facet differs. A figure without conditions borrows
those of the same figure stated with conditions elsewhere in the document (a
headline restating a body entry). When a shared facet differs the pair is "not
comparable" — reported, if at all, as info.

One fact per figure that has a same-key partner: ``conflicts`` counts conflicting
partners, ``not_comparable`` the partners that disagree under different conditions.
Within a document only the later figure of a pair gets the fact (one finding per
contradiction); partners in other corpus files always count.
"""
from __future__ import annotations

from ..facts import (base_fact, claim_key, compare_conditions, conditions_of, evidence_of,
                     phases, values_agree)

NAME = "contradiction.figure"
FAMILY = "contradiction"
PARAMS = {"roles": list, "approx_rel": float, "scopes": list}
DEFAULTS = {"roles": ["body", "header", "summary"], "approx_rel": 0.1,
            "scopes": ["document", "corpus"]}
FIELDS = {"conflicts": int, "not_comparable": int, "scope": str, "metric": str, "kind": str,
          "role": str}
WHEN = {"field": "conflicts", "gt": 0}
VARS = {"other", "where", "facet", "subject", "other_value"}

_FACETS = {"zh": {"hardware": "硬件", "model": "模型", "workload": "负载", "dataset": "数据集",
                  "concurrency": "并发", "precision": "精度", "context_length": "上下文长度",
                  "batch_size": "batch size"}}


def _effective_conditions(claim, group, approx_rel):
    """The claim's conditions, or those of the same figure stated with conditions in the
    same document (a summary line restating an entry)."""
    own = conditions_of(claim)
    if own:
        return own
    for c in group:
        if c is claim:
            continue
        conds = conditions_of(c)
        if conds and values_agree(c, claim, approx_rel):
            return conds
    return {}


def facts(rule, ctx):
    roles = set(rule.params.get("roles") or ())
    approx_rel = float(rule.params.get("approx_rel", 0.1))
    scopes = set(rule.params.get("scopes") or ())
    lang = ctx.lang
    groups = ctx.groups()
    cond_cache = {}
    my_phase = phases(ctx.analysis)

    def conds(c, group):
        k = id(c)
        if k not in cond_cache:
            cond_cache[k] = _effective_conditions(c, group, approx_rel)
        return cond_cache[k]

    def shown(p):
        if p == ctx.path:
            return p
        return ctx.corpus.short(p) if ctx.corpus is not None else p

    for key, group in groups.items():
        in_scope = [c for c in group if c.role in roles]
        if not in_scope:
            continue
        external = ctx.external(key) if "corpus" in scopes else []
        for i, claim in enumerate(in_scope):
            partners = []
            if "document" in scopes:
                # figures of one sentence/bullet with one key are a deliberate list
                # (before/after, several setups), not two statements of one figure
                partners += [(ctx.path, c, "document") for c in in_scope[:i]
                             if c.line != claim.line and (c.block is None or c.block != claim.block)]
            partners += [(p, c, "corpus") for p, c in external]
            if not partners:
                continue
            mine = conds(claim, group)
            if not mine:
                continue          # the setup is unknown: nothing can be said
            cited = {p for p, _ in ctx.cited_analyses(claim)} if external else set()
            if external and _supported_by_cited_source(ctx, claim, key, mine, approx_rel):
                # the figure agrees with the source it cites: a corpus file that disagrees is
                # the one in error, and is reported when that file is checked
                partners = [x for x in partners if x[2] == "document"]
            phase = my_phase.get(id(claim), "")
            conflicts, differing = [], []
            for path, other, scope in partners:
                other_phase = (my_phase if scope == "document"
                               else _phases_of(ctx, path)).get(id(other), "")
                if other_phase != phase:
                    continue
                agree = values_agree(claim, other, approx_rel)
                if agree is not False:
                    continue
                theirs = conds(other, group) if scope == "document" else \
                    _external_conditions(ctx, path, other, approx_rel)
                if not theirs:
                    continue
                shared_eq, differ = compare_conditions(mine, theirs)
                if differ:
                    differing.append((path, other, scope, differ))
                elif shared_eq >= 1:
                    conflicts.append((path, other, scope))
            if not conflicts and not differing:
                continue
            # the most telling partner first: a cited source, then this document, then the rest
            doc_cited = _doc_cited(ctx)
            rank = {"document": 1, "corpus": 3}
            conflicts.sort(key=lambda x: (0 if x[0] in cited else 2 if x[0] in doc_cited
                                          else rank[x[2]]))
            if conflicts:
                path, other, scope = conflicts[0]
                facet = ""
            else:
                path, other, scope, dif = differing[0]
                facet = ", ".join((_FACETS.get(lang, {}).get(f, f) for f in dif))
            where = (f"第 {other.line} 行" if lang == "zh" else f"line {other.line}") \
                if path == ctx.path else f"{shown(path)}:{other.line}"
            note_c = "conflicting figure" if lang == "en" else "矛盾的数字"
            note_d = "figure under other conditions" if lang == "en" else "条件不同的数字"
            evidence = [evidence_of(o, note_c, _disp(ctx, p)) for p, o, _ in conflicts] + \
                       [evidence_of(o, note_d, _disp(ctx, p)) for p, o, _, _ in differing]
            fact = base_fact(claim, ctx.document)
            fact.update({
                "conflicts": len(conflicts), "not_comparable": len(differing),
                "scope": "source" if path in cited else scope, "metric": claim.metric or "",
                "kind": claim.kind, "role": claim.role,
                "_side": {"evidence": evidence, "vars": {
                    "other": other.surface, "other_value": other.surface, "where": where,
                    "facet": facet, "subject": claim.subject or ""}},
            })
            yield fact


def _doc_cited(ctx) -> set:
    """Corpus paths of every source the document cites anywhere (sources table included)."""
    cached = getattr(ctx, "_caveat_doc_cited", None)
    if cached is not None:
        return cached
    out = set()
    if ctx.corpus is not None:
        for s in ctx.document.sources or ():
            if getattr(s, "kind", "") == "path":
                p = ctx.corpus.resolve(s.ref, ctx.path)
                if p:
                    out.add(p)
    ctx._caveat_doc_cited = out
    return out


def _disp(ctx, path):
    return ctx.corpus.display_path(path) if ctx.corpus is not None and path != ctx.path else path


def _phases_of(ctx, path):
    a = ctx.corpus.analysis(path) if ctx.corpus is not None else None
    return phases(a) if a is not None else {}


def _supported_by_cited_source(ctx, claim, key, mine, approx_rel) -> bool:
    for path, a in ctx.cited_analyses(claim):
        for c in a.claims:
            if claim_key(c) != key or values_agree(claim, c, approx_rel) is not True:
                continue
            theirs = _external_conditions(ctx, path, c, approx_rel)
            if not compare_conditions(mine, theirs)[1]:
                return True
    return False


def _external_conditions(ctx, path, claim, approx_rel):
    """Conditions of a corpus claim, borrowed within its own document like ours."""
    own = conditions_of(claim)
    if own or ctx.corpus is None:
        return own
    a = ctx.corpus.analysis(path)
    if a is None:
        return own
    key = claim_key(claim)
    group = [c for c in a.claims if claim_key(c) == key]
    return _effective_conditions(claim, group, approx_rel)
