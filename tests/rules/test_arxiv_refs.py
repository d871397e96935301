"""Which arXiv ids a briefing cites (the document model), and which of them cannot be right."""
from hypothesis import given, settings, strategies as st

from claims import analyze
from validator.kinds.reference import check, months_after


def ids(text):
    doc = analyze(text, "b.md").document
    return [(r.ref, r.line, check(r.ref)[0]) for r in doc.references if r.kind == "arxiv"]


def test_malformed_ids_are_named_with_the_reason():
    assert check("2613.01234")[0] == "month"
    assert check("2610.0441")[0] == "digits"      # 2015 on: five digits
    assert check("1312.12345")[0] == "digits"     # before 2015: four digits
    assert check("1312.1234") == ("", 1312)
    assert check("2610.04412") == ("", 2610)


def test_ids_only_where_the_text_says_arxiv():
    text = ("Cited arXiv:2610.04412 and https://arxiv.org/abs/2309.06180v2.\n"
            "Throughput rose to 1234.5678 tokens.\n\n"
            "| arXiv 号 | 标题 |\n|---|---|\n| 2612.00123 | Speculative Streaming v2 |\n\n"
            "```\narXiv:2613.99999\n```\n\nShown as code: `arXiv:2613.88888`.\n")
    assert ids(text) == [("2610.04412", 1, ""), ("2309.06180", 1, ""), ("2612.00123", 6, "")]


def test_months_after_the_briefing_date():
    assert months_after(2612, "2026-11-02") == 1
    assert months_after(2610, "2026-11-02") == -1
    assert months_after(2610, None) is None


@settings(deadline=None, max_examples=80)
@given(yy=st.integers(7, 30), mm=st.integers(1, 12), n=st.integers(0, 99999))
def test_every_well_formed_id_passes_and_a_bad_month_never_does(yy, mm, n):
    yymm = yy * 100 + mm
    if yymm < 704:
        return
    digits = 4 if yymm < 1501 else 5
    ident = f"{yymm:04d}.{n % 10 ** digits:0{digits}d}"
    assert check(ident) == ("", yymm)
    assert check(f"{yy:02d}{mm + 12:02d}.{n % 10 ** digits:0{digits}d}")[0] == "month"
    assert [i for i, _, _ in ids(f"见 arXiv:{ident}。")] == [ident]
