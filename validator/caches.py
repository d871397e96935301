"""What one run computes once and reads many times, in one named object.

A `caveat check` run compares every claim with many others (its document's, the corpus's):
the claim key groups of a document, the phases of its multi-figure statements, its
statements, the acknowledgement index of its warnings section, the real paths it cites,
and across the corpus the statements grouped by setup. ``Caches`` holds all of them. The
run builds one (``validator/run.py``) and hands it to the corpus, the claim ledger and
every rule's ``Context``; whoever needs a cached value asks it, so what depends on what
is visible where it is used, and a process that runs several checks (the language server)
starts each with a fresh one.

What depends only on a claim's own values (its interval, its normalized conditions) is not
here: ``validator/facts.py`` memoizes those by value, so no identity is involved.

Per-document entries are keyed by the analysis object and keep it alive for as long as the
caches live (an ``id()`` could otherwise be reused by a new object after the old one is gone).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass
class DocumentCaches:
    """What is computed once per analysed document (``validator/facts.py`` fills it)."""
    keyed: Optional[dict] = None        # facts.keyed_claims: claim key -> claims
    phases: Optional[dict] = None       # facts.phases: id(claim) -> 'from' | 'to' | 'i/n'
    statements: dict = field(default_factory=dict)   # approx_rel -> {id(claim): Statement}
    coverage: Optional[tuple] = None    # coverage._index: the warnings section's blocks and claims
    cited: Optional[set] = None         # real paths of every corpus file the document cites


class Caches:
    """The caches of one run: per document, and across the corpus."""

    def __init__(self):
        self._documents: dict = {}      # id(analysis) -> (analysis, DocumentCaches)
        # kinds/contradiction.py: a key's corpus statements by setup, and per setup of a
        # checked claim the corpus setups worth comparing with (the same for every claim of
        # one key stated under one setup)
        self.by_conditions: dict = {}
        self.comparable: dict = {}

    def of(self, analysis) -> DocumentCaches:
        """The caches of one analysed document (made on first use)."""
        got = self._documents.get(id(analysis))
        if got is None or got[0] is not analysis:
            got = self._documents[id(analysis)] = (analysis, DocumentCaches())
        return got[1]

    def forget(self, analysis) -> None:
        """Drop what was computed for ``analysis`` (its text changed)."""
        self._documents.pop(id(analysis), None)
