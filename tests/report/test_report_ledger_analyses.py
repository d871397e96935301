"""A warm `caveat check --corpus` takes unchanged checked files' analyses from the ledger
instead of reading them again, with the same findings; an edited file, an analysis signed by
another user's key, a damaged entry or caching turned off all mean the file is read."""
from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

import validator.analysis_store as store
import validator.run as run
from validator.options import Options

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "tests" / "data" / "briefing-corpus"
sys.path.insert(0, str(REPO / "benchmark"))
import gen_corpus  # noqa: E402


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.delenv("CAVEAT_LEDGER", raising=False)
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path / "cache"))
    store._key.cache_clear()
    yield _copy(tmp_path)
    store._key.cache_clear()


def _copy(tmp_path):
    c = tmp_path / "corpus"
    shutil.copytree(EXAMPLE, c, ignore=shutil.ignore_patterns(".caveat"))
    return c


def _check(corpus, monkeypatch, jobs="1"):
    """(findings, files read) of a check of every corpus file. The reads are logged to a
    file: a forked worker's reads would not show in a list of the parent's."""
    monkeypatch.setenv("CAVEAT_JOBS", jobs)
    log = corpus.parent / "reads.log"
    log.write_text("")
    real = run._read

    def logged(p):
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(Path(p).name + "\n")
        return real(p)
    monkeypatch.setattr(run, "_read", logged)
    r = run.check_paths([str(corpus)], Options(corpus=[str(corpus)]))
    monkeypatch.setattr(run, "_read", real)
    found = sorted((f.code, Path(f.path).name, f.line, f.col, f.surface, f.message) for f in r.findings)
    return found, sorted(log.read_text().split())


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_warm_check_reads_nothing_and_finds_the_same(corpus, monkeypatch, jobs):
    if jobs != "1":         # enough files for the run to fork its readers
        gen_corpus.generate(corpus / "generated", files=24, claims_per_file=6, seed=5)
    cold, read_cold = _check(corpus, monkeypatch, jobs)
    assert read_cold and any(code.startswith("CV3") for code, *_ in cold)
    warm, read_warm = _check(corpus, monkeypatch, jobs)
    assert read_warm == []
    assert warm == cold


def test_an_edited_file_is_read_again_and_its_findings_follow_the_edit(corpus, monkeypatch):
    _check(corpus, monkeypatch)
    f = corpus / "briefings" / "2026-11-02-inference.md"
    f.write_text(f.read_text(encoding="utf-8") + "\n- SGLang is 3.1× faster than vLLM.\n", encoding="utf-8")
    found, read = _check(corpus, monkeypatch)
    assert read == [f.name]
    assert any(s == "3.1×" for _, name, _, _, s, _ in found if name == f.name)


def test_an_analysis_signed_by_another_key_is_not_loaded(corpus, monkeypatch, tmp_path):
    cold, _ = _check(corpus, monkeypatch)
    # another user (another cache folder, so another key) checks the same corpus folder
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path / "other-cache"))
    store._key.cache_clear()
    found, read = _check(corpus, monkeypatch)
    assert read and found == cold


def test_a_damaged_entry_is_only_a_miss(corpus, monkeypatch):
    cold, _ = _check(corpus, monkeypatch)
    with sqlite3.connect(corpus / ".caveat" / "ledger.sqlite") as conn:
        conn.execute("UPDATE analyses SET data = substr(data, 1, 40) || x'00ff00ff'")
    found, read = _check(corpus, monkeypatch)
    assert read and found == cold


def test_caching_off_keeps_no_analyses(corpus, monkeypatch):
    monkeypatch.setenv("CAVEAT_CACHE_DIR", "off")
    store._key.cache_clear()
    _check(corpus, monkeypatch)
    _, read = _check(corpus, monkeypatch)
    assert read
    with sqlite3.connect(corpus / ".caveat" / "ledger.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM analyses").fetchone()[0] == 0


def test_the_signing_key_is_private_to_its_user(corpus, monkeypatch, tmp_path):
    _check(corpus, monkeypatch)
    key = tmp_path / "cache" / store.KEY_FILE
    assert key.stat().st_mode & 0o077 == 0
