"""The words that tie figures into a derived figure, compiled once from
claims/data/derivations.yaml (read by claims.derive and claims.derive_tables)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from ._data import load
from .pattern_cache import compile_re  # compiled once per machine, not per process


def alternation(words) -> str:
    """A regex of ``words``, the longest first (ties by text: the same pattern in every process)."""
    return "|".join(re.escape(w) for w in sorted({w for w in words if w}, key=lambda w: (-len(w), w)))


class Vocabulary:
    """The compiled word lists of claims/data/derivations.yaml, one pattern per attribute.

    A pattern is compiled the first time a reader asks for it: most documents reach only a
    few forms, and compiling all of them cost more than reading a short briefing.

    gap: a gap word ('差距', 'gap')
    decrease: a fall word ('reduction', '下降', '损失')
    increase: a rise word ('increase', '提升')
    ahead: X leads Y ('faster than', '领先')
    behind: X trails Y ('slower than', '落后')
    performance: a word that ranks performance, not size ('faster': smaller for a latency)
    improvement: a rise that is a betterment ('improvement', '性能提升'): for a time, its fall
    compare: the baseline follows ('vs', 'than', '比')
    from_to: a 'to' word or an arrow between A and B
    than: a lead phrase that puts the baseline after it ('better than', '快于')
    gap_after: a stated gap right after two figures: '（差距约 z%）', ', a z% reduction'
    gap_between: the whole text between a pair and its gap: ', a', '（差距约'
    lead_ahead: 'z% better than' right after the stated figure
    lead_behind: 'z% slower than' right after the stated figure
    lead_word: a lead/change word right before the stated figure: '领先约 z'
    behind_word: that word says 'behind' / 'less'
    gap_then: a gap word right after the stated figure: 'z 的差距'
    versus: a pair: only separators and a 'vs' word between two figures
    from_before: 'from' right before A
    to_between: only a 'to' word between A and B
    arrow_between: only an arrow between A and B
    arrow: an arrow anywhere
    bare_before_arrow: '6.78 →' before B
    bare_before_to: '从 100 降到' / 'from 100 to' before B
    bare_before_versus: '6.0 vs' before B ('ITL 6.0 vs 7.1 ms (−15%)')
    also: a clause adding another statement ('，同时', ', while'): a from-to after it is its own
    step_after: 'increments' right after a figure: the step of a sweep, no derived figure
    excess_after: 'over' right after a figure: an excess over a baseline ('~70ms over')
    bare_pair: 'z (0.364 → 0.326)'
    whole_before: 'W（' / 'W, including' before the parts
    whole_after: '= W' / '共 W' after the parts
    table_ahead: prose about a table: the subject leads ('57x faster', '提升 25%')
    table_behind: … or trails ('20% slower than', '下降 29%')
    compare_before: a comparison word right before a label: 'than X', '比 X', 'over the X'
    possessive_before: 'of' right before a label named before the figure: its subject, not its baseline
    compare_after: a comparison word after the stated figure: 'double the throughput of …'
    divide: 'A 除以 B', 'A divided by B'
    share_after: 'z of the baseline' right after a percentage
    share_before: '原来的 z', '基线的 z' right before it
    restate: the whole text between a figure and its restatement: ', i.e. '
    scale_verb: 'halving', '减半' right before the figure restated
    scale_factor: verb -> factor ('halving' -> 0.5)
    result: between B and the quotient: '=', 'is', '解释了'
    """

    def __init__(self, sources: dict, data: dict):
        self._sources = sources           # name -> (pattern text, flags)
        self.scale_factor = data["scale_factor"]

    def __getattr__(self, name):
        src = self.__dict__.get("_sources", {}).get(name)
        if src is None:
            raise AttributeError(name)
        pattern = compile_re(*src)
        setattr(self, name, pattern)      # later reads find the attribute, not __getattr__
        return pattern


@lru_cache(maxsize=None)
def vocabulary() -> Vocabulary:
    d = load("derivations.yaml")
    w = {k: alternation(v) for k, v in d.items()}
    ci = re.IGNORECASE
    approx = w["approx"]
    arrows = w["arrows"]
    changes = alternation(d["gap"] + d["decrease"] + d["increase"])
    lead_words = alternation(d["ahead"] + d["behind"] + d["increase"] + d["decrease"])
    sep = r"[\s\-–—;；,，、:：/|*]*"
    sources = dict(
        gap=(w["gap"], ci), decrease=(w["decrease"], ci),
        increase=(w["increase"], ci), ahead=(w["ahead"], ci),
        behind=(w["behind"], ci), performance=(w["performance"], ci),
        compare=(w["compare"], ci),
        from_to=(alternation(d["to"] + d["arrows"]), ci),
        than=(w["than"], ci),
        gap_after=(alternation(d["gap"] + d["decrease"] + d["increase"] + d["gap_after"]), ci),
        gap_between=(r"[\s,，;；(（]*(?:a|an|即|the)?\s*(?:" + changes + "|" + w["gap_between"]
                               + r")?\s*(?:" + approx + r")?\s*", ci),
        lead_ahead=(r"\s*(" + w["ahead"] + ")", ci),
        lead_behind=(r"\s*(" + w["behind"] + ")", ci),
        lead_word=(r"(" + lead_words + r")\s*(" + approx + r")?\s*$", ci),
        behind_word=(alternation(d["behind"] + d["decrease"]), ci),
        gap_then=(r"\s{0,2}(?:的)?\s{0,2}(" + w["gap"] + ")", ci),
        versus=(sep + r"(?P<vs>" + w["versus"] + r")?" + sep, ci),
        from_before=(r"(?:" + w["from"] + r")\s*(?:" + approx + r")?\s*$", ci),
        to_between=(r"\s*(?:" + w["to"] + r")\s*(?:" + approx + r")?\s*", ci),
        arrow_between=(r"\s*(?:" + arrows + r")\s*"),
        arrow=(arrows),
        bare_before_arrow=(r"(?<![\w.])(\d[\d,]*(?:\.(\d+))?)\s*(?:" + arrows + r")\s*$"),
        bare_before_to=(r"(?:" + w["from"] + r")\s*(\d[\d,]*(?:\.(\d+))?)\s*(?:" + w["to"] + r")\s*$", ci),
        bare_before_versus=(r"(?<![\w.])(\d[\d,]*(?:\.(\d+))?)\s*(?:" + w["versus"] + r")\s*$", ci),
        # 'z (0.364 → 0.326)', 'z（41.7 kJ → 26.8 kJ）': two numbers, the same unit the reader
        # does not know written after both, or none, perhaps with what they were measured at
        bare_pair=(r"(?P<lead>[^\n\d]{0,30}?)[（(]\s*(?P<a>\d[\d,]*(?:\.\d+)?)\s*(?P<u>[A-Za-z/]{1,8})?\s*(?:"
                   + arrows + r")\s*(?P<b>\d[\d,]*(?:\.\d+)?)\s*(?(u)(?P=u))\s*"
                   # what the pair was measured at, after it: '(283 -> 286 @1T, 噪声级别)'
                   r"(?:[@,，;；]\s*(?![\d.]+\s*(?:→|->|=>|⇒|⟶))[^()（）\n]{0,40}?)?[)）]"),
        whole_before=(r"\s*[（(:：=＝]\s*|\s*[，,]?\s*(?:" + w["whole_before"] + r")\s*[:：]?\s*", ci),
        whole_after=(r"[^\d\n。；;|]{0,24}?[=＝]\s*|\s*[)）]?\s*(?:" + w["whole_after"]
                               + r")\s*[:：]?\s*", ci),
        lead_extra=(w["lead_extra"], ci),
        also=(r"[，,;；]\s{0,2}(?:" + w["also"] + r")(?![A-Za-z])", ci),
        step_after=(r"\s{0,2}(?:" + w["step_after"] + r")(?![A-Za-z])", ci),
        excess_after=(r"\s{0,2}(?:" + w["excess_after"] + r")(?![A-Za-z])", ci),
        improvement=(w["improvement"], ci),
        table_ahead=(alternation(d["ahead"] + d["increase"] + d["lead_extra"]), ci),
        table_behind=(alternation(d["behind"] + d["decrease"]), ci),
        compare_before=(r"(?<![A-Za-z])(?:" + alternation(d["compare"] + d["baseline_before"])
                                  + r")\s*(?:the|its|their|that of|those of)?\s*[*`_]*\s*$", ci),
        possessive_before=(r"(?<![A-Za-z])(?:" + alternation(d["possessive"]) + r")\s*[*`_]*\s*$", ci),
        compare_after=(r"(?<![A-Za-z])(?:" + alternation(d["compare"] + d["baseline_before"])
                                 + r")(?![A-Za-z])", ci),
        divide=(w["divide"], ci), result=(w["result"], ci),
        share_after=(r"\s*(?:of\s+(?:the\s+|its\s+|their\s+)?(?:" + w["share_of"] + r")\b)", ci),
        share_before=(r"(?:" + w["share_zh"] + r")\s*$"),
        restate=(r"\s*[,，]?\s*[（(]?\s*(?:" + w["restate"] + r")\s*[,，:：]?\s*", ci),
        scale_verb=(alternation(list(d["scale_verbs"])), ci),
    )
    sources = {k: (v if isinstance(v, tuple) else (v, 0)) for k, v in sources.items()}
    return Vocabulary(sources, {"scale_factor": {k.lower(): val for k, val in d["scale_verbs"].items()}})


_LATIN = compile_re(r"[A-Za-z]")
_LATIN_OR_DOT = compile_re(r"[A-Za-z.]")


def word_in(pattern: "re.Pattern", text: str) -> Optional["re.Match"]:
    """The first match of a word list in ``text``: a Latin word only as a whole word (not
    'to' in 'token'), a CJK word anywhere."""
    for m in pattern.finditer(text):
        s, e = m.start(), m.end()
        w = m.group()
        if _LATIN.match(w[:1]) and s > 0 and text[s - 1].isalnum():
            continue
        if _LATIN_OR_DOT.match(w[-1:]) and e < len(text) and text[e].isalnum():
            continue
        return m
    return None


