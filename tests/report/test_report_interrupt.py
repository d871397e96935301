"""Nothing is lost: a report interrupted while it fills the claim ledger leaves a ledger the
next run completes, and two reports started at once on one corpus (one cold ledger, two
writers) each write the report a fresh run writes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import validator.ledger as L
from engines import REPO, gen_corpus, report
from validator.render.report_files import write_report
from validator.report import report_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("interrupt") / "corpus"
    gen_corpus.generate(root, files=80, claims_per_file=6, planted=4, seed=21, shape="skewed")
    return root


@pytest.fixture(scope="module")
def fresh(corpus, tmp_path_factory):
    return report([corpus, "--no-ledger"], tmp_path_factory.mktemp("fresh"))


def _clean(corpus: Path) -> None:
    import shutil
    shutil.rmtree(corpus / ".caveat", ignore_errors=True)


def test_an_interrupted_report_leaves_a_ledger_the_next_run_completes(corpus, fresh, tmp_path, monkeypatch):
    _clean(corpus)
    real, calls = L._extract_job, []

    def interrupted(job, *a, **k):
        calls.append(job[0])
        if len(calls) > 40:                 # Ctrl-C after a few write batches
            raise KeyboardInterrupt
        return real(job, *a, **k)
    monkeypatch.setattr(L, "STORE_BATCH", 16)
    monkeypatch.setenv("CAVEAT_JOBS", "1")
    with monkeypatch.context() as m:
        m.setattr(L, "_extract_job", interrupted)
        m.setattr(L, "_extract_chunk", lambda jobs: [interrupted(j) for j in jobs])
        with pytest.raises(KeyboardInterrupt):
            report_corpus([corpus], lambda r: write_report(r, tmp_path / "first"))
    with L.Ledger.for_roots([corpus]) as led:
        stored = led.conn.execute("SELECT count(*) FROM files").fetchone()[0]
    assert 0 < stored < 80                  # whole batches were kept, the rest is missing
    again = report([corpus], tmp_path / "again")
    assert again == fresh
    with L.Ledger.for_roots([corpus]) as led:
        assert led.conn.execute("SELECT count(*) FROM files").fetchone()[0] == 80


def test_two_reports_at_once_write_what_a_fresh_run_writes(corpus, fresh, tmp_path):
    _clean(corpus)
    env = {k: v for k, v in os.environ.items() if k not in ("CAVEAT_LEDGER",)}
    env["CAVEAT_JOBS"] = "2"
    code = "import sys; from validator.cli import entry; sys.argv = ['caveat'] + sys.argv[1:]; entry()"
    procs = [subprocess.Popen([sys.executable, "-c", code, "report", str(corpus), "--out", str(tmp_path / name),
                               "--format", "json"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for name in ("one", "two")]
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        assert "Traceback" not in err
    for name in ("one", "two"):
        assert json.loads((tmp_path / name / "report.json").read_text(encoding="utf-8")) == fresh
