"""Arithmetic kinds (CV4xx): stated derived figures that do not recompute.

``arithmetic.derived`` yields one fact per stated derivation of ``Analysis.derivations``
(read once by ``claims.derive``: gaps, changes, leads, shares, sums, quotients, a rate
restated in another unit, a change restated with its baseline swapped, and the table forms —
speedup and total columns, prose that summarizes cells) with ``form``, ``ok`` (some admitted
reading recomputes, ``validator.arith.recompute``), ``flipped`` (the stated winner or sign is
contradicted by the figures) and ``off_by`` (relative distance between the stated figure and
the nearest reading).  The rules choose forms with ``when:`` (CV401 sizes, CV402 flips, CV403
sums; the preview CV404 ranges over a column).  Sums of counted items (``3 条（1 条 + 2 条）``)
belong to the count family and are left out here.
"""
from __future__ import annotations

from claims.derive_tables import cell_name

from .. import arith as _ar

FAMILY = "arithmetic"
ACKNOWLEDGEABLE = False  # these findings must be fixed: no warnings-section entry acknowledges them

_READING = {
    "en": {"rel_to_first": "relative to {a}", "rel_to_second": "relative to {b}", "ratio": "as a ratio",
           "ratio_minus_one": "as ratio − 1", "change": "from {a} to {b}", "sum": "sum of the parts", "mean": "mean of the cells",
           "product": "as written", "pp": "in percentage points", "larger_over_smaller": "larger / smaller", "smaller_over_larger": "smaller / larger", "quotient": "{a} / {b}",
           "share": "{b} as a share of {a}", "same": "{a} in the other unit", "scaled": "{a} scaled as the verb says",
           "span": "the smallest to the largest value", "speed_gain": "as the speed's gain, {a} / {b} − 1",
           "time_saved": "as the time saved, 1 − {b} / {a}", "difference": "the larger of {a} and {b} minus the other"},
    "zh": {"rel_to_first": "以 {a} 为基准", "rel_to_second": "以 {b} 为基准", "ratio": "按倍数",
           "ratio_minus_one": "按倍数减一", "change": "从 {a} 到 {b}", "sum": "各部分之和", "mean": "各单元格的平均值",
           "product": "按所写算式", "pp": "按百分点", "larger_over_smaller": "较大值 / 较小值", "smaller_over_larger": "较小值 / 较大值", "quotient": "{a} ÷ {b}",
           "share": "{b} 占 {a} 的比例", "same": "{a} 换算成另一单位", "scaled": "{a} 按动词缩放后",
           "span": "从最小值到最大值", "speed_gain": "按速度提升，{a} / {b} − 1", "time_saved": "按节省的时间，1 − {b} / {a}", "difference": "{a} 与 {b} 之差"},
}


def _unit_as_written(whole) -> str:
    """The unit as the author wrote it ('~84.5GB' -> 'GB'), not pint's name for it."""
    s = whole.surface.strip()
    i = 0
    while i < len(s) and (s[i] in "~约≈ " or s[i].isdigit() or s[i] in ".,"):
        i += 1
    return s[i:].strip() or (whole.unit or "")


def _fmt(value: float, kind: str, whole=None, decimals: int = 1) -> str:
    if kind in ("percent", "percentage_point"):
        # at the stated figure's precision, so that '-2.24%' is set against '−2.19%', not '−2.2%'
        return f"{value * 100:.{decimals}f}%".replace(".0%", "%")
    if kind == "ratio":
        return f"{value:.2f}×"
    unit = ""
    if whole is not None:
        unit = _unit_as_written(whole)
        unit = "" if unit == "dimensionless" else unit        # a bare number: no unit to write
        if whole.value and whole.base_value:
            value = value * whole.value / whole.base_value      # back from base units to the written unit
    v = f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{v} {unit}".strip()


def _describe(d, v, lang: str) -> str:
    """The recomputed values, one per reading: '29%（以 2,400 tok/s 为基准），或 23%（…）'."""
    z, ops = d.stated, d.operands
    words, seen = [], set()
    for r in v.readings:
        if d.form == "quotient" and len(ops) == 2 and ops[0].base_value is not None and ops[1].base_value:
            # the figures as written ('10,000 rows / 0.01s' is 1,000,000, not the middle of
            # what 0.005–0.015 s admits)
            text = _fmt(ops[0].base_value / ops[1].base_value, z.kind, z)
        elif d.form == "difference" and len(ops) == 2 and ops[0].base_value is not None \
                and ops[1].base_value is not None:
            # the figures as written: 1.2 GB and 1.2 GB differ by nothing, not by the middle
            # of what their rounding admits
            text = _fmt(abs(ops[0].base_value - ops[1].base_value), z.kind, z)
        elif d.form in ("sum", "row_total", "mean", "quotient", "converted", "product"):
            text = _fmt(r.point(), z.kind, z)
        else:
            places = max(1, z.decimals or 0)
            lo, hi = _fmt(r.low, z.kind, decimals=places), _fmt(r.high, z.kind, decimals=places)
            # a narrow interval is only the operands' rounding: show its middle
            narrow = r.high - r.low <= 0.02 * max(abs(r.high), abs(r.low), 1e-12)
            text = _fmt(r.point(), z.kind, decimals=places) if narrow else (lo if lo == hi else f"{lo}–{hi}")
            if r.label == "change" and len(ops) == 2 and ops[0].base_value and ops[1].base_value is not None:
                # a change has a direction: say whether the figures rise or fall
                sign = "+" if ops[1].base_value > ops[0].base_value else "−"
                text = sign + text.replace("–", "–" + sign)
        if text in seen:
            continue
        seen.add(text)
        label = r.label if r.label == "smaller_over_larger" or d.form != "ratio_column" else "larger_over_smaller"
        label = _READING[lang].get(label, label).format(
            a=ops[0].surface.strip() if ops else "?", b=ops[-1].surface.strip() if ops else "?")
        words.append(f"{text}（{label}）" if lang == "zh" else f"{text} ({label})")
    out = ("，或 " if lang == "zh" else ", or ").join(words)
    if d.form == "restated" and len(ops) == 2:
        # the stated size is the change the other way round: name it and where it is stated
        back, fwd = ops[0], ops[1]
        out += (f"；{z.surface.strip()} 是从 {fwd.surface.strip()} 到 {back.surface.strip()} 的变化（第 {back.line} 行）"
                if lang == "zh" else
                f"; {z.surface.strip()} is the change from {fwd.surface.strip()} to {back.surface.strip()} (line {back.line})")
    return out


def _named(o, doc, lang: str) -> str:
    """A figure as the reader finds it: '4428.7' of a table is 'load-scheduling, Output toks/s: 4428.7'."""
    where = [x for x in cell_name(doc, o) if x]
    if not where:
        return o.surface.strip()
    return f"{'，'.join(where) if lang == 'zh' else ', '.join(where)}: {o.surface.strip()}"


def _expression(named: list, terms: tuple) -> str:
    """'2 × 22.7ms', '15 × 5.48 + 2 × 22.7': the factors joined as the text joins them."""
    out, k = [], 0
    for n in terms:
        out.append(" × ".join(named[k:k + n]))
        k += n
    return " + ".join(out)


# forms whose figures are tied by position in the text; the others are tied by a table's
# rows and columns or by the states two paragraphs name
_BY_POSITION = ("gap", "change", "lead", "sum", "quotient", "product")


def _within(d, doc, window: int) -> bool:
    """The compared figures of a sentence stand within ``window`` characters of the stated
    one; a table cell is read by its row and column, whatever the distance."""
    if d.form not in _BY_POSITION:
        return True
    z = d.stated
    for o in d.operands:
        if cell_name(doc, o):
            continue
        if min(abs(z.start - o.end), abs(o.start - z.end)) > window:
            return False
    return True


class Derived:
    NAME = "arithmetic.derived"
    PARAMS = {"approx_rel": float, "window": int}
    DEFAULTS = {"approx_rel": 0.1, "window": 160}
    FIELDS = {"form": str, "ok": bool, "flipped": bool, "off_by": float, "approx": bool}
    WHEN = {"all": [{"field": "ok", "eq": False}, {"field": "flipped", "eq": False}]}
    VARS = {"stated", "operands", "computed", "whole", "parts"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.analysis.document
        approx_rel, window = float(rule.params["approx_rel"]), int(rule.params["window"])
        lang = "zh" if ctx.lang == "zh" else "en"
        for d in getattr(ctx.analysis, "derivations", ()) or ():
            z = d.stated
            if z is None or (d.form == "sum" and z.kind == "count"):
                continue            # nothing derived is stated; counted parts: count family (CV503)
            if not _within(d, doc, window):
                continue
            v = _ar.recompute(d, approx_rel)
            if v is None:
                continue
            shown = v.derivation or d          # of a statement read several ways, the nearest reading
            ops = shown.operands
            sums = d.form in ("sum", "row_total", "mean")
            note = "part" if sums else "operand"
            named = [_named(o, doc, lang) if d.form == "table_lead" else o.surface.strip() for o in ops]
            if d.form == "difference" and len(ops) == 2 and (ops[1].base_value or 0) > (ops[0].base_value or 0):
                named_in_order = named[::-1]    # the larger first: '25 分钟 10 秒 − 20 秒'
            else:
                named_in_order = named
            joined = (_expression(named, d.terms) if d.form == "product"
                      else (" + " if sums else " − " if d.form == "difference" else " / ").join(named_in_order))
            yield {
                "path": doc.path, "line": z.line, "col": z.col, "end_line": z.line,
                "end_col": z.col + len(z.surface), "surface": z.surface,
                "key": f"arith:{d.form}:" + "|".join(o.surface for o in ops) + f"->{z.surface}",
                "form": d.form, "ok": bool(v.ok), "flipped": bool(v.flipped), "off_by": float(v.off_by),
                "approx": bool(z.approx),
                "_side": lambda d=shown, v=v, ops=ops, note=note, joined=joined, named=named: {
                    "evidence": [{"path": doc.path, "line": o.line, "col": o.col, "surface": o.surface,
                                  "note": f"{note}: {n}" if n != o.surface.strip() else note}
                                 for o, n in zip(ops, named)],
                    "vars": {"stated": d.stated.surface.strip(), "operands": joined,
                             "parts": ((("、" if lang == "zh" else ", ") if d.form == "mean" else " + ")
                                       .join(o.surface.strip() for o in ops)),
                             "whole": d.stated.surface.strip(), "computed": _describe(d, v, lang)}},
            }


KINDS = [Derived]
