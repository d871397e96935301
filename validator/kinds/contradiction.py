"""Contradiction kind (CV3xx): the same figure for the same thing, stated two ways.

Claims are grouped by claim key ``(metric, subject, baseline)`` in Python (the
document's groups, and the corpus's distinct statements of the same key) — never an
all-pairs join. Two figures conflict when their values disagree beyond the tolerance
their written precision allows (ranges as intervals, approximations widened) AND their
conditions are compatible: both state a setup, they share at least one facet, and no
shared facet differs. A figure without conditions borrows those of the same figure
stated with conditions elsewhere in its document (a headline restating an entry).
Before/after sides of a change and same-line lists are compared position by position.

When a shared facet differs the pair is "not comparable" — counted only against this
document and the sources the figure cites (across a whole corpus, other setups are the
norm, not news). A figure that agrees with the source it cites is not blamed for a
corpus file that disagrees: that file is reported when it is checked.

One fact per figure that has a same-key partner: ``conflicts`` counts conflicting
statements, ``not_comparable`` the statements that differ under other conditions.
Within a document only the later figure of a pair gets the fact (one finding per
contradiction).
"""
from __future__ import annotations

import os

from ..facts import base_fact, compare_conditions, evidence_of, statements, values_agree

NAME = "contradiction.figure"
FAMILY = "contradiction"
PARAMS = {"roles": list, "approx_rel": float, "scopes": list, "max_evidence": int}
DEFAULTS = {"roles": ["body", "header", "summary"], "approx_rel": 0.1,
            "scopes": ["document", "corpus"], "max_evidence": 5}
FIELDS = {"conflicts": int, "not_comparable": int, "scope": str, "metric": str, "kind": str,
          "role": str}
WHEN = {"field": "conflicts", "gt": 0}
VARS = {"other", "where", "facet", "subject", "other_value"}

_FACETS = {"zh": {"hardware": "硬件", "model": "模型", "workload": "负载", "dataset": "数据集",
                  "concurrency": "并发", "precision": "精度", "context_length": "上下文长度",
                  "batch_size": "batch size"}}


def _judge(mine, theirs, approx_rel):
    """'conflict' | 'differ' (with facets) | None for two statements of one key."""
    if mine.phase != theirs.phase or not mine.conds or not theirs.conds:
        return None, ()
    if values_agree(mine.claim, theirs.claim, approx_rel) is not False:
        return None, ()
    shared_eq, differ = compare_conditions(mine.conds, theirs.conds)
    if differ:
        return "differ", differ
    if shared_eq >= 1:
        return "conflict", ()
    return None, ()


def _cited(ctx, claim) -> set:
    """Real paths of the claim's cited sources that resolve in the corpus."""
    return {os.path.realpath(p) for p, _ in ctx.cited_analyses(claim)}


def _doc_cited(ctx) -> set:
    """Real paths of every source the document cites anywhere (sources table included)."""
    cached = getattr(ctx, "_caveat_doc_cited", None)
    if cached is None:
        cached = set()
        if ctx.corpus is not None:
            for s in ctx.document.sources or ():
                if getattr(s, "kind", "") == "path":
                    p = ctx.corpus.resolve(s.ref, ctx.path)
                    if p:
                        cached.add(os.path.realpath(p))
        ctx._caveat_doc_cited = cached
    return cached


def facts(rule, ctx):
    roles = set(rule.params.get("roles") or ())
    approx_rel = float(rule.params.get("approx_rel", 0.1))
    scopes = set(rule.params.get("scopes") or ())
    max_ev = int(rule.params.get("max_evidence", 5))
    lang = ctx.lang
    mine_all = statements(ctx.analysis, approx_rel)
    here = os.path.realpath(ctx.path)
    corpus = ctx.corpus if "corpus" in scopes else None

    def short(p):
        return ctx.corpus.short(p) if ctx.corpus is not None else p

    def disp(p):
        return ctx.corpus.display_path(p) if ctx.corpus is not None else p

    for key, group in ctx.groups().items():
        in_scope = [c for c in group if c.role in roles]
        if not in_scope:
            continue
        ext = corpus.statement_groups(key, approx_rel) if corpus is not None else []
        for i, claim in enumerate(in_scope):
            mine = mine_all.get(id(claim))
            if mine is None or not mine.conds:
                continue          # the setup is unknown: nothing can be said
            # (rank, path, claim, kind, facets); rank orders the evidence: cited source first
            found = []
            if "document" in scopes:
                for other in in_scope[:i]:
                    # figures of one line with one key are a deliberate list, not two statements
                    if other.line == claim.line:
                        continue
                    verdict, dif = _judge(mine, mine_all[id(other)], approx_rel)
                    if verdict:
                        found.append((1, ctx.path, other, verdict, dif))
            cited = _cited(ctx, claim) if ext else set()
            if ext and cited:
                supported = False
                for st, members in ext:
                    if any(r in cited for _, r, _ in members) and st.phase == mine.phase \
                            and values_agree(claim, st.claim, approx_rel) \
                            and not compare_conditions(mine.conds, st.conds)[1]:
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
            for st, members in ext_here:
                others = [(p, r, c) for p, r, c in members if r != here]
                if not others:
                    continue
                verdict, dif = _judge(mine, st, approx_rel)
                if not verdict:
                    continue
                in_cited = [m for m in others if m[1] in cited]
                if verdict == "differ" and not in_cited:
                    continue      # other setups elsewhere in the corpus are not news
                p, r, c = (in_cited or others)[0]
                rank = 0 if in_cited else 2 if r in doc_cited else 3
                found.append((rank, p, c, verdict, dif))
            conflicts = sorted((f for f in found if f[3] == "conflict"), key=lambda f: f[0])
            differing = sorted((f for f in found if f[3] == "differ"), key=lambda f: f[0])
            if not conflicts and not differing:
                continue
            rank, path, other, _, dif = (conflicts or differing)[0]
            facet = "" if conflicts else ", ".join(_FACETS.get(lang, {}).get(f, f) for f in dif)
            where = (f"第 {other.line} 行" if lang == "zh" else f"line {other.line}") \
                if path == ctx.path else f"{short(path)}:{other.line}"
            note_c = "conflicting figure" if lang == "en" else "矛盾的数字"
            note_d = "figure under other conditions" if lang == "en" else "条件不同的数字"
            evidence = [evidence_of(o, note_c, disp(p) if p != ctx.path else p)
                        for _, p, o, _, _ in conflicts[:max_ev]] + \
                       [evidence_of(o, note_d, disp(p) if p != ctx.path else p)
                        for _, p, o, _, _ in differing[:max(0, max_ev - len(conflicts))]]
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
