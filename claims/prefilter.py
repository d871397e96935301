"""Skipping a pattern's scan over a text that cannot hold one of its matches.

Performance machinery only: what a pattern matches is decided where it is written (the
vocabularies of claims/data/*.yaml); this module only tells, from the pattern itself, that a
whole text holds no match, so that the scan of that text (or of any range of it) is not run.

Why: a document's figure blocks are scanned with every condition facet's pattern (eleven of
them, ~13% of reading a file), and most documents name no request rate, no parallelism, no
output length...  Each pattern's matches all contain one of a few literal strings ('qps',
'并发', 'tp='...), as RE2's prefilters read them from the pattern: when the lower-cased
text contains none of them, the pattern cannot match anywhere in it.

How the strings are read (``required``): from the parsed pattern (``re``'s own parser), a
set of strings every match must contain one of — a literal run of the pattern, the union
of a branch's alternatives' sets, a repeated item's set when it must occur once; zero-width
assertions and anything not modelled (classes of many characters, '.', back-references)
require nothing.  Matching is compared lower-cased: for ASCII letters that is what
``re.IGNORECASE`` does, except for four non-ASCII characters it also folds onto them ('ı',
'İ', 'ſ', the Kelvin sign); a text holding one of those is always scanned
(``_FOLDS_ONTO_ASCII``), and a literal that is a cased non-ASCII letter requires nothing.
The sets are kept between processes with the parsed vocabularies (claims/data_cache.py).
"""
from __future__ import annotations

import re

from . import data_cache

try:                                    # Python 3.11+
    from re import _constants as _sc, _parser as _sp
except ImportError:                     # pragma: no cover - Python 3.10
    import sre_constants as _sc
    import sre_parse as _sp

# the repeat opcodes of this Python's compiler (3.10 has no possessive repeats)
_REPEATS = tuple(getattr(_sc, n) for n in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(_sc, n))
# the atomic group opcode, where the compiler has one (3.11+); None never equals an opcode
_ATOMIC = getattr(_sc, "ATOMIC_GROUP", None)

# characters re.IGNORECASE matches with an ASCII letter whose lower case is not that letter
_FOLDS_ONTO_ASCII = frozenset("\u0130\u0131\u017f\u212a")
_MAX_EXACT = 32         # alternatives kept while spelling out a short literal run
_MAX_CLASS = 8          # characters of a class spelled out as alternatives
_FORMAT = 2


class _Any(Exception):
    """Not modelled: the item may match anything (it requires nothing, and is no literal)."""


def _char(code: int) -> str:
    c = chr(code)
    if c.lower() != c.upper() and not c.isascii():
        raise _Any      # a cased non-ASCII letter: its case folding is not modelled here
    return c.lower()


def _exact(seq) -> set:
    """Every string ``seq`` can match, when it matches few and only literals, else _Any."""
    out = {""}
    for op, av in seq:
        if op is _sc.LITERAL:
            alts = {_char(av)}
        elif op is _sc.IN:
            alts = set()
            for iop, iav in av:
                if iop is _sc.LITERAL:
                    alts.add(_char(iav))
                elif iop is _sc.RANGE and iav[1] - iav[0] < _MAX_CLASS:
                    alts.update(_char(x) for x in range(iav[0], iav[1] + 1))
                else:
                    raise _Any
            if len(alts) > _MAX_CLASS:
                raise _Any
        elif op is _sc.SUBPATTERN:
            alts = _exact(av[3])
        elif op is _sc.BRANCH:
            alts = set().union(*(_exact(alt) for alt in av[1]))
        elif op in _REPEATS and av[1] <= 2:
            one = _exact(av[2])
            alts = {""} if av[0] == 0 else set()
            if av[1] >= 1:
                alts |= one if av[0] <= 1 else set()
            if av[1] == 2:
                alts |= {a + b for a in one for b in one}
        elif op in (_sc.AT, _sc.ASSERT, _sc.ASSERT_NOT):
            continue        # zero width
        else:
            raise _Any
        out = {a + b for a in out for b in alts}
        if len(out) > _MAX_EXACT:
            raise _Any
    return out


def _score(strings) -> tuple:
    """Better requirements first: longer shortest string, then fewer strings."""
    return (min(map(len, strings)), -len(strings))


def _need(seq):
    """A set of strings one of which every match of ``seq`` contains, or None."""
    best = None

    def offer(s):
        nonlocal best
        if s and "" not in s and (best is None or _score(s) > _score(best)):
            best = s

    run = {""}          # the strings of the items just before, spelled out together
    for item in seq:
        try:
            alts = _exact([item])
        except _Any:
            alts = None
        if alts is not None:
            joined = {a + b for a in run for b in alts}
            if len(joined) <= _MAX_EXACT:
                run = joined
                continue
        offer(run)      # the run ends here: a longer one would spell out too many strings
        run = alts if alts is not None else {""}
        if alts is not None:
            continue
        op, av = item
        if op is _sc.SUBPATTERN:
            offer(_need(av[3]))
        elif op is _ATOMIC:
            offer(_need(av))
        elif op is _sc.BRANCH:
            parts = [_need(alt) for alt in av[1]]
            if all(parts):
                offer(set().union(*parts))
        elif op in _REPEATS and av[0] >= 1:
            offer(_need(av[2]))
    offer(run)
    return best


def _shortest(strings) -> list:
    """The strings none of the others occurs in: a text holding one of ``strings`` holds one
    of these."""
    keep = []
    for s in sorted(strings, key=len):
        if not any(k in s for k in keep):
            keep.append(s)
    return sorted(keep)


def required(pattern: str, flags: int = 0):
    """The lower-cased strings one of which every match of ``pattern`` contains, sorted, or
    None when the pattern does not tell (or cannot be read here)."""
    def parse(raw):
        try:
            got = _need(_sp.parse(pattern, flags & ~re.UNICODE))
        except (re.error, TypeError, ValueError, RecursionError, OverflowError):
            got = None
        return [_FORMAT, _shortest(got) if got else None]
    # one name keys every pattern's entry: a new one must not drop the others
    kept = data_cache.load("prefilter-%d" % _FORMAT, f"{int(flags)}\0{pattern}".encode("utf-8"), parse,
                           one_version=False)
    return kept[1]


class Lowered:
    """A text lower-cased once for the prefilters of many patterns."""

    __slots__ = ("text", "low", "exotic")

    def __init__(self, text: str):
        self.text = text
        self.low = text.lower()
        self.exotic = not _FOLDS_ONTO_ASCII.isdisjoint(text)


_REQUIRED: dict = {}     # id(pattern) -> (pattern, strings or None)


def may_match(rx, lowered: Lowered) -> bool:
    """False only when ``rx`` (a compiled pattern) cannot match anywhere in the text."""
    got = _REQUIRED.get(id(rx))
    if got is None or got[0] is not rx:
        got = _REQUIRED[id(rx)] = (rx, required(rx.pattern, rx.flags))
    strings = got[1]
    if strings is None or lowered.exotic:
        return True
    low = lowered.low
    return any(s in low for s in strings)


_LAST = [None, None, None]      # [text, patterns asked, the ones that may match it]


def patterns_for(text: str, patterns) -> list:
    """The members of ``patterns`` (compiled, in their order) that may match somewhere in
    ``text``; the answer for the last text asked about is kept, since a document's blocks
    ask one after another."""
    if _LAST[0] is text and _LAST[1] is patterns:
        return _LAST[2]
    lowered = Lowered(text)
    got = [rx for rx in patterns if may_match(rx, lowered)]
    _LAST[:] = text, patterns, got
    return got
