"""A many-file `check` run in worker processes reports exactly what a one-process run does.

Reading and checking are forked over the cores once a run has PARALLEL_MIN_ITEMS files
(validator/parallel.py); findings, error lines, the corpus's unreadable-file lines and the
progress callback must not depend on it.
"""
import sys
from pathlib import Path

import pytest

from validator import parallel, run
from validator.options import Options

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmark"))
import gen_corpus  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="workers are forked")


def _as_rows(result):
    return [f.to_dict() for f in result.findings]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("par")
    gen_corpus.generate(root, files=40, claims_per_file=8, seed=3)
    # one unreadable corpus file: a line in both modes, and the run goes on
    (root / "inbox" / "broken.md").write_bytes(b"\xff\xfe\x00bad \x00 bytes")
    return root


def _check(corpus, monkeypatch, jobs):
    monkeypatch.setenv("CAVEAT_JOBS", str(jobs))
    monkeypatch.setenv("CAVEAT_LEDGER", "off")
    seen = []
    result = run.check_paths([str(corpus)], Options(corpus=[str(corpus)]), progress=seen.append)
    return result, seen


def test_workers_report_what_one_process_reports(corpus, monkeypatch):
    one, seen_one = _check(corpus, monkeypatch, 1)
    two, seen_two = _check(corpus, monkeypatch, 2)
    assert parallel.jobs_for(40) == 2    # CAVEAT_JOBS=2 really ran two processes
    assert one.findings, "the generated corpus plants contradictions"
    assert _as_rows(two) == _as_rows(one)
    assert two.errors == one.errors and any("broken.md" in e for e in one.errors)
    assert sorted(seen_two) == sorted(seen_one) == sorted(one.analyses)
    assert sorted(two.analyses) == sorted(one.analyses)
