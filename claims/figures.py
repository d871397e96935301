"""Lexical figure recognition: every quantitative figure in a span of text.

    find_figures(text, start=0, end=None, masked=()) -> list[Claim]

A single left-to-right pass over each unmasked piece of the span: two cheap `regex`
scans find anchors (digit runs, Chinese numerals, currency signs, number words; URLs,
arXiv ids, versions and HTML tags to skip), the figure pattern (built once from
claims/data/figure_words.yaml) is matched only at those anchors, and the words written
before a figure (approximations, bounds, 'between') are matched backwards from its
start.  Each candidate is read in Python -- number, scale, unit, range, bound,
approximation, sign -- normalized with claims.units, and dropped when it is lexically
recognizable as not a claim.  Every `regex` call carries a timeout; all quantifiers that
could backtrack are possessive or atomic, so time is linear in the input.

What is deliberately NOT a claim (and why):
  * dates, times, arXiv ids, versions (``v0.6.0``, ``1.2.3``, ``Dynamo1.0``): the
    pattern consumes them first, so no number inside them is read;
  * numbers glued to an identifier (``Qwen2.5-7B``, ``GLM-4.5``, ``SM120``,
    ``b10327``), after ``#``, ``§``, ``×`` (``Bug ×4``) or ``第`` (ordinals);
  * ``8×H100`` / ``8x H100`` (a hardware count), ``A100 80GB`` (a hardware name);
  * bare numbers without a unit or noun (``TGI 3.2``, ``增量 1``, ``~13`` in a
    table, ``### 1.``) unless they carry a thousands separator, a scale word
    (``3 亿``, ``2 million``), a bound (``超过 300``) or a range word (``between``);
  * sizes and lengths that are conditions, not results: a bare glued ``8B`` /
    ``70B`` / ``128K`` / ``200B+`` (model size, context length), ``8K token`` /
    ``8K-token inputs`` / ``1M-token context`` when it names an input or context length,
    ``4-bit`` (precision).  Decision: these are left to claims.context as conditions
    (facets model / context_length / precision) and never emitted as claims;
  * small bare numbers even after a bound written as a symbol or in words
    (``TP > 1``, ``4+ PRs``, ``more than one``), dates such as ``08-09``, ``N:1`` ratios,
    estimates (``数十 GB``, ``a few thousand``, ``二三十``), bare orders of magnitude
    (``每百万 Token``).
Offsets are absolute and ``text[c.start:c.end] == c.surface`` always holds.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

import regex

from claims import numerals, units
from claims.markdown import arrow_head, quote_marker
from claims.model import Claim
from claims.pattern_cache import compile_regex
from .pattern_cache import compile_re  # compiled once per machine, not per process

_TIMEOUT = 5.0          # seconds per piece; a pathological input degrades to no figures
# The figure pattern and its reverse prefix need `regex` (reverse matching, repeated group
# names) and run with a timeout.  The small fixed patterns below are linear (possessive runs,
# bounded windows) and use `re`: a `regex` call costs 2-3x more, and they run for every block
# and every figure.
_SP = r"[ \t\u00a0\u2009\u202f]"
_SP_CHARS = frozenset(" \t\u00a0\u2009\u202f")     # the characters of _SP


def _trie(items):
    """A regex matching exactly the given literals, factored by common prefix, longest first.
    Alternations of hundreds of literals are slow to try in `regex`; a trie fails fast."""
    root = {}
    for it in items:
        d = root
        for ch in it:
            d = d.setdefault(ch, {})
        d[""] = {}

    def emit(d):
        alts = []
        for ch in sorted((c for c in d if c), key=lambda c: -_depth(d[c])):
            e = _SP + "+" if ch == " " else regex.escape(ch)
            alts.append(e + emit(d[ch]))
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:%s)" % "|".join(alts)
        return "(?:%s)?" % body if "" in d else body
    return emit(root)


def _depth(d):
    return 1 + max((_depth(v) for v in d.values()), default=0)


def _alt(items, word=False, left=True):
    """Alternation of literal items, longest first.  Items ending in an ASCII letter or
    digit must not run on into another one ('ms' is not the start of 'msg'); items
    starting with an ASCII letter need a letter boundary on the left too (left=False
    where a number always precedes)."""
    groups = {}
    # items of one length in a fixed order (not the set's, which changes from process to
    # process): the pattern is then the same text in every process and its compiled code can
    # be kept (claims/pattern_cache.py); two literals of one length never both match at a place
    for it in sorted(set(items), key=lambda it: (-len(it), it)):
        lead = left and it[:1].isascii() and it[:1].isalpha()
        tail = it[-1:].isascii() and (it[-1:].isalnum() or it[-1:] == ".")
        groups.setdefault((lead, tail), []).append(it)
    parts = []
    for (lead, tail), es in sorted(groups.items()):
        parts.append("%s(?:%s)%s" % (r"(?<![A-Za-z])" if lead else "", "|".join(
            _cap(e) if word else _lit(e) for e in es),
                                     r"(?![A-Za-z0-9])" if tail else ""))
    return "(?:%s)" % "|".join(parts)


def _lit(e):
    return regex.escape(e).replace(r"\ ", _SP + "+")


def _cap(e):
    """A word as written in lower case or capitalized ('tokens', 'Tokens', 'About').
    Spelled out instead of (?i:...): case-insensitive alternations made every match
    attempt in `regex` several times slower."""
    e = e.lower() if e.upper() != e else e      # keep all-caps words (QPS) as they are
    if e[:1].isascii() and e[:1].isalpha():
        return "[%s%s]%s" % (e[0], e[0].upper(), _lit(e[1:]))
    return _lit(e)


def _caps(words):
    """'|'-separated words -> alternation of _cap forms."""
    return "|".join(_cap(w) for w in sorted(words.split("|"), key=len, reverse=True))


@lru_cache(maxsize=1)
def _tables():
    w = units.words()
    sym, wrd, kinds = units.alias_table()
    # Ratio signs must not be followed by a letter, digit or space+digit ('8xH100', '2 x 3').
    ratio_signs = {"×", "✕", "x", "X"}
    prefix_only = {"$", "US$", "¥", "￥", "€", "£"}
    plain_syms = [a for a in sym if a not in ratio_signs and a not in kinds and a not in prefix_only]
    unit_re = "(?:%s|%s|%s|(?P<cnpct>成半|成|折)|(?:[×✕xX](?![A-Za-z0-9_])(?!%s?[0-9０-９])))" % (
        _alt(plain_syms, left=False), _alt(wrd, word=True, left=False), _alt(["倍"]), _SP)
    scales = {k: float(v) for k, v in w["scales"]["symbols"].items()}
    scales_words = {k.lower(): float(v) for k, v in w["scales"]["words"].items()}
    # 千 is a scale in '3千' but a prefix in '12千米', '2.3千克', '6千字节'.
    scale_re = "(?:%s|%s)" % (
        "|".join(regex.escape(s) + (r"(?![A-Za-z])" if s.isascii() else r"(?![米克字比瓦焦])")
                 for s in sorted(scales, key=len, reverse=True)),
        _alt(scales_words, word=True))
    bound_before = {a: k for k, v in w["bound_before"].items() for a in v}
    bound_after = {a: k for k, v in w["bound_after"].items() for a in v}
    return dict(unit_re=unit_re, scale_re=scale_re, scales=scales, scales_words=scales_words,
                bound_before=bound_before, bound_after=bound_after, sym=sym, wrd=wrd)


DIG = "[0-9０-９]"
NUM_FRAC = r"(?>(?:[0-9]{1,3}[ \t])?[1-9]/(?:1[0-2]|[2-9])(?![0-9/])|(?:[0-9]{1,3}[ \t]?)?[½¼¾⅓⅔⅛])"
_VULGAR = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3, "⅛": 0.125}
NUM_AR = (r"(?>{d}{{1,3}}(?:[,，]{d}{{3}})++(?!{d})|{d}++)(?:[.．]{d}++)?+(?![.．]{d})(?!{d})"
          ).format(d=DIG)
CN_NUM = "(?>[{c}]++(?:{sp}++[{c}]++)*+)".format(c=numerals.CN_CHARS, sp="[ \t\u00a0\u2009\u202f]")
EN_ATOM = ("zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
           "fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|"
           "sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen")
EN_NUM = (r"(?:(?<![A-Za-z])(?:[aA]n?%s+(?=hundred|thousand|million|billion|half|quarter|dozen))?"
          r"(?:%s)(?:(?:(?<=hundred|thousand|million|billion)%s+and%s+|[-%s]+)(?:%s))*+(?![A-Za-z]))"
          % (_SP, _caps(EN_ATOM + "|half|quarter"), _SP, _SP, _SP.strip("[]"),
             _caps(EN_ATOM + "|halves|half|quarters|quarter")))

VERSION_LIKE = compile_re(r"[0-9]{1,2}\.[0-9]")

# Spans that contain digits but are never figures; matched first and skipped.
SKIP = "|".join([
    r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>\n]{0,400})?/?>",
    r"(?i:https?://|www\.)[^\s<>()（）\[\]\"'，。]+",
    r"(?<![0-9.])(?:19|20)[0-9]{2}(?:[-/](?:0?[1-9]|1[0-2])(?:[-/](?:[0-2]?[0-9]|3[01]))?(?![0-9.])|\.(?:0?[1-9]|1[0-2])\.(?:[0-2]?[0-9]|3[01])(?![0-9])|年(?:(?:0?[1-9]|1[0-2])月(?:(?:[0-2]?[0-9]|3[01])[日号])?)?)",
    r"(?<![0-9])(?:0?[1-9]|1[0-2])月(?:[0-2]?[0-9]|3[01])?[日号]?",
    r"(?<![0-9])[0-2]?[0-9]:[0-5][0-9](?::[0-5][0-9])?(?:\s?[ap]\.?m\.?)?",
    r"(?i:arxiv:?\s*)?(?<![0-9.,])[0-9]{2}(?:0[1-9]|1[0-2])\.[0-9]{4,5}(?:v[0-9]+)?(?![0-9])",
    r"(?<![A-Za-z0-9])[vV][0-9]+(?:\.[0-9]+)*",
    r"(?<![0-9.])[0-9]+(?:\.[0-9]+){2,}",
])


# Words that open a range before its first number ('between 2 and 5', '从 2 到 5'): read by
# the reverse prefix pattern and by the prefix precheck (_prefix_last).
_BTW_EN = ("between", "from")
_BTW_ZH = ("在", "介于", "位于", "从", "由")


def _build_pattern():
    t = _tables()
    w = units.words()
    approx = _alt(w["approx_before"], word=True)
    bound = _alt(t["bound_before"], word=True)
    filler = _alt(w["filler"])
    approx_after = _alt(w["approx_after"], word=True)
    bound_after = _alt([a for a in t["bound_after"] if a != "+"], word=True)
    conn = _alt(w["range_connectors"], word=True)
    U, S = t["unit_re"], t["scale_re"]
    num = r"(?:%s|%s|%s|%s)" % (NUM_FRAC, NUM_AR, CN_NUM, EN_NUM)
    cur = r"(?:US\$|\$|¥|￥|€|£)"
    # A figure may not start inside an identifier, a number, after '#', '§', '×'.
    # ('ChatGLM**2**-6B': a name with emphasis inside it is still the name)
    guard = r"(?<![A-Za-z0-9_.．#§@×✕^])(?<![A-Za-z0-9][-–_/:])(?<![A-Za-z0-9]\*\*[-–_])"
    sign = r"(?:(?<![A-Za-z0-9])[-−－](?=%s)|负|(?:[mM]inus|[nN]egative)%s+)" % (DIG, _SP)
    per = (r"(?P<per>%s?(?:/|%s+per%s+)(?:1%s?)?(?P<perscale>M|K|million|thousand)?%s?"
           r"(?P<pernoun>tokens?|toks?|hours?|hr|h|GPU-hours?|GPU-hr|requests?|reqs?|images?|months?|mo)(?![A-Za-z]))"
           % (_SP, _SP, _SP, _SP, _SP))
    # Sub-patterns are pasted in, not called as (?&NAME) subroutines: subroutine calls
    # made every match ~3x slower for ~100 ms less compile time.
    subs = {"NUM": num, "UNIT": U, "SCALE": S, "SIGN": sign, "CUR": cur}
    # The figure itself, matched at an anchor (see _anchor_pattern).
    core = r"""
    (?P<special>翻倍|翻番|翻了一番|倍增|减半|(?<![A-Za-z])(?:[tT]wice|[dD]oubled|[hH]alved)(?![A-Za-z]))
    |
    (?P<pof>(?<![A-Za-z])(?:[pP]ercents?|[pP]er{sp}cent){sp}+of{sp}+)(?P<n3>(?&NUM))
    |
    {guard}
    (?P<cur>(?&CUR){sp}?)?
    (?:(?P<pct>[百佰千仟万萬]{{1,3}}{sp}*分{sp}*之){sp}*)?
    (?P<sign>(?&SIGN))?
    (?P<n1>(?&NUM))
    (?:{sp}?(?P<sc1>(?&SCALE)))?
    (?:(?:{sp}{{0,4}}|-)(?P<u1>(?&UNIT)))?
    (?:
      {sp}*(?P<conn>{conn}|and|和|与|跟){sp}*
      (?P<cur2>(?&CUR){sp}?)?
      (?P<sign2>(?&SIGN))?
      (?P<n2>(?&NUM))
      (?:{sp}?(?P<sc2>(?&SCALE)))?
    )?
    (?:(?:{sp}{{0,4}}|-)(?P<unit>(?&UNIT)))?
    (?P<half>半)?
    {per}?
    (?P<btwend>{sp}?(?:之间|间))?
    (?P<post>{sp}?(?:(?P<papprox>{approx_after})|(?P<pbound>{bound_after})(?!{sp}*(?:than|to)(?![A-Za-z]))(?P<sc3>(?&SCALE))?)|(?P<pbound2>\+)(?![0-9０-９]))?
    """.format(guard=guard, sp=_SP, conn=conn, per=per,
               approx_after=approx_after, bound_after=bound_after)
    for name, body in subs.items():
        core = core.replace("(?&%s)" % name, body)
    # Words written before the figure, read backwards from its start ((?r): reverse match).
    prefix = r"""(?r)
    (?:(?P<btw>(?<![A-Za-z])(?:{btw_en})|{btw_zh}){sp}*)?
    (?:(?<![<>=])(?P<bound>{bound}){sp}*(?:{filler}{sp}*)?)?
    (?:(?P<approx>{approx}){sp}*)?
    (?:(?<![<>=])(?P<bound2>{bound}){sp}*)?
    """.format(sp=_SP, bound=bound, filler=filler, approx=approx, btw_en="|".join(_cap(w) for w in _BTW_EN), btw_zh="|".join(_BTW_ZH))
    # ~70 ms to compile: kept between processes by claims/pattern_cache.py
    return (compile_regex(core, regex.VERBOSE | regex.V0),
            compile_regex(prefix, regex.VERBOSE | regex.V0))


# Where a figure can start: a digit run, a Chinese numeral run, a currency sign, a sign,
# a number word, 翻倍-like words; and where a non-claim starts (URL, arXiv id, version).
# Scanning anchors first and matching the full pattern only there keeps the pass fast:
# the full pattern tried at every position runs at ~20 KB/s, anchors at several MB/s.
_CN_ANCHOR = numerals.CN_CHARS.replace("点", "").replace("點", "")
ANCHOR_NUM = compile_re(
    # a digit run right after a letter, digit, '.', '#', '§', '×'... is part of an
    # identifier, a version or a longer number: not an anchor; nor after 'EAGLE-', 'x_',
    # '3/' (the figure pattern's guard refuses to start there); a sign only where the
    # figure pattern's sign can start ('EAGLE-3' holds neither)
    r"[%s½¼¾⅓⅔⅛$¥￥€£负翻倍]+|(?<![A-Za-z0-9_.．#§@×✕^])(?<![A-Za-z0-9][-–_/:])[0-9０-９]+"
    r"|(?<![A-Za-z0-9])[-−－](?=[0-9０-９])|US\$|<(?=[A-Za-z/])"
    % _CN_ANCHOR)
# Number words and other word anchors.  Found by scanning ASCII words and looking them
# up in a set: an alternation of ~100 literals in `regex` was the slowest part of the scan.
_WORDS = f"{EN_ATOM}|half|quarter|minus|negative|percent|percents|twice|doubled|halved|per".split("|")
_WORD_ANCHORS = frozenset([v for w in _WORDS for v in (w, w.capitalize())]
                          + ["http", "https", "HTTP", "HTTPS", "www", "arxiv", "arXiv", "ARXIV"])
_ARTICLE_NEXT = compile_re(r"[ \t]+(?:hundred|thousand|million|billion|half|quarter|dozen)(?![A-Za-z])")
WORD_RE = compile_re(r"[A-Za-z]+")


def _word_anchors(text, ps, pe):
    out = []
    for m in WORD_RE.finditer(text, ps, pe):
        w = m.group()
        if w in _WORD_ANCHORS:
            out.append(m.start())
        elif w in ("a", "an", "A", "An"):
            if _ARTICLE_NEXT.match(text, m.end(), pe):
                out.append(m.start())
        elif w in ("v", "V") and m.end() < pe and text[m.end()].isdigit():
            out.append(m.start())
    return out


def _anchors(text, ps, pe):
    """Anchor positions in order: numbers and signs from one scan, words from another."""
    nums = [m.start() for m in ANCHOR_NUM.finditer(text, ps, pe)]
    words = _word_anchors(text, ps, pe)
    if not words:
        return nums
    return sorted(nums + words)


SKIP_RE = compile_re(SKIP)


@lru_cache(maxsize=1)
def pattern():
    """(core pattern, reverse prefix pattern), compiled once per process."""
    return _build_pattern()


@lru_cache(maxsize=8)
def _names(pat):
    """Group names of a pattern in group-number order (unnamed groups get None)."""
    names = [None] * pat.groups
    for name, i in pat.groupindex.items():
        names[i - 1] = name
    return tuple(names)


class _Cand:
    """A figure candidate: the core match plus the prefix words matched backwards."""
    __slots__ = ("core", "pre", "string", "gd")
    PRE = frozenset(("btw", "bound", "approx", "bound2"))
    NO_PRE = {"btw": None, "bound": None, "approx": None, "bound2": None}

    def __init__(self, core, pre):
        self.core, self.pre, self.string = core, pre, core.string
        # one C-level call for every group instead of ~25 Python-level group() calls
        # m.groups() is ~100x faster than m.groupdict() in `regex`
        self.gd = dict(zip(_names(core.re), core.groups()))
        if pre is not None:
            self.gd.update(zip(_names(pre.re), pre.groups()))
        else:
            self.gd.update(self.NO_PRE)

    def group(self, name=0):
        if name == 0:
            return self.string[self.start():self.end()]
        return self.gd[name]

    def start(self, name=None):
        if name is None:
            return self.pre.start() if self.pre is not None else self.core.start()
        return (self.pre if name in self.PRE else self.core).start(name)

    def end(self, name=None):
        if name is None:
            return self.core.end()
        return (self.pre if name in self.PRE else self.core).end(name)


_NUM_FAST = compile_re(r"[0-9]+(?:\.[0-9]+)?")


@lru_cache(maxsize=1)
def _cont_first():
    """Every character that can follow a number inside a figure (first characters of
    units, scales, connectors, post words...).  A number followed by anything else is
    bare: it needs no full match unless a bound word precedes it."""
    t = _tables()
    w = units.words()
    words = (list(t["sym"]) + list(t["wrd"]) + list(w["scales"]["symbols"]) + list(w["scales"]["words"])
             + list(w["range_connectors"]) + list(w["approx_after"]) + list(t["bound_after"])
             + ["and", "半", "成", "折", "倍", "之", "间", "/", "per", "×", "✕", "x", "X", "和", "与", "跟",
                "-", ".", ",", "，", "．", "0123456789０１２３４５６７８９½¼¾⅓⅔⅛"])
    out = set()
    for x in words:
        if x:
            out.add(x[0])
            out.add(x[0].upper())
            out.add(x[0].lower())
    out.update("0123456789０１２３４５６７８９")
    return frozenset(out)





@lru_cache(maxsize=1)
def _prefix_last():
    """Every character a word of the prefix pattern (range start, bound, filler,
    approximation) can end with: a figure whose nearest character before it (spaces
    skipped) is none of them has no prefix, and the backwards match is not tried."""
    t = _tables()
    w = units.words()
    words = list(_BTW_EN) + list(_BTW_ZH) + list(t["bound_before"]) + list(w["approx_before"]) + list(w["filler"])
    return frozenset(x[-1] for x in words if x)


def _may_have_prefix(text, lo, p) -> bool:
    j = p
    while j > lo and text[j - 1] in _SP_CHARS:
        j -= 1
    return j > lo and text[j - 1] in _prefix_last()


def _candidates(text, ps, pe, names=None):
    """Figure candidates in text[ps:pe], left to right, never overlapping.  No candidate
    starts inside ``names`` (a ``Covered`` of entity spans, or None)."""
    core, prefix = pattern()
    cont = _cont_first()
    last = ps
    for p in _anchors(text, ps, pe):
        if p < last or (names is not None and p in names):
            continue
        f = _NUM_FAST.match(text, p, pe)
        if f is not None:
            # fast path for the common bare number ('| 50,302 |', '(#17557)', 'in 2009 the')
            q = f.end()
            r = q
            while r < pe and r - q < 4 and text[r] in " \t":
                r += 1
            if r >= pe or text[r] not in cont:
                lo = max(ps, p - 48)
                pm = prefix.match(text, lo, p) if _may_have_prefix(text, lo, p) else None
                if (pm is None or not (pm.group("bound") or pm.group("bound2"))) \
                        and not _is_score(text, p, text[p:q]):
                    last = q
                    continue
        sk = SKIP_RE.match(text, p, pe)
        if sk is not None and sk.end() > p:
            last = sk.end()
            continue
        cm = core.match(text, p, pe, timeout=_TIMEOUT)
        if cm is None:
            continue
        last = cm.end()
        pre = None
        if cm.group("special") is None and cm.group("pof") is None:
            lo = max(ps, p - 48)
            if _may_have_prefix(text, lo, p):
                pm = prefix.match(text, lo, p)
                if pm is not None and pm.start() < p and not quote_marker(text, pm.start(), p) \
                        and not arrow_head(text, pm.start(), p):
                    pre = pm
        yield _Cand(cm, pre)


@lru_cache(maxsize=1)
def _cues():
    w = units.words()
    neg_b = compile_re(r"(?:%s)%s*(?:了|by|约|近|达)?%s*$" % (
        _alt(w["negative_before"], word=True), _SP, _SP))
    neg_a = compile_re(r"^%s*(?:的)?%s*(?:%s)" % (_SP, _SP, _alt(w["negative_after"], word=True)))
    return neg_b, neg_a


# Context cues that make a K/M-scaled token count a condition (input or context length).
_CTX_BEFORE = compile_re(r"(?i:context|input|prompt|window|sequence|seq|length|上下文|输入|序列|长度|窗口)[^。；;\n]{0,12}$")
_CTX_AFTER = compile_re(r"^[-\s]*(?i:tokens?)?[-\s]*(?i:context|input|prompt|window|sequence|上下文|输入|窗口)")
_HW_AFTER = compile_re(r"^%s?(?:[A-Z]{1,4}[0-9]{2,4}[A-Za-z]*|(?i:gpus?\b|nodes?\b|卡))" % _SP)
# what a multiple of a named card measures, right after its name ('× H100 HBM bandwidth', '× H100 80GB memory')
_HW_QUANTITY = compile_re(r"(?:\s?(?:SXM\d?|PCIe|\d{2,3}\s?GB|HBM\d?e?|'s|’s))*\s?(?i:(?:memory\s)?bandwidth|memory|capacity|performance|perf(?:/W)?|throughput|compute|FLOPS|speed|带宽|显存|性能|算力|吞吐)")
_HW_BEFORE = compile_re(r"(?:[A-Z]{1,4}[0-9]{2,4}[A-Za-z]*)%s?$" % _SP)
_RATIO_NOTATION = compile_re(r"(?:[:：]|%s*比%s*|-to-)[0-9]" % (_SP, _SP))
_FEW_BEFORE = compile_re(r"(?:few|several|many|dozens of|hundreds of|thousands of)%s+$" % _SP)


def unit_given(g):
    return bool(g("u1") or g("unit") or g("cur") or g("pct"))


_LEADING_ZERO = compile_re(r"[0０][0-9０-９]")
_TENS_OF_BEFORE = compile_re(r"(?:数|几|好几|上)$")
# What a bare fraction can score: 'agreement 0.91', 'F1 of 0.87', '相关系数 0.93', 'Kappa：0.81'
_SCORE_WORD = compile_re(r"(?:agreement|accuracy|score|F1|AUC|ROC|correlation|kappa|Pearson|Spearman|BLEU|ROUGE|"
                         r"precision|recall|similarity|win rate|一致率|一致性|准确率|得分|分数|相关系数|相关性|相似度|胜率)"
                         r"[^0-9\n。；;|]{0,24}$", re.IGNORECASE)
_FRACTION = compile_re(r"0\.\d{2,4}$")


_SCORE_PAIR = compile_re(r"0\.\d{2,4}\s{0,3}(?:to|→|->|到|至|降至|升至|vs\.?)\s{0,3}$")


def _is_score(text, start, n1s) -> bool:
    """A bare fraction (0.87) right after the word for what it scores, or after another such
    fraction it moves from ('agreement fell from 0.89 to 0.81'): a quality figure."""
    if not _FRACTION.match(n1s):
        return False
    if _SCORE_PAIR.search(text, max(0, start - 16), start):
        return _is_score(text, text.rfind("0.", max(0, start - 16), start), "0.00")
    return bool(_SCORE_WORD.search(text, max(0, start - 40), start))


_ORDINAL_BEFORE = compile_re(r"(?:第|No\.|no\.|#|Top|top|TOP)%s?$" % _SP)
_FROM_BEFORE = compile_re(r"(?i:from|从|由)")
_LIST_SEP = compile_re(r"^%s*[/／、]%s*$" % (_SP, _SP))
_COMPOUND_SEP = compile_re(r"^(?:%s*(?:,|，|、|and|but|且|并且|并|同时|的同时|而且)?%s*)$" % (_SP, _SP))

_BIG_SCALE_WORDS = {"万", "萬", "亿", "億", "十万", "百万", "千万", "万亿", "千", "thousand", "million",
                    "billion", "trillion", "lakh", "crore"}


def _parse_num(s):
    """(value, decimals, style) for a number as written; style 'ar' | 'cn' | 'en'."""
    c = s[:1]
    if "/" in s or s[-1:] in _VULGAR:
        whole, _, fr = s.rpartition(" ") if " " in s or "\t" in s else ("", "", s)
        if fr[-1:] in _VULGAR:
            whole, fr = (whole + fr[:-1]).strip(), fr[-1]
            f = _VULGAR[fr]
        else:
            a, b = fr.split("/")
            f = float(a) / float(b)
        return (float(whole) if whole else 0.0) + f, 0, "frac"
    if c.isdigit():
        v, d = numerals.parse_arabic(s)
        return v, d, "ar"
    if c in numerals.CN_CHARS:
        v, d = numerals.parse_chinese(s)
        return v, d, "cn"
    v, d = numerals.parse_english(s)
    return v, d, "en"


def _scale(s):
    if not s:
        return 1.0
    t = _tables()
    return t["scales"].get(s) or t["scales_words"].get(s.lower(), 1.0)


def _unit_of(u):
    """(canonical unit, kind) for a unit alias as written."""
    if u is None:
        return None, None
    u = " ".join(u.split())
    if u in ("成", "成半", "折"):
        return "percent", "percent"
    if u in ("×", "✕", "x", "X", "倍") or u.lower() in ("times", "fold"):
        return "dimensionless", "ratio"
    cu = units.canonical(u)
    return cu, units.kind_of(cu)


def _is_sep_number(s):
    return "," in s or "，" in s


class _Ctx:
    __slots__ = ("text", "list_seq")

    def __init__(self, text):
        self.text = text
        self.list_seq = 0


def find_figures(text, start=0, end=None, masked=(), names=None):
    """Every figure in text[start:end], skipping the absolute ranges in `masked`; with
    ``names`` (a ``claims.entities.Covered`` of model and hardware names), no figure starts
    inside a name: the '3.1' and '70B' of 'Llama 3.1 70B', the '80GB' of 'A100 80GB'."""
    if end is None:
        end = len(text)
    start = max(0, start)
    end = min(len(text), end)
    pieces = []
    cur = start
    for ms, me in sorted(masked):
        if me <= cur or ms >= end:
            continue
        if ms > cur:
            pieces.append((cur, ms))
        cur = max(cur, me)
    if cur < end:
        pieces.append((cur, end))
    out = []
    ctx = _Ctx(text)
    for ps, pe in pieces:
        try:
            for m in _candidates(text, ps, pe, names):
                try:
                    out.extend(_claims_from(m, ctx))
                except (ValueError, ArithmeticError, KeyError):
                    continue   # a candidate whose number cannot be read is no figure
        except TimeoutError:
            pass
    _merge_bounds(out, text)
    _merge_compound(out, text)
    _mark_lists(out, text, ctx)
    return out


def _claims_from(m, ctx):
    """The claims a candidate match makes: read the figure (``_read``), then refuse it when
    one of the named "not a claim" tests holds (``_NOT_A_CLAIM``), then build the claim."""
    g = m.gd.get
    if g("special"):
        return [_special(m)]
    if g("pof"):
        v, d, _ = _parse_num(g("n3"))
        return [_claim(ctx.text, m.start(), m.end(), "percent", "percent", v, None, None, d, False, None, False)]
    fig = _read(m, ctx)
    if fig is _SPLIT or (fig is not None and _compound_time_range(fig)):
        return _split(m, ctx)
    if fig is None:
        return []
    text = ctx.text
    for _why, test in _NOT_A_CLAIM:
        if test(fig, text):
            return []
    return _build(fig, m, ctx)


class _Fig:
    """What the figure pattern read at one candidate, before any decision is taken."""

    __slots__ = ("m", "g", "s", "e", "n1s", "n2s", "v1", "v2", "d1", "st1", "styles", "unit", "kind",
                 "approx", "bound", "bound_word", "neg_sign", "btw", "conn", "sc1", "sc2", "pct",
                 "cnpct", "score", "bare", "before", "after")


_SPLIT = object()     # the candidate holds two figures, read apart (_split)
_SCALE_WORDS_AS_NUMBERS = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def _read(m, ctx):
    """Number, scale, unit, range, bound and sign of a candidate: a _Fig, _SPLIT for two
    figures, or None for a reading that is not a figure at all (a bare number, a currency
    before another unit, 百分之 before a unit that is not a percent)."""
    text = ctx.text
    g = m.gd.get
    n1s, n2s = g("n1"), g("n2")
    score = False
    if not (g("u1") or g("unit") or g("cur") or g("pct") or n2s or g("sc1") or g("post")
            or g("bound") or g("bound2") or "," in n1s or "，" in n1s):
        # a bare number: the common case, rejected before any parsing -- except a score
        # written as a fraction after what it scores ('agreement with human labels: 0.87')
        score = _is_score(text, m.start(), n1s)
        if not score:
            return None
    t = _tables()
    v1, d1, st1 = _parse_num(n1s)
    v2 = None
    pct = g("pct")
    sc1, sc2 = g("sc1"), g("sc2")
    u1, u2 = _unit_of(g("u1")), _unit_of(g("unit"))
    cur = g("cur") or g("cur2")
    conn = g("conn")
    btw = g("btw")
    # ---- where the figure starts: drop 'between/在/from' unless it made a range ----
    s = m.start()
    if btw and n2s and not _btw_ok(btw, g("conn"), g("btwend")):
        btw = None
    if btw and not n2s or (btw is None and g("btw")):
        s = m.start("bound") if g("bound") else (m.start("approx") if g("approx") else
                                                  (m.start("bound2") if g("bound2") else
                                                   (m.start("cur") if g("cur") else
                                                    (m.start("pct") if pct else
                                                     (m.start("sign") if g("sign") else m.start("n1"))))))
    e = m.end()

    bound_word = g("bound") or g("bound2")
    bound = t["bound_before"].get(_norm_word(bound_word, t["bound_before"])) if bound_word else None
    # '8GB GPUs', '一个 token 多': a second unit after one number ends the figure at the first
    cut_u1 = bool(not n2s and g("u1") and g("unit"))
    if cut_u1:
        g = _without(g, ("post", "papprox", "pbound", "pbound2", "per", "half", "btwend", "sc3"))
    approx = bool(g("approx") or g("papprox"))
    if bound_word and (g("pbound") or g("pbound2")):
        e = m.start("post")
    elif g("pbound"):
        bound = t["bound_after"].get(_norm_word(g("pbound"), t["bound_after"]))
    elif g("pbound2"):
        bound = "ge"
    neg_sign = bool(g("sign"))

    # ---- a second number: range, or two figures ----
    if n2s and conn in ("-", "–") and n2s.strip().lower() in _SCALE_WORDS_AS_NUMBERS:
        # '2.8-trillion-parameter', '70-billion-token': the word is the first number's scale
        v1 *= _SCALE_WORDS_AS_NUMBERS[n2s.strip().lower()]
        n2s = None
    if n2s:
        v2, d2, st2 = _parse_num(n2s)
        if conn and conn.lower() == "and" and not btw:
            return _SPLIT      # 'A and B' is two figures, not a range
        if conn in ("和", "与", "跟") and not (btw or g("btwend")):
            return _SPLIT
        if g("sign2"):
            v2 = -v2
    # ---- units ----
    unit, kind = u2 if u2[0] else u1
    if n2s and u1[0] and u2[0] and u1[0] != u2[0]:
        return _SPLIT
    if cut_u1:
        unit, kind = u1
        e = m.end("u1")
    cnpct = None
    utext = g("u1") if (g("u1") and not n2s) else (g("unit") or g("u1"))
    if utext in ("成", "成半", "折"):
        cnpct = utext
        unit, kind = "percent", "percent"
    if cur:
        cu = units.canonical(cur.strip())
        if unit and kind not in ("currency", None) and unit != cu:
            if kind not in ("count",):
                return None
        unit, kind = cu, "currency"
    if g("per") and kind == "currency":
        noun = g("pernoun").lower().rstrip("s")
        noun = {"tok": "token", "hr": "hour", "h": "hour", "gpu-hour": "gpu / hour", "gpu-hr": "gpu / hour",
                "req": "request", "mo": "month"}.get(noun, noun)
        if noun == "month":
            noun = "(30 * day)"
        pref = {"M": "mega", "million": "mega", "K": "kilo", "thousand": "kilo"}.get(g("perscale") or "", "")
        unit = "%s / %s%s" % (unit, pref, noun) if pref and "/" not in noun else "%s / %s" % (unit, noun)
    elif g("per"):
        e = m.start("per")
    if pct:
        # 百分之十二 / 千分之二: the number is already percent (or per-mille of it)
        if unit and kind not in ("percent",):
            return None
        unit, kind = "percent", "percent"
        div = 0.01
        for ch in pct:
            div *= {"百": 100, "佰": 100, "千": 1000, "仟": 1000, "万": 10**4, "萬": 10**4}.get(ch, 1)
        v1 = v1 / div
        if n2s:
            v2 = v2 / div
    if st1 == "cn" and not n2s and len(n1s) > 1 and utext and (n1s[-1] + utext) in t["sym"]:
        unit, kind = _unit_of(n1s[-1] + utext)
        v1, d1, _ = _parse_num(n1s[:-1])
    # ---- scale ----
    f1 = _scale(sc1) * _scale(g("sc3"))
    f2 = _scale(sc2) if n2s else 1.0
    if n2s:
        if sc2 and not sc1:
            f1 = f2
        elif sc1 and not sc2:
            f2 = f1
    v1 *= f1
    if n2s:
        v2 *= f2
    if cnpct:
        # 三成 = 30%, 7.5成 = 75%; 八折 = 80%, 75折 = 75%
        if cnpct.startswith("成"):
            v1 *= 10
            if n2s:
                v2 *= 10
            if cnpct == "成半":
                v1 += 5
        elif cnpct == "折":
            if v1 < 10:
                v1 *= 10
            if n2s and v2 < 10:
                v2 *= 10
    if g("half") and unit:
        v1 += 0.5
    if neg_sign:
        v1 = -v1
    f = _Fig()
    f.m, f.g, f.s, f.e, f.n1s, f.n2s = m, g, s, e, n1s, n2s
    f.v1, f.v2, f.d1, f.st1 = v1, v2, d1, st1
    f.styles = {st1} | ({_parse_num(n2s)[2]} if n2s else set())
    f.unit, f.kind, f.approx, f.bound, f.bound_word, f.neg_sign = unit, kind, approx, bound, bound_word, neg_sign
    f.btw, f.conn, f.sc1, f.sc2, f.pct, f.cnpct, f.score = btw, conn, sc1, sc2, pct, cnpct, score
    f.bare = not unit
    f.before, f.after = text[max(0, s - 24):s], text[e:e + 24]
    if f.bare:
        f.unit, f.kind = "dimensionless", "number"
    return f


# the larger part of a time written in two units, right before a range's first number: in
# 'from 3m 4s to 50s' the range is not '4s to 50s' but 3m 4s, then 50s (claims/durations.py
# joins the two parts)
_TIME_HEAD_BEFORE = compile_re(r"(?<![\d.])\d{1,3}\s?(?:h|hr|m|min|小时|分钟?)\s{0,2}$")
_TIME_UNITS = frozenset(("second", "millisecond", "minute"))


def _compound_time_range(f) -> bool:
    return bool(f.n2s) and f.unit in _TIME_UNITS and _TIME_HEAD_BEFORE.search(f.before) is not None


# ---- what is not a claim: each test names the case it refuses (tests/claims/test_figures.py)

def _not_finite(f, text):
    # a digit run (or its scale word) beyond a float's range is not a quantity
    return not math.isfinite(f.v1) or (f.n2s and not math.isfinite(f.v2))


def _bare_number(f, text):
    # a number with no unit is a figure only with a bound, a range, a big scale word, a
    # thousands separator, or as a score
    if not f.bare:
        return False
    g, m = f.g, f.m
    return not (f.score or f.bound is not None
                or (f.n2s and (f.btw or (f.conn and f.conn not in ("-", "−", "－")) or f.sc1 or f.sc2))
                or (f.sc1 and (f.sc1 in _BIG_SCALE_WORDS or f.sc1.lower() in _BIG_SCALE_WORDS)
                    and g("sc1") is not None and not _glued(m, "sc1"))
                or (f.st1 == "ar" and _is_sep_number(f.n1s) and not f.n2s))


def _small_bound(f, text):
    # 'TP > 1', '4+ PRs', 'more than one', '200B+' (a model size): not claims
    return f.bare and f.bound is not None and not f.n2s and (
        (abs(f.v1) < 10 and (f.g("pbound2") or f.st1 == "en" or not _has_letter(f.bound_word or "")))
        or (f.sc1 and _glued(f.m, "sc1")))


def _range_in_words(f, text):
    # 'two to five cores': words, not a measured range
    return f.bare and bool(f.n2s) and "en" in f.styles and max(abs(f.v1), abs(f.v2)) < 10


def _bare_chinese_numeral(f, text):
    return f.bare and "cn" in f.styles and f.sc1 is None and f.bound is None and not f.n2s


def _version(f, text):
    # a bare 'X.Y' is a version ('TGI 3.2', 'than 3.1'), even after a bound
    return f.bare and VERSION_LIKE.fullmatch(f.n1s) is not None and not f.sc1 and not f.score


def _ratio_in_words(f, text):
    u1, u2 = _unit_of(f.g("u1")), _unit_of(f.g("unit"))
    return not f.bare and "en" in f.styles and f.kind in ("ratio",) and not (u2[0] or u1[0])


def _everyday_count(f, text):
    # 一个, 三条: everyday words, not figures
    return not f.bare and "cn" in f.styles and f.kind == "count" and not f.pct and f.v1 < 1e4 and f.bound is None


def _english_number(f, text):
    return f.kind == "number" and f.unit == "dimensionless" and f.st1 == "en" and f.bound is None and not f.n2s


def _chinese_point(f, text):
    return f.st1 == "cn" and len(f.n1s) == 1 and f.n1s in numerals.CN_POINT


def _ordinal(f, text):
    return _ORDINAL_BEFORE.search(f.before) is not None


def _ratio_notation(f, text):
    # '1,000,000:1', '16:9': a ratio or a time written with a colon
    return _RATIO_NOTATION.match(text, f.e) is not None and not unit_given(f.g)


def _estimate_in_words(f, text):
    # 'a few thousand tokens': an estimate
    return f.st1 == "en" and _FEW_BEFORE.search(f.before) is not None


def _leading_zero(f, text):
    # '08-09', '007': dates and ids
    return _LEADING_ZERO.match(f.n1s) is not None or bool(f.n2s and _LEADING_ZERO.match(f.n2s))


def _tens_of(f, text):
    # 数十 GB, 几百个: "tens of", an estimate, not a figure
    return f.st1 == "cn" and not f.pct and _TENS_OF_BEFORE.search(f.before) is not None


def _order_of_magnitude(f, text):
    # 每百万 Token, 千 GB: a bare order of magnitude, not a figure
    return f.st1 == "cn" and all(ch in "十百千万萬亿億" for ch in f.n1s.replace(" ", "")) \
        and not f.pct and not f.cnpct


def _significance_level(f, text):
    # '超过 2σ', 'beyond 3 sigma', '2-sigma': a statistical threshold a result is tested against
    return f.unit == "dimensionless" and not f.pct and _SIGMA_AFTER.match(text, f.e) is not None


_SIGMA_AFTER = compile_re(r"\s{0,2}(?:[σΣ]|-?sigmas?(?![A-Za-z])|个标准差|倍标准差|standard deviations?)")


def _hardware_count(f, text):
    # 8× H100, 4x GPUs: a hardware count; '5,000× H100 HBM bandwidth', '32× H100 80GB memory' are
    # multiples of what that hardware has
    m = _HW_AFTER.match(f.after) if f.kind == "ratio" and not f.n2s else None
    return m is not None and float(f.v1).is_integer() and not _HW_QUANTITY.match(f.after, m.end())


def _hardware_name(f, text):
    # A100 80GB: part of a hardware name
    return f.kind == "memory" and _HW_BEFORE.search(f.before) is not None


def _length_condition(f, text):
    # 8K token input / 128K-token context: a condition, not a figure
    m, g = f.m, f.g
    return f.kind == "count" and f.unit == "token" and bool(f.sc1 or f.sc2) and bool(
        _CTX_BEFORE.search(f.before) or _CTX_AFTER.match(text[m.end("unit") if g("unit") else f.e:][:24]))


# a shorthand beside it in a list, a number and letters that are no unit ('4.5s、4.6op都测了': the
# models Sonnet 4.5 and Opus 4.6; '3.5s/4o'): the figure is a shorthand name too
_SHORTHAND_AFTER = compile_re(r"\s{0,2}[、,，/／]\s{0,2}\d{1,2}(?:\.\d{1,2})?([A-Za-z]{1,4})(?![A-Za-z0-9])")
_SHORTHAND_BEFORE = compile_re(r"(?<![\w.])\d{1,2}(?:\.\d{1,2})?([A-Za-z]{1,4})\s{0,2}[、,，/／]\s{0,2}$")
_GLUED = compile_re(r"\d{1,2}(?:\.\d{1,2})?[A-Za-z]{1,3}")
_SCALE_LETTERS = frozenset("kmbgtw")


def _no_unit(letters: str) -> bool:
    return letters.lower() not in _SCALE_LETTERS and units.kind_of(units.canonical(letters)) == "number"


def _shorthand_in_list(f, text):
    if not _GLUED.fullmatch(text, f.s, f.e):
        return False
    m = _SHORTHAND_AFTER.match(text, f.e)
    if m is not None and _no_unit(m.group(1)):
        return True
    m = _SHORTHAND_BEFORE.search(text, max(0, f.s - 12), f.s)
    return m is not None and _no_unit(m.group(1))


_NOT_A_CLAIM = (
    ("a shorthand name in a list of shorthands", _shorthand_in_list),
    ("beyond a float's range", _not_finite),
    ("a bare number", _bare_number),
    ("a small number after a bound", _small_bound),
    ("a range written in words", _range_in_words),
    ("a bare Chinese numeral", _bare_chinese_numeral),
    ("a version", _version),
    ("a ratio written in words", _ratio_in_words),
    ("an everyday Chinese count", _everyday_count),
    ("an English number word", _english_number),
    ("a lone Chinese point numeral", _chinese_point),
    ("an ordinal", _ordinal),
    ("ratio or time notation", _ratio_notation),
    ("an estimate in words", _estimate_in_words),
    ("a leading zero (date, id)", _leading_zero),
    ("'tens of' in Chinese", _tens_of),
    ("a bare order of magnitude", _order_of_magnitude),
    ("a significance level", _significance_level),
    ("a hardware count", _hardware_count),
    ("part of a hardware name", _hardware_name),
    ("an input or context length", _length_condition),
)


def _build(f, m, ctx):
    """The claim of a figure that passed every test (a range, or two figures read apart)."""
    text = ctx.text
    kind = None if f.kind == "time" else f.kind
    if f.n2s:
        lo, hi = f.v1, f.v2
        from_to = f.btw and _FROM_BEFORE.fullmatch(f.btw.strip())
        if lo >= hi or (from_to and kind not in ("number", None) and f.unit != "dimensionless"):
            return _split(m, ctx)
        d = max(f.d1, _parse_num(f.n2s)[1])
        c = _claim(text, f.s, f.e, kind, f.unit, None, lo, hi, d, f.approx, f.bound, f.neg_sign)
    else:
        c = _claim(text, f.s, f.e, kind, f.unit, f.v1, None, None, f.d1, f.approx, f.bound, f.neg_sign)
    if c is None:
        return []
    if not c.negative:
        c.negative = _negative_cue(text, f.s, f.e)
    return [c]


def _has_letter(w):
    return any(ch.isalpha() for ch in w)


def _without(get, names):
    """A group getter that reports the given groups as absent."""
    drop = frozenset(names)
    return lambda name: None if name in drop else get(name)


def _btw_ok(btw, conn, btwend):
    """'between A and B', 'from A to B', '在 A 和 B 之间': the opening word is part of the
    range only when its own connector follows ('from ~306–327s to <1s' is not 'from A–B')."""
    b = btw.strip().lower()
    c = (conn or "").strip().lower()
    if b == "between":
        return c in ("and", "-", "–", "—", "to", "~", "～")
    if b in ("from", "从", "由"):
        return c in ("to", "through", "到", "至")
    return bool(btwend)     # 在 / 位于 / 介于 ... 之间


def _glued(m, grp):
    """True when a scale letter is written against the number ('8B', '128K')."""
    return m.end("n1") == m.start(grp) and m.group(grp).isascii()


def _norm_word(w, table):
    if w is None:
        return None
    k = " ".join(w.split())
    if k in table:
        return k
    low = k.lower()
    for key in table:
        if key.lower() == low:
            return key
    return k


def _split(m, ctx):
    """Read the two halves of a candidate separately (not a range)."""
    text = ctx.text
    out = []
    c0, c1 = m.start("conn"), m.end("conn")
    # '3 个百分点 -38%': a hyphen written against the second number is its sign
    second = c0 if (m.group("conn") in ("-", "−", "－") and c1 == m.start("n2")
                    and c0 > 0 and text[c0 - 1] in " \t") else c1
    for a, b in ((m.start(), c0), (second, m.end())):
        for mm in _candidates(text, a, b):
            if mm.group("n2") is None:
                try:
                    out.extend(_claims_from(mm, ctx))
                except (ValueError, ArithmeticError, KeyError):
                    pass
    return out


def _special(m):
    w = m.group("special").lower()
    if w in ("减半", "halved"):
        c = _claim(m.string, m.start(), m.end(), "percent", "percent", 50.0, None, None, 0, False, None, True)
    else:
        c = _claim(m.string, m.start(), m.end(), "ratio", "dimensionless", 2.0, None, None, 0, False, None, False)
    return c


def _claim(text, s, e, kind, unit, value, low, high, decimals, approx, bound, negative):
    # Trim trailing spaces captured by optional parts so that surface is tight.
    while e > s and text[e - 1] in _SP_CHARS:
        e -= 1
    while s < e and text[s] in _SP_CHARS:
        s += 1
    if kind is None:
        ref = value if value is not None else high
        bv, _ = units.to_base(abs(ref), unit)
        kind = "latency" if bv < 60 else "duration"
    bv, bu = units.to_base(value, unit)
    bl, _ = units.to_base(low, unit)
    bh, _ = units.to_base(high, unit)
    return Claim(path=None, line=0, col=0, start=s, end=e, surface=text[s:e], kind=kind,
                 value=value, low=low, high=high, unit=unit, base_value=bv, base_low=bl,
                 base_high=bh, base_unit=bu, decimals=decimals, approx=approx, bound=bound,
                 negative=negative or (value is not None and value < 0))


def _negative_cue(text, s, e):
    nb, na = _cues()
    return bool(nb.search(text[max(0, s - 14):s]) or na.match(text[e:e + 20]))


def _merge_bounds(out, text):
    """'more than 10 and less than 20', '大于10小于20': one range from a lower and an upper bound."""
    i = 0
    while i + 1 < len(out):
        a, b = out[i], out[i + 1]
        if (a.bound and b.bound and a.value is not None and b.value is not None
                and a.kind == b.kind and a.unit == b.unit
                and _COMPOUND_SEP.match(text[a.end:b.start])):
            lo, hi = (a, b) if a.bound in ("gt", "ge") and b.bound in ("lt", "le") else \
                     (b, a) if b.bound in ("gt", "ge") and a.bound in ("lt", "le") else (None, None)
            if lo is not None and lo.value < hi.value:
                c = _claim(text, a.start, b.end, a.kind, a.unit, None, lo.value, hi.value,
                           max(a.decimals, b.decimals), a.approx or b.approx, None, False)
                out[i:i + 2] = [c]
        i += 1


_COMPOUND_NEXT = compile_re(
    r"%s+(?:and%s+)?([0-9]+(?:\.[0-9]+)?)%s?(?:inches|inch|in|\")(?![A-Za-z])" % (_SP, _SP, _SP))


def _merge_compound(out, text):
    """'5 ft 2 in', '5 feet and 2 inches': one length, in the first unit."""
    i = 0
    while i < len(out):
        a = out[i]
        if a.unit == "foot" and a.value is not None:
            m = _COMPOUND_NEXT.match(text, a.end)
            if m:
                v = a.value + float(m.group(1)) / 12.0
                c = _claim(text, a.start, m.end(), a.kind, a.unit, v, None, None, a.decimals,
                           a.approx, a.bound, a.negative)
                j = i + 1
                while j < len(out) and out[j].start < m.end():
                    j += 1
                out[i:j] = [c]
        i += 1


def _mark_lists(out, text, ctx):
    """Figures written as one list ('2.03×/1.71×/1.66×', '3%、5%') share a list_id."""
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if a.kind == b.kind and _LIST_SEP.match(text[a.end:b.start]):
            if a.list_id is None:
                ctx.list_seq += 1
                a.list_id = ctx.list_seq
            b.list_id = a.list_id
