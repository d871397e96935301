"""Unverified kinds (CV2xx): figures the briefing itself cannot vouch for.

- ``unverified.marked``: one fact per figure carrying (directly or through its entry)
  an unverified or hedged marker (待核实, 未经精读, unverified, TBD, 声称…). Whether the
  warnings section covers it is decided afterwards (acknowledgement).
- ``unverified.source_check``: one fact per figure whose entry cites source files that
  resolve in the corpus; ``found`` says whether any of them states the same value
  (normalized, with the tolerance its written precision allows).
- ``unverified.credibility``: one fact per figure whose sources are all rated low
  (star ratings at or below ``max_stars``, or rated ``参考``) or taken from an abstract only.
"""
from __future__ import annotations

from types import SimpleNamespace

from ..facts import base_fact, claim_key, derivable, evidence_of, values_agree

FAMILY = "unverified"
ACKNOWLEDGEABLE = True  # a warnings-section entry may acknowledge these findings

_FIGURE_KINDS = ["percent", "percentage_point", "ratio", "throughput", "latency", "duration",
                 "memory", "bandwidth", "currency", "compute"]


def _src(s, attr, default=None):
    return s.get(attr, default) if isinstance(s, dict) else getattr(s, attr, default)


def _marked_facts(rule, ctx):
    roles = set(rule.params.get("roles") or ())
    lang = ctx.lang
    for claim in ctx.analysis.claims:
        if claim.role not in roles:
            continue
        markers = ctx.markers_of(claim)
        marker = ("unverified" if "unverified" in markers else
                  "hedged" if "hedged" in markers else "")
        if not marker:
            continue
        fact = base_fact(claim, ctx.document)
        fact.update({"marker": marker, "role": claim.role, "kind": claim.kind,
                     "_side": {"vars": {"marker_name": _MARKER_NAMES[lang][marker]}}})
        yield fact


_MARKER_NAMES = {"zh": {"unverified": "待核实", "hedged": "未证实的说法"},
                 "en": {"unverified": "unverified", "hedged": "hedged"}}


def _source_facts(rule, ctx):
    if ctx.corpus is None:
        return
    roles = set(rule.params.get("roles") or ())
    kinds = set(rule.params.get("kinds") or ())
    approx_rel = float(rule.params.get("approx_rel", 0.1))
    lang = ctx.lang
    derived = ctx.gap_claims()
    for i, claim in enumerate(ctx.analysis.claims):
        if claim.role not in roles or claim.kind not in kinds:
            continue
        cited = ctx.cited_analyses(claim)
        if not cited:
            continue
        found = None
        key = claim_key(claim)
        same_key = bool(key) and any(claim_key(c) == key for _, a in cited for c in a.claims)
        for path, a in cited:
            for c in a.claims:
                if values_agree(c, claim, approx_rel):
                    found = (path, c)
                    break
            if found:
                break
        is_derived = i in derived or (claim.metric in ("gap",) and claim.comparison is not None)
        if not found and not is_derived:
            # a gap or lead computed from two figures the source does state
            is_derived = any(derivable(claim, a.claims, approx_rel) for _, a in cited)
        names = [ctx.corpus.display_path(p) for p, _ in cited]
        short = [ctx.corpus.short(p) for p, _ in cited]
        fact = base_fact(claim, ctx.document)
        fact.update({
            "checked_sources": len(cited), "found": found is not None, "derived": bool(is_derived),
            "same_key_in_source": same_key,
            "role": claim.role, "kind": claim.kind,
            "_side": {
                "evidence": ([evidence_of(found[1], "cited source states it",
                                          ctx.corpus.display_path(found[0]))] if found else
                             [{"path": n, "line": 1, "col": 1, "surface": "",
                               "note": "cited source" if lang == "en" else "引用的来源"}
                              for n in names]),
                "vars": {"sources": (" + " if lang == "zh" else ", ").join(short)}},
        })
        yield fact


def _credibility_facts(rule, ctx):
    roles = set(rule.params.get("roles") or ())
    kinds = set(rule.params.get("kinds") or ())
    max_stars = int(rule.params.get("max_stars", 2))
    low_texts = {t.strip() for t in rule.params.get("low_texts") or ()}
    lang = ctx.lang
    # ratings live in the sources table; entries cite the same refs without them
    ratings = {}
    for s in ctx.document.sources or ():
        ref = (_src(s, "ref", "") or "").strip().strip("`")
        if _src(s, "rating") is not None or _src(s, "rating_text"):
            ratings[ref] = (_src(s, "rating"), (_src(s, "rating_text") or "").strip())
    for claim in ctx.analysis.claims:
        if claim.role not in roles or claim.kind not in kinds:
            continue
        markers = ctx.markers_of(claim)
        abstract = "abstract_only" in markers
        srcs = []
        for s in claim.sources or ():
            ref = (_src(s, "ref", "") or "").strip().strip("`")
            rating, text = _src(s, "rating"), (_src(s, "rating_text") or "").strip()
            if rating is None and not text and ref in ratings:
                rating, text = ratings[ref]
            srcs.append((ref, rating, text))
        rated = [s for s in srcs if s[1] is not None or s[2]]
        low = bool(srcs) and len(rated) == len(srcs) and all(
            (r is not None and r <= max_stars) or (t in low_texts) for _, r, t in rated)
        if not (low or abstract):
            continue
        why = []
        if abstract:
            why.append("数字来自摘要" if lang == "zh" else "taken from an abstract only")
        if low:
            desc = ", ".join(f"{ref} ({t or ('★' * r)})" for ref, r, t in srcs)
            why.append(("唯一来源可信度低：" if lang == "zh" else "its only sources are rated low: ") + desc)
        fact = base_fact(claim, ctx.document)
        fact.update({"low_source": low, "abstract_only": abstract, "source_count": len(srcs),
                     "role": claim.role, "kind": claim.kind,
                     "_side": {"vars": {"reason": ("；" if lang == "zh" else "; ").join(why)}}})
        yield fact


Marked = SimpleNamespace(
    NAME="unverified.marked",
    PARAMS={"roles": list}, DEFAULTS={"roles": ["body", "header", "summary"]},
    FIELDS={"marker": str, "role": str, "kind": str},
    WHEN={"field": "marker", "eq": "unverified"}, VARS={"marker_name"},
    facts=_marked_facts)

SourceCheck = SimpleNamespace(
    NAME="unverified.source_check",
    PARAMS={"roles": list, "kinds": list, "approx_rel": float},
    DEFAULTS={"roles": ["body", "header", "summary"], "kinds": _FIGURE_KINDS, "approx_rel": 0.1},
    FIELDS={"checked_sources": int, "found": bool, "derived": bool, "same_key_in_source": bool,
            "role": str, "kind": str},
    # a source stating the same metric for the same subject with another value is a
    # contradiction (CV3xx), not a missing figure: one finding per problem
    WHEN={"all": [{"field": "checked_sources", "gt": 0}, {"field": "found", "eq": False},
                  {"field": "derived", "eq": False}, {"field": "same_key_in_source", "eq": False}]},
    VARS={"sources"}, facts=_source_facts)

Credibility = SimpleNamespace(
    NAME="unverified.credibility",
    PARAMS={"roles": list, "kinds": list, "max_stars": int, "low_texts": list},
    DEFAULTS={"roles": ["body", "header", "summary"], "kinds": _FIGURE_KINDS, "max_stars": 2,
              "low_texts": ["参考"]},
    FIELDS={"low_source": bool, "abstract_only": bool, "source_count": int, "role": str,
            "kind": str},
    WHEN={"any": [{"field": "low_source", "eq": True}, {"field": "abstract_only", "eq": True}]},
    VARS={"reason"}, facts=_credibility_facts)

KINDS = [Marked, SourceCheck, Credibility]
