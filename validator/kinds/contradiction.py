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
                     values_agree)

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

    def conds(c, group):
        k = id(c)
        if k not in cond_cache:
            cond_cache[k] = _effective_conditions(c, group, approx_rel)
        return cond_cache[k]

    for key, group in groups.items():
        in_scope = [c for c in group if c.role in roles]
        if not in_scope:
            continue
        external = ctx.external(key) if "corpus" in scopes else []
        for i, claim in enumerate(in_scope):
            partners = []
            if "document" in scopes:
                partners += [(ctx.path, c, "document") for c in in_scope[:i]]
            partners += [(p, c, "corpus") for p, c in external]
            if not partners:
                continue
            mine = conds(claim, group)
            conflicts, differing = [], []
            for path, other, scope in partners:
                agree = values_agree(claim, other, approx_rel)
                if agree is not False:
                    continue
                theirs = conds(other, group) if scope == "document" else \
                    _external_conditions(ctx, path, other, approx_rel)
                if not mine or not theirs:
                    continue      # a setup is unknown: nothing can be said
                shared_eq, differ = compare_conditions(mine, theirs)
                if differ:
                    differing.append((path, other, scope, differ))
                elif shared_eq >= 1:
                    conflicts.append((path, other, scope))
            if not conflicts and not differing:
                continue
            shown = (lambda p: ctx.corpus.display_path(p)) if ctx.corpus is not None else (lambda p: p)
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
            evidence = [evidence_of(o, note_c, shown(p)) for p, o, _ in conflicts] + \
                       [evidence_of(o, note_d, shown(p)) for p, o, _, _ in differing]
            fact = base_fact(claim, ctx.document)
            fact.update({
                "conflicts": len(conflicts), "not_comparable": len(differing),
                "scope": scope, "metric": claim.metric or "", "kind": claim.kind,
                "role": claim.role,
                "_side": {"evidence": evidence, "vars": {
                    "other": other.surface, "other_value": other.surface, "where": where,
                    "facet": facet, "subject": claim.subject or ""}},
            })
            yield fact


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
