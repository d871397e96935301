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

import bisect
from collections import Counter

import os
from functools import partial

from ..arith import admitted
from ..facts import base_fact, claim_key, conditions_of, evidence_of, values_agree
from ..limits import MAX_EVIDENCE_CANDIDATES

NAME = "precondition.missing_facets"
FAMILY = "precondition"
ACKNOWLEDGEABLE = True  # a warnings-section entry may acknowledge these findings
PARAMS = {"required": dict, "roles": list, "approx_rel": float, "kinds": list,
          "max_latency_seconds": float, "min_memory_bytes": float, "metric_kinds": dict}
DEFAULTS = {"roles": ["body", "header", "summary"], "approx_rel": 0.1,
            "kinds": ["percent", "percentage_point", "ratio", "throughput", "latency", "duration",
                      "memory"],
            "max_latency_seconds": 60.0, "min_memory_bytes": 1e9, "metric_kinds": {}}
FIELDS = {"metric": str, "kind": str, "role": str, "required_count": int, "missing_count": int,
          "present_count": int, "conditional": bool, "has_evidence": bool,
          "stated_missing_count": int, "unstated_count": int,
          # the document gathers many sources (each figure must carry its own setup), or the
          # figure reports another experiment than the document's own (a quick test, a paper)
          "digest": bool, "other_experiment": bool}
WHEN = {"all": [{"field": "missing_count", "gt": 0}, {"field": "conditional", "eq": False}]}
VARS = {"subject", "metric_name", "missing", "where", "evidence_path", "evidence_line"}

_STAND_INS = ("platform", "shape")
FACET_NAMES = {
    "zh": {"hardware": "硬件", "model": "模型", "workload": "负载", "dataset": "数据集",
           "concurrency": "并发", "precision": "精度", "context_length": "上下文长度",
           "batch_size": "batch size", "platform": "平台", "shape": "形状"},
    "en": {"hardware": "hardware", "model": "model", "workload": "workload", "dataset": "dataset",
           "concurrency": "concurrency", "precision": "precision",
           "context_length": "context length", "batch_size": "batch size", "platform": "platform",
           "shape": "shape"},
}
METRIC_NAMES = {
    "zh": {"throughput": "吞吐", "throughput_lead": "领先幅度", "speedup": "加速比", "latency": "延迟",
           "latency_p99": "P99 延迟", "ttft": "首 token 延迟", "tpot": "每 token 延迟",
           "hit_rate": "命中率", "memory": "显存/内存占用", "capacity": "容量", "load_time": "加载时间",
           "energy_per_token": "每 token 能耗"},
    "en": {"throughput": "throughput", "throughput_lead": "lead", "speedup": "speedup",
           "latency": "latency", "latency_p99": "P99 latency", "ttft": "time to first token",
           "tpot": "time per output token", "hit_rate": "hit rate", "memory": "memory",
           "capacity": "capacity", "load_time": "load time", "energy_per_token": "energy per token"},
}


def _stand_ins(doc) -> tuple:
    """Facets that satisfy a requirement but are not what a message asks for. In a post that
    measures a kernel (``Document.topic``) the problem shape is what its figures depend on, and
    a model only stands in for it."""
    return ("platform", "model") if doc.topic == "kernel" else _STAND_INS


def _facet_name(f, lang, stand_ins=_STAND_INS):
    # 'hardware|platform': a platform stands in for the hardware, the message asks for the
    # hardware; 'model|shape': a kernel's shape stands in for the model, the message asks for it
    alts = [x for x in f.split("|") if x not in stand_ins] or f.split("|")
    names = [FACET_NAMES[lang].get(x, x) for x in alts]
    return ("或" if lang == "zh" else " or ").join(names)


def _asked(f: str, stand_ins=_STAND_INS) -> str:
    """The facets of ``f`` a message asks for ('hardware|platform' -> 'hardware')."""
    return "|".join(x for x in f.split("|") if x not in stand_ins) or f


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

    # the candidates that state this figure, with their scores, are the same for every
    # statement of it written alike: computed once per written figure (a document repeating
    # one figure hundreds of times compared each with up to MAX_EVIDENCE_CANDIDATES others)
    fig = (key, approx_rel, tuple(missing), claim.base_unit, claim.kind, claim.value, claim.low,
           claim.high, claim.base_value, claim.base_low, claim.base_high, claim.decimals,
           bool(claim.approx), claim.bound or None, claim.surface)
    cache = ctx.__dict__.setdefault("_precondition_evidence", {})
    scored = cache.get(fig)
    if scored is None:
        scored = cache[fig] = [(c, score(conditions_of(c)))
                               for c in _with_conditions(ctx, key)[:MAX_EVIDENCE_CANDIDATES]
                               if same_figure(c)]
    best, best_score = None, 0
    for c, sc in scored:
        if c is not claim and sc > best_score:
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


def _bytes(claim) -> float:
    v = claim.base_value if claim.base_value is not None else claim.base_high
    return abs(v) if v is not None and claim.base_unit in ("byte", "bit") else float("inf")


def _doc_facets(ctx) -> dict:
    """facet -> (line, surface) the document names anywhere (read by claims)."""
    return ctx.analysis.named_facets()


def _in_body(ctx, claim) -> bool:
    """Is the same figure, as written, also stated in the body of the document?"""
    def index():
        return {(c.kind, c.value, c.low, c.high, c.unit) for c in ctx.analysis.claims
                if c.role == "body" and c.nature == "result"}
    return (claim.kind, claim.value, claim.low, claim.high, claim.unit) in ctx.memo(("precondition.body",), index)


def _restated_with(ctx, claim, approx_rel) -> set:
    """Facets another statement of the same figure in this document gives (a post's headline
    restated in its results table with the setup): the figure is not missing them.  Within
    one post a value of the same kind is the same figure; the key (subject, metric) is not
    required, since a headline and a table cell name them differently."""
    def index():
        # built once per document: looking through every figure of a kind for each figure was
        # quadratic (a 32 KB line of one repeated statement took 2 s here). Facets are counted,
        # so that a figure's own can be taken out of what the others give.
        exact, points = {}, {}
        for c in ctx.analysis.claims:
            if c.nature != "result":
                continue
            conds = conditions_of(c)
            if not conds:
                continue
            k = (c.kind, c.value, c.low, c.high, c.unit, c.bound or None)
            exact.setdefault(k, Counter()).update(conds.keys())
            if c.value is not None and not c.bound:
                points.setdefault((c.kind, c.unit), {}).setdefault(c.value, Counter()).update(conds.keys())
        sorted_points = {ku: (sorted(vals), vals) for ku, vals in points.items()}
        return exact, sorted_points
    exact, points = ctx.memo(("precondition.restated_index",), index)
    own = set(conditions_of(claim)) if claim.nature == "result" else set()

    def others(counter, mine: bool) -> set:
        # the facets of the other figures counted in ``counter`` (``mine``: the claim is one of them)
        return {f for f, n in counter.items() if n - (1 if mine and f in own else 0) > 0}
    key = (claim.kind, claim.value, claim.low, claim.high, claim.unit, claim.bound or None)
    out = set()
    if key in exact:
        out |= others(exact[key], bool(own))
    # a headline rounds the figure it restates ('up to 2.7×' of a table's 2.71x): a point
    # figure is the same as another point figure of its unit that its written digits admit,
    # read without its 'up to' (a larger or smaller figure is another one)
    near = admitted(claim, 0.0, use_base=False, bounds=False) \
        if claim.value is not None and claim.bound in (None, "", "le") else None
    if near is not None and (claim.kind, claim.unit) in points:
        values, counters = points[(claim.kind, claim.unit)]
        k = bisect.bisect_left(values, near[0])
        while k < len(values) and values[k] <= near[1]:
            v = values[k]
            out |= others(counters[v], bool(own) and not claim.bound and v == claim.value)
            k += 1
    return out


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
    performance result the rule's params require conditions of (computed once per params)."""
    required = rule.params.get("required") or {}
    roles = set(rule.params.get("roles") or ())
    approx_rel = float(rule.params.get("approx_rel", 0.1))
    kinds = set(rule.params.get("kinds") or ())
    max_lat = float(rule.params.get("max_latency_seconds", 60.0))
    min_mem = float(rule.params.get("min_memory_bytes", 1e9))
    metric_kinds = rule.params.get("metric_kinds") or {}
    digest = ctx.document.kind == "digest"
    kernel = ctx.document.topic == "kernel"
    ml = ctx.document.domain == "ml"
    out = []
    for claim in ctx.analysis.claims:
        if claim.role not in roles or claim.nature != "result":
            continue      # a setting, capacity, media length, hypothesis, symptom or quote
        if claim.kind in ("latency", "duration") and _seconds(claim) > max_lat:
            continue      # hours of training data, a 10-minute window: not a request latency
        if claim.kind == "memory" and _bytes(claim) < min_mem:
            continue      # '8 bytes per entry', '339 KB per token': sizes, not a footprint
        if claim.kind not in kinds:
            continue      # counts, model sizes, prices: not performance figures
        allowed = metric_kinds.get(claim.metric or "")
        if allowed and claim.kind not in allowed:
            continue      # 'TPOT measured at 32 QPS': a load level, not a TPOT figure
        markers = ctx.markers_of(claim)
        conditional = "conditional" in markers
        need = list(required.get(claim.metric or "", ()) or ())
        if kernel:      # a kernel's figures: the shape it ran on, or a model's layers
            need = ["model|shape" if f == "model" else f for f in need]
        if not ml:      # a storage, database or compiler benchmark: no model to name
            need = [f for f in need if "model" not in f.split("|")]
        if not need and not conditional:
            continue
        conds = conditions_of(claim)
        # 'model|hardware': either facet satisfies the requirement (a memory figure next to a
        # GPU is its capacity, next to a model its footprint)
        missing = [f for f in need if not any(alt in conds for alt in f.split("|"))]
        if missing and not digest:
            # a post's figure restated elsewhere with its setup (a headline and its table row)
            given = _restated_with(ctx, claim, approx_rel)
            missing = [f for f in missing if not any(alt in given for alt in f.split("|"))]
            if missing and claim.role in ("header", "summary") and _in_body(ctx, claim):
                # a post's TL;DR or conclusion repeating a figure of its body: the body's
                # statement is the one that must carry the setup (and is judged there)
                continue
        key = claim_key(claim)
        ev = _find_evidence(claim, key, missing, ctx, approx_rel) if missing else None
        stated, unstated = [], []
        if missing:
            known = set(_doc_facets(ctx))
            if ev is None and not all(any(a in known for a in f.split("|")) for f in missing):
                known = known | _cited_facets(ctx, claim)
            given = conditions_of(ev[1]) if ev is not None else {}
            for f in missing:
                # the same figure elsewhere states this facet, or the document (or a cited
                # source) names it somewhere: the author had it at hand and the figure should
                # say it (CV101).  A facet named nowhere is one gap of the document (CV103).
                alts = f.split("|")
                if any(a in given for a in alts) or any(a in known for a in alts):
                    stated.append(f)
                else:
                    unstated.append(f)
        out.append((claim, need, missing, stated, unstated, conds, conditional, ev))
    return out


def _assessed(rule, ctx):
    p = rule.params
    key = ("precondition.assess", repr(sorted((k, repr(v)) for k, v in p.items())))
    return ctx.memo(key, lambda: _assess(rule, ctx))


def _other_entry_of_digest(ctx, claim, line: int) -> bool:
    """In a digest, ``line`` lies in another entry or section than ``claim``."""
    doc = ctx.document
    if doc.kind != "digest" or claim.block is None:
        return False
    b = doc.blocks[claim.block]
    if b.entry is None and b.section is None:
        return False        # the digest's header line sums up its entries: any of them may be meant
    # the first block of each line, indexed once per document (a digest fires many CV101s)
    first = ctx.memo(("precondition.block_of_line",),
                     lambda: {x.line: x for x in reversed(doc.blocks)})
    there = first.get(line)
    return there is not None and (there.entry, there.section) != (b.entry, b.section)


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
    elif stated:
        # no statement of this figure has them, but the document names the facet: say where,
        # so the reader can decide whether it applies
        known = _doc_facets(ctx)
        hit = next((known[a] for f in stated for a in f.split("|") if a in known), None)
        if hit is not None and _other_entry_of_digest(ctx, claim, hit[0]):
            hit = None      # a digest's entries are separate reports: another's GPU says nothing here
        if hit is not None:
            line, sf = hit
            sf = " ".join(str(sf).split())     # a name broken over a table row's lines: one line
            where = (f"；第 {line} 行提到 {sf}，但未说明是否适用于此数字" if lang == "zh"
                     else f"; line {line} names {sf} but does not say it applies to this figure")

    # the message names what this figure could have said: facets the document states
    # elsewhere (the ones it states nowhere are CV103's, once per document)
    named = stated or missing or need
    return {"evidence": evidence, "vars": {
        "subject": claim.subject or "",
        "metric_name": METRIC_NAMES[lang].get(claim.metric or "", claim.metric or ""),
        "missing": _join([_facet_name(f, lang, _stand_ins(ctx.document)) for f in named], lang)
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
            "digest": ctx.document.kind == "digest",
            "other_experiment": "other_experiment" in (claim.traits or ()),
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
            # grouped by what the message asks for: 'model' and 'model|shape' are one gap
            key = tuple(_asked(f, _stand_ins(ctx.document)) for f in unstated)
            groups.setdefault(key, []).append(claim)
    note = "also depends on it" if lang == "en" else "同样缺少该条件"
    for facets, claims in groups.items():
        claims = sorted(claims, key=lambda c: (c.line, c.col))
        first = claims[0]
        metrics = []
        for c in claims:
            m = METRIC_NAMES[lang].get(c.metric or "", c.metric or "")
            if m and m not in metrics:
                metrics.append(m)
        # only facets the document (and its cited sources) name nowhere reach here
        named = []
        how = "全文未给出" if lang == "zh" else "The document never states the"
        note_where = ""
        fact = base_fact(first, ctx.document)
        fact.update({
            "figure_count": len(claims), "facet_count": len(facets),
            "stated_elsewhere": bool(named),
            "metric": first.metric or "", "kind": first.kind, "role": first.role,
            "_side": {
                "evidence": [evidence_of(c, note, ctx.path) for c in claims[1:1 + _MAX_LISTED]],
                "vars": {
                    "missing": _join([_facet_name(f, lang, _stand_ins(ctx.document)) for f in facets], lang),
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


def bare_facts(rule, ctx):
    """One fact per multiple or percentage attached to a name with no metric and no condition
    at all ('SystemX 1.9×', 'EvalKit 3.2×' in a header's baseline list): nothing says what was
    measured or on what.  Evidence: the same figure stated elsewhere with more."""
    lang = ctx.lang
    kinds = set(rule.params.get("kinds") or ())
    roles = set(rule.params.get("roles") or ())
    for claim in ctx.analysis.claims:
        if claim.nature != "result" or claim.kind not in kinds or claim.role not in roles:
            continue
        if not claim.subject or claim.metric or conditions_of(claim) or claim.bound:
            continue
        if "bare" not in (claim.traits or ()):
            continue      # words after it say what it is ('3× dot product', '95% 的失败率')
        fuller = next((c for c in ctx.analysis.claims if c is not claim and c.kind == claim.kind
                       and (c.value, c.low, c.high) == (claim.value, claim.low, claim.high)
                       and (c.metric or conditions_of(c))), None)
        fact = base_fact(claim, ctx.document)
        where = ""
        evidence = []
        if fuller is not None:
            evidence.append(evidence_of(fuller, "states more" if lang == "en" else "写明了更多", ctx.path))
            where = (f"；第 {fuller.line} 行的 {fuller.surface} 写明了更多" if lang == "zh"
                     else f"; line {fuller.line} says more about {fuller.surface}")
        fact.update({"kind": claim.kind, "role": claim.role, "bare": True,
                     "_side": {"evidence": evidence, "vars": {"subject": claim.subject, "where": where}}})
        yield fact


class BareFigure:
    """CV105: a multiple or percentage with a name and nothing else."""
    NAME = "precondition.bare_figure"
    FAMILY = FAMILY
    PARAMS = {"kinds": list, "roles": list}
    DEFAULTS = {"kinds": ["ratio", "percent"], "roles": ["body", "header", "summary"]}
    FIELDS = {"kind": str, "role": str, "bare": bool}
    WHEN = {"field": "bare", "eq": True}
    VARS = {"subject", "where"}
    facts = staticmethod(bare_facts)


KINDS = [MissingFacets, DocumentWithoutSetup, BareFigure]
