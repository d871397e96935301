"""Declared counts against what the document holds (validator.counting)."""
from hypothesis import given, settings, strategies as st

from claims.api import analyze
from validator import counting


def briefing(declared: int, present: int, summary: str = "") -> str:
    lines = ["inference · 日间简报(2026-11-02)", f"二、今日该主题最重要的增量（{declared} 条）"]
    for k in range(1, present + 1):
        lines += [f"增量 {k} · 🟡 工程新增 · 系统 {k}", f"要点： - 第 {k} 条"]
    lines += ["六、本轮摘要", summary or f"增量条数：{present} 条"]
    return "\n".join(lines) + "\n"


@settings(deadline=None, max_examples=25)
@given(declared=st.integers(0, 9), present=st.integers(1, 9))
def test_a_section_count_differs_exactly_when_the_entries_differ(declared, present):
    doc = analyze(briefing(declared, present), "b.md").document
    checks = [c for c in counting.section_counts(doc) if c.what == "section"]
    assert [(c.declared, c.actual) for c in checks] == [(declared, present)]


def test_summary_counts_entries_by_label_and_parts_by_title():
    text = briefing(2, 2, "增量条数：2 条（1 条 NET-new + 1 条工程新增）")
    got = {(c.what, c.surface): (c.declared, c.actual) for c in counting.summary_counts(analyze(text, "b.md").document)}
    assert got[("summary", "2 条")] == (2, 2)
    assert got[("summary_part", "1 条工程新增")] == (1, 2)      # both entries say 工程新增


def test_summary_count_without_an_identifiable_target_is_not_compared():
    text = briefing(2, 2, "阅读篇数：12 篇")
    assert counting.summary_counts(analyze(text, "b.md").document) == []


def test_table_rows_are_counted_when_there_are_no_entries():
    text = ("# Weekly\n\n## Papers (3 items)\n\n| id | title |\n|---|---|\n| 1 | a |\n| 2 | b |\n\n"
            "## Warnings\n\n- none\n")
    (c,) = counting.section_counts(analyze(text, "b.md").document)
    assert (c.declared, c.actual, c.counted) == (3, 2, "table rows")
