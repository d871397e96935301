"""The `caveat` console script leaves with os._exit once its output is flushed (freeing a
many-file run's heap object by object took ~0.3 s). Nothing the user sees may change:
exit codes, complete output on a pipe or a file, the ledger left closed and consistent."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "briefing-corpus"
ENTRY = [sys.executable, "-c", "import sys; sys.argv[0] = 'caveat'; from validator.cli import entry; entry()"]


def run(*args, **kw):
    return subprocess.run([*ENTRY, *map(str, args)], capture_output=True, text=True, cwd=REPO, timeout=120, **kw)


def test_exit_codes_and_the_whole_json_document_survive_the_hard_exit(tmp_path):
    p = run("check", "--format", "json", "--corpus", CORPUS, CORPUS / "briefings")
    assert p.returncode == 1, p.stderr            # the example briefings have warnings
    doc = json.loads(p.stdout)                     # complete: the buffer was flushed before leaving
    assert doc["findings"] and "Traceback" not in p.stderr
    assert run("--version").returncode == 0
    bad = run("check", tmp_path / "missing.md")
    assert bad.returncode == 2 and "missing.md" in bad.stderr and "Traceback" not in bad.stderr


def test_output_to_a_pipe_closed_early_is_no_traceback():
    head = subprocess.Popen(["head", "-c", "10"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    p = subprocess.run([*ENTRY, "check", "--corpus", CORPUS, CORPUS], stdout=head.stdin,
                       stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=120)
    head.stdin.close()
    head.wait()
    assert "Traceback" not in p.stderr


def test_ledger_is_closed_and_readable_after_the_run(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for f in (CORPUS / "briefings").glob("*.md"):
        (corpus / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    p = run("check", "--format", "json", "--fail-on", "never", "--corpus", corpus, corpus)
    assert p.returncode == 0, p.stderr
    ledger = corpus / ".caveat" / "ledger.sqlite"
    # closed cleanly: the write-ahead log was checkpointed into the file and removed
    assert ledger.exists() and not (corpus / ".caveat" / "ledger.sqlite-wal").exists()
    with sqlite3.connect(ledger) as conn:
        assert conn.execute("select count(*) from files").fetchone()[0] == 2


def test_ctrl_c_inside_a_finalizer_is_raised_again_after_it():
    # Python swallows an exception raised in __del__ ("Exception ignored in ...", with a
    # traceback) and the run would go on: the handler defers the interrupt instead
    import signal

    from validator.cli import _on_sigint

    class Frame:
        def __init__(self, name, back=None):
            self.f_code = type("Code", (), {"co_name": name})()
            self.f_back = back
    try:
        import pytest
        with pytest.raises(KeyboardInterrupt):
            _on_sigint(signal.SIGINT, Frame("run", Frame("main")))
        assert _on_sigint(signal.SIGINT, Frame("parse", Frame("__del__", Frame("main")))) is None
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0      # the interrupt comes back shortly
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_the_hard_exit_still_keeps_the_start_up_caches_for_the_next_run(tmp_path):
    # atexit, where the caches of compiled patterns and parsed vocabularies are written, does
    # not run under os._exit: a machine that only ever ran `caveat` would compile every time
    import os
    env = dict(os.environ, CAVEAT_CACHE_DIR=str(tmp_path / "cache"))
    p = run("check", "--fail-on", "never", CORPUS / "briefings", env=env)
    assert p.returncode == 0, p.stderr
    kept = sorted(f.name.split("-")[0] for f in (tmp_path / "cache").iterdir())
    assert kept == ["patterns", "vocabularies"]


def test_ctrl_c_once_the_command_is_done_exits_130_in_one_line(tmp_path):
    # the interrupt lands while the console script writes the start-up caches, after the
    # command's output: it escaped as a traceback, or was swallowed and the run exited 0
    import os
    script = ("import os, signal, sys; sys.argv[0] = 'caveat'\n"
              "from claims import pattern_cache\n"
              "from validator import cli\n"
              "real = pattern_cache.save\n"
              "def save():\n"
              "    os.kill(os.getpid(), signal.SIGINT)\n"
              "    real()\n"
              "pattern_cache.save = save\n"
              "cli.entry()\n")
    env = dict(os.environ, CAVEAT_CACHE_DIR=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, "-c", script, "check", "--format", "json", "--fail-on",
                        "never", CORPUS / "briefings"], capture_output=True, text=True, cwd=REPO,
                       timeout=120, env=env,
                       preexec_fn=lambda: __import__("signal").signal(2, __import__("signal").SIG_DFL))
    assert p.returncode == 130, p.stderr
    assert p.stderr.strip() == "caveat: interrupted", p.stderr
    assert json.loads(p.stdout)["findings"]        # the command's output is whole
