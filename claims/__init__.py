"""caveat's reading side: briefing text in, quantitative claims with context out.

    import claims
    claims.extract(text, path=None)   -> list[Claim]
    claims.analyze(text, path=None)   -> Analysis(document, claims, derivations)
    claims.read_document(path)        -> Analysis

Names are resolved lazily so that ``import claims.model`` (and the command line's
start-up) does not pay for markdown-it or the unit registry.
"""
from __future__ import annotations

__all__ = ["extract", "analyze", "read_document", "Analysis", "InputError"]


def __getattr__(name):
    if name in ("extract", "analyze", "read_document", "Analysis"):
        from . import api
        return getattr(api, name)
    if name == "InputError":
        from .errors import InputError
        return InputError
    raise AttributeError(f"module 'claims' has no attribute {name!r}")
