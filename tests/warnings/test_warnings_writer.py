"""The warnings writer on hand-built findings: style, language, counts, summary line, bytes kept."""
from __future__ import annotations

import os

import pytest

from warnings_helpers import finding, write_once
from validator.finding import Evidence
from validator.warnings_locate import END, START, LayoutError
from validator.warnings_section import prepare, update

ROOT = os.path.join(os.path.dirname(__file__), "..", "data", "briefing-corpus")
ZH = "briefings/2026-11-02-inference.md"
EN = "briefings/2026-11-03-serving-weekly.md"


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as fh:
        return fh.read()


def zh_findings(text):
    return [
        finding(ZH, text, 12, "3.1×", "contradiction", "CV301", "3.1× 与 inbox/amy/2026-11-02-serving-digest.md:5 的 2.4× 矛盾",
                [Evidence("inbox/amy/2026-11-02-serving-digest.md", 5, "2.4×")],
                vars={"where": "inbox/amy/2026-11-02-serving-digest.md:5", "other": "2.4×"}),
        finding(ZH, text, 2, "35%", "precondition", "CV101", "35%（领先幅度）未给出前提条件：缺少硬件、模型",
                [Evidence(ZH, 16, "A100 80GB", note="条件所在行")],
                vars={"metric_name": "领先幅度", "missing": "硬件、模型", "where": "；第 16 行给出了条件"}),
        finding(ZH, text, 20, "两倍", "unverified", "CV201",
                "两倍 标为待核实，但“值得警惕的矛盾或待核实说法”一节没有列出它", vars={"marker_name": "待核实"}),
        finding(ZH, text, 25, "45%", "arithmetic", "CV401", "差距不是 45%"),          # must fix: no entry
        finding(ZH, text, 2, "1.9×", "unverified", "CV201", "1.9× 未核实", acknowledged=True),  # T1 covers it
    ]


def test_zh_briefing_gets_next_labelled_entries_in_its_own_form():
    text = read(ZH)
    upd = update(prepare(text), zh_findings(text), path=ZH, roots=(ROOT,))
    new = upd.text
    lines = new.split("\n")
    assert "四、值得警惕的矛盾或待核实说法（4 条）" in lines           # 1 author + 3 managed
    i = lines.index(START)
    assert lines[i - 1] == "建议：补充实测条件后再归入 §1.4"          # after the author's T1, untouched
    block = lines[i + 1:lines.index(END)]
    assert [ln.split(" · ")[0] for ln in block if ln.startswith("⚠️")] == ["⚠️ T2 缺前提", "⚠️ T3 矛盾", "⚠️ T4 待核实"]
    assert [ln[:3] for ln in block if not ln.startswith("⚠️")] == ["现象：", "风险：", "建议："] * 3
    # each entry discloses its figure the way the author would, not the finding's message
    heads = [ln.split(" · ", 1)[1] for ln in block if ln.startswith("⚠️")]
    assert heads == ["LMDeploy 35%（第 2 行）未写明硬件、模型",
                     "EAGLE-3 解码加速 3.1×（第 12 行）与 inbox/amy/2026-11-02-serving-digest.md:5 的 2.4× 不一致",
                     "场景吞吐提升 两倍（第 20 行）标为待核实，尚未核实"]
    phen = [ln for ln in block if ln.startswith("现象：")]
    assert phen[0].startswith("现象：第 2 行的 35% 未写明硬件、模型（领先幅度）；第 16 行给出了条件")
    assert "本文第 16 行「A100 80GB」" in phen[0]
    assert "inbox/amy/2026-11-02-serving-digest.md 第 5 行「2.4×」" in phen[1]
    assert phen[2] == "现象：第 20 行的 两倍 在正文中标为待核实，尚未核实"
    assert "没有列出它" not in "\n".join(block)          # never the finding talking to the author
    assert "列入待核实说法" not in "\n".join(block)
    assert "45%" not in "\n".join(block) and "1.9×" not in "\n".join(block)
    summary = [ln for ln in lines if ln.startswith("矛盾/待核实：")]
    assert summary[0].startswith("矛盾/待核实：TensorRT-LLM FP8 提速幅度（T1）+ ")
    assert summary[0].endswith("（T4）") and "（T2）+ " in summary[0] and "（T3）+ " in summary[0]
    # nothing else moved: removing the managed parts gives the original bytes
    assert prepare(new).base_text == text


def test_second_run_is_byte_identical_and_gone_findings_are_removed():
    text = read(ZH)
    first = update(prepare(text), zh_findings(text), path=ZH, roots=(ROOT,)).text
    prep = prepare(first)
    assert prep.base_text == text
    again = update(prep, zh_findings(prep.base_text), path=ZH, roots=(ROOT,)).text
    assert again == first
    fewer = update(prepare(first), zh_findings(text)[:1], path=ZH, roots=(ROOT,)).text
    assert "（2 条）" in fewer and fewer.count("⚠️ T") == 2 and "35%」" not in fewer
    none = update(prepare(first), [], path=ZH, roots=(ROOT,)).text
    assert none == text


def test_markdown_briefing_gets_list_items_in_place_of_its_placeholder():
    text = read(EN)
    assert text.endswith("## Warnings\n\n- None this week.\n")
    fs = [finding(EN, text, 17, "35%", message="35% (lead) is cited without its conditions: no hardware, model",
                  evidence=[Evidence(os.path.join(ROOT, "knowledge/inference.md"), 9, "35%")],
                  vars={"metric_name": "lead", "missing": "hardware, model", "where": ""}),
          finding(EN, text, 18, "450 ms", message="TTFT 450 ms has no setup.")]   # a rule without wording
    new = update(prepare(text), fs, path=EN, roots=(ROOT,)).text
    head = text[:text.index("- None this week.")]
    assert new.startswith(head)
    tail = new[len(head):].split("\n")
    # the placeholder is gone from the section, kept in the block so it can come back
    assert tail[0] == START and tail[1] == '<!-- caveat:replaced "- None this week." -->'
    assert tail[-2] == END and tail[-1] == ""
    items = tail[2:-2]
    assert items == [
        "- **Missing conditions** · 35% (line 17) is given without its hardware, model (lead). "
        "Evidence: knowledge/inference.md line 9 (35%). To do: state the hardware, model it was measured under.",
        "- **Missing conditions** · line 18: TTFT 450 ms has no setup. "
        "To do: state the hardware, model and workload the figure was measured under.",
    ]
    assert prepare(new).base_text == text
    # the last entry gone: the author's placeholder is back, byte for byte
    assert update(prepare(new), [], path=EN, roots=(ROOT,)).text == text


@pytest.mark.parametrize("placeholder", ["无", "暂无", "（无）"])
def test_chinese_placeholder_is_replaced_and_restored(placeholder):
    text = ("inference · 日报\n一、增量\n增量 1 · 吞吐\n要点：吞吐提升 28%，未写明硬件\n"
            f"二、值得警惕的矛盾或待核实说法（0 条）\n{placeholder}\n三、本轮摘要\n矛盾/待核实：{placeholder}\n")
    upd = write_once(text)
    lines = upd.text.split("\n")
    assert placeholder not in lines                       # not above the entries any more
    assert "二、值得警惕的矛盾或待核实说法（1 条）" in lines
    assert lines[lines.index(START) + 2].startswith("⚠️ T1 缺前提 · 吞吐提升 28%（第 4 行）")
    assert prepare(upd.text).base_text == text and write_once(upd.text).text == upd.text
    assert update(prepare(upd.text), [], path="doc.md").text == text


def test_a_section_with_real_entries_keeps_a_line_that_looks_like_a_placeholder():
    text = "# W\n\nA 29% gain.\n\n## Warnings\n\n- The 12% figure is from a vendor.\n- None.\n"
    new = write_once(text).text
    assert "- None.\n" in new and "caveat:replaced" not in new


def test_heading_count_in_english_items_follows():
    text = "# W\n\nA 29% gain.\n\n## Caveats (1 item)\n\n- Old caveat.\n\n## References\n\n- x\n"
    upd = write_once(text)
    assert "## Caveats (2 item)" in upd.text                  # only the number is ours to change
    assert upd.text.index(END) < upd.text.index("## References")
    assert prepare(upd.text).base_text == text


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("trailing", [True, False])
def test_no_warnings_section_in_english_is_added_before_summary_or_at_end(newline, trailing):
    body = ["# Weekly", "", "Throughput rose 29% on H100.", ""]
    for with_summary in (True, False):
        lines = body + (["## Summary", "", "Fine."] if with_summary else ["Done."])
        text = newline.join(lines) + (newline if trailing else "")
        new = write_once(text).text
        assert "## Warnings" in new and "29% (line 3)" in new
        if with_summary:
            assert new.index("## Warnings") < new.index("## Summary")
        else:
            assert new.rstrip("\r\n").endswith(END)
        assert new.endswith(newline) == trailing
        assert "\n" not in new.replace("\r\n", "") if newline == "\r\n" else "\r" not in new
        assert prepare(new).base_text == text
        assert write_once(new).text == new


def test_no_warnings_section_in_chinese_gets_one_in_chinese():
    text = "inference · 日报\n一、增量\n增量 1 · 吞吐\n要点：吞吐提升 28%，未写明硬件\n二、本轮摘要\n增量条数：1 条"
    new = write_once(text).text
    lines = new.split("\n")
    i = lines.index(START)
    assert lines[i + 1] == "## 值得警惕的矛盾或待核实说法（1 条）"
    assert lines[i + 2] == "⚠️ T1 缺前提 · 吞吐提升 28%（第 4 行）未写明硬件"
    assert lines[i + 3] == "现象：第 4 行的 28% 未写明硬件（吞吐）"
    assert lines[lines.index(END) + 1] == "二、本轮摘要"
    assert not new.endswith("\n")
    assert prepare(new).base_text == text and write_once(new).text == new


def test_author_covered_suppressed_and_other_files_findings_get_no_entry():
    text = "# A\n\nUp 29% and 33% and 37%.\n"
    fs = [finding("a.md", text, 3, "29%", acknowledged=True),
          finding("a.md", text, 3, "33%"),
          finding("b.md", text, 3, "37%")]
    fs[1].suppressed = True
    assert update(prepare(text), fs, path="a.md").text == text


def test_broken_markers_are_an_error_naming_the_line():
    with pytest.raises(LayoutError) as exc:
        prepare(f"# A\n\n{START}\n- x\n")
    assert exc.value.line == 3


def test_markers_inside_code_are_text():
    text = f"# A\n\n```\n{START}\n```\n\nUp 29%.\n"
    new = write_once(text).text
    assert new.count(START) == 2 and prepare(new).base_text == text
