"""Table cells whose unit is written once, in their column's header.

Benchmark tables often put the unit in the header and bare numbers in the cells:

    | output-len | output token throughput (tok/s) | TTFT (ms) |
    | 1024       | 1743.56                         | 65.8      |

The figure reader sees '1743.56' as a plain number. ``header_unit_claims(doc, claims, find)``
reads such a column's unit from its header (the last parenthesised or bracketed unit:
'(tok/s)', '[ms]', '（GB）', or a header that is only a unit: '| tok/s |') with the figure reader itself, and returns one ``Claim`` per bare
number of that column, with the unit and kind the header gives. A column whose header names
no unit, or whose unit reads as a plain number or count, gives nothing; a cell that already
holds a figure, or holds anything but one number, is left as it is.
"""
from __future__ import annotations

from typing import Optional

from .model import Claim
from .pattern_cache import compile_re

# the unit written last in a header cell: 'throughput (tok/s)', 'TTFT [ms]', '显存（GB）'
_HEADER_UNIT = compile_re(r"[(（\[]\s*(?P<u>[^()（）\[\]\d]{1,16}?)\s*[)）\]]\s*(?:\*\*)?\s*$")
# a cell that is one bare number, possibly bold
_BARE = compile_re(r"\s*(?:\*\*)?\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?:\*\*)?\s*")
# what a column's unit can make its cells (a count or plain number is no measurement)
_KINDS = ("throughput", "latency", "duration", "memory", "bandwidth", "percent", "ratio")


# a header cell that is only a unit: '| tok/s |', '| **ms** |', '| GB/s |'
_WHOLE_UNIT = compile_re(r"^[*_\s]{0,4}(?P<u>[A-Za-z/µμ]{2,10})[*_\s]{0,4}$")


def _unit_of(header_text: str, find) -> Optional[Claim]:
    """The figure '1 <unit>' reads as, for the unit the header names; None without one."""
    m = _HEADER_UNIT.search(header_text) or _WHOLE_UNIT.match(header_text)
    if not m:
        return None
    probe = "1 " + m.group("u").strip()
    got = [c for c in find(probe, 0, len(probe), [], None) if c.start == 0 and c.end == len(probe)]
    if len(got) != 1 or got[0].kind not in _KINDS:
        return None
    return got[0]


def header_unit_claims(doc, claims, find) -> list:
    """Claims for the bare numbers of every table column whose header states a unit."""
    if not doc.tables:
        return []
    by_block = {}
    for c in claims:
        by_block.setdefault(c.block, []).append(c)
    out = []
    text = doc.text
    for t in doc.tables:
        units = {}
        for h in t.header:
            if "(" in h.text or "（" in h.text or "[" in h.text or _WHOLE_UNIT.match(h.text):
                u = _unit_of(h.text, find)
                if u is not None:
                    units[h.column] = u
        if not units:
            continue
        for row in t.rows:
            for cell in row.cells:
                like = units.get(cell.column)
                if like is None or cell.block is None:
                    continue
                m = _BARE.fullmatch(cell.text)
                if not m:
                    continue
                num = m.group("n")
                held = by_block.get(cell.block)
                if held:
                    # '| 1,556 |' under 'Before (ms)': the reader took the grouped number for a
                    # plain one; it is the column's unit too (its neighbour '88' was given it)
                    if len(held) == 1 and held[0].kind == "number" and held[0].unit == "dimensionless" \
                            and held[0].surface == num and held[0].value is not None:
                        _give_unit(held[0], like)
                    continue
                start = text.find(num, cell.start, cell.end)
                if start < 0:
                    continue
                v = float(num.replace(",", ""))
                factor = like.base_value / like.value if like.base_value is not None and like.value else 1.0
                line, col = doc.line_col(start)
                out.append(Claim(
                    path=None, line=line, col=col, start=start, end=start + len(num), surface=num,
                    kind=like.kind, value=v, unit=like.unit, base_value=v * factor,
                    base_unit=like.base_unit, decimals=len(num.split(".")[1]) if "." in num else 0,
                    block=cell.block))
    return out


def _give_unit(c, like) -> None:
    """Give a plain-number claim the unit and kind of its column's header (in place)."""
    factor = like.base_value / like.value if like.base_value is not None and like.value else 1.0
    c.kind, c.unit, c.base_unit, c.base_value = like.kind, like.unit, like.base_unit, c.value * factor
