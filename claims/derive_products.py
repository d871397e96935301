"""Arithmetic written out: products and sums of products with their result beside them.

``find_expressions(doc, claims, taken)`` reads, within each sentence, a run of figures joined
by ``×``/``x``/``*``/``·`` (and ``+`` between products) whose result is written right after
an ``=``/``≈`` or right before the run in brackets:

- ``AllGather 44.8 ms（2×22.7ms）``, ``15 × 5.48 ms = 82.2 ms``, ``8 GPUs × 80 GB = 640 GB``;
- ``16x × 2.8x × 1.67x × 1.2x = 89.6x`` (factors compounded);
- ``128 + 48 + 48 = 224`` (bare numbers with an explicit ``=``; sums of figures that have a
  unit are ``claims.derive``'s ``sum`` form).

Each becomes a ``Derivation`` of form ``product``: ``operands`` are the factors in text order,
``terms`` the number of factors of each ``+``-joined term, ``approx`` true when the result is
introduced by ``≈``.  Numbers that are no claim of their own (the ``2`` of ``2×22.7ms``) are
read as bare operands.  Only expressions whose units multiply out are kept: at most one factor
of a term carries a unit (a ``×`` factor or a bare number only scales it), every term and the
result carry the same one; anything else (``2 × 8e9 × 27,000 ≈ 430 TFLOP/s``) is left alone
rather than guessed at.
"""
from __future__ import annotations

import bisect

from .derive_tables import bare_figure, figure_at
from .model import Derivation
from .pattern_cache import compile_re

# a number that is no figure of its own; never part of a name or version ('H100', 'v0.6.3')
_BARE = compile_re(r"(?<![\w.\-/])\d[\d,]*(?:\.\d+)?(?=[×xX*·]|(?![\w.]*[A-Za-z\d]))")
# a figure glued to the operator before it ('15×5.48ms'): the figure reader leaves it, as it
# leaves '4096x4096', so it is read here with its unit
_GLUED = compile_re(r"(?<=[×xX*·])\s*\d[\d,]*(?:\.\d+)?\s?[A-Za-zμ%/]{1,8}")
_TIMES = compile_re(r"\s*[×xX*·]\s*")
_PLUS = compile_re(r"\s*[+＋]\s*")
_EQUALS = compile_re(r"\s*(?P<op>[=＝]|≈|~=)\s*[~约]?\s*")
_OPEN = compile_re(r"\s*[（(]\s*(?:[=＝≈]\s*)?")
_CLOSE = compile_re(r"\s*[)）]")
# what ends the text before an expression's first figure when the figure is not its start
_OPERATOR_BEFORE = compile_re(r"[+＋×*·/÷^)）\-−]\s*[(（]?\s*$|[A-Za-z]\s*[×xX*·]\s*$")
_WORD_AFTER = compile_re(r"\s?[A-Za-zμ%]")
# units that only scale what they multiply
_SCALARS = ("ratio",)


def _unit(c):
    """The unit a factor carries into a product: None for a bare number, a count or a
    ratio (they scale), else its base unit."""
    if c.kind in ("number", "count") or c.kind in _SCALARS:
        return None
    return c.base_unit or c.unit


def _result_unit(c):
    if c.kind in ("number", "count"):
        return None
    if c.kind in _SCALARS:
        return "ratio"
    return c.base_unit or c.unit


def _units_agree(terms: list, whole) -> bool:
    want = _result_unit(whole)
    for term in terms:
        units = [u for u in map(_unit, term) if u is not None]
        if len(units) > 1:
            return False            # ms × ms, GB/s × s: units that multiply into another unit
        got = units[0] if units else ("ratio" if any(f.kind in _SCALARS for f in term) else None)
        if got != want and not (got is None and want == "ratio" and len(term) > 1):
            return False
    return True


def _tokens(doc, claims, lo: int, hi: int, starts: list) -> list:
    """The figures of text[lo:hi] in order: its claims, and the bare numbers outside them."""
    own = claims[bisect.bisect_left(starts, lo):bisect.bisect_left(starts, hi)]
    own_starts = [c.start for c in own]

    def inside(at: int) -> bool:        # within one of the line's claims (bisect: a long line stays linear)
        k = bisect.bisect_right(own_starts, at) - 1
        return k >= 0 and at < own[k].end

    out = list(own)
    for m in _BARE.finditer(doc.text, lo, hi):
        if not inside(m.start()):
            out.append(bare_figure(doc, m.group(), m.start()))
    glued = []
    for m in _GLUED.finditer(doc.text, lo, hi):
        if inside(m.start()):
            continue
        # read out of context: the figure reader refuses a number right after '×' ('4096x4096')
        c = figure_at(doc, m.start() + len(m.group()) - len(m.group().lstrip()), m.end(), alone=True)
        if c is not None:
            glued.append(c)
    if glued:
        g_starts = [c.start for c in glued]

        def covered(t) -> bool:
            k = bisect.bisect_right(g_starts, t.start) - 1
            return k >= 0 and t.start < glued[k].end

        out = [t for t in out if not covered(t)] + glued
    out.sort(key=lambda c: c.start)
    return out


def _chains(text: str, toks: list) -> list:
    """Maximal runs of figures joined by operators: (first, last index, terms as lists)."""
    out, i = [], 0
    while i < len(toks):
        terms, j, times = [[toks[i]]], i, False
        while j + 1 < len(toks):
            gap = text[toks[j].end:toks[j + 1].start]
            if _TIMES.fullmatch(gap):
                terms[-1].append(toks[j + 1])
                times = True
            elif _PLUS.fullmatch(gap):
                terms.append([toks[j + 1]])
            else:
                break
            j += 1
        if j > i:
            out.append((i, j, terms, times))
        i = j + 1
    return out


def _lines(doc):
    """(start, end) of each line of the document's blocks: an expression never spans lines,
    and the sentence splitter may cut one at its '+' signs."""
    text = doc.text
    for b in doc.blocks:
        lo = b.start
        while lo < b.end:
            nl = text.find("\n", lo, b.end)
            hi = b.end if nl < 0 else nl
            yield lo, hi
            lo = hi + 1


# a line holds an expression only if a number stands right before an operator: most lines are
# skipped before any token is read
_ANY_OPERATOR = compile_re(r"[×xX*·+＋]\s{0,2}\d")


def find_expressions(doc, claims, taken=frozenset(), names=None) -> list:
    """Every written-out product (or sum of products) of ``doc`` with its stated result.
    ``names``: a ``Covered`` of the model and hardware names; an operator inside one is part
    of the name ('Mixtral 8x7B', '4x A100'), not of an expression."""
    text, out = doc.text, []
    claims = sorted(claims, key=lambda c: c.start)
    starts = [c.start for c in claims]
    fences = [(r.start, r.end) for r in doc.code if r.kind != "inline"]
    for lo, hi in _lines(doc):
        if not any(names is None or m.start() not in names for m in _ANY_OPERATOR.finditer(text, lo, hi)) \
                or any(a <= lo < b for a, b in fences):
            continue
        toks = _tokens(doc, claims, lo, hi, starts)
        if len(toks) < 3:
            continue
        for i, j, terms, times in _chains(text, toks):
            if _OPERATOR_BEFORE.search(text, max(lo, toks[i].start - 12), toks[i].start):
                continue            # the run is the tail of a longer expression ('2×(2.95) + 7.87 + …')
            whole, approx = None, False
            if j + 1 < len(toks):
                m = _EQUALS.fullmatch(text[toks[j].end:toks[j + 1].start])
                if m:
                    whole, approx = toks[j + 1], m.group("op") != "=" and m.group("op") != "＝"
            if whole is None and times and i > 0:
                if _OPEN.fullmatch(text[toks[i - 1].end:toks[i].start]) and \
                        _CLOSE.match(text, toks[j].end, hi):
                    whole = toks[i - 1]
            if whole is not None and whole.kind == "number" and _WORD_AFTER.match(text, whole.end):
                continue            # '= 2.95 MB' in code: a result whose unit no figure carries
            if whole is None or (not times and whole.kind != "number"):
                continue            # a sum of figures with units is derive's 'sum' form
            if not times and any(f.kind != "number" for t in terms for f in t):
                continue
            factors = [f for t in terms for f in t]
            if any(id(c) in taken for c in (whole, *factors)):
                continue
            if not _units_agree(terms, whole):
                continue
            out.append(Derivation(form="product", stated=whole, operands=tuple(factors),
                                  terms=tuple(len(t) for t in terms), approx=approx))
    return out
