"""The public claims API: read a briefing and return its figures with their context.

    extract(text, path=None) -> list[Claim]
    analyze(text, path=None) -> Analysis(document, claims, comparisons)
    read_document(path) -> Analysis       (reads the file with claims.reader)

Pipeline: segment() -> find_figures() per block, skipping the block's masked
ranges -> path/line/col/block filled here -> context.annotate() fills subject,
baseline, metric, conditions, markers, sources, role, section, entry and finds
the comparisons.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .model import Document


@dataclass
class Analysis:
    document: Document
    claims: list = field(default_factory=list)        # list[Claim], in text order
    comparisons: list = field(default_factory=list)   # list[Comparison]
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
    from .context import annotate
    from .counts import count_claims, merge_counts, read as read_counts
    from .nature import classify
    from .segment import segment

    from .entities import Covered, find_entities_in_spans

    doc = segment(text, path, bom=bom, newline=newline)
    find = _find_figures()
    claims = []
    p = doc.path if path is not None else None
    read = [bi for bi, b in enumerate(doc.blocks)
            if not (b.kind == "heading" and b.section is None and b.line == 0)]
    # block -> its model and hardware names, read once for figures and conditions
    names = dict(zip(read, find_entities_in_spans(
        text, [(doc.blocks[bi].start, doc.blocks[bi].end) for bi in read], kinds=("hardware", "model"))))
    for bi in read:
        b = doc.blocks[bi]
        # a number inside a model or hardware name is part of the name, not a figure
        ents = names[bi]
        for c in find(text, b.start, b.end, b.masked, Covered((s, e) for _, _, s, e, _ in ents) if ents else None):
            c.path = p
            c.line, c.col = doc.line_col(c.start)
            c.block = bi
            claims.append(c)
    claims.sort(key=lambda c: (c.start, c.end))
    # counts the figure reader leaves out ('三家', 'two open issues', '4+ PRs'), never one it read;
    # they are counts of items, not figures with context: they join after annotate and classify
    counts = count_claims(doc, claims, names)
    comparisons = annotate(doc, claims, names)
    classify(doc, claims)
    for c in counts:
        c.path = p
    claims = merge_counts(claims, counts, comparisons)
    return Analysis(document=doc, claims=claims, comparisons=comparisons, counts=read_counts(doc, claims))


def extract(text: str, path=None) -> list:
    """Every quantitative claim of ``text``, normalized, with its context."""
    return analyze(text, path).claims


def read_document(path, max_bytes=None) -> Analysis:
    """Read ``path`` (UTF-8, BOM/CRLF tolerated; InputError otherwise) and analyse it."""
    from .reader import DEFAULT_MAX_BYTES, read_text
    text, info = read_text(path, max_bytes or DEFAULT_MAX_BYTES)
    return analyze(text, path, bom=info["bom"], newline=info["newline"])
