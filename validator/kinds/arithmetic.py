"""Arithmetic kinds (CV4xx): stated derived figures that do not recompute.

``arithmetic.derived`` yields one fact per derivation ``validator.arith.find_derivations``
finds — a gap, a change, a lead ('z% better than'), or parts and their whole — with
``ok`` (some admitted reading recomputes), ``flipped`` (the stated winner or sign is
contradicted by the figures) and ``off_by`` (relative distance between the stated figure and
the nearest reading).  Tables are read too: a speedup column (``加速比``, ``speedup``) right
after two measurements of one unit must be the larger over the smaller (form ``table``).
Sums of counted items (``3 条（1 条 + 2 条）``) belong to the count
family and are left out here.
"""
from __future__ import annotations

import re as _re

from .. import arith as _ar

FAMILY = "arithmetic"
ACKNOWLEDGEABLE = False  # these findings must be fixed: no warnings-section entry acknowledges them

_LIST = ("gap_words", "decrease_words", "increase_words", "ahead_words", "behind_words",
         "compare_words", "from_to_words")
_READING = {
    "en": {"rel_to_first": "relative to {a}", "rel_to_second": "relative to {b}", "ratio": "as a ratio",
           "ratio_minus_one": "as ratio − 1", "change": "from {a} to {b}", "sum": "sum of the parts",
           "pp": "in percentage points"},
    "zh": {"rel_to_first": "以 {a} 为基准", "rel_to_second": "以 {b} 为基准", "ratio": "按倍数",
           "ratio_minus_one": "按倍数减一", "change": "从 {a} 到 {b}", "sum": "各部分之和",
           "pp": "按百分点"},
}


def _fmt(value: float, kind: str, whole=None) -> str:
    if kind in ("percent", "percentage_point"):
        return f"{value * 100:.1f}%".replace(".0%", "%")
    if kind == "ratio":
        return f"{value:.2f}×"
    unit = getattr(whole, "unit", "") or ""
    if whole is not None:
        # the unit as the author wrote it ('80 GB' -> 'GB'), not pint's name for it
        unit = _re.sub(r"^[~约≈]?\s*[\d.,]+\s*", "", whole.surface.strip()) or unit
    if whole is not None and whole.value and whole.base_value:
        value = value * whole.value / whole.base_value      # back from base units to the written unit
    v = f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{v} {unit}".strip()


def _describe(d, claims, lang: str) -> str:
    z = claims[d.stated]
    ops = _ar.operand_claims(d, claims)
    words = []
    seen = set()
    for r in d.verdict.readings:
        if d.form == "sum":
            text = _fmt(r.point(), z.kind, z)
        else:
            lo, hi = _fmt(r.low, z.kind), _fmt(r.high, z.kind)
            # a narrow interval is only the operands' rounding: show its middle
            narrow = r.high - r.low <= 0.02 * max(abs(r.high), abs(r.low), 1e-12)
            text = _fmt(r.point(), z.kind) if narrow else (lo if lo == hi else f"{lo}–{hi}")
            if r.label == "change" and len(ops) == 2 and ops[0].base_value and ops[1].base_value is not None:
                # a change has a direction: say whether the figures rise or fall
                sign = "+" if ops[1].base_value > ops[0].base_value else "−"
                text = sign + text.replace("–", "–" + sign)
        if text in seen:
            continue
        seen.add(text)
        label = _READING[lang].get(r.label, r.label).format(
            a=ops[0].surface.strip() if ops else "?", b=ops[-1].surface.strip() if ops else "?")
        words.append(f"{text}（{label}）" if lang == "zh" else f"{text} ({label})")
    sep = "，或 " if lang == "zh" else ", or "
    return sep.join(words)


class Derived:
    NAME = "arithmetic.derived"
    PARAMS = {"approx_rel": float, "window": int, **{k: list for k in _LIST}}
    DEFAULTS = {"approx_rel": 0.1, "window": 160, **{k: [] for k in _LIST}}
    FIELDS = {"form": str, "ok": bool, "flipped": bool, "off_by": float, "approx": bool}
    WHEN = {"all": [{"field": "ok", "eq": False}, {"field": "flipped", "eq": False}]}
    VARS = {"stated", "operands", "computed", "whole", "parts"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.analysis.document
        claims = list(ctx.analysis.claims)
        p = rule.params
        vocab = _ar.Vocabulary.from_params(p)
        lang = "zh" if ctx.lang == "zh" else "en"
        for d in _ar.find_derivations(doc.text, claims, vocab, int(p["window"])):
            z = claims[d.stated]
            if d.form == "sum" and z.kind == "count" and z.unit == "item":
                continue            # counted items: count family (CV503)
            v = _ar.rescore(d, claims, float(p["approx_rel"]))
            if v is None:
                continue
            d.verdict = v
            best = v.best
            s_mid = (v.stated[0] + v.stated[1]) / 2 if v.stated else 0.0
            off = abs(best.point() - s_mid) / abs(s_mid) if best and s_mid else 0.0
            ops = _ar.operand_claims(d, claims)
            ev = [{"path": doc.path, "line": o.line, "col": o.col, "surface": o.surface,
                   "note": "part" if d.form == "sum" else "operand"} for o in ops]
            yield {
                "path": doc.path, "line": z.line, "col": z.col, "end_line": z.line,
                "end_col": z.col + len(z.surface), "surface": z.surface,
                "key": f"arith:{d.form}:" + "|".join(o.surface for o in ops) + f"->{z.surface}",
                "form": d.form, "ok": bool(v.ok), "flipped": bool(v.flipped), "off_by": float(off),
                "approx": bool(z.approx),
                "_side": {"evidence": ev, "vars": {
                    "stated": z.surface.strip(),
                    "operands": (" + " if d.form == "sum" else " / ").join(o.surface.strip() for o in ops),
                    "parts": " + ".join(o.surface.strip() for o in ops),
                    "whole": z.surface.strip(),
                    "computed": _describe(d, claims, lang)}},
            }

        # derived columns of tables ('加速比' after two measurements)
        for t in _ar.find_table_ratios(doc.text, float(p["approx_rel"])):
            v = t.verdict
            best = v.best
            s_mid = (v.stated[0] + v.stated[1]) / 2
            off = abs(best.point() - s_mid) / abs(s_mid) if best and s_mid else 0.0
            ops = " / ".join(o[0] for o in t.operands)
            computed = f"{best.point():.2f}×" + ("（较大值 / 较小值）" if lang == "zh" else " (larger / smaller)")
            yield {
                "path": doc.path, "line": t.line, "col": t.col, "end_line": t.line,
                "end_col": t.col + len(t.surface), "surface": t.surface,
                "key": f"arith:table:{ops}->{t.surface}", "form": "table", "ok": bool(v.ok),
                "flipped": False, "off_by": float(off), "approx": False,
                "_side": {"evidence": [{"path": doc.path, "line": l_, "col": c_, "surface": s_,
                                        "note": "operand"} for s_, l_, c_ in t.operands],
                          "vars": {"stated": t.surface, "operands": ops, "parts": ops,
                                   "whole": t.surface, "computed": computed}},
            }


KINDS = [Derived]
