"""Statements, not pairs: what the report counts on a small corpus whose right answer is
known — restatements collapse into one statement, a contradiction counts figure pairs
(the product of the two statements' sizes, less the pairs stated in one sentence), loads
described by different descriptors are not comparable, and the newest statement
supersedes the older ones it contradicts."""
from __future__ import annotations

from engines import report

SETUP = "on H100 with Llama 3.1 8B (ShareGPT)"


def _write(root, name, text):
    p = root / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def test_statements_pair_counts_and_supersession(tmp_path):
    root = tmp_path / "corpus"
    for i in range(6):          # six honest restatements, older
        _write(root, f"notes/2026-01-0{i + 1}-n{i}.md", f"# Note\n\nSGLang reaches 16,200 tok/s {SETUP}.\n")
    for i in range(3):          # three files stating the revised figure, newer
        _write(root, f"notes/2026-02-0{i + 1}-r{i}.md", f"# Revision\n\nSGLang reaches 12,500 tok/s {SETUP}.\n")
    # one sentence, broken over two lines, states both: a deliberate comparison, not a contradiction
    _write(root, "notes/2026-01-20-both.md",
           f"# Both\n\nSGLang reaches 16,200 tok/s {SETUP} with the old scheduler and\n"
           f"12,500 tok/s {SETUP} with the new one.\n")
    # the same system under a load described by its concurrency: not comparable
    _write(root, "notes/2026-01-10-load.md",
           "# Load\n\nSGLang reaches 9,000 tok/s on H100 with Llama 3.1 8B at 64 concurrent requests.\n")
    model = report([root, "--no-ledger"], tmp_path / "out")
    (g,) = model["groups"]
    by_surface = {s["surface"]: s for s in g["statements"]}
    old, new, load = by_surface["16,200 tok/s"], by_surface["12,500 tok/s"], by_surface["9,000 tok/s"]
    assert (old["n_figures"], old["n_files"]) == (7, 7)
    assert (new["n_figures"], new["n_files"]) == (4, 4)
    assert len(g["statements"]) == 3
    # 7 x 4 figure pairs, less the one stated in one sentence
    assert g["contradictions"] == 7 * 4 - 1 == model["summary"]["contradictions"]
    assert old["contradicts"] == [new["id"]] and old["superseded_by"] == new["id"]
    assert new["superseded_by"] is None
    assert model["summary"]["superseded"] == 1
    # the load described another way: not comparable with either, counted once per statement pair
    assert g["not_comparable"] == 2 and sorted(load["not_comparable"]) == sorted([old["id"], new["id"]])
    reasons = [p["reason"] for p in g["pairs"] if p["status"] == "not_comparable"]
    assert all("load differs" in r and "concurrency" in r and "ShareGPT" in r for r in reasons)
    # every figure is listed, first stated first
    assert [f["date"] for f in old["figures"]] == sorted(f["date"] for f in old["figures"])
    assert sum(len(s["figures"]) for s in g["statements"]) == g["n_figures"] == 12
