"""Unit normalization with the project's own pint registry."""
import subprocess
import sys

import pytest

from claims import units


@pytest.mark.parametrize("a,ua,b,ub", [
    (0.45, "second", 450, "millisecond"),
    (1.2e4, "token / second", 12000, "token / second"),
    (62, "gigabyte", 62e9, "byte"),
    (1, "gibibyte", 2**30, "byte"),
    (1, "terabyte / second", 1e12, "byte / second"),
    (790, "teraFLOP / second", 7.9e14, "FLOP / second"),
    (8, "gigabit / second", 1, "gigabyte / second"),
    (1, "hour", 3600, "second"),
])
def test_equal_quantities_have_equal_base_values(a, ua, b, ub):
    assert units.to_base(a, ua)[0] == pytest.approx(units.to_base(b, ub)[0])
    assert units.to_base(a, ua)[1] == units.to_base(b, ub)[1]


def test_percent_is_a_fraction_but_percentage_points_are_their_own_dimension():
    assert units.to_base(29, "percent") == (pytest.approx(0.29), "dimensionless")
    v, base = units.to_base(5, "percentage_point")
    assert base == "percentage_point" and v == 5


def test_work_items_and_currencies_do_not_mix():
    bases = {units.to_base(1, u)[1] for u in
             ("token / second", "request / second", "USD", "CNY", "token / second / gpu")}
    assert len(bases) == 5


@pytest.mark.parametrize("alias,unit", [
    ("tok/s", "token / second"), ("tokens/s", "token / second"), ("TPS", "token / second"),
    ("req/s", "request / second"), ("QPS", "request / second"), ("ms", "millisecond"),
    ("毫秒", "millisecond"), ("s", "second"), ("GB", "gigabyte"), ("Gb", "gigabit"),
    ("GiB", "gibibyte"), ("TB/s", "terabyte / second"), ("TFLOP/s", "teraFLOP / second"),
    ("$", "USD"), ("元", "CNY"), ("%", "percent"), ("％", "percent"), ("pp", "percentage_point"),
    ("个百分点", "percentage_point"), ("Tokens", "token"), ("tokens per second", "token / second"),
])
def test_canonical_names(alias, unit):
    assert units.canonical(alias) == unit


def test_unknown_units_are_kept_as_written():
    assert units.to_base(3, "widget") == (3, "widget")


def test_shipped_factor_table_matches_pint():
    """unit_factors.yaml is a cache of what pint computes from units.txt: it must agree."""
    shipped = units.shipped_factors()
    assert set(shipped) == set(units.alias_table()[2])
    for unit, (f, base) in shipped.items():
        pf, pbase = units.pint_factor(unit)
        assert pf == pytest.approx(f), unit
        assert pbase == base, unit


def test_registry_is_ours_not_pints_default():
    reg = units.registry()
    assert "token" in reg and "percentage_point" in reg
    assert "furlong" not in reg       # pint's default registry defines it; ours does not


def test_times_sign_never_reaches_pint():
    assert units.factor("×") == (1.0, "dimensionless")


def test_a_one_file_run_needs_no_pint_import():
    code = ("import sys, claims.figures as f; f.find_figures('29% 450 ms 62 GB 1.2 万 tok/s 3 倍');"
            "print('pint' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
