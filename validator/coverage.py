"""Acknowledgement: does the briefing's own warnings section already cover a finding?

A warnings entry (the blocks of a section whose role is ``warnings``) covers a finding
when it names the same figure — the same surface text, or a figure with the same
normalized value and unit — or the same arXiv id, or the same entity (the subject
of the finding's figure) in an entry that has no figure of its own or restates this
figure approximately.
Covered findings are ``acknowledged``: reported, but they do not fail the gate.
"""
from __future__ import annotations

from .facts import norm_text, values_agree


def _index(analysis, caches=None) -> tuple:
    """(warnings blocks, claims by (line, col), claims by (line, surface)), built once per
    document (kept in the run's ``caches``): rebuilding them for every finding made a file
    with thousands of findings cost findings x blocks."""
    doc = caches.of(analysis) if caches is not None else None
    idx = doc.coverage if doc is not None else None
    if idx is None:
        by_pos, by_surface = {}, {}
        for c in analysis.claims:
            by_pos.setdefault((c.line, c.col), c)
            by_surface.setdefault((c.line, c.surface), c)
        idx = ([b for b in analysis.document.blocks if b.role == "warnings"], by_pos, by_surface)
        if doc is not None:
            doc.coverage = idx
    return idx


def _claim_at(finding, analysis, caches=None):
    _blocks, by_pos, by_surface = _index(analysis, caches)
    return by_pos.get((finding.line, finding.col)) or by_surface.get((finding.line, finding.surface))


def _entry_groups(doc, blocks) -> list:
    """Warnings blocks grouped per entry (or per block when entries are unknown)."""
    groups = {}
    for b in blocks:
        groups.setdefault(b.entry if b.entry is not None else ("b", b.start), []).append(b)
    return list(groups.values())


def covered(finding, analysis, caches=None) -> bool:
    """True when the warnings section of ``analysis`` already names what ``finding`` is about
    (``caches``: the run's, validator/caches.py)."""
    doc = analysis.document
    blocks = _index(analysis, caches)[0]
    if not blocks:
        return False
    text = "\n".join(b.text for b in blocks)
    surface = (finding.surface or "").strip()
    # the finding is itself in the warnings section: the author has disclosed it
    if any(b.line <= finding.line <= max(b.line, b.line + b.text.count("\n")) for b in blocks):
        return True
    if any(r.kind == "arxiv" and r.ref == surface for r in doc.references):
        # an arXiv id is covered when a warnings entry cites the same id
        return any(r.kind == "arxiv" and r.ref == surface and r.block is not None
                   and doc.blocks[r.block].role == "warnings" for r in doc.references)
    if surface and len(norm_text(surface)) >= 2 and surface in text:
        return True
    claim = _claim_at(finding, analysis, caches)
    if claim is None:
        return bool(surface) and norm_text(surface) in norm_text(text) and len(norm_text(surface)) >= 4
    starts = [(b.start, b.end) for b in blocks]
    wclaims = [c for c in analysis.claims if c is not claim
               and (c.role == "warnings" or any(s <= c.start < e for s, e in starts))]
    subject = norm_text(claim.subject)
    for group in _entry_groups(doc, blocks):
        gtext = norm_text(" ".join(b.text for b in group))
        spans = [(b.start, b.end) for b in group]
        gclaims = [c for c in wclaims if any(s <= c.start < e for s, e in spans)]
        for c in gclaims:
            same_value = values_agree(c, claim, approx_rel=0.0)
            if same_value and (c.kind == claim.kind):
                # the same number; when both name their subject it must be the same one
                if not (subject and c.subject and norm_text(c.subject) != subject):
                    return True
        if subject and len(subject) >= 3 and subject in gtext:
            # the entity named in a caveat: covered when the caveat is about the entity as a
            # whole (no figure of its own) or repeats this figure loosely ('约 3 倍' for 3.1×)
            # (a whole-entity caveat must be an entry of its own, not any prose line that
            # happens to name the system)
            is_entry = group[0].entry is not None
            if (is_entry and not gclaims) or any(
                    c.kind == claim.kind and values_agree(c, claim, approx_rel=0.1) for c in gclaims):
                return True
    return False
