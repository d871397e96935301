"""The typed document model: tables, list items, captions, setups, sentences, references, code."""
from __future__ import annotations

from claims import analyze
from claims.structure import sentence_at


def doc(text):
    return analyze(text, "b.md").document


def test_table_rows_cells_header_and_caption_before_it():
    d = doc("# R\n\nThroughput on 8×H100 with Llama 3.1 70B:\n\n| system | tok/s |\n|---|---|\n"
            "| vLLM | 2,400 |\n| SGLang | 3,100 |\n")
    (t,) = d.tables
    assert [c.text for c in t.header] == ["system", "tok/s"]
    assert [[c.text for c in r.cells] for r in t.rows] == [["vLLM", "2,400"], ["SGLang", "3,100"]]
    assert [r.line for r in t.rows] == [7, 8]
    assert d.blocks[t.caption].text.startswith("Throughput on 8×H100")
    assert t.column_name(1) == "tok/s"
    cell = t.rows[1].cells[1]
    assert d.text[cell.start:cell.end] == "3,100" and d.blocks[cell.block].table == 0


def test_table_caption_after_it_wins_zh():
    d = doc("## 结果\n\n一些说明。\n\n| 配置 | 吞吐 |\n|---|---|\n| A | 6.78 |\n\n表 2：H100 上的吞吐\n")
    (t,) = d.tables
    assert d.blocks[t.caption].text.startswith("表 2")


def test_list_items_know_their_introduction():
    d = doc("## Results\n\nOn a single 8× B300 node at concurrency 1:\n\n- 125 tok/s without MTP\n"
            "- 234 tok/s with MTP\n\nAnother paragraph.\n\n- lone item\n")
    a, b, c = d.items
    assert a.list_id == b.list_id != c.list_id
    assert d.blocks[a.intro].text.startswith("On a single 8× B300 node")
    assert d.blocks[c.intro].text == "Another paragraph."


def test_setup_section_line_list_and_paragraph_zh_en():
    d = doc("# Post\n\n## Results\n\n### Benchmark setup\n\nWe ran every test on 8×H100.\n\n"
            "## 测试\n\n测试环境如下：\n\n- GPU：8× MI300X\n- 模型：DeepSeek-R1\n\n实测条件：H100，Llama 3.1 8B\n")
    kinds = [(s.kind, s.line) for s in d.setups]
    assert ("section", 5) in kinds            # the setup section …
    assert ("paragraph", 7) in kinds          # … and its sentence
    assert ("list", 11) in kinds              # an introduced setup list …
    lst = next(s for s in d.setups if s.kind == "list")
    assert len(lst.blocks) == 3               # … with its two items
    assert ("line", 16) in kinds
    sec = next(s for s in d.setups if s.kind == "section")
    assert d.sections[sec.section].title == "Results"   # it states its parent's setup


def test_near_miss_a_list_after_an_ordinary_sentence_is_no_setup():
    d = doc("## Notes\n\nThree things changed this week:\n\n- the router\n- the cache\n")
    assert [s.kind for s in d.setups] == []


def test_sentences_span_hard_wrapped_lines_and_stop_at_chinese_punctuation():
    d = doc("## A\n\nIn a simple test, sending two requests of about 10,000 tokens to a Qwen/Qwen3-32B\n"
            "instance, TTFT drops from 4.3 s to 0.6 s. Next sentence.\n\n向 A 发送。再来一句！\n")
    s = sentence_at(d, d.text.index("4.3 s"))
    assert "Qwen/Qwen3-32B" in d.text[s.start:s.end] and "Next" not in d.text[s.start:s.end]
    zh = sentence_at(d, d.text.index("再来"))
    assert d.text[zh.start:zh.end] == "再来一句！"


def test_a_sentence_ends_after_a_name_ending_in_a_digit_but_not_after_a_list_number():
    d = doc("## A\n\nPP-OCRv4 is 1.2x more accurate than PP-OCRv3. The table below shows it.\n\n"
            "Steps: 1. build the index 2. query it.\n")
    s = sentence_at(d, d.text.index("1.2x"))
    assert d.text[s.start:s.end].rstrip().endswith("PP-OCRv3.")
    steps = sentence_at(d, d.text.index("build"))
    assert "query" in d.text[steps.start:steps.end]


def test_references_issues_prs_links_release_ranges_and_arxiv():
    d = doc("# Digest\n\n- vLLM #12345 and PR 678 fixed it ([link](https://github.com/a/b/pull/999))\n"
            "- builds b10327–b10331 and v1.94.2; see arXiv:2401.12345\n"
            "- not a build: B200, not an issue: A100#x\n\n```\n#55555 in code\n```\n")
    got = [(r.kind, r.ids) for r in d.references]
    assert ("issue", ("#12345",)) in got and ("pr", ("#678",)) in got and ("pr", ("#999",)) in got
    assert ("release", ("b10327", "b10328", "b10329", "b10330", "b10331")) in got
    assert ("release", ("v1.94.2",)) in got and ("arxiv", ("2401.12345",)) in got
    assert not any("b200" in r.ids or "#55555" in r.ids for r in d.references)


def test_code_regions_and_real_comments():
    d = doc("# A\n\n`<!-- shown -->` text <!-- real -->\n\n    <!-- indented -->\n\n```\n<!-- fenced -->\n```\n")
    assert [c.body.strip() for c in d.comments] == ["real"]
    assert sorted(r.kind for r in d.code) == ["fence", "indented", "inline"]
