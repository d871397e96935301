"""Our fast Chinese-numeral reader agrees with cn2an, the library it stands in for.

claims/numerals.py reads the common forms itself because importing cn2an costs
more than the whole one-file start-up budget; cn2an remains the reference (and the
fallback for odd forms), so any number cn2an writes must read back the same.
"""
import cn2an
from hypothesis import example, given, settings, strategies as st

from claims.numerals import parse_chinese


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=10**12 - 1))
@example(2_000_001_000)      # '二十亿一千': cn2an writes it but cannot read it back itself
def test_integers_written_by_cn2an_read_back(n):
    for mode in ("low", "up"):
        written = cn2an.an2cn(n, mode)
        value, decimals = parse_chinese(written)
        assert value == n, written
        assert decimals == 0


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=999))
def test_decimals_written_by_cn2an_read_back(whole, frac):
    text = f"{whole}.{frac:03d}".rstrip("0")
    written = cn2an.an2cn(text, "low")
    value, decimals = parse_chinese(written)
    assert abs(value - float(text)) < 1e-9, written
    assert decimals == len(text.split(".")[1])
