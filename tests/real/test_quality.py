"""The quality gate on real briefings nobody here wrote: ../shared/corpus/real/.

Runs ../shared/tools/quality.py (caveat over every document, matched against the shared
verdicts and tests/real/judgements.yaml) and fails when precision drops below 0.90, when a
finding nobody has judged appears, or when a finding judged true is no longer reported
without a reason in tests/real/lost.yaml. Skipped where the shared corpus is absent.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SHARED = REPO.parent / "shared"
REAL = SHARED / "corpus" / "real"
TOOL = SHARED / "tools" / "quality.py"
MIN_PRECISION = 0.90

pytestmark = pytest.mark.skipif(not (REAL.is_dir() and TOOL.is_file()),
                                reason="the shared real-briefing corpus is not on this machine")


@pytest.fixture(scope="module")
def report():
    caveat = f"{sys.executable} -m validator.cli"
    out = subprocess.run([sys.executable, str(TOOL), "--caveat", caveat,
                          "--judgements", str(HERE / "judgements.yaml")],
                         capture_output=True, text=True, encoding="utf-8", cwd=REPO, timeout=1200)
    lines = out.stdout.splitlines()
    summary = next((ln for ln in reversed(lines) if ln.startswith("real corpus:")), "")
    assert summary, out.stdout[-2000:] + out.stderr[-2000:]
    return lines, summary


def _field(summary, name):
    m = re.search(rf"\b{name}=([0-9.]+|n/a)", summary)
    return m.group(1) if m else None


def test_precision_on_real_briefings(report):
    lines, summary = report
    assert _field(summary, "precision") not in (None, "n/a"), summary
    falses = [ln for ln in lines if ln.startswith("FALSE ")]
    assert float(_field(summary, "precision")) >= MIN_PRECISION, "\n".join([summary] + falses)


def test_every_finding_is_judged(report):
    lines, summary = report
    unjudged = [ln for ln in lines if ln.startswith("UNJUDGED")]
    assert not unjudged, "judge these in tests/real/judgements.yaml:\n" + "\n".join(unjudged)


def test_no_confirmed_finding_is_lost_without_a_reason(report):
    lines, _ = report
    listed = {(e["doc"], int(e["line"]), e["code"], str(e["surface"]))
              for e in yaml.safe_load((HERE / "lost.yaml").read_text(encoding="utf-8")) or []}
    lost = []
    for ln in lines:
        m = re.match(r"^LOST\s+(\S+):(\d+) (CV\d+) (.*?) — ", ln)
        if m and (m.group(1), int(m.group(2)), m.group(3), m.group(4)) not in listed:
            lost.append(ln)
    assert not lost, "a finding judged true disappeared (fix it, or say why in tests/real/lost.yaml):\n" + "\n".join(lost)
