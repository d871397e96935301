"""Facts: what kinds need from an analysed document, computed once in Python.

The ``Context`` handed to every kind, the claim key ``(metric, subject, baseline)``
that groups claims (grouping happens here, in Python, so the rule engine never sees
an all-pairs join), and the numeric helpers every kind shares: a claim as an
interval in base units with the tolerance its written precision implies (statcheck /
GRIM style: ``29%`` admits 28.5–29.5%, ``约 29%`` more), condition compatibility,
and the base fact fields (``path, line, col, end_line, end_col, surface, key``).
"""
from __future__ import annotations


import re
from collections import defaultdict
from functools import lru_cache
from typing import NamedTuple, Optional

from . import arith

_NORM = re.compile(r"[\W_]+", re.UNICODE)

# The approx_rel with which each claim's statement is computed at extraction and stored in
# the claim ledger (the contradiction rule's default); a rule with another value recomputes.
LEDGER_APPROX_REL = 0.1

# Facet values that carry no information about the setup.
_EMPTY = {"", "none", "na", "n/a", "unknown", "unspecified"}


def norm_text(s) -> str:
    """Lowercase, punctuation and spaces removed: 'Llama 3.1-70B' == 'llama3170b'."""
    return _NORM.sub("", str(s or "")).lower()


def norm_value(s) -> str:
    """Lowercase, punctuation and spaces collapsed to one space (digit groups stay apart):
    'A100 80GB' -> 'a100 80gb', '8×H100' -> '8 h100'."""
    return _norm_value(s) if isinstance(s, str) else _norm_value(str(s or ""))


@lru_cache(maxsize=65536)
def _norm_value(s: str) -> str:
    # every figure of a corpus normalizes its conditions, and a corpus names few distinct
    # setups ('H100', 'Llama 3.1 70B'): each value is normalized once
    return " ".join(_NORM.sub(" ", s).lower().split())


def claim_key(claim) -> Optional[str]:
    """'metric|subject|baseline' normalized, or None when the claim lacks metric or subject."""
    if not claim.metric or not claim.subject:
        return None
    return _key(claim.metric, claim.subject, claim.baseline)


@lru_cache(maxsize=65536)
def _key(metric, subject, baseline) -> str:
    # a corpus check asks for the key of the same claims hundreds of thousands of times, and
    # a corpus has few distinct (metric, subject, baseline) triples: normalize each once
    return "|".join((norm_text(metric), norm_text(subject), norm_text(baseline)))


def keyed_claims(analysis, caches=None) -> dict:
    """Claim key -> the analysis's claims with that key, in document order (claims without a
    key left out). Kept in ``caches`` (validator/caches.py) when given: read-only for callers."""
    doc = caches.of(analysis) if caches is not None else None
    if doc is not None and doc.keyed is not None:
        return doc.keyed
    g = defaultdict(list)
    for c in analysis.claims:
        k = claim_key(c)
        if k:
            g[k].append(c)
    out = dict(g)
    if doc is not None:
        doc.keyed = out
    return out


def base_fact(claim, doc=None) -> dict:
    """The fields every fact carries, for a fact about ``claim``."""
    end_line, end_col = claim.line, claim.col + len(claim.surface)
    if doc is not None and doc.line_starts:
        try:
            end_line, end_col = doc.line_col(claim.end)
        except Exception:  # noqa: BLE001 - offsets from an older text: keep the estimate
            pass
    return {"path": claim.path or (doc.path if doc is not None else ""), "line": claim.line,
            "col": claim.col, "end_line": end_line, "end_col": end_col,
            "surface": claim.surface, "key": claim_key(claim) or ""}


def evidence_of(claim, note: str, path: Optional[str] = None) -> dict:
    return {"path": path or claim.path or "", "line": claim.line, "col": claim.col,
            "surface": claim.surface, "note": note}


# ---------------------------------------------------------------- numbers

def interval(claim, approx_rel: float = 0.1) -> Optional[tuple]:
    """See ``_interval``; memoized by the figure's values (a run compares one claim with many,
    and a corpus restates the same figure thousands of times)."""
    return _interval_of((claim.value, claim.low, claim.high, claim.base_value, claim.base_low,
                         claim.base_high, claim.decimals, bool(claim.approx), claim.bound,
                         claim.surface, claim.kind), approx_rel)


class _Figure(NamedTuple):
    """The values of a claim that decide its interval (hashable, for the memo)."""
    value: Optional[float]
    low: Optional[float]
    high: Optional[float]
    base_value: Optional[float]
    base_low: Optional[float]
    base_high: Optional[float]
    decimals: Optional[int]
    approx: bool
    bound: Optional[str]
    surface: Optional[str]
    kind: Optional[str]          # a counted figure ('8 GPUs') admits no rounding


@lru_cache(maxsize=131072)
def _interval_of(values: tuple, approx_rel: float) -> Optional[tuple]:
    return _interval(_Figure(*values), approx_rel)


def _interval(claim, approx_rel: float = 0.1) -> Optional[tuple]:
    """(low, high) in base units: the interval the written figure admits
    (``validator.arith.admitted``: decimals, approximation, bounds, counted items), as a
    magnitude — two statements of one figure are compared without their signs, which only
    repeat a direction word ('下降 38%' and '-38%')."""
    return arith.magnitude(arith.admitted(claim, approx_rel))


_KIND_CLASS = {"duration": "latency"}


def _kind_class(c) -> str:
    return _KIND_CLASS.get(c.kind, c.kind)


def values_agree(a, b, approx_rel: float = 0.1) -> Optional[bool]:
    """True/False when both figures have values in the same base unit, None otherwise."""
    if (a.base_unit or "") != (b.base_unit or "") or _kind_class(a) != _kind_class(b):
        return None
    ia, ib = interval(a, approx_rel), interval(b, approx_rel)
    if ia is None or ib is None:
        return None
    return ia[0] <= ib[1] and ib[0] <= ia[1]


# ---------------------------------------------------------------- conditions

def conditions_of(claim) -> dict:
    """facet -> normalized value, for the facets that say something (a new dict per call;
    each value is normalized once per process: ``norm_value``)."""
    out = {}
    for facet, cond in (claim.conditions or {}).items():
        v = cond.get("value") if isinstance(cond, dict) else getattr(cond, "value", cond)
        n = norm_value(v)
        if n not in _EMPTY:
            out[facet] = n
    return out


def condition_lines(claim) -> list:
    """[(facet, line, surface)] where the claim's conditions were stated."""
    out = []
    for facet, cond in (claim.conditions or {}).items():
        if isinstance(cond, dict):
            out.append((facet, cond.get("line") or claim.line, cond.get("surface") or cond.get("value", "")))
        else:
            out.append((facet, getattr(cond, "line", claim.line) or claim.line,
                        getattr(cond, "surface", "") or getattr(cond, "value", "")))
    return out


# a GPU count before the name ("8 h100", "8xh100"); "32b" is a model size, not 32 × "b"
_COUNT = re.compile(r"^(\d+)(?:\s*x\s*|\s+)(?=[a-z])")


# words that name another model of a family, not a spelling of the same one
_VARIANT_WORDS = frozenset({"distill", "lite", "mini", "flash", "air", "coder", "vl", "nano", "small", "tiny",
                            "turbo", "math", "omni", "audio", "vision", "draft", "base"})


@lru_cache(maxsize=65536)
def same_facet_value(a: str, b: str) -> bool:
    """'8 h100' and 'h100 sxm' name the same hardware; 'llama 3 1 70b' and 'llama 3 1 8b' do not:
    one value contains the other and the shorter one's digit groups all appear in the longer."""
    if a == b:
        return True
    # a GPU count written before the name ('8 h100'): differing counts differ, one missing is fine
    ma, mb = _COUNT.match(a), _COUNT.match(b)
    if ma and mb and ma.group(1) != mb.group(1):
        return False
    a, b = (a[ma.end():] if ma else a), (b[mb.end():] if mb else b)
    if a == b:
        return True
    ca, cb = a.replace(" ", ""), b.replace(" ", "")
    if len(ca) < 2 or len(cb) < 2 or not (ca in cb or cb in ca):
        return False
    # 'deepseek r1' and 'deepseek r1 distill llama 70b', 'qwen3' and 'qwen3 vl': a variant word
    # only one side has makes another model
    if (set(a.split()) ^ set(b.split())) & _VARIANT_WORDS:
        return False
    na, nb = re.findall(r"\d+[a-z]?", a), re.findall(r"\d+[a-z]?", b)
    short, long_ = (na, nb) if len(ca) <= len(cb) else (nb, na)
    return all(x in long_ for x in short)


# Facets that together describe one aspect of a setup. A benchmark's load is written with
# whichever descriptor its author had at hand: a dataset (ShareGPT), a traffic pattern
# (prefix-heavy, long-prompt batches), a concurrency, prompt and output lengths, a request
# rate, a batch size. Two figures whose load is described by different descriptors ("on
# ShareGPT" vs "at 64 concurrent requests") were measured under loads nobody can match,
# so they are not comparable; only the same descriptors with the same values are the same
# load. Every facet outside a group (hardware with its GPU count, model, precision,
# parallelism) is a group of its own.
FACET_GROUPS = {
    "load": ("workload", "dataset", "concurrency", "context_length", "output_length",
                 "request_rate", "batch_size"),
}
_GROUP_OF = {f: g for g, facets in FACET_GROUPS.items() for f in facets}


def compare_conditions(ca: dict, cb: dict) -> tuple:
    """(shared_equal, differing facets) between two normalized condition dicts.

    A facet stated on one side only says nothing (the other figure may have been measured
    the same way). A facet group (``FACET_GROUPS``) counts as one aspect: when both sides
    describe it, it is equal only when they name the same descriptors with the same values;
    a differing value is reported by its facet, different descriptors by the group's name."""
    return _compare_conditions(tuple(sorted(ca.items())), tuple(sorted(cb.items())))


@lru_cache(maxsize=65536)
def _compare_conditions(ca: tuple, cb: tuple) -> tuple:
    # a corpus states few distinct setups: each pair of them is compared once
    b = dict(cb)
    shared_eq, differ = 0, []
    group_a = group_b = None         # facet group -> the facets of it each side states
    for f, v in ca:
        g = _GROUP_OF.get(f)
        if g is not None:
            group_a = group_a or {}
            group_a.setdefault(g, set()).add(f)
        elif f in b:
            if same_facet_value(v, b[f]):
                shared_eq += 1
            else:
                differ.append(f)
    if group_a:
        for f, _ in cb:
            g = _GROUP_OF.get(f)
            if g is not None:
                group_b = group_b or {}
                group_b.setdefault(g, set()).add(f)
        a = dict(ca)
        for g, fa in group_a.items():
            fb = (group_b or {}).get(g)
            if not fb:
                continue
            off = sorted(f for f in fa & fb if not same_facet_value(a[f], b[f]))
            if off:
                differ += off
            elif fa != fb:
                differ.append(g)
            else:
                shared_eq += 1
    return shared_eq, tuple(differ)


def facets_with_several_values(conds_list) -> frozenset:
    """Facets a document states with two or more distinct values (several models, several
    concurrencies): on those a figure that names none measured an unknown one of them."""
    seen: dict = {}
    for conds in conds_list:
        for f, v in conds.items():
            seen.setdefault(f, set()).add(_NORM.sub("", str(v).lower()))
    return frozenset(f for f, vs in seen.items() if len(vs) > 1)


def one_sided(ca: dict, cb: dict, several) -> tuple:
    """Facets of ``several`` that one side states and the other does not. Within a document
    measuring several models, '6 ms for the 32B model at 16 users' and 'mostly 1~3 ms' (no
    model named: a summary over the table) are not one figure stated twice; where the
    document names one model only, the silent side is that model and the two compare."""
    return tuple(sorted(f for f in several if (f in ca) != (f in cb)))


def describe_facet(conds: dict, facet: str) -> str:
    """The text of ``facet`` in a normalized condition dict; for a facet group, its
    descriptors ('dataset sharegpt', 'concurrency 64')."""
    if facet in conds:
        return conds[facet]
    members = FACET_GROUPS.get(facet, ())
    return ", ".join(f"{f.replace('_', ' ')} {conds[f]}" for f in members if f in conds)


# ---------------------------------------------------------------- context

class Context:
    """What a kind sees: the current analysis, the corpus, the message language."""

    def __init__(self, analysis, corpus=None, lang: Optional[str] = None, options=None, caches=None):
        from .caches import Caches
        self.analysis = analysis
        self.corpus = corpus
        # the run's caches (validator/caches.py), shared with the corpus and the ledger
        self.caches = caches if caches is not None else Caches()
        doc = analysis.document
        self.lang = lang or (doc.lang if doc.lang in ("zh", "en") else "en")
        self.options = options
        self._groups = None
        self._covered = None
        self._entries = {e.label: e for e in doc.entries} if doc.entries else {}

    def memo(self, key, compute):
        """``compute()`` once per document for ``key``: two rules of one kind with the same
        params (CV301 and CV302) share the kind's work."""
        cache = self.__dict__.setdefault("_memo", {})
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    @property
    def document(self):
        return self.analysis.document

    @property
    def path(self) -> str:
        return self.analysis.document.path

    def groups(self) -> dict:
        """Claim key -> this document's claims with that key (claims without a key left out)."""
        if self._groups is None:
            self._groups = keyed_claims(self.analysis, self.caches)
        return self._groups

    def entry_of(self, claim):
        return self._entries.get(claim.entry) if claim.entry else None

    def markers_of(self, claim) -> set:
        """The claim's markers plus those of its entry."""
        m = set(claim.markers or ())
        e = self.entry_of(claim)
        if e is not None:
            m |= set(e.markers or ())
        return m

    def gap_claims(self) -> set:
        """Indices of the claims that state a figure derived from others — a gap, change, lead,
        share, quotient, table ratio (``Analysis.derivations``; not the whole of a sum): derived,
        not sourced."""
        index = {id(c): i for i, c in enumerate(self.analysis.claims)}
        return {index[id(d.stated)] for d in getattr(self.analysis, "derivations", ()) or ()
                if d.stated is not None and d.form not in ("sum", "row_total") and id(d.stated) in index}

    def external(self, key: str) -> list:
        """Claims with ``key`` in other corpus documents: [(path, claim)]."""
        if self.corpus is None:
            return []
        return self.corpus.by_key(key, exclude=self.path)

    def cited_analyses(self, claim) -> list:
        """[(path, Analysis)] of the claim's cited sources that resolve in the corpus."""
        if self.corpus is None:
            return []
        out, seen = [], set()
        for s in claim.sources or ():
            kind = s.get("kind") if isinstance(s, dict) else getattr(s, "kind", "")
            ref = s.get("ref") if isinstance(s, dict) else getattr(s, "ref", "")
            if kind != "path":
                continue
            p = self.corpus.resolve(ref, self.path)
            if p is None or p in seen:
                continue
            seen.add(p)
            a = self.corpus.analysis(p)
            if a is not None:
                out.append((p, a))
        return out


# ---------------------------------------------------------------- derivations

def phases(analysis, caches=None) -> dict:
    """id(claim) -> the claim's place in a multi-figure statement, '' for a lone figure.

    The two sides of a change ('from A to B', 'A → B', ``Analysis.derivations`` of form
    'change') are 'from' and 'to' (before and after a change measure different states). Otherwise several figures with one claim key on one line
    ('306–327s → <1s', '16,200 and 9,000 tok/s') are tagged by position, 'i/n'.
    Figures are compared only with figures of the same tag. Kept in ``caches`` when given
    (a document read back from the claim ledger has its stored phases put there)."""
    doc = caches.of(analysis) if caches is not None else None
    if doc is not None and doc.phases is not None:
        return doc.phases
    out = {}
    claims = analysis.claims
    lines = defaultdict(list)
    for c in claims:
        k = claim_key(c)
        if k:
            lines[(c.line, k)].append(c)
    for group in lines.values():
        if len(group) > 1:
            for i, c in enumerate(group):
                out[id(c)] = f"{i}/{len(group)}"
    for d in getattr(analysis, "derivations", ()) or ():
        if d.form == "change" and len(d.operands) == 2:
            for c, tag in zip(d.operands, ("from", "to")):
                out[id(c)] = tag
    if doc is not None:
        doc.phases = out
    return out


def derivable(claim, figures, approx_rel: float = 0.1) -> bool:
    """True when a percent or ratio ``claim`` recomputes from two figures of ``figures``
    (same unit): a/b, a/b − 1, 1 − b/a — a gap or lead the author derived from a source
    that states only the two operands."""
    if claim.kind not in ("percent", "ratio", "percentage_point"):
        return False
    iv = interval(claim, approx_rel)
    if iv is None:
        return False
    groups = defaultdict(list)
    for c in figures:
        # operands are stated together (one line or bullet); pairs across a whole file
        # would recompute almost any percentage by chance
        if c.base_value not in (None, 0) and c.kind not in ("percent", "ratio", "count", "number"):
            groups[(c.path, c.line)].append((c.base_unit, c.base_value))
    for vals in groups.values():
        for i, (ua, a) in enumerate(vals):
            for ub, b in vals[i + 1:]:
                if ua != ub or a == b:
                    continue
                # the gap readings of the tolerance module, at the operands' face value
                # (a source's own figures); a ratio as the larger over the smaller only
                ia, ib = (abs(a), abs(a)), (abs(b), abs(b))
                for r in arith.gap_readings(ia, ib, claim.kind):
                    if r.label != "ratio_minus_one" and iv[0] <= r.point() <= iv[1]:
                        return True
    return False


# ---------------------------------------------------------------- statements

def effective_conditions(claim, group, approx_rel: float = 0.1) -> dict:
    """The claim's conditions, or those of the same figure stated with conditions in the
    same document (a headline restating an entry)."""
    own = conditions_of(claim)
    if own:
        return own
    for c in group:
        if c is not claim:
            conds = conditions_of(c)
            if conds and values_agree(c, claim, approx_rel):
                return conds
    return {}


class Statement:
    """One claim as the cross-document checks see it: key, phase, effective conditions.

    ``sig`` is what the claim states — phase, setup, unit, kind, admitted interval — so the
    restatements of one figure share it; ``sig_id`` names it in the claim ledger, in its
    exports and in the report (``statement_id``)."""
    __slots__ = ("claim", "key", "phase", "conds", "sig", "interval")

    def __init__(self, claim, key, phase, conds, approx_rel):
        self.claim, self.key, self.phase, self.conds = claim, key, phase, conds
        iv = interval(claim, approx_rel)
        self.interval = None if iv is None else (round(iv[0], 12), round(iv[1], 12))
        self.sig = (phase, tuple(sorted(conds.items())), claim.base_unit or "", _kind_class(claim),
                    self.interval)

    @property
    def kind_class(self) -> str:
        return self.sig[3]

    @property
    def sig_id(self) -> str:
        return statement_id(self.sig)


def statements_agree(a: "Statement", b: "Statement") -> Optional[bool]:
    """``values_agree`` of two statements' claims, from the intervals their statements hold
    (made with the statements' ``approx_rel``)."""
    if a.sig[2] != b.sig[2] or a.sig[3] != b.sig[3]:
        return None
    ia, ib = a.interval, b.interval
    if ia is None or ib is None:
        return None
    return ia[0] <= ib[1] and ib[0] <= ia[1]


@lru_cache(maxsize=65536)
def statement_id(sig: tuple) -> str:
    """A short, stable name of a statement signature (the same on every machine and run:
    the claim ledger stores it, exports carry it, report engines group by it)."""
    import hashlib
    return hashlib.sha1(repr(sig).encode("utf-8")).hexdigest()[:16]


def statements(analysis, approx_rel: float = 0.1, caches=None) -> dict:
    """id(claim) -> Statement for every keyed claim of ``analysis`` (kept in ``caches``
    when given)."""
    doc = caches.of(analysis) if caches is not None else None
    if doc is not None and approx_rel in doc.statements:
        return doc.statements[approx_rel]
    groups = keyed_claims(analysis, caches)
    ph = phases(analysis, caches)
    out = {}
    for k, group in groups.items():
        # only claims that state conditions can lend them: scanning the whole group for each
        # bare claim made a key restated thousands of times cost all pairs
        stated = [c for c in group if conditions_of(c)]
        for c in group:
            out[id(c)] = Statement(c, k, ph.get(id(c), ""), effective_conditions(c, stated, approx_rel),
                                   approx_rel)
    if doc is not None:
        doc.statements[approx_rel] = out
    return out

