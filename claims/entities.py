"""Recognise named systems, hardware and models (claims/data/entities.yaml).

``find_entities(text, start, end)`` returns mentions as (kind, canonical, start,
end, surface) with kind 'system' | 'hardware' | 'model'.  One compiled
alternation per kind, longest alias first, never inside a longer word, so a
scan is linear in the text.
"""
from __future__ import annotations

import bisect
import re
from functools import lru_cache

from ._data import load
from .model import Mention
from .pattern_cache import compile_re  # compiled once per machine, not per process

# ASCII letters and the characters re.IGNORECASE folds onto them (dotted and dotless i, long s,
# the Kelvin sign): the name patterns below are case-insensitive without that flag
_LETTER = "A-Za-z\u0130\u0131\u017f\u212a"
# what a name of the vocabularies can start with: a letter (or one that case-folds onto one),
# a digit, a CJK character ('昇腾'), π ('π0.5')
_NAME_START = r"(?=[%s0-9\u4e00-\u9fff\u03c0\u03a0])" % _LETTER
_WORD_BEFORE = r"(?<![%s0-9_.\-])" % _LETTER
_WORD_AFTER = r"(?![%s0-9_]|-[%s0-9]|\.[%s0-9])" % (_LETTER, _LETTER, _LETTER)


# ---- first-character guard -------------------------------------------------------------
# `re` scans a pattern without a literal prefix by trying it at every position; under
# IGNORECASE an alternation cannot skip its branches by their first letter, so each
# position enters every branch.  ``guarded`` puts a lookahead on the characters a match
# can begin with in front: same matches (the class is a superset of those characters,
# compiled with the same flags, and zero-width), about half the scanning time.
try:
    from re import _constants as _sc, _parser as _sp
except ImportError:        # pragma: no cover - another Python: patterns stay unguarded
    _sc = _sp = None


class _Unknown(Exception):
    """The pattern starts with something the guard does not model: leave it as is."""


def _cat(cat):
    table = {_sc.CATEGORY_DIGIT: r"\d", _sc.CATEGORY_NOT_DIGIT: r"\D", _sc.CATEGORY_SPACE: r"\s",
             _sc.CATEGORY_NOT_SPACE: r"\S", _sc.CATEGORY_WORD: r"\w", _sc.CATEGORY_NOT_WORD: r"\W"}
    if cat not in table:
        raise _Unknown
    return table[cat]


def _class_items(av, ch) -> list:
    """Class items (text) of an IN op's contents."""
    items = []
    for iop, iav in av:
        if iop is _sc.LITERAL:
            items.append(ch(iav))
        elif iop is _sc.RANGE:
            items.append(ch(iav[0]) + "-" + ch(iav[1]))
        elif iop is _sc.CATEGORY:
            items.append(_cat(iav))
        else:                    # a negated class: nearly any character
            raise _Unknown
    return items


def _lookbehind(av, ch):
    """The class (text) when ``av`` (an ASSERT_NOT's argument) is a look-behind at one
    character of a class, else None."""
    direction, p = av
    if direction != -1 or len(p) != 1:
        return None
    op, iav = p[0]
    if op is _sc.LITERAL:
        return ch(iav)
    if op is _sc.IN:
        try:
            return "".join(_class_items(iav, ch))
        except _Unknown:
            return None
    return None


def _first(seq, out, flags, held=None, same_b=True) -> bool:
    """Append to ``out`` (class item, held) for every character a match of ``seq`` can begin
    with; ``held`` is the zero-width test that stands before it on that path when the guard
    can repeat it: '\\b', or the class of a one-character look-behind such as
    '(?<![A-Za-z0-9_])'.
    True when ``seq`` can match the empty string (then what follows can begin it too).
    ``same_b``: a '\\b' here means what it means in the guard (no '(?a:…)' around it)."""
    ch = "\\U%08x".__mod__
    for op, av in seq:
        if op is _sc.LITERAL:
            out.append((ch(av), held))
            return False
        if op is _sc.IN:
            out.extend((item, held) for item in _class_items(av, ch))
            return False
        if op is _sc.BRANCH:
            empty = False
            for alt in av[1]:
                empty = _first(alt, out, flags, held, same_b) or empty
            if not empty:
                return False
        elif op is _sc.SUBPATTERN:
            if av[1] & re.IGNORECASE and not flags & re.IGNORECASE:
                raise _Unknown   # '(?i:…)' matches more than the class compiled without it
            # '(?a:…)', '(?L:…)', '(?u:…)' change what '\\b' and classes mean inside ('(?-i:…)' does not)
            inner = same_b and not (av[1] | av[2]) & ~re.IGNORECASE
            if not _first(av[3], out, flags, held, inner):   # '(?-i:…)', '(?a:…)' match fewer: still covered
                return False
        elif op is _sc.ATOMIC_GROUP:
            if not _first(av, out, flags, held, same_b):
                return False
        elif op in (_sc.MAX_REPEAT, _sc.MIN_REPEAT, _sc.POSSESSIVE_REPEAT):
            lo, hi, item = av
            if hi != 0 and not _first(item, out, flags, held, same_b) and lo > 0:
                return False
        elif op is _sc.AT and av is _sc.AT_BOUNDARY and same_b and held is None:
            held = "\\b"         # what follows can only begin where '\\b' holds
        elif op is _sc.ASSERT_NOT and same_b and held is None:
            # the guard is compiled with the pattern's flags: the class means the same there
            held = _lookbehind(av, ch)
        elif op in (_sc.ASSERT, _sc.ASSERT_NOT, _sc.AT):
            continue             # zero width: the next item begins the match
        else:                    # '.', back-references, conditionals...
            raise _Unknown
    return True


_GLOBAL_FLAGS = compile_re(r"\(\?[aiLmsux]+\)")


def guard_prefix(pattern: str, flags: int = 0) -> str:
    """The lookahead ``guarded`` puts before ``(?:pattern)``, or '' when the characters a
    match can begin with cannot be told from the pattern (see above).  A pattern that opens
    with global flags ('(?i)…') takes none: they must stay at the start."""
    if _GLOBAL_FLAGS.match(pattern):
        return ""
    if _sp is not None and not flags & re.VERBOSE:
        try:
            out = []
            if not _first(_sp.parse(pattern, flags), out, flags) and out:
                # characters only a path behind '\\b' or a look-behind can begin with are tested
                # with that condition: inside a word those paths are skipped without entering
                # the pattern
                # one class of every first character rejects most positions in a single test;
                # where it passes, the characters that need a condition are checked with it
                # (written after the character, '[abc](?<=\\b.)', so that every branch starts
                # with a class)
                by_held: dict = {}
                for c, h in out:
                    by_held.setdefault(h, {})[c] = None
                first = "(?=[%s])" % "".join(dict.fromkeys(c for c, _ in out))
                if set(by_held) == {None}:
                    return first
                parts = []
                for h, cs in sorted(by_held.items(), key=lambda kv: kv[0] is not None):
                    cls = "[%s]" % "".join(cs)
                    if h is None:
                        parts.append(cls)
                    elif h == "\\b":
                        parts.append(cls + "(?<=\\b(?s:.))")
                    else:
                        parts.append(cls + "(?<![%s](?s:.))" % h)
                return "%s(?=%s)" % (first, "|".join(parts))
        except (_Unknown, re.error, TypeError, ValueError, RecursionError):
            pass
    return ""


def guarded(pattern: str, flags: int = 0):
    """``re.compile(pattern, flags)``, scanning faster when the characters a match can begin
    with can be told from the pattern (see above); the matches, spans and groups are the same.
    The guard of a pattern caveat ships is read from claims/data/guards.json
    (claims/guard_cache.py) instead of parsing the pattern again in every process, and the
    compiled pattern from the cache of claims/pattern_cache.py."""
    from .guard_cache import prefix_of
    prefix = prefix_of(pattern, flags)
    if prefix:
        try:
            return compile_re("%s(?:%s)" % (prefix, pattern), flags)
        except re.error:
            pass        # '(?i)…': global flags must stay at the start, so no guard goes first
    return compile_re(pattern, flags)


# ---- case-insensitive alternations of literal names ----------------------------------------
# An alternation of ~100 names under re.IGNORECASE enters every branch at every position (sre's
# branch skip only works on case-sensitive first characters).  The same language written as a
# prefix tree with explicit case classes ('[vV][lL][lL][mM]') lets each position test one class
# per first character: about twice as fast.  ``_ci`` lists every character re.IGNORECASE lets an
# ASCII letter match (three letters have a non-ASCII partner: the Kelvin sign, long s, dotted
# and dotless i), so the matches are those of the IGNORECASE alternation of the same names.
_CASE_EXTRA = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}
_SEP = None     # a space in a name: '[\s\-]?' ('Ray Serve', 'Ray-Serve', 'RayServe')


def _ci(ch: str) -> str:
    if "a" <= ch.lower() <= "z":
        return "[" + ch.lower() + ch.upper() + _CASE_EXTRA.get(ch.lower(), "") + "]"
    if not ch.isascii() and ch.lower() != ch.upper():
        return "(?i:" + re.escape(ch) + ")"
    return re.escape(ch)


def ci_alternation(names) -> str:
    """A regex matching any of ``names`` case-insensitively (a space also matches '-' or
    nothing), written as a prefix tree.  Where two names match at one position the longer
    match is tried first, as the longest-first alternation it replaces did."""
    root: dict = {}
    for name in names:
        node = root
        for ch in str(name).lower():
            node = node.setdefault(_SEP if ch == " " else _ci(ch), {})
        node[""] = {}

    def emit(node) -> str:
        parts = [(r"[\s\-]?" if tok is _SEP else tok) + emit(child)
                 for tok, child in node.items() if tok != ""]
        if not parts:
            return ""
        body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
        if "" in node:       # a name ends here: longer names first (greedy), then this one
            return "(?:" + body + ")?" if len(parts) == 1 else body + "?"
        return body
    return emit(root)


# A chip the vocabulary does not know, named as a chip: 'M890 AI 芯片', 'the Maia 200 chip',
# 'Trainium3 accelerators' (a capitalised name with its number, then the chip word)
_CHIP = (r"(?-i:[A-Z][A-Za-z]{0,10}[\s-]?\d{2,4}[A-Za-z]?)"
         r"(?=\s?(?:AI\s?)?(?:芯片|加速卡|(?-i:[Cc]hips?|[Aa]ccelerators?)(?![A-Za-z])))")


# a desktop or laptop CPU by its model number ('Intel i7-13700H', 'Core i9-14900K', 'Core Ultra 7 155H',
# 'Ryzen 9 7950X'): the hardware of a CPU inference run
_CPU = (r"(?-i:(?:Core\s?)?i[3579][- ]\d{4,5}[A-Z]{0,3}|Core\s?Ultra\s?[579]\s?\d{3}[A-Z]{0,2}"
        r"|Ryzen\s?(?:[3579]|Threadripper)(?:\s?PRO)?\s?\d{4}[A-Z0-9]{0,3})")


# a cloud machine by its instance type ('Azure L16s_v3', 'Standard_ND96asr_v4', 'p4d.24xlarge',
# 'g5.xlarge', 'a3-highgpu-8g'): the hardware a cloud benchmark ran on
_CLOUD = (r"(?-i:(?:Standard_)?[A-Z]{1,3}\d{1,3}[a-z]{0,5}(?:_[A-Z]\d{2,3})?_v\d"
          r"|(?:p[2-6][a-z]{0,2}|g[4-6][a-z]{0,3}|inf[12]|trn[12][a-z]?|[cmr][5-8][a-z]{0,3}|i[34][a-z]{0,3})\.(?:metal|\d{0,2}x?large)"
          r"|(?:a[23]|g2|n[12]|c[23])-(?:highgpu|megagpu|ultragpu|standard|highmem|highcpu)-\d{1,3}g?)")


@lru_cache(maxsize=None)
def _tables():
    data = load("entities.yaml")
    sys_alias = {}
    for canon, aliases in (data.get("systems") or {}).items():
        for a in [canon] + list(aliases or []):
            sys_alias[str(a).lower()] = canon
    hw_alias = {}
    for canon, aliases in (data.get("hardware") or {}).items():
        for a in [canon] + list(aliases or []):
            hw_alias[str(a).lower()] = canon

    # case-insensitive without re.IGNORECASE: see ``ci_alternation``.  Each pattern opens with
    # a look-ahead of the characters a name can start with: a pattern that opens with a
    # look-behind has every one of its alternatives tried at every position of the text (the
    # model pattern took twice as long)
    sys_rx = guarded(_NAME_START + _WORD_BEFORE + "(?:" + ci_alternation(sys_alias) + ")" + _WORD_AFTER)
    # hardware: optional count '8×', '8x', '8 x ', '96 ' before, optional memory size after
    hw_rx = guarded(
        _NAME_START + r"(?<![%s0-9_])(?:(?P<n>\d{1,5})" % _LETTER + r"\s{0,3}(?:[×xX*]|块|张|卡|颗)?\s{0,3})?"
        r"(?:" + ci_alternation(["nvidia", "amd", "intel", "google"]) + r"\s{1,3})?"
        r"(?:" + ci_alternation(["instinct", "tesla", "geforce", "radeon"]) + r"(?:™|®)?\s{1,3})?"   # '8× AMD Instinct™ MI300X'
        r"(?P<hw>" + ci_alternation(hw_alias) + "|" + _CHIP + "|" + _CPU + "|" + _CLOUD + r")"
        r"(?:s(?![A-Za-z0-9_]))?"          # the plural English writes: 'on 8 H100s', 'A100s'
        r"(?:\s{0,3}(?:" + ci_alternation(["sxm"]) + r"\d?|" + ci_alternation(["pcie"]) + "|"
        + ci_alternation(["nvl"]) + r"\d*))?(?:\s{0,3}(?P<mem>\d{2,3})\s{0,3}" + _ci("g") + "(?:" + _ci("i")
        + "?" + _ci("b") + r")?)?"
        # '5090%' is a percent and '3090 tok/s' a throughput, not an RTX 5090 or 3090
        + r"(?![%s0-9_%%％]|\s?(?:%%|％|(?:tok(?:en)?s?|req(?:uest)?s?|samples?|images?)\s?/\s?s|ms(?![A-Za-z])))" % _LETTER)
    model_rx = guarded(_NAME_START + r"(?<![A-Za-z0-9_])(?:" + "|".join("(?:%s)" % p for p in data.get("models") or [])
                       + r")(?![A-Za-z0-9_])", re.IGNORECASE)
    return sys_alias, sys_rx, hw_alias, hw_rx, model_rx


def canonical_system(name: str):
    """Canonical system name for an alias, or None."""
    return _tables()[0].get(re.sub(r"[\s\-]+", " ", name.strip().lower())) or _tables()[0].get(name.strip().lower())


_SEP_RUN = compile_re(r"[\s\-]+")
_SQUASHED: dict = {}     # id(alias table) -> (table, {alias without spaces or hyphens: canonical})


def _canon_sys(surface: str, table: dict) -> str:
    key = surface.lower()
    if key in table:
        return table[key]
    got = _SQUASHED.get(id(table))
    if got is None or got[0] is not table:
        sq = {}
        for k, v in table.items():
            sq.setdefault(_SEP_RUN.sub("", k), v)      # the first alias wins, as the scan did
        got = _SQUASHED[id(table)] = (table, sq)
    return got[1].get(_SEP_RUN.sub("", key), key)


_META = compile_re(r"^Meta-")
_SEPS = compile_re(r"[-_ ]+")


@lru_cache(maxsize=4096)
def canonical_model(surface: str) -> str:
    # called for every model mention, and a corpus writes few distinct model names
    return _SEPS.sub(" ", _META.sub("", surface.strip()))


class Covered:
    """Membership 'x falls inside one of these (start, end) spans' in O(log n): the spans
    are merged once into disjoint sorted ranges, so a scan that skips matches inside
    names already found stays N log N instead of testing every name per match.  A handful
    of spans (a block naming its model and GPU) is kept as it is and tested in turn:
    cheaper than building the index."""

    __slots__ = ("starts", "ends", "few")
    FEW = 8

    def __init__(self, spans):
        spans = [(s, e) for s, e in spans if e > s]
        if len(spans) <= self.FEW:
            self.few = spans
            return
        self.few = None
        self.starts, self.ends = [], []
        for s, e in sorted(spans):
            if self.ends and s <= self.ends[-1]:
                if e > self.ends[-1]:
                    self.ends[-1] = e
            else:
                self.starts.append(s)
                self.ends.append(e)

    def __contains__(self, x) -> bool:
        few = self.few
        if few is not None:
            for s, e in few:
                if s <= x < e:
                    return True
            return False
        k = bisect.bisect_right(self.starts, x) - 1
        return k >= 0 and x < self.ends[k]


_FILE_EXT = compile_re(r"\.(?:md|markdown|mdx|txt|rst|py|ipynb|json|jsonl|ya?ml|toml|ini|cfg|sh|js|ts|go|rs|html?)(?![A-Za-z0-9])",
                       re.IGNORECASE)


def find_entities(text: str, start: int = 0, end=None, kinds=("system", "hardware", "model"), local=None) -> list:
    """[(kind, canonical, start, end, surface)] in text order. ``local`` (``local_pattern``)
    adds the systems one document names beside known ones (``Document.systems``)."""
    end = len(text) if end is None else end
    sys_alias, sys_rx, hw_alias, hw_rx, model_rx = _tables()
    out = []
    if "model" in kinds:
        for m in model_rx.finditer(text, start, end):
            if text.startswith(".", m.end()) and _FILE_EXT.match(text, m.end()):
                continue        # 'CLAUDE.md', 'gemini.py': a file named after a model
            if text.startswith("/", m.start() - 1) and m.group(0)[:1].islower() and _in_page_link(text, m.start()):
                continue        # '…/blog/posts/mysql-performance-1m-iobound-…': a page, not 'org/model'
            out.append(Mention("model", canonical_model(m.group(0)), m.start(), m.end(), m.group(0)))
    if "hardware" in kinds:
        # only the model names can hold a hardware match: earlier hardware matches end before it
        # (most blocks name no model: no index of spans is built for them)
        in_model = Covered((s, e) for _, _, s, e, _ in out) if out else ()
        for m in hw_rx.finditer(text, start, end):
            if in_model and m.start("hw") in in_model:   # 'Llama 3.1 8B' is not hardware
                continue
            hw = _canon_sys(m.group("hw"), hw_alias)
            if hw == m.group("hw").lower() and hw not in hw_alias:
                hw = m.group("hw")          # a chip named as one ('M890 AI 芯片'): as written
            n = m.group("n")
            # a bare number before a name is a count only with an explicit sign ('8×H100', '8 x H100') or
            # a plain '96 H100'; '4090' alone is the card itself
            value = f"{int(n)}×{hw}" if n and int(n) > 1 else hw
            out.append(Mention("hardware", value, m.start(), m.end(), m.group(0)))
    if "system" in kinds:
        taken = Covered((s, e) for _, _, s, e, _ in out) if out else ()
        for m in sys_rx.finditer(text, start, end):
            if taken and m.start() in taken:
                continue
            out.append(Mention("system", _canon_sys(m.group(0), sys_alias), m.start(), m.end(), m.group(0)))
        if local is not None:
            taken = Covered((s, e) for _, _, s, e, _ in out) if out else ()
            for m in local.finditer(text, start, end):
                if not (taken and m.start() in taken):
                    out.append(Mention("system", m.group(0).lower(), m.start(), m.end(), m.group(0)))
    if len(out) > 1:
        out.sort(key=_START)
    return out


# where a link's text starts: after a space, a bracket or a quote
_LINK_START = frozenset(" \t\n([<\"'（")


@lru_cache(maxsize=1)
def _model_hubs() -> tuple:
    return tuple(str(h).lower() for h in load("entities.yaml").get("model_hubs") or ())


def _in_page_link(text: str, pos: int) -> bool:
    """Is ``pos`` inside a link (``scheme://…``) to a host other than a model hub?"""
    lo = pos
    while lo > 0 and pos - lo < 300 and text[lo - 1] not in _LINK_START:
        lo -= 1
    token = text[lo:pos].lower()
    if "://" not in token:
        return False
    host = token.split("://", 1)[1].split("/", 1)[0]
    return not any(host == h or host.endswith("." + h) for h in _model_hubs())


def _START(t):
    return t[2]


# What may follow a block for a scan of the whole text to see the block as a scan of the
# block alone does: the names' look-aheads treat a line break, a space or a table pipe as
# they treat the end of the text.
_SPAN_END_OK = frozenset("\n\r \t|")


# Spans further apart than this are scanned separately: the one scan reads the text between
# spans too, and a document's prose between two bullets is no span's business.
SPAN_GAP = 64


class SpanIndex:
    """Sorted, disjoint spans (a document's blocks) indexed once for many scans: their starts,
    the runs of spans one scan may read together (gaps of at most SPAN_GAP characters), and
    the spans a joint scan cannot answer for whatever it finds (see ``_spread``)."""

    __slots__ = ("spans", "starts", "runs", "edge")

    def __init__(self, text: str, spans):
        self.spans = spans
        self.starts = [s for s, _ in spans]
        self.runs = []
        i = 0
        for k in range(1, len(spans) + 1):
            if k == len(spans) or spans[k][0] - spans[k - 1][1] > SPAN_GAP:
                self.runs.append((spans[i][0], spans[k - 1][1]))
                i = k
        n = len(text)
        self.edge = frozenset(i for i, (_, e) in enumerate(spans) if e < n and text[e] not in _SPAN_END_OK)


def _spread(index: SpanIndex, scan, span_of) -> tuple:
    """({span index: [items of ``scan(lo, hi)`` lying in that span]}, spans to scan alone),
    scanning once per run of ``index``'s spans.  An item lying in one span is that span's; a
    span an item runs over the edge of, or that ends before a character other than a line
    break, space or pipe (the vocabularies' look-aheads treat those as the end of the text),
    is left to be scanned alone: the one scan cannot answer for it."""
    out: dict = {}
    spans, starts = index.spans, index.starts
    alone = set(index.edge)
    right = bisect.bisect_right
    for lo, hi in index.runs:
        for item in scan(lo, hi):
            s, e = span_of(item)
            i = right(starts, s) - 1
            if i >= 0 and e <= spans[i][1]:
                if s < spans[i][1] or s == e:
                    got = out.get(i)
                    if got is None:
                        out[i] = [item]
                    else:
                        got.append(item)
                continue        # between two spans: no span's business
            # over an edge: every span it touches is read alone
            j = max(i, 0)
            while j < len(spans) and spans[j][0] < e:
                if spans[j][1] > s:
                    alone.add(j)
                j += 1
    return out, alone


def matches_in_spans(rx, text: str, index: SpanIndex) -> tuple:
    """({span index: matches of ``rx.finditer(text, s, e)``}, spans to scan alone), from one
    scan per run of spans (see ``_spread``)."""
    return _spread(index, lambda lo, hi: rx.finditer(text, lo, hi), _SPAN)


def _SPAN(m):
    return m.span()


def _ENT_SPAN(ent):
    return ent[2], ent[3]


@lru_cache(maxsize=64)
def local_pattern(names: tuple):
    """The pattern of a document's own system names (``Document.systems``), or None."""
    if not names:
        return None
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return compile_re(r"(?<![\w.-])(?:%s)(?![\w-])" % alts)


def find_entities_in_spans(text: str, spans, kinds=("system", "hardware", "model"), index=None, local=None) -> list:
    """``[find_entities(text, s, e, kinds) for s, e in spans]`` for sorted, disjoint spans
    (a document's blocks), from one scan per run of spans instead of one per span: a
    document of 60 bullets paid the start of each scan 60 times.  A span the one scan cannot
    answer for exactly (see ``_spread``) is scanned alone, as before."""
    got, alone = _spread(index if index is not None else SpanIndex(text, spans),
                         lambda lo, hi: find_entities(text, lo, hi, kinds, local), _ENT_SPAN)
    out = [got.get(i, []) for i in range(len(spans))]
    for i in alone:
        out[i] = find_entities(text, spans[i][0], spans[i][1], kinds, local)
    return out
