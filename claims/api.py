"""The public claims API: read a briefing and return its figures with their context.

    extract(text, path=None) -> list[Claim]
    analyze(text, path=None) -> Analysis(document, claims, derivations)
    read_document(path) -> Analysis       (reads the file with claims.reader)

Pipeline: segment() -> find_figures() per block, skipping the block's masked
ranges -> path/line/col/block filled here -> context.annotate() fills subject,
baseline, metric, conditions, markers, sources, role, section and entry ->
derive.find_derivations() reads the stated derived figures (gaps, changes, leads,
sums, table ratios).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .model import Document
from .pattern_cache import compile_re  # compiled once per machine, not per process


@dataclass
class Analysis:
    document: Document
    claims: list = field(default_factory=list)        # list[Claim], in text order
    derivations: list = field(default_factory=list)   # list[Derivation] (claims/derive.py)
    # facet -> (line, surface) the document names anywhere: filled on first use by
    # ``named_facets`` (most checks never ask)
    named: Optional[dict] = field(default=None, repr=False, compare=False)
    counts: object = None      # claims.counts.Counts: declared counts and what they count
    # the document's names and arXiv titles (claims.names.DocumentNames), read on first use
    # by claims.names.read(analysis): a run that checks no entity rule never reads them
    names: Optional[object] = field(default=None, repr=False, compare=False)
    # figures restated in another unit (claims.restated.Restatement), read on first use
    restated: Optional[list] = field(default=None, repr=False, compare=False)

    def restatements(self) -> list:
        """The document's figures written once in one kind of unit and again in another."""
        if self.restated is None:
            from .restated import find
            self.restated = find(self)
        return self.restated

    def named_facets(self) -> dict:
        """facet -> (line, surface) of the first mention of its most named value anywhere in
        the document outside code, URLs and other masked text ('H100' named four times, not
        the 'H20' a paragraph mentions once), plus what the figures' scopes gave them."""
        if self.named is None:
            from .scopes import document_facets
            self.named = document_facets(self.document, self.claims)
        return self.named


def _find_figures():
    # figures.py pulls in the unit registry: import it only when a document is analysed
    from .figures import find_figures
    return find_figures


def analyze(text: str, path=None, *, bom: bool = False, newline=None) -> Analysis:
    """Segment ``text`` and extract every figure with its context."""
    from .context import annotate, inherit
    from .counts import count_claims, merge_counts, read as read_counts
    from .derive import find_derivations
    from .durations import merge as merge_durations
    from .nature import classify
    from .segment import segment

    from .entities import Covered, find_entities_in_spans
    from .header_units import header_unit_claims
    from .respectively import assign as assign_respectively
    from .structure import document_domain

    doc = segment(text, path, bom=bom, newline=newline)
    find = _find_figures()
    claims = []
    p = doc.path if path is not None else None
    read = [bi for bi, b in enumerate(doc.blocks)
            if not (b.kind == "heading" and b.section is None and b.line == 0)]
    # block -> its model and hardware names, read once for figures and conditions
    names = dict(zip(read, find_entities_in_spans(
        text, [(doc.blocks[bi].start, doc.blocks[bi].end) for bi in read], kinds=("hardware", "model"))))
    doc.domain = document_domain(doc, names)
    for bi in read:
        b = doc.blocks[bi]
        # a number inside a model or hardware name is part of the name, not a figure
        ents = names[bi]
        for c in find(text, b.start, b.end, b.masked, Covered((s, e) for _, _, s, e, _ in ents) if ents else None):
            c.path = p
            c.line, c.col = doc.line_col(c.start)
            c.block = bi
            claims.append(c)
    # bare numbers of a table column whose header writes the unit once ('TTFT (ms)')
    for c in header_unit_claims(doc, claims, find):
        c.path = p
        claims.append(c)
    claims.sort(key=lambda c: (c.start, c.end))
    # '8 h 53 min', '3m 04s', '1 小时 33 分钟': one time, not two figures
    claims = merge_durations(text, claims)
    share_list_units(text, claims)
    # counts the figure reader leaves out ('三家', 'two open issues', '4+ PRs'), never one it read;
    # they are counts of items, not figures with context: they join after annotate and classify
    counts = count_claims(doc, claims, names)
    around = annotate(doc, claims, names)
    # 'A, B and C for prompt lengths of 1K, 2K and 4K, respectively': one value each
    assign_respectively(doc, claims, around)
    merged = merge_counts(claims, counts, [])
    # derived figures among all of them ('（4 条：1 + 3）' may add word counts)
    derivations = find_derivations(doc, merged, names=Covered(
        (s, e) for ents in names.values() for _, _, s, e, _ in ents))
    # a compared pair names its gap's subject and baseline: spread those too
    inherit(claims)
    classify(doc, claims, around)
    for c in counts:
        c.path = p
    return Analysis(document=doc, claims=merged, derivations=derivations, counts=read_counts(doc, merged))


# bare numbers listed before the figure that carries the unit: '57,674, 54,543, and 50,302
# tokens per second', '2,400、3,100 和 3,600 tok/s', '1.2 / 1.5 / 1.9 GB'


def share_list_units(text: str, claims: list) -> None:
    """A run of bare numbers written before one figure with a unit shares its unit (in place):
    they are one list of measurements of the same thing, the unit written once."""
    from .structure import LIST_SEP
    n = len(claims)
    i = 0
    while i < n:
        c = claims[i]
        if c.kind != "number" or c.value is None or c.unit != "dimensionless":
            i += 1
            continue
        j = i
        while j + 1 < n and claims[j + 1].kind == "number" and claims[j + 1].value is not None \
                and claims[j + 1].block == c.block and LIST_SEP.fullmatch(text, claims[j].end, claims[j + 1].start):
            j += 1
        last = claims[j + 1] if j + 1 < n else None
        if (last is not None and last.block == c.block and last.value and last.kind != "number"
                and last.low is None and LIST_SEP.fullmatch(text, claims[j].end, last.start)
                and text[claims[j].end:last.start].strip()):
            run = claims[i:j + 1]
            # same magnitude: '2024 and 30 tok/s' are no list of one measurement
            if all(0.1 <= abs(x.value) / abs(last.value) <= 10 for x in run):
                factor = (last.base_value / last.value) if last.base_value is not None else 1.0
                for x in run:
                    x.kind, x.unit, x.base_unit = last.kind, last.unit, last.base_unit
                    x.base_value = x.value * factor
        i = j + 1


def extract(text: str, path=None) -> list:
    """Every quantitative claim of ``text``, normalized, with its context."""
    return analyze(text, path).claims


def read_document(path, max_bytes=None) -> Analysis:
    """Read ``path`` (UTF-8, BOM/CRLF tolerated; InputError otherwise) and analyse it."""
    from .reader import DEFAULT_MAX_BYTES, read_text
    text, info = read_text(path, max_bytes or DEFAULT_MAX_BYTES)
    return analyze(text, path, bom=info["bom"], newline=info["newline"])
