"""Helpers for the hostile-input tests: run caveat as a real process and
judge its stderr the way a pre-commit user sees it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "briefing-corpus"
BRIEFINGS = sorted((CORPUS / "briefings").glob("*.md"))

# Run the working tree's CLI whatever the install state; argv[0] as the user sees it.
CAVEAT = [sys.executable, "-c",
          "import sys; sys.argv[0] = 'caveat'; from validator.cli import entry; entry()"]


def caveat_env() -> dict:
    env = dict(os.environ)
    env["NO_COLOR"] = "1"
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("GITHUB_ACTIONS", None)
    env.pop("GITHUB_STEP_SUMMARY", None)
    return env


def run_caveat(args, cwd=None, timeout=60, prefix=(), **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, *CAVEAT, *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=caveat_env(), **kw)


def error_lines(stderr: str) -> list:
    return [ln for ln in stderr.splitlines() if ln.strip()]


def assert_one_line_error(proc, *needles, code=2, lines=1):
    """Exit ``code``, no traceback, exactly ``lines`` non-empty stderr lines, each
    needle present in the error text."""
    err = proc.stderr
    assert "Traceback" not in err, err
    assert proc.returncode == code, (proc.returncode, err[-2000:], proc.stdout[-1000:])
    got = error_lines(err)
    assert len(got) == lines, got
    text = "\n".join(got)
    for n in needles:
        assert str(n) in text, (n, text)
    return got


def invoke_in_process(args, cwd) -> SimpleNamespace:
    """The CLI through click's CliRunner (no interpreter start-up): for the many
    variants whose failure happens before any document is read (config, packs).
    Returns the fields ``assert_one_line_error`` reads."""
    from click.testing import CliRunner

    from validator.cli import main
    old = os.getcwd()
    os.chdir(cwd)
    try:
        r = CliRunner().invoke(main, [str(a) for a in args], env={"NO_COLOR": "1"})
    finally:
        os.chdir(old)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return SimpleNamespace(returncode=r.exit_code, stderr=r.stderr, stdout=r.stdout)
