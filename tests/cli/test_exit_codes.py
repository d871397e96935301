"""Exit codes of `caveat check`: 0 pass, 1 gate failed, 2 usage/config/input error, 130 Ctrl-C."""
from __future__ import annotations

from cli_support import as_json, write


def test_clean_file_passes(fake, ws, run):
    write(ws / "a.md", "# Title\n\nNothing to see.\n")
    r = run("check", "a.md")
    assert r.exit_code == 0
    assert "0 findings" in r.stdout and "gate passed" in r.stdout


def test_warning_fails_gate_by_default(fake, ws, run):
    write(ws / "a.md", "SGLang is 29% faster.\n")
    r = run("check", "a.md")
    assert r.exit_code == 1
    assert "a.md:1:11: CV101 29% is suspicious" in r.stdout


def test_fail_on_levels(fake, ws, run):
    write(ws / "a.md", "SGLang is 29% faster.\n")          # one warning
    assert run("check", "a.md", "--fail-on", "error").exit_code == 0
    assert run("check", "a.md", "--fail-on", "warning").exit_code == 1
    assert run("check", "a.md", "--fail-on", "never").exit_code == 0
    write(ws / "b.md", "约 5 倍\n")                           # one info
    assert run("check", "b.md").exit_code == 0
    assert run("check", "b.md", "--fail-on", "info").exit_code == 1


def test_acknowledged_finding_does_not_fail(fake, ws, run):
    write(ws / "a.md", "SGLang is 29% faster (disclosed).\n")
    r = run("check", "a.md", "--format", "json")
    assert r.exit_code == 0
    (f,) = as_json(r)["findings"]
    assert f["acknowledged"] is True


def test_bad_file_in_multi_file_run_exits_2_and_keeps_other_findings(fake, ws, run):
    write(ws / "a.md", "SGLang is 29% faster.\n")
    (ws / "bin.md").write_bytes(b"\x00\x01binary")
    write(ws / "c.md", "SpecInfr wins.\n")
    r = run("check", "a.md", "bin.md", "c.md", "missing.md", "--format", "json")
    assert r.exit_code == 2
    doc = as_json(r)
    assert {f["path"] for f in doc["findings"]} == {"a.md", "c.md"}
    assert len(doc["errors"]) == 2
    err_lines = [ln for ln in r.stderr.splitlines() if ln]
    assert any(ln.startswith("caveat: bin.md:1: binary") for ln in err_lines)
    assert any("missing.md" in ln for ln in err_lines)
    assert "Traceback" not in r.stderr


def test_directory_argument_means_every_markdown_file(fake, ws, run):
    write(ws / "d" / "x.md", "29%\n")
    write(ws / "d" / "sub" / "y.markdown", "29%\n")
    write(ws / "d" / "notes.txt", "29%\n")
    write(ws / "d" / ".hidden" / "z.md", "29%\n")
    doc = as_json(run("check", "d", "--format", "json"))
    assert sorted(f["path"] for f in doc["findings"]) == [
        "d/sub/y.markdown".replace("/", __import__("os").sep), "d/x.md".replace("/", __import__("os").sep)]


def test_usage_error_exits_2(fake, ws, run):
    write(ws / "a.md", "x\n")
    r = run("check", "a.md", "--format", "xml")
    assert r.exit_code == 2
    r = run("check")
    assert r.exit_code == 2


def test_ctrl_c_exits_130_with_one_line(ws, run, monkeypatch):
    import validator.cli as cli

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "_run_engine", interrupted)
    write(ws / "a.md", "x\n")
    r = run("check", "a.md")
    assert r.exit_code == 130
    assert r.stderr.strip() == "caveat: interrupted"


def test_internal_error_is_one_line_unless_debug(ws, run, monkeypatch):
    import pytest
    import validator.cli as cli

    def broken(*a, **k):
        raise ValueError("boom")
    monkeypatch.setattr(cli, "_run_engine", broken)
    write(ws / "a.md", "x\n")
    r = run("check", "a.md")
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "boom" in r.stderr
    with pytest.raises(ValueError):
        run("check", "a.md", "--debug")


def test_engine_usage_error_is_one_line(ws, run, monkeypatch):
    import validator.cli as cli
    from validator.errors import UsageError

    def bad_pack(*a, **k):
        raise UsageError("rules/core/CV999.yaml:3: unknown key 'wen'")
    monkeypatch.setattr(cli, "_run_engine", bad_pack)
    write(ws / "a.md", "x\n")
    r = run("check", "a.md")
    assert r.exit_code == 2
    assert r.stderr == "caveat: rules/core/CV999.yaml:3: unknown key 'wen'\n"


def test_sigint_in_a_real_process_exits_130_without_traceback(ws):
    import signal
    import subprocess
    import sys

    import pytest
    if sys.platform == "win32":
        pytest.skip("POSIX signals")
    write(ws / "a.md", "x\n")
    code = ("import sys, time, validator.cli as c\n"
            "def slow(*a, **k):\n"
            "    sys.stderr.write('ready\\n'); sys.stderr.flush(); time.sleep(30)\n"
            "c._run_engine = slow\n"
            "c.main()\n")
    p = subprocess.Popen([sys.executable, "-c", code, "check", "a.md"], cwd=ws,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stderr.readline() == "ready\n"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert err == "caveat: interrupted\n"
