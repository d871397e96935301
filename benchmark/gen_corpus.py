"""Synthetic briefing corpus for the scale benchmark: zh and en files with a controlled
number of claims, claim keys and planted contradictions, reproducible from a seed.

Why: the corpus-scale targets (10,000 files, ~100,000 claims) need a corpus whose
right answer is known. Every figure restates a "fact" (claim key + conditions + true
value) in the same words, so honest restatements agree; a planted figure states a
fact's value off by 30-80% under the same conditions, so it must be reported as a
contradiction of that fact's other statements. Facts sharing a key under different
conditions are only "not comparable". The manifest (manifest.json) lists every
planted figure with its file and line, for the recall check.

Two shapes:

- ``project`` (default): five metrics over many subjects, ~300 claim keys, a fact restated
  ~8 times — the corpus the README's first figures were measured on;
- ``skewed``: what a real archive looks like — one metric for six systems (6 claim keys),
  each measured on five hardware pools (8×H100 and 4×H100 among them) with five models
  under three loads, each load written with a different descriptor (a dataset: ShareGPT;
  a traffic pattern: long-prompt batches; a concurrency: 64 concurrent requests), so a key
  holds ~1/6 of the corpus's figures and thousands of restatements of each of its 75
  setups. Figures under different loads are not comparable; only planted figures
  contradict.

    python benchmark/gen_corpus.py OUT_DIR --files 1000 --claims-per-file 10 --seed 7 [--shape skewed]
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
from datetime import date, timedelta
from pathlib import Path

SYSTEMS = ["vLLM", "SGLang", "LMDeploy", "TensorRT-LLM", "TGI", "llama.cpp", "MLC-LLM", "LightLLM",
           "ExLlamaV2", "DeepSpeed-MII", "Dynamo", "Mooncake", "AIBrix", "FlashInfer", "Ollama",
           "Ray Serve"]
METHODS = ["EAGLE-3", "EAGLE-2", "Medusa", "SpecInfer", "Lookahead Decoding", "QuantSpec"]
HARDWARE = ["H100", "H200", "A100 80GB", "L40S", "B200", "MI300X", "H20", "RTX 4090"]
MODELS = ["Llama 3.1 8B", "Llama 3.1 70B", "Qwen2.5-7B", "Qwen2.5-72B", "Mixtral 8x7B", "DeepSeek-V3"]
DATASETS = ["MT-Bench", "ShareGPT", "GSM8K", "HumanEval", "LongBench"]
METRICS = ("throughput", "ttft", "memory", "speedup", "lead")

# One template per metric and language; {s} subject, {b} baseline, {v} value, {c} conditions.
TEMPLATES = {
    "en": {
        "throughput": "- {s} throughput: {v} tokens/s ({c}).",
        "ttft": "- {s} time to first token: {v} ms ({c}).",
        "memory": "- {s} memory footprint: {v} GB ({c}).",
        "speedup": "- {s} delivers a {v}× decoding speedup over {b} ({c}).",
        "lead": "- {s} is {v}% faster than {b} ({c}).",
    },
    "zh": {
        "throughput": "- {s} 吞吐：{v} tok/s（{c}）。",
        "ttft": "- {s} 首 token 延迟：{v} ms（{c}）。",
        "memory": "- {s} 显存占用：{v} GB（{c}）。",
        "speedup": "- {s} 比 {b} 解码加速 {v}×（{c}）。",
        "lead": "- {s} 相比 {b} 领先 {v}%（{c}）。",
    },
}
# The skewed shape: six systems, hardware pools (GPU counts differ), models, and one load
# written three ways (the descriptor names the facet: dataset, workload, concurrency).
SKEW_SYSTEMS = SYSTEMS[:6]
SKEW_HARDWARE = ["8×H100", "4×H100", "H200", "A100 80GB", "B200"]
SKEW_MODELS = MODELS[:5]
SKEW_LOADS = {"en": ["ShareGPT", "long-prompt batches", "64 concurrent requests"],
              "zh": ["ShareGPT", "长 prompt 批处理", "并发 64"]}
SHAPES = ("project", "skewed")

FILLER = {
    "en": ["Nothing else changed in the serving stack this week.",
           "The team will re-run the numbers after the next release.",
           "See the knowledge base for the earlier baseline."],
    "zh": ["本周服务栈无其他变化。", "下个版本发布后会重新复测。", "早期基线见知识库。"],
}


def _fmt(metric: str, value: float) -> str:
    if metric == "throughput":
        return f"{int(value):,}"
    if metric == "speedup":
        return f"{value:.1f}"
    return f"{int(value)}"


def _true_value(metric: str, rng: random.Random) -> float:
    if metric == "throughput":
        return rng.randrange(8, 400) * 100.0
    if metric == "ttft":
        return float(rng.randrange(40, 900))
    if metric == "memory":
        return float(rng.randrange(8, 160))
    if metric == "speedup":
        return rng.randrange(12, 45) / 10
    return float(rng.randrange(5, 80))


def _wrong_value(metric: str, truth: float, rng: random.Random) -> float:
    """Off by 30-80% so no precision or approximation can reconcile it."""
    f = 1 + rng.uniform(0.3, 0.8) * rng.choice((1, -1) if metric != "speedup" else (1,))
    v = truth * f
    if metric == "throughput":
        return max(100.0, round(v / 100) * 100)
    if metric == "speedup":
        return max(truth + 0.6, round(v, 1))
    return float(max(1, round(v)))


def make_facts(n_facts: int, rng: random.Random) -> list:
    """Distinct (metric, subject, baseline, conditions) with a true value; several facts
    share a key under different conditions (those pairs are merely not comparable)."""
    facts, seen = [], set()
    while len(facts) < n_facts:
        metric = rng.choice(METRICS)
        if metric == "speedup":
            s, b = rng.sample(METHODS, 2)
        elif metric == "lead":
            s, b = rng.sample(SYSTEMS, 2)
        else:
            s, b = rng.choice(SYSTEMS), None
        cond = (rng.choice(HARDWARE), rng.choice(MODELS), rng.choice(DATASETS))
        key = (metric, s, b, cond)
        if key in seen:
            continue
        seen.add(key)
        facts.append({"metric": metric, "subject": s, "baseline": b, "conditions": cond,
                      "value": _true_value(metric, rng)})
    return facts


def make_skewed_facts(rng: random.Random) -> list:
    """Every (system, hardware, model, load) cell of the skewed shape, one metric."""
    facts = []
    for s in SKEW_SYSTEMS:
        for hw in SKEW_HARDWARE:
            for m in SKEW_MODELS:
                for load in range(len(SKEW_LOADS["en"])):
                    facts.append({"metric": "throughput", "subject": s, "baseline": None,
                                  "conditions": (hw, m, load), "value": _true_value("throughput", rng)})
    return facts


def _conditions(lang: str, fact: dict) -> list:
    c = list(fact["conditions"])
    if isinstance(c[-1], int):            # the skewed shape: the load in the file's language
        c[-1] = SKEW_LOADS[lang][c[-1]]
    return c


def _line(lang: str, fact: dict, value: float) -> str:
    sep = "，" if lang == "zh" else ", "
    return TEMPLATES[lang][fact["metric"]].format(
        s=fact["subject"], b=fact["baseline"], v=_fmt(fact["metric"], value), c=sep.join(_conditions(lang, fact)))


def generate(out: Path, files: int = 1000, claims_per_file: int = 10, facts: int | None = None,
             planted: int | None = None, seed: int = 7, shape: str = "project") -> dict:
    """Write the corpus under ``out`` (emptied first) and return the manifest."""
    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {SHAPES}")
    rng = random.Random(seed)
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    if shape == "skewed":
        fact_list = make_skewed_facts(rng)
        n_facts = len(fact_list)
        n_planted = planted if planted is not None else max(1, files // 200)
    else:
        n_facts = facts or max(20, files * claims_per_file // 8)      # ~8 statements per fact
        n_planted = planted if planted is not None else max(1, files // 20)
        fact_list = make_facts(n_facts, rng)
    total = files * claims_per_file
    # every statement slot gets a fact; the first n_facts slots cover every fact once
    slots = list(range(n_facts)) + [rng.randrange(n_facts) for _ in range(total - n_facts)]
    rng.shuffle(slots)
    # planted slots: a fact stated honestly elsewhere too (it has >= 2 slots)
    count = {}
    for f in slots:
        count[f] = count.get(f, 0) + 1
    candidates = [i for i, f in enumerate(slots) if count[f] >= 2]
    planted_slots = set(rng.sample(candidates, min(n_planted, len(candidates))))
    for i in sorted(planted_slots):       # keep one honest statement of each planted fact
        f = slots[i]
        count[f] -= 1
        if count[f] < 1:
            planted_slots.discard(i)
    start = date(2025, 1, 1)
    manifest = {"seed": seed, "shape": shape, "files": files, "claims": total, "facts": n_facts,
                "keys": len({(f["metric"], f["subject"], f["baseline"]) for f in fact_list}),
                "planted": []}
    folders = ["briefings", "inbox/amy", "inbox/lee", "knowledge"]
    for n in range(files):
        lang = "zh" if n % 2 else "en"
        day = start + timedelta(days=n * 730 // max(1, files))
        rel = f"{folders[n % len(folders)]}/{day.isoformat()}-{'digest' if lang == 'en' else 'jianbao'}-{n:05d}.md"
        if lang == "zh":
            lines = [f"# 推理服务简报（{day.isoformat()}）", "", "## 要点", ""]
        else:
            lines = [f"# Serving digest — {day.isoformat()}", "", "## Highlights", ""]
        for k in range(claims_per_file):
            slot = n * claims_per_file + k
            fact = fact_list[slots[slot]]
            if slot in planted_slots:
                value = _wrong_value(fact["metric"], fact["value"], rng)
                manifest["planted"].append({"path": rel, "line": len(lines) + 1,
                                            "metric": fact["metric"], "subject": fact["subject"],
                                            "baseline": fact["baseline"], "truth": fact["value"],
                                            "stated": value})
            else:
                value = fact["value"]
            lines.append(_line(lang, fact, value))
            if k % 4 == 3:
                lines += ["", rng.choice(FILLER[lang]), ""]
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    return manifest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--claims-per-file", type=int, default=10)
    ap.add_argument("--facts", type=int, default=None, help="distinct facts (default: claims/8)")
    ap.add_argument("--planted", type=int, default=None, help="planted contradictions (default: files/20)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--shape", choices=SHAPES, default="project")
    a = ap.parse_args(argv)
    m = generate(a.out, a.files, a.claims_per_file, a.facts, a.planted, a.seed, a.shape)
    print(f"{m['files']} files, {m['claims']} claims, {m['facts']} facts over {m['keys']} keys, "
          f"{len(m['planted'])} planted contradictions -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
