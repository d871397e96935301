"""Generator of briefing-like Markdown for fuzzing the whole check pipeline.

One grammar, two sources of choices: hypothesis (``HypothesisChooser``, so failures
shrink) in the test suite, and ``random.Random`` (``RandomChooser``) in the
minutes-long run of ``benchmark/fuzz_long.py``, which needs millions of cheap draws
rather than shrinking.  The grammar mixes what real briefings mix — Chinese
ordinal sections and Markdown headings, entries, packed bullets, tables (also
broken rows), source lines, every figure style of DESIGN.md, markers, non-claims —
with what hostile ones add: zero-width and bidi controls inside figures, stray
table pipes, unterminated code fences and comments, CRLF, BOM, huge digit runs.
"""
from __future__ import annotations

import random

SYSTEMS = ["SGLang", "vLLM", "TGI 3.2", "LMDeploy", "TensorRT-LLM", "EAGLE-3", "SpecInfer",
           "SpecInfr", "llm-d", "Dynamo1.0", "QuantSpec", "系统甲"]
MODELS = ["Llama 3.1 8B", "Llama 3.1 70B", "Qwen2.5-7B", "GLM-4.5", "Qwen3.8-27B", "DeepSeek-V3"]
HARDWARE = ["H100", "8×H100", "A100 80GB", "H200", "MI300X", "4x L40S"]
WORKLOADS = ["prefix-heavy traffic", "长 prompt 批处理", "MT-Bench", "ShareGPT", "输入 8K token",
             "batch size 1", "并发 64", "FP8", "128K context"]
MARKERS = ["待核实", "未经精读", "unverified", "TBD", "条件性", "conditional", "数字来自摘要",
           "abstract only", "⚠"]
NON_CLAIMS = ["2026-11-02", "21:40 CST", "v0.6.0", "arXiv:2610.04412", "2511.02230v7", "§4.1",
              "Bug ×4", "⭐⭐⭐⭐", "paper_card 1802", "#1234", "Llama 3.1 8B", "8×H100"]
UNITS = ["%", " %", "×", "x", " 倍", " tok/s", " token/s", " req/s", " QPS", " ms", " s", " 秒",
         " GB", "GiB", " TB/s", " TFLOP/s", " pp", " 个百分点", " 万 tok/s", " 亿", "M token",
         " 美元", "", " session"]
APPROX = ["", "", "", "~", "约 ", "近", "≈", "about ", "roughly ", "左右"]
BOUNDS = ["", "", "", ">", "≥", "up to ", "超过 ", "至少 ", "不到 ", "<"]
RANGE_SEP = ["-", "–", "—", "~", "～", " 到 ", " to "]
ZH_NUM = ["三成", "近三成", "百分之十二", "两倍", "翻倍", "一半", "五成", "十二万", "3 亿", "1.5 万"]
CONTROL = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202e", "\u202d", "\u2066",
           "\u2069", "\u200f", "\u00a0", "\u3000", "\u00ad"]
JUNK = ["|", "||", "`", "```", "<!--", "-->", "**", "__", "[", "](", "\\", "\t", "#", ">",
        "<!-- caveat: ignore CV101 -->", "<!-- caveat: ignore CV999 reason=\"x\" -->",
        "http://example.com/29%", "`29%`", "$", "€", "¥", "%%", "1e309", "NaN%", "-0%"]
FULLWIDTH = str.maketrans("0123456789.%", "０１２３４５６７８９．％")


class RandomChooser:
    """Choices from ``random.Random``: fast, for long unattended runs."""

    def __init__(self, seed=None):
        self.r = random.Random(seed)

    def choice(self, seq):
        return seq[self.r.randrange(len(seq))]

    def integer(self, lo, hi):
        return self.r.randint(lo, hi)

    def coin(self, p=0.5):
        return self.r.random() < p


class HypothesisChooser:
    """Choices drawn through hypothesis (the ``draw`` of ``st.composite`` or
    ``data.draw``), so failing documents shrink."""

    def __init__(self, draw):
        from hypothesis import strategies as st
        self.draw, self.st = draw, st

    def choice(self, seq):
        return self.draw(self.st.sampled_from(seq))

    def integer(self, lo, hi):
        return self.draw(self.st.integers(lo, hi))

    def coin(self, p=0.5):
        return self.draw(self.st.booleans())


def number(c) -> str:
    kind = c.integer(0, 15)
    if kind == 0 or kind > 9:
        return str(c.integer(0, 100))
    if kind == 1:
        return f"{c.integer(0, 999)}.{c.integer(0, 99)}"
    if kind == 2:
        return f"{c.integer(1, 999)},{c.integer(0, 999):03d}"
    if kind == 3:
        return f"{c.integer(1, 9)}.{c.integer(0, 9)}"
    if kind == 4:
        return str(c.integer(0, 100)).translate(FULLWIDTH)
    if kind == 5:
        return "9" * c.integer(20, 400)           # absurdly long digit run
    if kind == 6:
        return f"{c.integer(1, 99)},{c.integer(0, 999):03d},{c.integer(0, 999):03d}"
    if kind == 7:
        return "0." + "0" * c.integer(1, 30) + "1"
    if kind == 8:
        return f"{c.integer(1, 9)}{c.choice(CONTROL)}{c.integer(0, 9)}"   # control char inside a figure
    return f"{c.integer(1, 999)}{c.choice(['', '.', ',', ',,', '..'])}{c.integer(0, 9)}"


def figure(c) -> str:
    kind = c.integer(0, 6)
    if kind == 0:
        return f"{c.choice(APPROX)}{c.choice(BOUNDS)}{number(c)}{c.choice(UNITS)}"
    if kind == 1:
        u = c.choice(UNITS)
        return f"{number(c)}{c.choice(RANGE_SEP)}{number(c)}{u}"
    if kind == 2:
        return c.choice(ZH_NUM)
    if kind == 3:
        return "/".join(f"{number(c)}×" for _ in range(c.integer(2, 4)))
    if kind == 4:
        return f"{number(c)}{c.choice(CONTROL)}{c.choice(UNITS)}"
    if kind == 5:
        return f"{c.choice(['between ', '在 '])}{number(c)} and {number(c)}%"
    return f"{c.choice(BOUNDS)}{number(c)}%{c.choice(CONTROL)}"


def sentence(c) -> str:
    s, s2 = c.choice(SYSTEMS), c.choice(SYSTEMS)
    forms = [
        lambda: f"{s} 比 {s2} 快 {figure(c)}",
        lambda: f"{s}：{figure(c)} - {s2}：{figure(c)}（差距约 {figure(c)}）",
        lambda: f"{s} {figure(c)} vs {s2} {figure(c)}, a {figure(c)} gap",
        lambda: f"throughput {figure(c)} on {c.choice(HARDWARE)} with {c.choice(MODELS)}",
        lambda: f"实测条件（{c.choice(HARDWARE)}，{c.choice(MODELS)}，{c.choice(WORKLOADS)}）：{s} {figure(c)}",
        lambda: f"from {figure(c)} to {figure(c)}, a {figure(c)} reduction",
        lambda: f"P99 延迟下降 {figure(c)}，首 token 延迟 {figure(c)}",
        lambda: f"{s} is {figure(c)} faster than {s2} ({c.choice(MARKERS)})",
        lambda: f"{c.choice(NON_CLAIMS)} {s} {c.choice(NON_CLAIMS)}",
        lambda: f"内存占用 {figure(c)}，比上一版本多 {figure(c)}",
        lambda: f"{c.choice(JUNK)}{figure(c)}{c.choice(JUNK)}",
        lambda: f"声称吞吐提升{figure(c)}，{c.choice(MARKERS)}",
    ]
    out = c.choice(forms)()
    if c.coin(0.2):
        out += c.choice(JUNK)
    return out


def source_line(c) -> str:
    refs = [c.choice(["inbox/amy/2026-11-02-serving-digest.md", "knowledge/inference.md",
                      "inbox/lee/2026-11-01-quant-notes.md", "missing/nowhere.md", "../../etc/passwd",
                      "https://arxiv.org/abs/2610.04412", "arXiv:2612.00123", "arXiv:9999.99999",
                      "/abs/path.md", "a b c.md"]) for _ in range(c.integer(1, 3))]
    return c.choice(["来源：", "Sources reviewed: ", "Source: "]) + " + ".join(refs)


def table(c) -> list:
    cols = c.integer(1, 5)
    rows = [("| " + " | ".join(f"h{i}" for i in range(cols)) + " |"),
            "|" + "---|" * cols]
    for _ in range(c.integer(0, 6)):
        cells = [c.choice([figure(c), c.choice(SYSTEMS), c.choice(MARKERS), "⭐⭐⭐", "参考", "基线",
                           c.choice(NON_CLAIMS), ""]) for _ in range(c.integer(1, cols + 2))]
        row = "| " + " | ".join(cells) + " |"
        if c.coin(0.15):                       # a row broken across lines
            cut = c.integer(0, len(row))
            rows.extend([row[:cut], row[cut:]])
        else:
            rows.append(row)
    return rows


def entry(c, idx: int, warnings: bool) -> list:
    if warnings:
        head = c.choice([f"⚠️ T{idx} 待核实 · {c.choice(SYSTEMS)} {figure(c)}",
                         f"- {c.choice(SYSTEMS)}: {figure(c)} ({c.choice(MARKERS)})"])
        body = [f"现象：{sentence(c)}", f"风险：{sentence(c)}", f"建议：{sentence(c)}"]
        return [head] + body[: c.integer(0, 3)]
    head = c.choice([f"增量 {idx} · 🟡 工程新增 · {sentence(c)}", f"邻接 {chr(64 + idx % 26 + 1)} · {sentence(c)}",
                     f"### {idx}. {sentence(c)}", f"{idx}. {sentence(c)}"])
    lines = [head]
    if c.coin(0.7):
        lines.append(source_line(c))
    if c.coin():
        lines.append("要点：" + "".join(f" - {sentence(c)}" for _ in range(c.integer(1, 4))))
    for _ in range(c.integer(0, 3)):
        lines.append(c.choice(["- ", "* ", "  - ", "> ", "1. ", ""]) + sentence(c))
    if c.coin(0.2):
        lines.extend(table(c))
    return lines


ZH_ORD = "一二三四五六七八九十"


def briefing(c) -> str:
    """One briefing-like document as a str (BOM and newline style included)."""
    zh = c.coin()
    lines = []
    if c.coin(0.15):
        lines += ["---", f"date: {c.choice(['2026-11-02', 'not-a-date', '9999-99-99'])}", "title: x", "---"]
    lines.append(c.choice(["inference · 日间简报(2026-11-02)", "# Serving weekly 2026-11-03", "# 简报", ""]))
    nsec = c.integer(1, 5)
    for si in range(nsec):
        warnings = c.coin(0.3)
        n = c.integer(0, 4)
        declared = n if c.coin(0.6) else c.integer(0, 9)
        if zh:
            title = "值得警惕的矛盾或待核实说法" if warnings else c.choice(["今日该主题最重要的增量", "值得关注的邻接条目",
                                                                      "检查过的来源清单", "本轮摘要"])
            lines.append(f"{ZH_ORD[si % 10]}、{title}（{declared} 条）")
        else:
            title = c.choice(["Warnings", "Caveats", "Open questions"]) if warnings else c.choice(
                ["Highlights", "Sources reviewed", "Summary", "References"])
            lines.append(f"## {title} ({declared} items)")
        if c.coin(0.3):
            lines.extend(table(c))
        for ei in range(1, n + 1):
            lines.extend(entry(c, ei, warnings))
        if c.coin(0.1):
            lines.append(c.choice(["```", "```python", "<!--", "`"]))   # unterminated
            lines.append(sentence(c))
    if c.coin(0.5):
        lines.append(f"增量条数：{c.integer(0, 9)} 条（{c.integer(0, 9)} 条 NET-new + {c.integer(0, 9)} 条工程新增）"
                     f" 涉及 arXiv 号：{c.integer(0, 20)} 件")
    newline = "\r\n" if c.coin(0.2) else "\n"
    text = newline.join(lines)
    if c.coin(0.8):
        text += newline
    if c.coin(0.1):
        text = "\ufeff" + text
    return text
