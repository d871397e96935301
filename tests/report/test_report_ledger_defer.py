"""`caveat check --corpus` stores the ledger rows of the files it checks after building the
corpus index (validator/corpus.py ``flush_ledger``; the parent of a parallel run does it
while its workers check). Meanwhile the checks take those files' claims from their
analyses. What a user must see: the same findings as an in-memory corpus whatever state
the ledger is in (stale rows of an edited file, an interrupted run), a ledger that is
complete after the run (the next run re-extracts nothing), and never a corrupt one."""
from __future__ import annotations

import functools
import hashlib
import shutil
import sys
from pathlib import Path

import pytest

import validator.ledger as L
import validator.run as run
from validator.corpus import Corpus
from validator.options import Options

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "tests" / "data" / "briefing-corpus"
sys.path.insert(0, str(REPO / "benchmark"))
import gen_corpus  # noqa: E402


def _findings(paths, corpus):
    r = run.check_paths([str(p) for p in paths], Options(corpus=[str(corpus)]))
    return [f.to_dict() for f in r.findings], r.errors


def _in_memory(monkeypatch, paths, corpus):
    with monkeypatch.context() as m:
        m.setattr(run, "Corpus", functools.partial(Corpus, ledger=None))
        return _findings(paths, corpus)


def _stored(root, files) -> bool:
    """The ledger holds every one of ``files`` as it is on disk now."""
    with L.Ledger.for_roots([root]) as led:
        have = dict(led.conn.execute("SELECT path, hash FROM files"))
        return all(have.get(led.key_of(f)) == hashlib.sha256(Path(f).read_bytes()).hexdigest()
                   for f in files)


def _count_extractions(monkeypatch):
    calls = []
    real = L._analyze
    monkeypatch.setattr(L, "_analyze", lambda p, *a: calls.append(p) or real(p, *a))
    return calls


@pytest.fixture
def example(tmp_path, monkeypatch):
    monkeypatch.delenv("CAVEAT_LEDGER", raising=False)
    monkeypatch.setenv("CAVEAT_JOBS", "1")
    corpus = tmp_path / "corpus"
    shutil.copytree(EXAMPLE, corpus, ignore=shutil.ignore_patterns(".caveat"))
    return corpus


def test_edited_checked_file_is_judged_by_its_new_text(example, monkeypatch):
    # the ledger holds the file's old claims until the run stores the new ones; the check
    # must already see the new text (and the corpus files around it from the ledger)
    one = example / "briefings" / "2026-11-02-inference.md"
    _findings([one], example)                               # warm the ledger
    text = one.read_text(encoding="utf-8")
    one.write_text(text + "\n- EAGLE-3 吞吐提升 9.9×（H100，Llama 3.1 8B）\n", encoding="utf-8")
    got = _findings([one], example)
    assert got == _in_memory(monkeypatch, [one], example)
    calls = _count_extractions(monkeypatch)
    assert _stored(example, [one])
    assert _findings([one], example) == got and calls == []    # stored: the next run is warm


def test_interrupted_run_leaves_a_usable_ledger(example, monkeypatch):
    both = sorted((example / "briefings").glob("*.md"))
    expected = _in_memory(monkeypatch, both, example)

    real, done = run._check_one, []

    def interrupted(*a, **k):
        if done:
            raise KeyboardInterrupt     # Ctrl-C after the first file: its checks built the index
        done.append(real(*a, **k))
        return done[0]
    with monkeypatch.context() as m:
        m.setattr(run, "_check_one", interrupted)
        with pytest.raises(KeyboardInterrupt):
            _findings(both, example)                        # rows of the checked files not stored
    led = example / ".caveat" / "ledger.sqlite"
    assert led.exists() and not _stored(example, both)
    assert _findings(both, example) == expected             # same findings
    assert _stored(example, both)
    calls = _count_extractions(monkeypatch)
    assert _findings(both, example) == expected and calls == []


def test_parallel_run_stores_what_it_checked(tmp_path, monkeypatch):
    monkeypatch.delenv("CAVEAT_LEDGER", raising=False)
    monkeypatch.setenv("CAVEAT_JOBS", "2")
    root = tmp_path / "c"
    gen_corpus.generate(root, files=40, claims_per_file=8, seed=5)
    cold = _findings([root], root)
    assert cold[0], "the generated corpus plants contradictions"
    assert cold == _in_memory(monkeypatch, [root], root)
    calls = _count_extractions(monkeypatch)
    assert _findings([root], root) == cold and calls == []
    assert _stored(root, sorted(root.rglob("*.md")))
