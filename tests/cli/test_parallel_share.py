"""Parallel check, work sharing: the parent and its workers claim chunks of files as they
become free (validator/parallel.py ``shared``), so which process checks which file depends on
timing. What the run reports must not: findings, and the one-line errors of unreadable
files met only while checking (a cited source outside the corpus), in the order one
process would meet them."""
from __future__ import annotations

import gc

import pytest

from validator import parallel, run
from validator.errors import UsageError
from validator.options import Options

# the order in which the checked files first cite each unreadable source: not the
# alphabetical one, so a run that sorted or regrouped the lines would show it
ORDER = [2, 0, 3, 1]


def _tree(root):
    (root / "checked").mkdir()
    (root / "refs").mkdir()
    (root / "src").mkdir()
    for k in range(4):
        (root / "refs" / f"bad{k}.md").write_bytes(b"\xff\xfe\x00bad\x00 bytes")
    (root / "src" / "base.md").write_text(
        "# Base\n\n- vLLM throughput: 1,000 tokens/s (H100, Llama 3.1 8B, ShareGPT).\n",
        encoding="utf-8")
    for i in range(48):
        k = ORDER[(i // 5) % len(ORDER)]
        (root / "checked" / f"n{i:02d}.md").write_text(
            f"# Note {i}\n\n- vLLM throughput: {1000 + 97 * i:,} tokens/s (H100, Llama 3.1 8B, ShareGPT).\n\n"
            f"Sources: ../refs/bad{k}.md\n", encoding="utf-8")
    return root


def _check(root, monkeypatch, jobs):
    monkeypatch.setenv("CAVEAT_JOBS", str(jobs))
    monkeypatch.setenv("CAVEAT_LEDGER", "off")
    seen = []
    result = run.check_paths([str(root / "checked")], Options(corpus=[str(root / "src")]),
                             progress=seen.append)
    return result, seen


def test_errors_met_while_checking_come_in_file_order(tmp_path, monkeypatch):
    root = _tree(tmp_path)
    one, seen_one = _check(root, monkeypatch, 1)
    two, seen_two = _check(root, monkeypatch, 2)
    assert parallel.jobs_for(48) == 2
    bad = [e for e in one.errors if "refs/bad" in e]
    assert [int(e.split("refs/bad")[1][0]) for e in bad] == ORDER     # once each, first met first
    assert two.errors == one.errors
    assert [f.to_dict() for f in two.findings] == [f.to_dict() for f in one.findings]
    assert sorted(seen_two) == sorted(seen_one) == sorted(one.analyses)


def test_every_chunk_is_done_once(monkeypatch):
    # the parent and the workers draw from one counter: no file is checked twice or skipped,
    # however many chunks each process ends up taking
    monkeypatch.setattr(parallel, "GUIDED_SHARE", 1)
    items = list(range(101))
    got = dict(parallel.shared(items, _double, 2, mine=lambda chunk: [x * 2 for x in chunk]))
    assert [x for k in sorted(got) for x in got[k]] == [x * 2 for x in items]


def test_each_worker_starts_once_and_a_closure_needs_no_pickling(tmp_path):
    # the work inherited by fork may be a closure; worker_start runs once per worker
    marks = tmp_path / "starts"
    offset = 1000

    def start():
        with open(marks, "a") as fh:
            fh.write(f"{__import__('os').getpid()}\n")

    got = dict(parallel.shared(list(range(64)), lambda chunk: [x + offset for x in chunk], 3,
                               worker_start=start))
    assert parallel.in_order(got.items()) == [x + offset for x in range(64)]
    pids = marks.read_text().split()
    assert len(pids) == len(set(pids)) <= 2


def _double(chunk):
    return [x * 2 for x in chunk]


def test_a_run_leaves_the_garbage_collector_as_it_found_it(tmp_path, monkeypatch):
    # check_paths collects young garbage less often while it runs (a library caller's
    # process must not keep that setting), also when the run fails
    before = gc.get_threshold()
    root = _tree(tmp_path)
    _check(root, monkeypatch, 1)
    assert gc.get_threshold() == before
    with pytest.raises(UsageError):
        run.check_paths([str(root / "checked")], Options(corpus=[str(root / "nowhere")]))
    assert gc.get_threshold() == before


def test_chunks_cover_the_items_in_order_and_shrink_to_single_files():
    for n in (0, 1, 7, 199, 1000):
        chunks = parallel.chunks(list(range(n)), 2)
        assert [x for c in chunks for x in c] == list(range(n))
        sizes = [len(c) for c in chunks]
        assert sizes == sorted(sizes, reverse=True) and (not sizes or sizes[-1] == 1)


def test_chunks_never_exceed_their_cap():
    # the ledger keeps a chunk's extracted rows alive until it stores them: capped chunks
    # keep a 100,000-file sync's memory flat
    chunks = parallel.chunks(list(range(10_000)), 2, max_size=64)
    assert [x for c in chunks for x in c] == list(range(10_000))
    assert max(len(c) for c in chunks) == 64 and len(chunks[-1]) == 1
