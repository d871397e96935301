"""Standard input, for editors and pipes: `caveat check - --stdin-filename F` is `caveat check F`
on the text given; `caveat warnings -` prints the text back with its section rewritten."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "briefing-corpus"
BRIEFINGS = ("2026-11-02-inference.md", "2026-11-03-serving-weekly.md")


class _Result:
    def __init__(self, r):
        self.returncode = r.exit_code
        self.stdout = r.stdout_bytes
        self.stderr = r.stderr_bytes


def caveat(*args, stdin=b"", cwd=REPO):
    """The real command line in this process, run in ``cwd`` with ``stdin`` as standard input."""
    from click.testing import CliRunner

    from validator.cli import main
    old = os.getcwd()
    os.chdir(cwd)
    try:
        try:   # click < 8.2 separates stderr only when asked
            runner = CliRunner(mix_stderr=False)
        except TypeError:
            runner = CliRunner()
        return _Result(runner.invoke(main, [str(a) for a in args], input=stdin,
                                     env={"CAVEAT_LEDGER": "off", "NO_COLOR": None},
                                     catch_exceptions=False))
    finally:
        os.chdir(old)


@pytest.mark.parametrize("name", BRIEFINGS)
def test_check_from_stdin_gives_the_findings_of_the_file(name):
    rel = str((CORPUS / "briefings" / name).relative_to(REPO))
    corpus = str(CORPUS.relative_to(REPO))
    from_file = caveat("check", "--corpus", corpus, rel, "--format", "json")
    from_stdin = caveat("check", "--corpus", corpus, "-", "--stdin-filename", rel, "--format", "json",
                        stdin=(REPO / rel).read_bytes())
    assert from_stdin.returncode == from_file.returncode == 1
    a, b = json.loads(from_file.stdout), json.loads(from_stdin.stdout)
    assert a["findings"] and a == b


def test_stdin_text_stands_in_for_the_file_on_disk(tmp_path):
    """An editor's unsaved text: the corpus sees it instead of the saved file, so the file's
    old figure does not contradict the new one."""
    root = tmp_path / "c"
    shutil.copytree(CORPUS, root)
    f = root / "briefings" / BRIEFINGS[0]
    edited = f.read_text(encoding="utf-8").replace("SpecInfr", "SpecInfer")
    r = caveat("check", "--corpus", str(root), "-", "--stdin-filename", str(f), "--format", "json",
               stdin=edited.encode("utf-8"))
    codes = [x["code"] for x in json.loads(r.stdout)["findings"]]
    assert "CV601" not in codes and "CV301" in codes
    assert f.read_text(encoding="utf-8") != edited          # nothing written


def test_stdin_without_a_name_and_bad_input():
    r = caveat("check", "-", stdin="# A\n\nSGLang is 29% faster than vLLM.\n".encode())
    assert r.returncode == 1 and r.stdout.decode().startswith("-:3:")
    r = caveat("check", "-", "--stdin-filename", "b.md", stdin=b"\x00\x01")
    assert r.returncode == 2 and b"b.md:1: binary file" in r.stderr and b"Traceback" not in r.stderr
    r = caveat("check", "-", "a.md")
    assert r.returncode == 2 and b"cannot be combined" in r.stderr
    r = caveat("check", "a.md", "--stdin-filename", "a.md")
    assert r.returncode == 2 and b"give '-' as the path" in r.stderr


def test_warnings_from_stdin_prints_the_rewritten_text():
    rel = str((CORPUS / "briefings" / BRIEFINGS[0]).relative_to(REPO))
    r = caveat("warnings", "--corpus", str(CORPUS.relative_to(REPO)), "-", "--stdin-filename", rel,
               stdin=(REPO / rel).read_bytes())
    assert r.returncode == 0, r.stderr
    assert r.stdout == (REPO / "tests" / "warnings" / "golden" / BRIEFINGS[0]).read_bytes()
    r = caveat("warnings", "-", "--write", stdin=b"# A\n")
    assert r.returncode == 2 and b"--write" in r.stderr


def test_warnings_from_stdin_keeps_a_file_outside_the_scope_as_it_is(tmp_path):
    (tmp_path / ".caveat.yaml").write_text("exclude: ['notes/']\n", encoding="utf-8")
    text = b"# N\n\nSGLang is 29% faster than vLLM.\n"
    r = caveat("warnings", "-", "--stdin-filename", "notes/n.md", "--force-exclude", stdin=text, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == text
    r = caveat("warnings", "-", "--stdin-filename", "notes/n.md", stdin=text, cwd=tmp_path)
    assert r.returncode == 0 and b"<!-- caveat:warnings:start -->" in r.stdout
