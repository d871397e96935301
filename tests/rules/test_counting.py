"""Declared counts against what the document holds: what ``claims.counts`` reads (count
claims, declared counts with their readings, listed items) and how ``validator.kinds.count``
judges a written count against a reading."""
import pytest
from hypothesis import given, settings, strategies as st

from claims.api import analyze
from validator.kinds.count import declared_interval


def briefing(declared: int, present: int, summary: str = "") -> str:
    lines = ["inference · 日间简报(2026-11-02)", f"二、今日该主题最重要的增量（{declared} 条）"]
    for k in range(1, present + 1):
        lines += [f"增量 {k} · 🟡 工程新增 · 系统 {k}", f"要点： - 第 {k} 条"]
    lines += ["六、本轮摘要", summary or f"增量条数：{present} 条"]
    return "\n".join(lines) + "\n"


def statements(text, what=None):
    got = analyze(text, "b.md").counts.statements
    return [s for s in got if what is None or s.what == what]


def admits(s) -> bool:
    lo, hi = declared_interval(s.value, s.approx, s.bound, 0.25, 2)
    return any(r.low <= hi and lo <= r.high for r in s.readings)


@settings(deadline=None, max_examples=25)
@given(declared=st.integers(0, 9), present=st.integers(1, 9))
def test_a_section_count_differs_exactly_when_the_entries_differ(declared, present):
    (s,) = statements(briefing(declared, present), "section")
    assert s.value == declared
    assert admits(s) == (declared == present)


def test_summary_counts_entries_by_label_and_parts_by_title():
    text = briefing(2, 2, "增量条数：2 条（1 条 NET-new + 1 条工程新增）")
    got = {(s.what, s.surface): (s.value, s.readings[0].low) for s in statements(text)}
    assert got[("summary", "2 条")] == (2, 2)
    assert got[("summary_part", "1 条工程新增")] == (1, 2)      # both entries say 工程新增


def test_summary_count_without_an_identifiable_target_is_not_compared():
    assert statements(briefing(2, 2, "阅读篇数：12 篇"), "summary") == []


def test_table_rows_are_counted_when_there_are_no_entries():
    text = ("# Weekly\n\n## Papers (3 items)\n\n| id | title |\n|---|---|\n| 1 | a |\n| 2 | b |\n\n"
            "## Warnings\n\n- none\n")
    (s,) = statements(text, "section")
    assert [(r.what, r.low) for r in s.readings] == [("table rows", 2)]


@pytest.mark.parametrize("text,surface,value,bound", [
    ("vLLM、SGLang、llama.cpp 三家都有未闭合的 Bug。", "三家", 3, None),
    ("There are two open issues left.", "two open issues", 2, None),
    ("4+ PRs are in review.", "4+ PRs", 4, "ge"),
    ("另有 3+ 个 PR 在推进。", "3+ 个", 3, "ge"),
    ("More than two PRs are open.", "two PRs", 2, "gt"),
    ("三种及以上策略需要 AITER。", "三种", 3, "ge"),
    ("We ran three significant problems to ground.", "three significant problems", 3, None),
])
def test_counts_the_figure_reader_leaves_out_are_count_claims(text, surface, value, bound):
    got = [c for c in analyze(text).claims if c.kind == "count"]
    assert [(c.surface, c.value, c.bound, c.unit) for c in got] == [(surface, value, bound, "item")]


def test_a_bare_number_under_an_issues_column_is_a_count():
    text = "| 项目 | Issues | PRs |\n|---|---|---|\n| vLLM | ~13 | 12 |\n"
    got = [(c.surface, c.value, c.approx) for c in analyze(text).claims]
    assert got == [("~13", 13, True), ("12", 12, False)]


@pytest.mark.parametrize("text", [
    "一个调度器，一种方式。",                 # the indefinite article
    "三个月前提过，第三个版本才修好。",          # a duration, an ordinal
    "It took two weeks and three times the memory.",
    "TP=8 + expert parallelism on two-stage pipelines.",
    "`三家` and `two open issues` are code.",
])
def test_words_that_are_not_counts_are_not_read(text):
    assert [c.surface for c in analyze(text).claims if c.kind == "count"] == []


def test_a_count_the_figure_reader_reads_is_not_read_twice():
    got = [c.surface for c in analyze("今日有 3 条修复，15 issues。").claims]
    assert got == ["3 条", "15 issues"]


def test_counts_are_not_performance_figures():
    from validator.options import Options
    from validator.run import check_paths
    import tempfile
    import pathlib
    with tempfile.TemporaryDirectory() as d:
        p = pathlib.Path(d) / "b.md"
        p.write_text("# Weekly\n\nvLLM、SGLang、llama.cpp 三家各有两个 PR。 Two open issues remain.\n", encoding="utf-8")
        result = check_paths([str(p)], Options(select=["CV1", "CV2", "CV3"]))
    assert result.findings == []


@pytest.mark.parametrize("value,approx,bound,inside,outside", [
    (5, False, None, [5], [4, 6]),
    (13, True, None, [9, 17], [8, 18]),           # ~13: ± max(2, ⌈25%⌉) = ± 4
    (3, False, "ge", [3, 40], [2]),               # 3+
    (3, False, "gt", [4], [3]),                   # more than three
    (5, False, "le", [0, 5], [6]),                # up to five
])
def test_what_a_written_count_admits(value, approx, bound, inside, outside):
    lo, hi = declared_interval(value, approx, bound, 0.25, 2)
    assert all(lo <= n <= hi for n in inside)
    assert not any(lo <= n <= hi for n in outside)


def test_a_release_range_admits_its_listed_ids_up_to_its_span():
    head = "## llama.cpp\n\n发布 {n} 个版本（b10174–b10182）。\n\n"
    body = "".join(f"### b{i}\n\n- fix\n\n" for i in (10174, 10175, 10176, 10178, 10179, 10180, 10181, 10182))
    got = {}
    for n in (7, 8, 9, 10):
        (s,) = statements(head.format(n=n) + body, "enumeration")
        got[n] = admits(s)
    assert got == {7: False, 8: True, 9: True, 10: False}
