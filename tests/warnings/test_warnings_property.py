"""Property: for any document built from random text, random briefing sections and random
figures, writing twice gives the bytes of writing once; removing what caveat manages gives
back the original bytes; no author line is lost or reordered."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warnings_helpers import write_once
from validator.warnings_locate import END, START
from validator.warnings_section import prepare

_figure = st.integers(0, 120).map(lambda n: f"{n}%")
_word = st.sampled_from(["吞吐", "latency", "EAGLE-3", "提升", "vs", "约", "H100", "the gap", "（", "）",
                         "：", " + ", "·", "`", "*", "-", "#", "T1", "条", "items", "|"])
_free = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)
_prose = st.lists(st.one_of(_word, _figure, _free, st.just(" ")), min_size=0, max_size=8).map("".join)


@st.composite
def _section(draw):
    kind = draw(st.sampled_from(["zh_warn", "en_warn", "md_warn", "zh_body", "md_body", "summary", "refs", "code",
                                 "zh_summary_line", "prose"]))
    n = draw(st.integers(0, 3))
    body = [draw(_prose) for _ in range(draw(st.integers(0, 3)))]
    if kind == "zh_warn":
        out = [f"四、值得警惕的矛盾或待核实说法（{n} 条）"]
        for i in range(1, n + 1):
            out += [f"⚠️ T{i} 待核实 · {draw(_prose)}", f"现象：{draw(_prose)}", f"风险：{draw(_prose)}",
                    f"建议：{draw(_prose)}"]
        return out
    if kind == "en_warn":
        out = [f"## Open questions ({n} items)"]
        for i in range(1, n + 1):
            out += [f"⚠️ T{i} Unverified · {draw(_prose)}", f"Issue: {draw(_prose)}", f"Risk: {draw(_prose)}",
                    f"Fix: {draw(_prose)}"]
        return out
    if kind == "md_warn":
        head = draw(st.sampled_from(["## Warnings", "## Caveats (2 items)", "## Open questions", "## 矛盾与待核实"]))
        return [head, ""] + [f"- {draw(_prose)}" for _ in range(n)]
    if kind == "zh_body":
        return [f"{draw(st.sampled_from('一二三五'))}、{draw(_prose)}"] + body
    if kind == "md_body":
        return [f"## {draw(_prose)}", ""] + body
    if kind == "summary":
        return [draw(st.sampled_from(["六、本轮摘要", "## Summary"]))] + body
    if kind == "refs":
        return [draw(st.sampled_from(["## References", "五、可引用的 arXiv 号列表"]))] + body
    if kind == "code":
        return ["```", draw(_prose), "```"]
    if kind == "zh_summary_line":
        return [draw(st.sampled_from(["矛盾/待核实：", "矛盾/待核实：A（T1）", "Warnings: x"]))]
    return body


@st.composite
def documents(draw):
    lines = [line for sec in draw(st.lists(_section(), max_size=7)) for line in sec]
    lines = [ln.replace("\r", "").replace("\n", " ") for ln in lines]
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    trailing = draw(st.booleans())
    return nl.join(lines) + (nl if trailing and lines else "")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_write_is_idempotent_and_keeps_author_bytes(text):
    once = write_once(text).text
    twice = write_once(once).text
    assert twice == once
    # apart from the managed block, the heading count and the summary line: the original bytes
    assert prepare(once).base_text == text
    # and no author line lost or reordered: line by line, only a count or a summary tail grew
    new = once.splitlines()
    if START in new:
        new = new[:new.index(START)] + new[new.index(END) + 1:]
    orig = text.splitlines()
    assert len(new) == len(orig)
    for a, b in zip(orig, new):
        assert a == b or b.startswith(a) or _digits_only_differ(a, b), (a, b)
    assert once.count(START) == once.count(END) <= 1 + text.count(START)


def _digits_only_differ(a, b):
    import re
    return re.sub(r"\d+", "0", a) == re.sub(r"\d+", "0", b)


# --- the same property through the real pipeline (segmenter, extractor, rule packs) ---------

_real_figure = st.sampled_from(["29%", "2.4×", "3.1x", "1.2 万 tok/s", "450 ms", "0.45 s", "近三成", "两倍",
                                "2,400 tok/s", "62 GB", "35%", "1–4%", "~16,200 tok/s"])
_real_word = st.sampled_from(["SGLang", "vLLM", "EAGLE-3", "on H100", "Llama 3.1 8B", "吞吐", "领先", "待核实",
                              "vs", "（差距约 ", "）", "：", "，", " - ", "unverified", "faster than", "latency"])
_real_prose = st.lists(st.one_of(_real_word, _real_figure, st.just(" ")), max_size=8).map("".join)


@st.composite
def briefings(draw):
    lines = ["inference · 日报" if draw(st.booleans()) else "# Weekly", ""]
    for k in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["body", "zh_warn", "md_warn", "summary"]))
        if kind == "body":
            lines += [draw(st.sampled_from(["一、增量", "## Highlights"]))] + \
                     [draw(_real_prose) for _ in range(draw(st.integers(1, 3)))]
        elif kind == "zh_warn":
            lines += ["四、值得警惕的矛盾或待核实说法（1 条）", f"⚠️ T1 待核实 · {draw(_real_prose)}",
                      f"现象：{draw(_real_prose)}", "风险：未知", "建议：核实"]
        elif kind == "md_warn":
            lines += ["## Warnings", "", f"- {draw(_real_prose)}"]
        else:
            lines += [draw(st.sampled_from(["六、本轮摘要", "## Summary"])), "矛盾/待核实：A（T1）"]
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    return nl.join(lines) + (nl if draw(st.booleans()) else "")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(briefings())
def test_real_pipeline_write_is_idempotent(text):
    session = _session()
    once = session.rewrite("doc.md", text).text
    twice = session.rewrite("doc.md", once).text
    assert twice == once
    assert prepare(once).base_text == text


_SESSION = []


def _session():
    from validator.warnings_cmd import Session
    if not _SESSION:
        _SESSION.append(Session())
    return _SESSION[0]
