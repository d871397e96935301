"""Unit normalization: canonical unit names and conversion to pint base units.

Built on a pint registry made only from ``claims/data/units.txt`` (never pint's
default registry, whose start-up alone would dominate a one-file run).  The
registry is built lazily on the first conversion that is not cached; each
unit's factor to its base unit is cached, so a repeated conversion costs a dict
look-up instead of pint's ~100 µs string parse.

Public API:
    canonical(unit_text) -> str          alias as written ('tok/s', 'GiB', '倍') -> canonical name
    kind_of(unit) -> str                 claim kind of a canonical unit ('time' for durations)
    to_base(value, unit) -> (base_value, base_unit)
    factor(unit) -> (factor, base_unit)
"""
from __future__ import annotations

import os
import threading
from functools import lru_cache

import yaml

_DATA = os.path.join(os.path.dirname(__file__), "data")
_lock = threading.Lock()
_registry = None
_factors: dict = {}


def _load_yaml(name: str) -> dict:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(os.path.join(_DATA, name), encoding="utf-8") as f:
        return yaml.load(f, Loader=loader)


@lru_cache(maxsize=1)
def words() -> dict:
    """The parsed figure_words.yaml (scale, approximation, bound words, unit aliases)."""
    return _load_yaml("figure_words.yaml")


@lru_cache(maxsize=1)
def alias_table() -> tuple:
    """(case-sensitive alias -> unit, lower-cased word alias -> unit, unit -> kind)."""
    sym, wrd, kinds = {}, {}, {}
    for unit, spec in words()["units"].items():
        kinds[unit] = spec["kind"]
        sym[unit] = unit
        for a in spec.get("symbols") or ():
            sym.setdefault(a, unit)
        for a in spec.get("words") or ():
            wrd.setdefault(a.lower(), unit)
    return sym, wrd, kinds


def canonical(unit_text: str) -> str:
    """Canonical unit name for an alias as written; unknown text is returned stripped."""
    sym, wrd, _ = alias_table()
    t = " ".join(unit_text.split())
    if t in sym:
        return sym[t]
    low = t.lower()
    if low in wrd:
        return wrd[low]
    return t


def kind_of(unit: str) -> str:
    return alias_table()[2].get(unit, "number")


def registry():
    """The project's pint registry (built once, on first use)."""
    global _registry
    if _registry is None:
        with _lock:
            if _registry is None:
                import pint
                reg = pint.UnitRegistry(None, autoconvert_offset_to_baseunit=True)
                reg.load_definitions(os.path.join(_DATA, "units.txt"))
                _registry = reg
    return _registry


def _pint_name(unit: str) -> str:
    # '×' must never reach pint: its parser rewrites '×' to '*'.
    return unit.replace("×", "").strip() or "dimensionless"


def factor(unit: str) -> tuple:
    """(factor, base unit name) such that 1 `unit` == factor `base unit`. Cached."""
    hit = _factors.get(unit)
    if hit is not None:
        return hit
    if unit in ("", "dimensionless", "×"):
        res = (1.0, "dimensionless")
    else:
        try:
            reg = registry()
            q = reg.Quantity(1.0, _pint_name(unit)).to_base_units()
            base = str(q.units)
            res = (float(q.magnitude), base)
        except Exception:   # a count noun pint does not know: keep it as its own base
            res = (1.0, unit)
    _factors[unit] = res
    return res


def to_base(value, unit: str) -> tuple:
    """(base_value, base_unit) for a value in `unit`; None stays None."""
    f, base = factor(unit)
    if value is None:
        return None, base
    return value * f, base
