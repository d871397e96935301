"""Segmentation: sections, entries, roles, packed bullets, tables, masks, language and date."""
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from claims.segment import section_path, segment

CORPUS = Path(__file__).resolve().parents[1] / "data" / "briefing-corpus"
ZH = CORPUS / "briefings" / "2026-11-02-inference.md"
EN = CORPUS / "briefings" / "2026-11-03-serving-weekly.md"


def seg(path):
    return segment(path.read_text(encoding="utf-8"), str(path))


def blocks_on(doc, line):
    return [b for b in doc.blocks if b.line == line]


def test_zh_sections_roles_and_declared_counts():
    doc = seg(ZH)
    got = [(s.line, s.role, s.declared_count) for s in doc.sections]
    assert got == [(3, "sources_table", None), (9, "body", 4), (22, "body", 1),
                   (26, "warnings", 1), (31, "references", None), (37, "summary", None)]
    heading = doc.sections[1]
    assert heading.count_surface == "4 条"
    line = doc.line_text(heading.line)
    assert line[heading.count_col - 1:].startswith("4 条")
    assert [(s.line, s.end_line) for s in doc.sections][:2] == [(3, 8), (9, 21)]


def test_zh_entries_belong_to_their_sections():
    doc = seg(ZH)
    ents = [(e.label, e.line, e.end_line, doc.sections[e.section].line) for e in doc.entries]
    assert ents == [("增量 1", 10, 13, 9), ("增量 2", 14, 17, 9), ("增量 3", 18, 21, 9),
                    ("邻接 A", 23, 25, 22), ("T1", 27, 30, 26)]
    # the heading declares 4 entries, the section holds 3: the count rule needs exactly this
    sec = doc.sections[1]
    assert sec.declared_count == 4
    assert sum(1 for e in doc.entries if e.section == 1) == 3


def test_header_role_before_first_section_and_title_date_lang():
    doc = seg(ZH)
    assert {b.role for b in doc.blocks if b.line < 3} == {"header"}
    assert doc.lang == "zh" and doc.date == "2026-11-02"
    assert doc.title.startswith("inference")
    en = seg(EN)
    assert en.lang == "en" and en.date == "2026-11-03"
    assert en.title == "Serving weekly — 2026-11-03"


def test_packed_bullets_one_block_each():
    doc = seg(ZH)
    bullets = [b.text for b in blocks_on(doc, 16) if b.kind == "bullet"]
    assert bullets == ["实测条件（A100 80GB，Qwen2.5-7B，长 prompt 批处理，输入 8K token）：",
                       "LMDeploy：2,430 tok/s", "vLLM：1,800 tok/s（差距约 35%）",
                       "短 prompt 场景差距缩小到 2-5%", "P99 延迟下降 38%，首 token 延迟 0.45 s"]
    for b in blocks_on(doc, 16):
        assert doc.text[b.start:b.end] == b.text
        assert doc.line_col(b.start) == (b.line, b.col)


def test_packed_split_keeps_digit_ranges():
    doc = segment("要点： - 提速 2 - 5% - 第二条 3%\n")
    assert [b.text for b in doc.blocks if b.kind == "bullet"] == ["提速 2 - 5%", "第二条 3%"]


def test_sources_per_entry_and_ratings_from_sources_table():
    doc = seg(ZH)
    by = {e.label: e for e in doc.entries}
    assert [s.ref for s in by["增量 1"].sources] == ["inbox/amy/2026-11-02-serving-digest.md"]
    assert by["增量 1"].sources[0].rating == 5
    refs3 = {(s.kind, s.ref) for s in by["增量 3"].sources}
    assert refs3 == {("arxiv", "2610.04412"), ("path", "organized/paper_cards/1802-2610-04412.md")}
    # T1 has no 来源 line: the file its text names is its source, rated ⭐⭐⭐ in the table
    t1 = by["T1"].sources
    assert [(s.ref, s.rating) for s in t1] == [("inbox/lee/2026-11-01-quant-notes.md", 3)]
    table = [(s.ref, s.rating, s.rating_text) for s in doc.sources if s.origin == "table" and s.kind == "path"]
    assert ("knowledge/inference.md", None, "基线") in table
    arx = [s.ref for s in doc.sources if s.kind == "arxiv" and s.origin == "table"]
    assert arx == ["2610.04412", "2609.11873", "2612.00123"]


def test_en_headings_entries_front_matter_and_code():
    doc = seg(EN)
    assert [(s.title, s.role, s.declared_count) for s in doc.sections] == [
        ("Highlights (3 items)", "body", 3), ("Warnings", "warnings", None)]
    assert [e.label for e in doc.entries] == ["1", "2", "3"]
    assert all(e.section == 0 for e in doc.entries)
    assert [s.ref for s in doc.header_sources] == ["inbox/amy/2026-11-02-serving-digest.md", "knowledge/inference.md"]
    # front matter and fenced code produce no blocks
    assert not [b for b in doc.blocks if b.line <= 4 or 24 <= b.line <= 27]
    # a wrapped English paragraph is one block
    b = blocks_on(doc, 13)[0]
    assert b.text.endswith("best case of 1.6×.") and "\n" in b.text


def test_masks_cover_inline_code_urls_comments_paths():
    text = ("# T\n\n## Body\n\nRun `bench --speedup 2.4x` see https://x.org/a/5%/b and "
            "<!-- 3% hidden --> and inbox/a/2026-11-01-notes.md then 7% real.\n")
    doc = segment(text)
    b = [b for b in doc.blocks if "real" in b.text][0]
    masked = "".join(text[s:e] for s, e in b.masked)
    for hidden in ("2.4x", "https://x.org/a/5%/b", "3% hidden", "2026-11-01-notes.md"):
        assert hidden in masked
    assert "7%" not in masked
    for s, e in b.masked:
        assert b.start <= s < e <= b.end


def test_multiline_html_comment_and_html_block_tags():
    text = "## S\n\n<!--\n50% inside\n-->\n\n<div align=\"center\">speed 2x</div>\n"
    doc = segment(text)
    assert not [b for b in doc.blocks if "inside" in b.text]
    div = [b for b in doc.blocks if "speed" in b.text][0]
    masked = "".join(text[s:e] for s, e in div.masked)
    assert '<div align="center">' in masked and "2x" not in masked


def test_table_rows_broken_across_lines_and_cells():
    text = "## 对比\n\n| 系统 | 吞吐 |\n|---|---|\n| vLLM | 1,800\ntok/s |\n| SGLang | 2,000 tok/s |\n"
    doc = segment(text)
    cells = [(b.row, b.cell, b.text, b.line) for b in doc.blocks if b.kind == "table_cell"]
    assert (1, 1, "1,800\ntok/s", 5) in cells
    assert (2, 0, "SGLang", 7) in cells
    assert (0, 0, "系统", 3) in cells


def test_ordinal_sections_without_hash_and_bold_and_counts_in_english():
    text = "日报\n**一、摘要**\n内容\n二、风险提示（2 条）\n## Open questions (3 items)\n- a\n"
    doc = segment(text)
    assert [(s.role, s.declared_count) for s in doc.sections] == [("summary", None), ("warnings", 2), ("warnings", 3)]
    assert section_path(doc, 2)[-1] == "Open questions (3 items)"


def test_subsection_inherits_role_and_has_parent():
    doc = segment("# Title\n\n## Caveats\n\n### Memory\n\n- 62 GB unverified\n")
    sub = doc.sections[1]
    assert sub.role == "warnings" and sub.parent == 0
    assert [b.role for b in doc.blocks if b.kind == "bullet"] == ["warnings"]


def test_crlf_offsets_and_lines():
    text = "# T\r\n\r\n## A\r\n\r\n- x 5%\r\n- y 6%\r\n"
    doc = segment(text)
    assert doc.newline == "\r\n"
    bl = [b for b in doc.blocks if b.kind == "bullet"]
    assert [(b.line, b.text) for b in bl] == [(5, "x 5%"), (6, "y 6%")]


def test_language_detection_mixed():
    assert segment("LMDeploy 在长 prompt 批处理下领先 vLLM 35%，吞吐提升明显。").lang == "zh"
    assert segment("LMDeploy leads vLLM by 35% on long prompts (长 prompt).").lang == "en"


def test_date_from_file_name_title_front_matter():
    assert segment("x", "notes/2026-01-05-daily.md").date == "2026-01-05"
    assert segment("# 日报 2026年3月4日\n").date == "2026-03-04"
    assert segment("---\ndate: 2025-09-24T09:00\n---\n# t\n").date == "2025-09-24"


HOSTILE = [
    ("nested lists", "- " * 10000 + "x 5%\n", 5),
    ("nested quotes", ">" * 10000 + " 5%\n", 5),
    ("100k table cells", "| a | b |\n|---|---|\n" + "| 1% | 2% |\n" * 50000, 20),
    ("1 MB line", "x 5% " * 200000 + "\n", 10),
    ("1 MB packed line", "要点：" + " - 5%" * 200000 + "\n", 20),
    ("backticks", "`a` ``b" * 50000, 10),
    ("unclosed comments", "<!--" * 100000, 10),
    ("unclosed fence", "```\n" + "x 5%\n" * 50000, 10),
    ("1000 indented list levels", "".join("  " * i + "- x 5%\n" for i in range(1000)), 15),
    ("300k dots", "." * 300000, 5),
    ("long blank run after a table pipe", "|" + " " * 300000 + "|\n|---|\n", 5),
    ("long blank runs in a packed line", "要点：" + " " * 300000 + "- x", 5),
]


@pytest.mark.parametrize("name,text,limit", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_inputs_stay_fast(name, text, limit):
    t = time.perf_counter()
    doc = segment(text)
    assert time.perf_counter() - t < limit, name
    for b in doc.blocks[:1000]:
        assert doc.text[b.start:b.end] == b.text


def test_linear_in_input_size():
    unit = "## S\n\n增量 1 · x\n来源：a/b.md\n要点： - 提速 5% - `c` 2x\n| a | b |\n|---|---|\n| 1% | 2 |\n\n"
    def cost(k):
        text = unit * k
        t = time.perf_counter()
        segment(text)
        return time.perf_counter() - t
    cost(50)
    small, big = cost(500), cost(4000)
    assert big < small * 8 * 3, (small, big)   # 8× the input, well under quadratic


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab 1%5-|#>`*\n\r:：、一二（）条<!->·增量T⚠ \u4e2d")), max_size=400))
def test_arbitrary_text_never_raises_and_blocks_are_exact(text):
    doc = segment(text)
    for b in doc.blocks:
        assert doc.text[b.start:b.end] == b.text
        assert 0 <= b.start < b.end <= len(text)
        for s, e in b.masked:
            assert b.start <= s < e <= b.end
    for s in doc.sections:
        assert s.role in ("header", "body", "warnings", "summary", "sources_table", "references")


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=300))
def test_any_unicode_never_raises(text):
    doc = segment(text)
    for b in doc.blocks:
        assert doc.text[b.start:b.end] == b.text


def test_english_dates():
    assert segment('---\ndate: "May 5, 2025"\n---\n\nbody\n').date == "2025-05-05"
    assert segment("# Weekly report, 5 Sept 2024\n").date == "2024-09-05"


def test_fast_path_without_markdown_parser_agrees_with_it(monkeypatch):
    """A briefing with no fences/HTML/indented or setext lines skips markdown-it; the result must not change."""
    import re as _re
    import claims.segment as S
    text = ZH.read_text(encoding="utf-8") + "\n## 附录\n# 顶级\n#### 1. 子项 5%\n"
    assert not S.md.NEEDS_MD.search(text)
    fast = segment(text, str(ZH))
    monkeypatch.setattr(S.md, "NEEDS_MD", _re.compile(r"(?s).", _re.M))
    slow = segment(text, str(ZH))
    key = lambda d: ([(b.start, b.end, b.kind, b.role, b.section, b.entry) for b in d.blocks],
                     [(s.title, s.level, s.role) for s in d.sections], [e.label for e in d.entries])
    assert key(fast) == key(slow)


def test_block_quote_marks_are_not_prose():
    doc = segment("## A\n\n> - Up to 23x throughput.\n> plain 5%\n>> - nested 3x\n")
    assert [(b.kind, b.text) for b in doc.blocks[1:]] == [
        ("bullet", "Up to 23x throughput."), ("paragraph", "plain 5%"), ("bullet", "nested 3x")]


def test_reference_audio_section_is_not_references():
    doc = segment("## 参考音频编码器优化\n\n- 吞吐 +32%\n## 参考文献\n\n- [1] x\n")
    assert [s.role for s in doc.sections] == ["body", "references"]
