"""Terminal output: grouped by file, source line with a caret under the figure, colour only
on a terminal and never with NO_COLOR; plain lines when piped; progress bar rules."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cli_support import HERE, write
from validator.finding import Finding


def _finding(line_text, surface, **kw):
    col = line_text.index(surface) + 1
    base = dict(code="CV101", family="precondition", severity="warning", path="a.md", line=3,
                col=col, end_line=3, end_col=col + len(surface), surface=surface,
                message=f"{surface} lacks its hardware", help="name the GPU")
    base.update(kw)
    return Finding(**base)


def summary(findings):
    from validator.gate import summarize
    return summarize(findings, files=1)


def test_caret_sits_under_a_figure_after_chinese_text():
    from validator.render.text import render_terminal
    src = "SGLang 比 vLLM 快 29%，见表"
    f = _finding(src, "29%")
    out = render_terminal([f], summary([f]), lambda p, n: src, colour=False)
    lines = out.splitlines()
    assert lines[0] == "a.md"
    src_line = next(ln for ln in lines if ln.endswith(src))
    caret_line = lines[lines.index(src_line) + 1]
    prefix = src_line[: src_line.index("SGLang")]
    # 'SGLang 比 vLLM 快 ' is 16 characters but 18 terminal columns (比 and 快 are wide)
    assert caret_line.rstrip().endswith("^^^") and caret_line.count("^") == 3
    assert caret_line.index("|") == src_line.index("|")
    assert caret_line.index("^") - len(prefix) == 18
    assert "help: name the GPU" in out
    assert "\x1b[" not in out


def test_grouped_by_file_with_colour():
    from validator.render.text import render_terminal
    src = "29% faster"
    fs = [_finding(src, "29%", path="b.md"), _finding(src, "29%", path="a.md", code="CV301",
                                                       severity="error")]
    out = render_terminal(fs, summary(fs), lambda p, n: src, colour=True)
    assert "\x1b[" in out
    plain = __import__("click").unstyle(out)
    assert plain.index("a.md") < plain.index("b.md")
    assert plain.count("29% faster") == 2


def test_colour_choice_flag_then_no_color_then_force_color_then_tty(monkeypatch):
    from validator.output import colour_wanted

    class Stream:
        def __init__(self, tty):
            self.tty = tty

        def isatty(self):
            return self.tty
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert colour_wanted("auto", Stream(True)) is True
    assert colour_wanted("auto", Stream(False)) is False
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert colour_wanted("auto", Stream(False)) is True          # CI logs
    assert colour_wanted("never", Stream(True)) is False
    monkeypatch.setenv("FORCE_COLOR", "0")
    assert colour_wanted("auto", Stream(False)) is False
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert colour_wanted("auto", Stream(True)) is False
    assert colour_wanted("always", Stream(False)) is True


def test_forced_colour_gives_the_grouped_view_in_a_pipe(fake, ws, run):
    write(ws / "a.md", "SGLang 快 29%\n")
    for env, args in (({"FORCE_COLOR": "1", "NO_COLOR": None}, ()), ({"NO_COLOR": None}, ("--color", "always"))):
        r = run("check", "a.md", *args, env=env)
        assert "\x1b[" in r.stdout and "^^^" in r.stdout
    r = run("check", "a.md", "--color", "never", env={"FORCE_COLOR": "1", "NO_COLOR": None})
    assert "\x1b[" not in r.stdout and r.stdout.startswith("a.md:1:10: CV101")


def test_long_lines_are_cropped_around_the_caret():
    from validator.render.text import render_terminal, width
    src = "前文" * 60 + " EAGLE-3 解码加速 3.1×（MT-Bench）" + " 后文" * 80
    f = _finding(src, "3.1×")
    out = render_terminal([f], summary([f]), lambda p, n: src, colour=False, columns=100)
    lines = out.splitlines()
    src_line = next(ln for ln in lines if "3.1×" in ln and "|" in ln)
    caret_line = lines[lines.index(src_line) + 1]
    assert width(src_line) <= 100                       # never wraps
    assert src_line.count("…") == 2 and "EAGLE-3 解码加速 3.1×" in src_line
    bar = src_line.index("|") + 2
    shown = src_line[bar:]
    # the caret is under the figure: as many columns in as the text before it
    assert caret_line.index("^") - bar == width(shown[: shown.index("3.1×")])
    assert caret_line.count("^") == 4
    # a short line is printed whole
    short = "SGLang 29% faster"
    g = _finding(short, "29%")
    assert f"| {short}" in render_terminal([g], summary([g]), lambda p, n: short, colour=False, columns=100)


def test_piped_output_is_plain(fake, ws, run):
    write(ws / "a.md", "SGLang 快 29%\n")
    r = run("check", "a.md", env={"NO_COLOR": None})
    assert r.stdout.splitlines()[0] == "a.md:1:10: CV101 29% is suspicious"
    assert "\x1b[" not in r.stdout and "^" not in r.stdout


def _in_pty(args, cwd, env):
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    code = ("import sys; sys.path.insert(0, %r); import fake_engine; fake_engine.install(); "
            "from validator.cli import main; main(%r)" % (HERE, args))
    p = subprocess.Popen([sys.executable, "-c", code], cwd=cwd, env=env, stdin=slave,
                         stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=60)
    os.close(master)
    return p.returncode, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_real_terminal_gets_grouped_colour_output_and_no_color_is_honoured(ws):
    write(ws / "a.md", "intro\nSGLang 快 29%\n")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm"
    code, out = _in_pty(["check", "a.md"], str(ws), env)
    assert code == 1
    assert "\x1b[" in out
    assert "SGLang 快 29%" in out and "^^^" in out
    env["NO_COLOR"] = "1"
    code, out = _in_pty(["check", "a.md"], str(ws), env)
    assert code == 1
    assert "\x1b[" not in out
    assert "^^^" in out                     # still grouped with the caret, only without colour


def test_progress_bar_only_when_many_files_on_a_terminal(ws, run, monkeypatch):
    import validator.cli as cli
    seen = {}

    def run_engine(files, options, show_progress):
        seen["progress"] = show_progress
        import fake_engine
        return fake_engine.check_paths(files, options)
    monkeypatch.setattr(cli, "_run_engine", run_engine)
    for i in range(8):
        write(ws / f"f{i}.md", "x\n")
    run("check", ".")
    assert seen["progress"] is False        # stderr is not a terminal under the runner


def test_progress_bar_drawn_on_stderr_when_the_engine_reports_progress(monkeypatch, capsys):
    import validator.cli as cli
    import validator.run as run_mod

    calls = []

    def check_paths(paths, options, progress=None):
        for p in paths:
            if progress:
                progress(p)
                calls.append(p)
        return "done"
    monkeypatch.setattr(run_mod, "check_paths", check_paths)
    assert cli._run_engine(["a.md", "b.md"], None, True) == "done"
    assert calls == ["a.md", "b.md"]
    assert cli._run_engine(["c.md"], None, False) == "done"
    assert calls == ["a.md", "b.md"]


def test_progress_bar_ticks_once_per_checked_file(monkeypatch, tmp_path):
    """The bar follows check_paths' progress hook (also fed from forked workers' results)."""
    import click

    import validator.cli as cli
    import validator.run as run_mod
    ticks = []

    class Bar:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def update(self, n):
            ticks.append(n)
    monkeypatch.setattr(click, "progressbar", lambda *a, **k: Bar())

    def check_paths(paths, options, progress=None):
        for p in paths:
            progress(p)
        return "done"
    monkeypatch.setattr(run_mod, "check_paths", check_paths)
    assert cli._run_engine(["a.md", "b.md", "c.md"], None, True) == "done"
    assert ticks == [1, 1, 1]
