"""Precondition kind (CV1xx): a performance figure cited without the setup it depends on.

One fact per figure whose metric has a policy (``params.required``: metric -> facets
it needs, e.g. ``throughput: [hardware, model]``) or that is marked conditional
(条件性 / conditional). ``missing_count`` counts required facets the figure's
conditions lack; ``present_count`` counts all facets it has. When the same figure
for the same subject is stated elsewhere — in this document or the corpus — with the
missing conditions, the fact carries that place as evidence and the message says where.

Two kinds share that reading (``KINDS``):

- ``precondition.missing_facets`` (CV101, CV102): one fact per figure. ``stated_missing_count``
  counts the missing facets the document states elsewhere (or a cited corpus source, or a
  corpus statement of the same figure states): the figure left out a setup its author knew.
- ``precondition.document_without_setup`` (CV103): a facet the document states nowhere is
  one problem of the document, not of each figure: one fact per document and set of such
  facets, at the first figure, naming how many figures depend on it.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache, partial

from ..facts import base_fact, claim_key, conditions_of, evidence_of, values_agree
from ..limits import MAX_EVIDENCE_CANDIDATES

NAME = "precondition.missing_facets"
FAMILY = "precondition"
ACKNOWLEDGEABLE = True  # a warnings-section entry may acknowledge these findings
PARAMS = {"required": dict, "roles": list, "approx_rel": float, "kinds": list,
          "max_latency_seconds": float, "min_memory_bytes": float, "metric_kinds": dict,
          "size_words": list}
DEFAULTS = {"roles": ["body", "header", "summary"], "approx_rel": 0.1,
            "kinds": ["percent", "percentage_point", "ratio", "throughput", "latency", "duration",
                      "memory"],
            "max_latency_seconds": 60.0, "min_memory_bytes": 1e9, "metric_kinds": {},
            "size_words": []}
FIELDS = {"metric": str, "kind": str, "role": str, "required_count": int, "missing_count": int,
          "present_count": int, "conditional": bool, "has_evidence": bool,
          "stated_missing_count": int, "unstated_count": int}
WHEN = {"all": [{"field": "missing_count", "gt": 0}, {"field": "conditional", "eq": False}]}
VARS = {"subject", "metric_name", "missing", "where", "evidence_path", "evidence_line"}

FACET_NAMES = {
    "zh": {"hardware": "硬件", "model": "模型", "workload": "负载", "dataset": "数据集",
           "concurrency": "并发", "precision": "精度", "context_length": "上下文长度",
           "batch_size": "batch size"},
    "en": {"hardware": "hardware", "model": "model", "workload": "workload", "dataset": "dataset",
           "concurrency": "concurrency", "precision": "precision",
           "context_length": "context length", "batch_size": "batch size"},
}
METRIC_NAMES = {
    "zh": {"throughput": "吞吐", "throughput_lead": "领先幅度", "speedup": "加速比", "latency": "延迟",
           "latency_p99": "P99 延迟", "ttft": "首 token 延迟", "tpot": "每 token 延迟",
           "hit_rate": "命中率", "memory": "显存/内存占用"},
    "en": {"throughput": "throughput", "throughput_lead": "lead", "speedup": "speedup",
           "latency": "latency", "latency_p99": "P99 latency", "ttft": "time to first token",
           "tpot": "time per output token", "hit_rate": "hit rate", "memory": "memory"},
}


def _facet_name(f, lang):
    names = [FACET_NAMES[lang].get(x, x) for x in f.split("|")]
    return ("或" if lang == "zh" else " or ").join(names)


def _join(items, lang):
    return ("、" if lang == "zh" else ", ").join(items)


def _with_conditions(ctx, key) -> list:
    """The document's claims of ``key`` that state any condition: only they can be
    evidence. Cached per document, so bare restatements of one key cost no pairs."""
    cache = ctx.__dict__.setdefault("_precondition_conditioned", {})
    if key not in cache:
        cache[key] = [c for c in ctx.groups().get(key, []) if conditions_of(c)]
    return cache[key]


def _find_evidence(claim, key, missing, ctx, approx_rel):
    """Best other statement of the same figure that has (some of) the missing facets:
    same key, values agreeing; this document first, then the corpus (one look per
    distinct corpus statement, not per file)."""
    if not key or not missing:
        return None

    def same_figure(other):
        # '<1s' agrees with any sub-second figure: a bound is not "the same figure"
        return (other.bound or None) == (claim.bound or None) and \
            values_agree(other, claim, approx_rel) is True

    def score(conds):
        return sum(1 for f in missing if any(alt in conds for alt in f.split("|")))

    best, best_score = None, 0
    for c in _with_conditions(ctx, key)[:MAX_EVIDENCE_CANDIDATES]:
        if c is not claim and same_figure(c):
            sc = score(conditions_of(c))
            if sc > best_score:
                best, best_score = (ctx.path, c), sc
                if sc == len(missing):
                    break
    if best is None and ctx.corpus is not None:
        here = os.path.realpath(ctx.path)
        best_rank = (0, 0)
        for st, members in ctx.corpus.statement_groups(key, approx_rel):
            others = [(p, c) for p, r, c in members if r != here]
            if not others or not same_figure(st.claim):
                continue
            # effective conditions count (a restatement borrowing its entry's setup), but the
            # evidence should point at a statement that writes the conditions itself
            own = max(others, key=lambda pc: score(conditions_of(pc[1])))
            sc = (score(st.conds or conditions_of(own[1])), score(conditions_of(own[1])))
            if sc > best_rank:
                best, best_rank = own, sc
    return best


def _seconds(claim) -> float:
    v = claim.base_value if claim.base_value is not None else claim.base_low
    return abs(v) if v is not None and claim.base_unit == "second" else 0.0


@lru_cache(maxsize=32)
def _words_rx(words):
    if not words:
        return None
    return re.compile(r"\s*(?:的\s*)?(?:%s)" % "|".join(re.escape(w) for w in words), re.IGNORECASE)


def _bytes(claim) -> float:
    v = claim.base_value if claim.base_value is not None else claim.base_high
    return abs(v) if v is not None and claim.base_unit in ("byte", "bit") else float("inf")


def _doc_facets(ctx) -> dict:
    """facet -> (line, surface) of the first mention of its most named value anywhere in the
    document (outside code, URLs and other masked text): 'H100' named four times, not the
    'H20' a paragraph mentions once."""
    def compute():
        from claims.conditions import find_conditions
        doc = ctx.document
        seen = {}      # facet -> {value: [count, line, surface]}
        for b in doc.blocks:
            masked = b.masked or ()
            for facet, v, s, _e, sf in find_conditions(doc.text, b.start, b.end):
                if any(a <= s < z for a, z in masked):
                    continue
                key = re.sub(r"^\d+\s*[×x]\s*", "", str(v)).lower()    # '2×H100' is H100
                slot = seen.setdefault(facet, {}).setdefault(key, [0, doc.line_col(s)[0], sf])
                slot[0] += 1
        out = {f: tuple(max(vals.values(), key=lambda x: (x[0], -x[1]))[1:]) for f, vals in seen.items()}
        for c in ctx.analysis.claims:      # what the context pass gave figures (setup lines …)
            for f, cond in (c.conditions or {}).items():
                if f not in out and f in conditions_of(c):
                    line = cond.get("line") if isinstance(cond, dict) else getattr(cond, "line", 0)
                    sf = cond.get("surface") if isinstance(cond, dict) else getattr(cond, "surface", "")
                    out[f] = (line or c.line, sf or "")
        return out
    return ctx.memo(("precondition.doc_facets",), compute)


_CHAPTER = re.compile(r"^\s*(?:\d{1,3}|[一二三四五六七八九十]{1,3})\s*[.、．]")


def _is_digest(doc) -> bool:
    """A digest gathers figures from many sources — entries that cite their own sources, or
    several top-level titles that are not numbered chapters ('vLLM 动态日报', 'SGLang 动态日报'):
    each figure must carry its own setup. A post about one thing states its setup once."""
    # a blog post's numbered sections link PRs inline; a digest's entries cite where each came
    # from ('来源：inbox/…', 'Sources: …', a file or an arXiv id)
    cited = sum(1 for e in doc.entries
                if any(getattr(s, "kind", "url") != "url" or getattr(s, "origin", "") == "line"
                       for s in e.sources or ()))
    if cited >= 2:
        return True
    h1 = [sec for sec in doc.sections if sec.level == 1]
    parts = [sec for sec in h1 if not _CHAPTER.match(sec.title)]
    return len(parts) >= 3 and len(parts) * 2 > len(h1)


def _cited_facets(ctx, claim) -> set:
    """Facets the claim's cited corpus sources state for any of their figures."""
    out = set()
    for path, an in ctx.cited_analyses(claim):
        def compute(an=an):
            fs = set()
            for c in an.claims:
                fs.update(conditions_of(c))
            return fs
        out |= ctx.memo(("precondition.cited_facets", path), compute)
    return out


def _assess(rule, ctx):
    """[(claim, need, missing, stated_missing, unstated, conds, conditional, ev)] for every
    figure the rule's params make a performance figure (computed once per params)."""
    required = rule.params.get("required") or {}
    roles = set(rule.params.get("roles") or ())
    approx_rel = float(rule.params.get("approx_rel", 0.1))
    kinds = set(rule.params.get("kinds") or ())
    max_lat = float(rule.params.get("max_latency_seconds", 60.0))
    min_mem = float(rule.params.get("min_memory_bytes", 1e9))
    metric_kinds = rule.params.get("metric_kinds") or {}
    size_rx = _words_rx(tuple(rule.params.get("size_words") or ()))
    text = ctx.document.text
    digest = _is_digest(ctx.document)
    out = []
    for claim in ctx.analysis.claims:
        if claim.role not in roles:
            continue
        if claim.kind in ("latency", "duration") and _seconds(claim) > max_lat:
            continue      # hours of training data, a 10-minute window: not a request latency
        if claim.kind == "memory" and _bytes(claim) < min_mem:
            continue      # '8 bytes per entry', '339 KB per token': sizes, not a footprint
        if claim.kind not in kinds:
            continue      # counts, model sizes, prices: not performance figures
        allowed = metric_kinds.get(claim.metric or "")
        if allowed and claim.kind not in allowed:
            continue      # 'TPOT measured at 32 QPS': a load level, not a TPOT figure
        if claim.kind == "memory" and size_rx is not None and size_rx.match(text, claim.end):
            continue      # '3.4 GB 模型', '16 GB 显卡': a file or card size, not a footprint
        markers = ctx.markers_of(claim)
        conditional = "conditional" in markers
        need = list(required.get(claim.metric or "", ()) or ())
        if not need and not conditional:
            continue
        conds = conditions_of(claim)
        # 'model|hardware': either facet satisfies the requirement (a memory figure next to a
        # GPU is its capacity, next to a model its footprint)
        missing = [f for f in need if not any(alt in conds for alt in f.split("|"))]
        key = claim_key(claim)
        ev = _find_evidence(claim, key, missing, ctx, approx_rel) if missing else None
        stated, unstated = [], []
        if missing:
            known = set(_doc_facets(ctx))
            if ev is None and not all(any(a in known for a in f.split("|")) for f in missing):
                known = known | _cited_facets(ctx, claim)
            given = conditions_of(ev[1]) if ev is not None else {}
            for f in missing:
                # evidence for the same figure states this facet: the author had it at hand.
                # In a digest, a facet named elsewhere belongs to another entry's source: each
                # figure must say its own.  In a post about one thing, a facet named only in
                # some places is still one gap of the document (CV103), not one per figure.
                alts = f.split("|")
                if any(a in given for a in alts) or (digest and any(a in known for a in alts)):
                    stated.append(f)
                else:
                    unstated.append(f)
        out.append((claim, need, missing, stated, unstated, conds, conditional, ev))
    return out


def _assessed(rule, ctx):
    p = rule.params
    key = ("precondition.assess", repr(sorted((k, repr(v)) for k, v in p.items())))
    return ctx.memo(key, lambda: _assess(rule, ctx))


def _side(ctx, claim, need, missing, stated, ev):
    """Evidence and message variables of one figure's fact (made only when it fires)."""
    lang = ctx.lang
    evidence, where, ev_path, ev_line = [], "", "", 0
    if ev is not None:
        path, c = ev
        note = "states the conditions" if lang == "en" else "给出了条件"
        if ctx.corpus is not None and path != ctx.path:
            shown, short = ctx.corpus.display_path(path), ctx.corpus.short(path)
        else:
            shown = short = path
        # the line stating the first missing facet (hardware before workload, as required)
        line = c.line
        for f in (alt for m in missing for alt in m.split("|")):
            cond = (c.conditions or {}).get(f)
            if cond is not None:
                line = (cond.get("line") if isinstance(cond, dict) else getattr(cond, "line", 0)) or c.line
                break
        evidence.append(evidence_of(c, note, shown))
        if line != c.line:  # where the conditions themselves are written
            evidence.append({"path": shown, "line": line, "col": 1, "surface": "",
                             "note": note})
        ev_path, ev_line = shown, line
        if path == ctx.path:
            where = (f"；第 {line} 行给出了条件" if lang == "zh"
                     else f"; the conditions are stated at line {line}")
        else:
            where = (f"；{short}:{line} 给出了条件" if lang == "zh"
                     else f"; {short}:{line} states the conditions")
    # the message names what this figure could have said: facets the document states
    # elsewhere (the ones it states nowhere are CV103's, once per document)
    named = stated or missing or need
    return {"evidence": evidence, "vars": {
        "subject": claim.subject or "",
        "metric_name": METRIC_NAMES[lang].get(claim.metric or "", claim.metric or ""),
        "missing": _join([_facet_name(f, lang) for f in named], lang)
        or ("条件" if lang == "zh" else "its condition"),
        "where": where, "evidence_path": ev_path, "evidence_line": ev_line,
    }}


def facts(rule, ctx):
    for claim, need, missing, stated, unstated, conds, conditional, ev in _assessed(rule, ctx):
        fact = base_fact(claim, ctx.document)
        fact.update({
            "metric": claim.metric or "", "kind": claim.kind, "role": claim.role,
            "required_count": len(need), "missing_count": len(missing),
            "present_count": len(conds), "conditional": conditional,
            "has_evidence": ev is not None,
            "stated_missing_count": len(stated), "unstated_count": len(unstated),
            # one fact per performance figure, few of which fire: their messages are made then
            "_side": partial(_side, ctx, claim, need, missing, stated, ev),
        })
        yield fact


class MissingFacets:
    """CV101 / CV102: one fact per performance figure."""
    NAME = NAME
    PARAMS = PARAMS
    DEFAULTS = DEFAULTS
    FIELDS = FIELDS
    WHEN = WHEN
    VARS = VARS
    facts = staticmethod(facts)


# How many other figures a CV103 finding lists as evidence.
_MAX_LISTED = 5


def document_facts(rule, ctx):
    """One fact per set of required facets the document states nowhere, at its first figure."""
    lang = ctx.lang
    groups = {}
    for claim, need, missing, stated, unstated, conds, conditional, ev in _assessed(rule, ctx):
        if unstated and not conditional:
            groups.setdefault(tuple(unstated), []).append(claim)
    note = "also depends on it" if lang == "en" else "同样缺少该条件"
    for facets, claims in groups.items():
        claims = sorted(claims, key=lambda c: (c.line, c.col))
        first = claims[0]
        metrics = []
        for c in claims:
            m = METRIC_NAMES[lang].get(c.metric or "", c.metric or "")
            if m and m not in metrics:
                metrics.append(m)
        # a facet the document names somewhere, but not for these figures: say where
        known = _doc_facets(ctx)
        named = [(f, known[a]) for f in facets for a in f.split("|") if a in known]
        if not named:
            how = "全文未给出" if lang == "zh" else "The document never states the"
            note_where = ""
        else:
            line, sf = named[0][1]
            sf = " ".join(str(sf).split())     # a name broken over a table row's lines: one line
            how = "未说明适用的" if lang == "zh" else "No figure-level"
            note_where = (f"（第 {line} 行提到 {sf}，但未说明是否适用于这些数字）" if lang == "zh"
                          else f" (line {line} names {sf} but does not say it applies to them)")
        fact = base_fact(first, ctx.document)
        fact.update({
            "figure_count": len(claims), "facet_count": len(facets),
            "stated_elsewhere": bool(named),
            "metric": first.metric or "", "kind": first.kind, "role": first.role,
            "_side": {
                "evidence": [evidence_of(c, note, ctx.path) for c in claims[1:1 + _MAX_LISTED]],
                "vars": {
                    "missing": _join([_facet_name(f, lang) for f in facets], lang),
                    "count": str(len(claims)),
                    "metrics": _join(metrics[:4], lang),
                    "others": str(len(claims) - 1),
                    "how": how, "where": note_where,
                }},
        })
        yield fact


class DocumentWithoutSetup:
    """CV103: a required facet the document (and its cited corpus sources) state nowhere."""
    NAME = "precondition.document_without_setup"
    PARAMS = PARAMS
    DEFAULTS = DEFAULTS
    FIELDS = {"figure_count": int, "facet_count": int, "metric": str, "kind": str, "role": str,
              "stated_elsewhere": bool}
    WHEN = {"all": [{"field": "figure_count", "gt": 0}]}
    VARS = {"missing", "count", "metrics", "others", "how", "where"}
    facts = staticmethod(document_facts)


KINDS = [MissingFacets, DocumentWithoutSetup]
