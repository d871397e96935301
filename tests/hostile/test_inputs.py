"""Hostile inputs on the command line: each is one line on stderr naming the file
(and line or byte offset where there is one), exit 2, never a traceback; a
multi-file run keeps going past the bad file; Ctrl-C leaves nothing behind.

Every input is generated here at test time (no large or binary files committed).
The CLI runs as a real process, as in a pre-commit hook.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from validator import limits

from .cli_helpers import (BRIEFINGS, CAVEAT, assert_one_line_error, caveat_env, error_lines,
                          invoke_in_process, run_caveat)

GOOD_TEXT = "# Note 2026-11-02\n\nSGLang reaches 16,200 tok/s on H100.\n"


def write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


# ---------------------------------------------------------------- paths

@pytest.mark.parametrize("command", ["check", "extract", "warnings"])
def test_missing_path(tmp_path, command):
    proc = run_caveat([command, tmp_path / "nope.md"])
    assert_one_line_error(proc, "nope.md")


def test_directory_without_markdown(tmp_path):
    d = tmp_path / "notes"
    write(d / "a.txt", "SGLang 29% faster")
    write(d / "sub" / "b.rst", "29%")
    proc = run_caveat(["check", d])
    assert_one_line_error(proc, "notes")


# ---------------------------------------------------------------- bytes

@pytest.mark.parametrize("command", ["check", "extract", "warnings"])
def test_binary_file(tmp_path, command):
    p = write(tmp_path / "image.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4)
    assert_one_line_error(run_caveat([command, p]), "image.md")


UNDECODABLE = {
    # name: (bytes, offset of the first bad byte)
    "latin1": (b"# T\n\nCaf\xe9 29% faster\n", 8),
    "lone_continuation": (b"# T\n\n\x80 29%\n", 5),
    "truncated_at_eof": ("# T\n\n提速 29%".encode() + b"\xe4\xb8", len("# T\n\n提速 29%".encode())),
    "overlong": (b"# T\n\nx \xc0\xaf 29%\n", 7),
    "encoded_surrogate": (b"# T\n\nab\xed\xa0\x80 29%\n", 7),
}


def test_undecodable_bytes_name_the_offset(tmp_path):
    """One run over every variant (interpreter start-up is most of a run): one line each."""
    paths = [write(tmp_path / f"{name}.md", data) for name, (data, _off) in sorted(UNDECODABLE.items())]
    lines = assert_one_line_error(run_caveat(["check", *paths]), lines=len(paths))
    for name, (_data, offset) in UNDECODABLE.items():
        (line,) = [ln for ln in lines if f"{name}.md" in ln]
        assert f"offset {offset}" in line, line


def test_utf16_file_is_reported_not_misread(tmp_path):
    p = write(tmp_path / "wide.md", "# 简报\n\nSGLang 比 vLLM 快 29%\n".encode("utf-16"))
    assert_one_line_error(run_caveat(["check", p]), "wide.md")


def test_file_larger_than_default_limit(tmp_path):
    p = write(tmp_path / "huge.md", b"# big\n" + b"SGLang 29% faster. " * (limits.MAX_FILE_BYTES // 19 + 1))
    assert_one_line_error(run_caveat(["check", p], timeout=30), "huge.md")


def test_file_larger_than_configured_limit(tmp_path):
    write(tmp_path / ".caveat.yaml", "max-file-size: 1 KB\n")
    big = write(tmp_path / "big.md", GOOD_TEXT + "SGLang 29% faster.\n" * 200)
    small = write(tmp_path / "small.md", GOOD_TEXT)
    assert_one_line_error(run_caveat(["check", big], cwd=tmp_path), "big.md")
    ok = run_caveat(["check", small], cwd=tmp_path)
    assert ok.returncode in (0, 1) and "Traceback" not in ok.stderr, ok.stderr


def _no_dac_prefix():
    """As root, chmod 000 does not deny: drop the capabilities that override it."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot make a file unreadable")
    probe = subprocess.run(["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "true"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip("setpriv cannot drop capabilities here")
    return ("setpriv", "--bounding-set", "-dac_override,-dac_read_search")


def test_permission_denied(tmp_path):
    prefix = _no_dac_prefix()
    p = write(tmp_path / "secret.md", GOOD_TEXT)
    p.chmod(0)
    try:
        assert_one_line_error(run_caveat(["check", p], prefix=prefix), "secret.md")
    finally:
        p.chmod(0o644)


def test_unreadable_file_in_corpus_is_reported_run_goes_on(tmp_path, briefing_copy):
    prefix = _no_dac_prefix()
    bad = write(briefing_copy / "inbox" / "zed" / "locked.md", GOOD_TEXT)
    bad.chmod(0)
    try:
        proc = run_caveat(["check", "--format", "json", "--corpus", briefing_copy,
                           briefing_copy / "briefings"], prefix=prefix)
        assert_one_line_error(proc, "locked.md")
        assert json.loads(proc.stdout)["findings"], "the good briefings' findings are missing"
    finally:
        bad.chmod(0o644)


def test_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    proc = run_caveat(["check", fifo], timeout=8)
    assert_one_line_error(proc, "pipe.md")


def test_file_name_that_is_not_utf8_is_checked(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    name = os.fsdecode(b"bad\xff.md")
    (d / name).write_text("SGLang is 29% faster than vLLM.\n", encoding="utf-8")
    proc = run_caveat(["check", "--format", "json", d])
    assert "Traceback" not in proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    assert json.loads(proc.stdout)["findings"]


def test_unreadable_folder_is_reported(tmp_path):
    prefix = _no_dac_prefix()
    d = tmp_path / "briefs"
    write(d / "a.md", GOOD_TEXT)
    locked = d / "locked"
    write(locked / "b.md", GOOD_TEXT)
    locked.chmod(0)
    try:
        proc = run_caveat(["check", d], prefix=prefix)
        assert_one_line_error(proc, "locked")
    finally:
        locked.chmod(0o755)


# ---------------------------------------------------------------- corpus

def test_symlink_loop_in_corpus(tmp_path, briefing_copy):
    """A file symlink loop (ELOOP) is an unreadable corpus file: named, run goes on, exit 2."""
    inbox = briefing_copy / "inbox"
    os.symlink("loop-b.md", inbox / "loop-a.md")
    os.symlink("loop-a.md", inbox / "loop-b.md")
    proc = run_caveat(["check", "--format", "json", "--corpus", briefing_copy,
                       briefing_copy / "briefings"], timeout=60)
    got = error_lines(proc.stderr)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2, proc.stderr
    assert got and all("loop-" in ln for ln in got), got
    assert json.loads(proc.stdout)["findings"]


def test_directory_symlink_cycle_terminates(tmp_path, briefing_copy):
    """`knowledge/again -> ..` must not make the corpus walk recurse forever."""
    os.symlink("..", briefing_copy / "knowledge" / "again")
    os.symlink(".", briefing_copy / "inbox" / "self")
    proc = run_caveat(["check", "--format", "json", "--corpus", briefing_copy,
                       briefing_copy / "briefings"], timeout=60)
    assert "Traceback" not in proc.stderr
    assert proc.returncode in (0, 1, 2), proc.stderr
    if proc.returncode == 2:            # reporting the cycle is fine; one line per cycle
        assert all("again" in ln or "self" in ln for ln in error_lines(proc.stderr))
    json.loads(proc.stdout)


# ---------------------------------------------------------------- config

CONFIGS = {
    # name: (file name, content, needles: file name + line)
    "yaml_syntax": (".caveat.yaml", "fail-on: warning\nselect: [CV1\n", [".caveat.yaml"]),
    "yaml_unknown_key": (".caveat.yaml", "fail-on: warning\ncolour: red\n", [".caveat.yaml:2", "colour"]),
    "yaml_wrong_type": (".caveat.yaml", "fail-on: 3\n", [".caveat.yaml:1", "fail-on"]),
    "yaml_not_mapping": (".caveat.yaml", "- CV101\n- CV102\n", [".caveat.yaml"]),
    "yaml_object_tag": (".caveat.yaml", "lang: !!python/object/apply:os.system ['touch PWNED']\n",
                        [".caveat.yaml"]),
    "yaml_alias_bomb": (".caveat.yaml",
                        "a: &a [x, x, x, x, x, x, x, x, x]\n"
                        + "".join(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n"
                                  for p, c in zip("abcdefgh", "bcdefghi"))
                        + "select: *i\n", [".caveat.yaml"]),
    "yaml_deep_nesting": (".caveat.yaml", "select: " + "[" * 5000 + "]" * 5000 + "\n", [".caveat.yaml"]),
    "yaml_not_utf8": (".caveat.yaml", b"lang: \xff\xfe\n", [".caveat.yaml"]),
    "toml_unknown_key": ("pyproject.toml", "[project]\nname = 'x'\n\n[tool.caveat]\nbogus = 1\n",
                         ["pyproject.toml:5", "bogus"]),
    "toml_syntax": ("pyproject.toml", "[tool.caveat]\nselect = [\"CV1\"\nfail-on = 'x'\n", ["pyproject.toml"]),
    "toml_bad_size": ("pyproject.toml", "[tool.caveat]\nmax-file-size = 'lots'\n", ["pyproject.toml:2"]),
}


XFAIL_CONFIGS = {}   # name -> reason naming the owner module, while a case is known to fail


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=XFAIL_CONFIGS[n]))
                                  if n in XFAIL_CONFIGS else n for n in sorted(CONFIGS)])
def test_malformed_config(tmp_path, name):
    fname, content, needles = CONFIGS[name]
    write(tmp_path / fname, content)
    doc = write(tmp_path / "b.md", GOOD_TEXT)
    proc = invoke_in_process(["check", doc], cwd=tmp_path)
    assert_one_line_error(proc, *needles)
    assert not (tmp_path / "PWNED").exists(), "a YAML tag in the config ran code"


def test_explicit_config_missing(tmp_path):
    doc = write(tmp_path / "b.md", GOOD_TEXT)
    proc = run_caveat(["check", "--config", tmp_path / "none.yaml", doc], cwd=tmp_path)
    assert_one_line_error(proc, "none.yaml")


# ---------------------------------------------------------------- odd but valid

def test_odd_but_valid_files_pass_cleanly(tmp_path):
    """Not errors: these are briefings (empty or strange), checked like any other."""
    files = [
        write(tmp_path / "empty.md", b""),
        write(tmp_path / "bom_only.md", b"\xef\xbb\xbf"),
        write(tmp_path / "blank.md", b"\r\n\r\n   \n\t\n"),
        write(tmp_path / "no_newline.md", "SGLang 29% faster"),
        write(tmp_path / "emoji.md", "⭐" * 5000 + " 29% " + "🟡" * 5000 + "\n"),
        write(tmp_path / "controls.md", "SGLang 2\u200b9% faster, \u202e45%\u202c gap\r\nvLLM ２９％\n"),
        write(tmp_path / "fences.md", "```\n29%\n" * 3 + "<!-- 29%\n" + "`29%" * 100 + "\n"),
        write(tmp_path / "cr_only.md", b"# T\r\rSGLang 29% faster\r"),
    ]
    proc = run_caveat(["check", "--format", "json", *files])
    assert "Traceback" not in proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    assert error_lines(proc.stderr) == [] or proc.returncode == 1
    findings = json.loads(proc.stdout)["findings"]
    for f in findings:
        assert f["line"] >= 1 and "\n" not in f["message"]


# ---------------------------------------------------------------- multi-file

def _findings(stdout: str) -> list:
    out = json.loads(stdout)["findings"]
    return sorted(json.dumps(f, sort_keys=True) for f in out)


def test_multi_file_run_goes_on_past_bad_files(tmp_path, briefing_copy):
    good = sorted((briefing_copy / "briefings").glob("*.md"))
    bad_bin = write(tmp_path / "bad" / "binary.md", b"\x00\x01\x02" * 100)
    bad_dec = write(tmp_path / "bad" / "latin.md", b"x\n\xe9t\xe9 29%\n")
    args = ["check", "--format", "json", "--corpus", briefing_copy]
    clean = run_caveat([*args, *good])
    assert clean.returncode in (0, 1), clean.stderr
    mixed = run_caveat([*args, good[0], bad_bin, good[1], tmp_path / "gone.md", bad_dec])
    lines = assert_one_line_error(mixed, code=2, lines=3)
    assert any("binary.md" in ln for ln in lines)
    assert any("gone.md" in ln for ln in lines)
    assert any("latin.md" in ln and "2" in ln for ln in lines)     # byte offset 2
    assert _findings(mixed.stdout) == _findings(clean.stdout), "good files' findings changed"


def test_directory_run_goes_on_past_bad_file(tmp_path, briefing_copy):
    d = briefing_copy / "briefings"
    write(d / "zz-binary.md", b"\x7fELF\x02\x01\x01" + b"\x00" * 64)
    proc = run_caveat(["check", "--format", "json", d])
    assert_one_line_error(proc, "zz-binary.md")
    paths = {Path(f["path"]).name for f in json.loads(proc.stdout)["findings"]}
    assert {b.name for b in BRIEFINGS} & paths, "findings of the good briefings are missing"


def test_report_goes_on_past_bad_file_and_exits_2(tmp_path, briefing_copy):
    write(briefing_copy / "inbox" / "zz-binary.md", b"\x00\x01" * 10)
    out = tmp_path / "out"
    proc = run_caveat(["report", briefing_copy, "--out", out, "--no-ledger", "--jobs", "1"], timeout=120)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2, proc.stderr
    lines = error_lines(proc.stderr)
    assert len(lines) == 1 and "zz-binary.md" in lines[0], lines
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["summary"]["files"] >= 4


# ---------------------------------------------------------------- --debug

def test_debug_shows_the_traceback(tmp_path):
    write(tmp_path / ".caveat.yaml", "fail-on: warning\ncolour: red\n")
    p = write(tmp_path / "b.md", GOOD_TEXT)
    plain = run_caveat(["check", p], cwd=tmp_path)
    assert_one_line_error(plain, ".caveat.yaml:2")
    debug = run_caveat(["check", "--debug", p], cwd=tmp_path)
    assert debug.returncode != 0
    assert "Traceback" in debug.stderr and ".caveat.yaml" in debug.stderr


# ---------------------------------------------------------------- Ctrl-C

def _big_briefing(target_bytes: int) -> str:
    """The first example briefing with its increments section repeated to ``target_bytes``."""
    lines = BRIEFINGS[0].read_text(encoding="utf-8").splitlines(keepends=True)
    a = next(i for i, ln in enumerate(lines) if ln.startswith("二、"))
    b = next(i for i, ln in enumerate(lines) if ln.startswith("三、"))
    body = "".join(lines[a + 1:b])
    reps = max(1, target_bytes // len(body.encode()))
    return "".join(lines[:a + 1]) + body * reps + "".join(lines[b:])


def _tree(root: Path) -> dict:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(root.rglob("*"))}


BIG_BYTES = 60_000      # ~3 s of `warnings --write` here: long enough to interrupt mid-run


@pytest.fixture(scope="module")
def big_written(tmp_path_factory):
    """The big briefing before and after an uninterrupted ``warnings --write``, and its duration."""
    d = tmp_path_factory.mktemp("bigref")
    p = d / "big.md"
    original = _big_briefing(BIG_BYTES).encode("utf-8")
    took = float("inf")
    for _ in range(2):          # the first run is cold (bytecode, caches): take the warm one
        p.write_bytes(original)
        t0 = time.perf_counter()
        proc = run_caveat(["warnings", "--write", p], timeout=300)
        took = min(took, time.perf_counter() - t0)
        assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return original, p.read_bytes(), took


def _interrupt(args, cwd, at: float):
    """Start caveat, send SIGINT ``at`` seconds in; (returncode, stderr), or None when the
    run had already finished (the machine was faster than the reference run)."""
    # SIGINT as a terminal delivers it: a suite started in the background (CI, 'cmd &')
    # hands its children SIGINT ignored, and a Python started so keeps ignoring it
    proc = subprocess.Popen([*CAVEAT, *map(str, args)], cwd=cwd, env=caveat_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(at)
    if proc.poll() is not None:
        proc.communicate()
        return None
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    return proc.returncode, err


@pytest.mark.parametrize("fraction", [0.5, 0.8])
def test_sigint_during_warnings_write_leaves_nothing_behind(tmp_path, big_written, fraction):
    original, complete, took = big_written
    p = tmp_path / "big.md"
    for attempt in range(3):    # interrupted too late (run already over): retry earlier
        p.write_bytes(original)
        before = set(_tree(tmp_path))
        got = _interrupt(["warnings", "--write", p], tmp_path, took * fraction / 2 ** attempt)
        if got is not None:
            break
    assert got is not None, "every run finished before the interrupt: make BIG_BYTES larger"
    code, err = got
    assert "Traceback" not in err, err
    assert code in (130, 2), (code, err)
    assert len(error_lines(err)) <= 1, err
    assert p.read_bytes() in (original, complete), "a partial file was left behind"
    assert set(_tree(tmp_path)) == before, "temporary or lock files were left behind"


def test_sigint_during_check_is_one_line(tmp_path, big_written):
    original, _complete, took = big_written
    p = tmp_path / "big.md"
    p.write_bytes(original)
    got = _interrupt(["check", p], tmp_path, took * 0.5)
    assert got is not None, "the check finished before the interrupt: make BIG_BYTES larger"
    code, err = got
    assert "Traceback" not in err, err
    assert code in (130, 2), (code, err)
    assert len(error_lines(err)) <= 1, err
