"""`caveat check --corpus` gives the same findings whether corpus claims come from the
claim ledger (cold or warm) or are analysed in memory, and a warm run re-extracts nothing."""
from __future__ import annotations

import functools
import shutil
from pathlib import Path

import validator.ledger as L
import validator.run as run
from validator.corpus import Corpus
from validator.options import Options

EXAMPLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "briefing-corpus"


def _findings(paths, corpus):
    r = run.check_paths([str(p) for p in paths], Options(corpus=[str(corpus)]))
    return sorted((f.code, Path(f.path).name, f.line, f.surface, f.message) for f in r.findings)


def test_ledger_backed_check_matches_in_memory_check(tmp_path, monkeypatch):
    monkeypatch.delenv("CAVEAT_LEDGER", raising=False)
    corpus = tmp_path / "corpus"
    shutil.copytree(EXAMPLE, corpus, ignore=shutil.ignore_patterns(".caveat"))
    one = [corpus / "briefings" / "2026-11-02-inference.md"]
    both = sorted((corpus / "briefings").glob("*.md"))
    cold = _findings(both, corpus)
    assert (corpus / ".caveat" / "ledger.sqlite").exists()
    calls = []
    real = L._analyze
    monkeypatch.setattr(L, "_analyze", lambda p: calls.append(p) or real(p))
    warm_one = _findings(one, corpus)
    assert calls == []                                  # warm: nothing re-extracted
    monkeypatch.setattr(run, "Corpus", functools.partial(Corpus, ledger=None))
    assert cold == _findings(both, corpus)
    assert warm_one == _findings(one, corpus)
    assert any(code.startswith("CV3") for code, *_ in cold)   # the cross-document contradiction is there
