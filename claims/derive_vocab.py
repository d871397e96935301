"""The words that tie figures into a derived figure, compiled once from
claims/data/derivations.yaml (read by claims.derive and claims.derive_tables)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from ._data import load


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted({w for w in words if w}, key=len, reverse=True))


@dataclass(frozen=True)
class Vocabulary:
    """The compiled word lists of claims/data/derivations.yaml."""
    gap: "re.Pattern"
    decrease: "re.Pattern"
    increase: "re.Pattern"
    ahead: "re.Pattern"
    behind: "re.Pattern"
    performance: "re.Pattern"
    compare: "re.Pattern"
    from_to: "re.Pattern"          # a 'to' word or an arrow between A and B
    than: "re.Pattern"             # a lead phrase that puts the baseline after it ('better than', '快于')
    gap_after: "re.Pattern"        # a stated gap right after two figures: '（差距约 z%）', ', a z% reduction'
    gap_between: "re.Pattern"      # the whole text between a pair and its gap: ', a', '（差距约'
    lead_ahead: "re.Pattern"       # 'z% better than' right after the stated figure
    lead_behind: "re.Pattern"
    lead_word: "re.Pattern"        # a lead/change word right before the stated figure: '领先约 z'
    behind_word: "re.Pattern"      # that word says 'behind' / 'less'
    gap_then: "re.Pattern"         # a gap word right after the stated figure: 'z 的差距'
    versus: "re.Pattern"           # a pair: only separators and a 'vs' word between two figures
    from_before: "re.Pattern"      # 'from' right before A
    to_between: "re.Pattern"       # only a 'to' word between A and B
    arrow_between: "re.Pattern"    # only an arrow between A and B
    arrow: "re.Pattern"
    bare_before_arrow: "re.Pattern"   # '6.78 →' before B
    bare_before_to: "re.Pattern"      # '从 100 降到' / 'from 100 to' before B
    bare_pair: "re.Pattern"        # 'z (0.364 → 0.326)'
    whole_before: "re.Pattern"     # 'W（' / 'W, including' before the parts
    whole_after: "re.Pattern"      # '= W' / '共 W' after the parts
    table_ahead: "re.Pattern"      # prose about a table: the subject leads ('57x faster', '提升 25%')
    table_behind: "re.Pattern"     # … or trails ('20% slower than', '下降 29%')
    compare_before: "re.Pattern"   # a comparison word right before a label: 'than X', '比 X', 'over the X'
    compare_after: "re.Pattern"    # a comparison word after the stated figure: 'double the throughput of …'
    divide: "re.Pattern"           # 'A 除以 B', 'A divided by B'
    share_after: "re.Pattern"      # 'z of the baseline' right after a percentage
    share_before: "re.Pattern"     # '原来的 z', '基线的 z' right before it
    restate: "re.Pattern"          # the whole text between a figure and its restatement: ', i.e. '
    scale_verb: "re.Pattern"       # 'halving', '减半' right before the figure restated
    scale_factor: dict
    result: "re.Pattern"           # between B and the quotient: '=', 'is', '解释了'


@lru_cache(maxsize=None)
def vocabulary() -> Vocabulary:
    d = load("derivations.yaml")
    w = {k: _alternation(v) for k, v in d.items()}
    ci = re.IGNORECASE
    approx = w["approx"]
    arrows = w["arrows"]
    changes = _alternation(d["gap"] + d["decrease"] + d["increase"])
    lead_words = _alternation(d["ahead"] + d["behind"] + d["increase"] + d["decrease"])
    sep = r"[\s\-–—;；,，、:：/|*]*"
    return Vocabulary(
        gap=re.compile(w["gap"], ci), decrease=re.compile(w["decrease"], ci),
        increase=re.compile(w["increase"], ci), ahead=re.compile(w["ahead"], ci),
        behind=re.compile(w["behind"], ci), performance=re.compile(w["performance"], ci),
        compare=re.compile(w["compare"], ci),
        from_to=re.compile(_alternation(d["to"] + d["arrows"]), ci),
        than=re.compile(w["than"], ci),
        gap_after=re.compile(_alternation(d["gap"] + d["decrease"] + d["increase"] + d["gap_after"]), ci),
        gap_between=re.compile(r"[\s,，;；(（]*(?:a|an|即|the)?\s*(?:" + changes + "|" + w["gap_between"]
                               + r")?\s*(?:" + approx + r")?\s*", ci),
        lead_ahead=re.compile(r"\s*(" + w["ahead"] + ")", ci),
        lead_behind=re.compile(r"\s*(" + w["behind"] + ")", ci),
        lead_word=re.compile(r"(" + lead_words + r")\s*(" + approx + r")?\s*$", ci),
        behind_word=re.compile(_alternation(d["behind"] + d["decrease"]), ci),
        gap_then=re.compile(r"\s{0,2}(?:的)?\s{0,2}(" + w["gap"] + ")", ci),
        versus=re.compile(sep + r"(?P<vs>" + w["versus"] + r")?" + sep, ci),
        from_before=re.compile(r"(?:" + w["from"] + r")\s*(?:" + approx + r")?\s*$", ci),
        to_between=re.compile(r"\s*(?:" + w["to"] + r")\s*(?:" + approx + r")?\s*", ci),
        arrow_between=re.compile(r"\s*(?:" + arrows + r")\s*"),
        arrow=re.compile(arrows),
        bare_before_arrow=re.compile(r"(?<![\w.])(\d[\d,]*(?:\.(\d+))?)\s*(?:" + arrows + r")\s*$"),
        bare_before_to=re.compile(r"(?:" + w["from"] + r")\s*(\d[\d,]*(?:\.(\d+))?)\s*(?:" + w["to"] + r")\s*$", ci),
        bare_pair=re.compile(r"(?P<lead>[^\n\d]{0,30}?)[（(]\s*(?P<a>\d[\d,]*(?:\.\d+)?)\s*(?:" + arrows
                             + r")\s*(?P<b>\d[\d,]*(?:\.\d+)?)\s*[)）]"),
        whole_before=re.compile(r"\s*[（(:：=＝]\s*|\s*[，,]?\s*(?:" + w["whole_before"] + r")\s*[:：]?\s*", ci),
        whole_after=re.compile(r"[^\d\n。；;|]{0,24}?[=＝]\s*|\s*[)）]?\s*(?:" + w["whole_after"]
                               + r")\s*[:：]?\s*", ci),
        table_ahead=re.compile(_alternation(d["ahead"] + d["increase"] + d["lead_extra"]), ci),
        table_behind=re.compile(_alternation(d["behind"] + d["decrease"]), ci),
        compare_before=re.compile(r"(?<![A-Za-z])(?:" + _alternation(d["compare"] + d["baseline_before"])
                                  + r")\s*(?:the|its|their|that of|those of)?\s*[*`_]*\s*$", ci),
        compare_after=re.compile(r"(?<![A-Za-z])(?:" + _alternation(d["compare"] + d["baseline_before"])
                                 + r")(?![A-Za-z])", ci),
        divide=re.compile(w["divide"], ci), result=re.compile(w["result"], ci),
        share_after=re.compile(r"\s*(?:of\s+(?:the\s+|its\s+|their\s+)?(?:" + w["share_of"] + r")\b)", ci),
        share_before=re.compile(r"(?:" + w["share_zh"] + r")\s*$"),
        restate=re.compile(r"\s*[,，]?\s*[（(]?\s*(?:" + w["restate"] + r")\s*[,，:：]?\s*", ci),
        scale_verb=re.compile(_alternation(list(d["scale_verbs"])), ci),
        scale_factor={k.lower(): val for k, val in d["scale_verbs"].items()},
    )


_LATIN = re.compile(r"[A-Za-z]")
_LATIN_OR_DOT = re.compile(r"[A-Za-z.]")


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


