"""The hooks in .pre-commit-hooks.yaml, run by the real `pre-commit` tool in a throwaway repository.

The throwaway repository's config names this checkout at its HEAD commit, so what is
tested is the committed hooks file and code (as in CI's fresh clone).

Marked network: pre-commit builds the hook's virtualenv by installing caveat and its
dependencies from the package registry. Skipped when pre-commit or git is missing."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.network

BAD = ("# Serving notes\n\n"
       "TGI 3.2 reaches 2,400 tok/s vs vLLM at 3,100 tok/s (a 45% gap).\n")
GOOD = ("# Serving notes\n\n"
        "SGLang is 29% faster than vLLM on H100 with Llama 3.1 8B under prefix-heavy traffic.\n")


def _pre_commit():
    exe = shutil.which("pre-commit")
    if exe:
        return [exe]
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        return None
    return [sys.executable, "-m", "pre_commit"]


def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    pc = _pre_commit()
    if pc is None:
        pytest.skip("pre-commit is not installed (pip install pre-commit)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    if not (REPO / ".git").exists():
        pytest.skip("the caveat checkout is not a git repository")
    home = tmp_path_factory.mktemp("pre-commit-home")
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com", NO_COLOR="1")
    env.pop("PRE_COMMIT", None)
    return pc, env


def _repo(tmp_path, name, text, files=None):
    d = tmp_path / name
    d.mkdir()
    _git(d, "init", "-q")
    for rel, body in dict({"briefing.md": text} if text is not None else {}, **(files or {})).items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(body, encoding="utf-8")
        _git(d, "add", rel)
    return d


def _try(tool, cwd, hook):
    """`pre-commit run HOOK --all-files` with a config naming this repository at its HEAD commit
    (one hook virtualenv, cached in the module's PRE_COMMIT_HOME, serves every run)."""
    pc, env = tool
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout.strip()
    (cwd / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO}\n    rev: {rev}\n    hooks:\n      - id: caveat\n      - id: caveat-warnings\n",
        encoding="utf-8")
    _git(cwd, "add", ".pre-commit-config.yaml")
    return subprocess.run([*pc, "run", hook, "--all-files", "--color", "never"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def test_check_hook_fails_on_a_bad_briefing_and_passes_on_a_good_one(tool, tmp_path):
    bad = _try(tool, _repo(tmp_path, "bad", BAD), "caveat")
    if "Could not find a version" in bad.stdout + bad.stderr or "Failed to establish" in bad.stdout + bad.stderr:
        pytest.skip("package registry unreachable: pre-commit could not build the hook environment")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert re.search(r"briefing\.md:3:\d+: CV\d{3} ", bad.stdout), bad.stdout
    good = _try(tool, _repo(tmp_path, "good", GOOD), "caveat")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout


def test_warnings_hook_writes_then_passes(tool, tmp_path):
    d = _repo(tmp_path, "warn", "# Serving notes\n\nSGLang is 29% faster than vLLM.\n")
    first = _try(tool, d, "caveat-warnings")
    assert first.returncode == 1, first.stdout + first.stderr      # pre-commit: files were modified
    text = (d / "briefing.md").read_text(encoding="utf-8")
    assert "<!-- caveat:warnings:start -->" in text and "29%" in text.split("## Warnings", 1)[1]
    _git(d, "add", "briefing.md")
    second = _try(tool, d, "caveat-warnings")
    assert second.returncode == 0, second.stdout + second.stderr
    assert (d / "briefing.md").read_text(encoding="utf-8") == text


NOTE = ("# Quant notes — 2026-11-01\n\n"
        "AWQ 4-bit cuts weight memory from 140 GB to 38 GB.\n")


def test_a_corpus_note_outside_include_is_left_alone(tool, tmp_path):
    """pre-commit names every staged Markdown file, the corpus notes among them: the hooks
    apply the config's scope to them (the note would otherwise get a warnings section)."""
    d = _repo(tmp_path, "scoped", None, {
        "briefings/b.md": "# Serving notes\n\nSGLang is 29% faster than vLLM.\n",
        "notes/quant.md": NOTE,
        "pyproject.toml": '[tool.caveat]\ninclude = ["briefings/"]\ncorpus = ["notes"]\n',
    })
    first = _try(tool, d, "caveat-warnings")
    assert first.returncode == 1, first.stdout + first.stderr        # the briefing was written
    assert (d / "notes" / "quant.md").read_text(encoding="utf-8") == NOTE
    assert "<!-- caveat:warnings:start -->" in (d / "briefings" / "b.md").read_text(encoding="utf-8")
    _git(d, "add", "-A")
    # the gate then passes: the briefing discloses its figure, the note is not checked
    gate = _try(tool, d, "caveat")
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert (d / "notes" / "quant.md").read_text(encoding="utf-8") == NOTE
