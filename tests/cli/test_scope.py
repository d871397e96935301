"""Which files a run checks: include/exclude (gitignore syntax), .gitignore, force-exclude for
files named on the command line (pre-commit), and `warnings --write` never writing a file
outside the scope."""
from __future__ import annotations

import subprocess

import pytest

from cli_support import write

BRIEF = "# B\n\nSGLang is 29% faster than vLLM.\n"
NOTE = "# N\n\nSGLang is 2.8× faster than vLLM.\n"


@pytest.fixture
def project(ws):
    """briefings/, notes/ (a corpus), drafts/ (git-ignored), build/x.md (git-ignored file pattern)."""
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    write(ws / "briefings" / "a.md", BRIEF)
    write(ws / "briefings" / "sub" / "b.md", BRIEF)
    write(ws / "notes" / "n.md", NOTE)
    write(ws / "drafts" / "d.md", BRIEF)
    write(ws / "briefings" / "scratch.tmp.md", BRIEF)
    write(ws / ".gitignore", "drafts/\n*.tmp.md\n")
    return ws


def checked(fake):
    return sorted(p.replace("\\", "/") for p in fake.last_files)


@pytest.fixture
def record(fake, monkeypatch):
    import validator.cli as cli
    inner = cli._run_engine

    def run_engine(files, options, show_progress):
        fake.last_files = [str(f) for f in files]
        return inner(files, options, show_progress)
    monkeypatch.setattr(cli, "_run_engine", run_engine)
    return fake


def test_a_folder_walk_respects_gitignore(project, record, run):
    run("check", ".")
    assert checked(record) == ["./briefings/a.md", "./briefings/sub/b.md", "./notes/n.md"]
    run("check", ".", "--no-respect-gitignore")
    assert "./drafts/d.md" in checked(record) and "./briefings/scratch.tmp.md" in checked(record)


def test_nested_gitignore_and_negation(project, record, run):
    write(project / "briefings" / ".gitignore", "sub/\n!keep.tmp.md\n")
    write(project / "briefings" / "keep.tmp.md", BRIEF)
    run("check", "briefings")
    assert checked(record) == ["briefings/a.md", "briefings/keep.tmp.md"]


def test_include_and_exclude_from_config_relative_to_its_folder(project, record, run, monkeypatch):
    write(project / "pyproject.toml", '[tool.caveat]\ninclude = ["briefings/"]\nexclude = ["sub/"]\n')
    run("check", ".")
    assert checked(record) == ["./briefings/a.md"]
    monkeypatch.chdir(project / "briefings")           # patterns stay relative to the config file
    run("check", ".")
    assert checked(record) == ["./a.md"]


def test_command_line_include_replaces_and_exclude_adds(project, record, run):
    write(project / ".caveat.yaml", "include: ['briefings/']\n")
    run("check", ".", "--include", "notes/")
    assert checked(record) == ["./notes/n.md"]
    run("check", ".", "--exclude", "sub/")
    assert checked(record) == ["./briefings/a.md"]


def test_named_files_are_checked_unless_force_exclude(project, record, run):
    write(project / ".caveat.yaml", "include: ['briefings/']\n")
    r = run("check", "notes/n.md", "drafts/d.md")
    assert checked(record) == ["drafts/d.md", "notes/n.md"] and r.exit_code == 1
    r = run("check", "--force-exclude", "notes/n.md", "drafts/d.md", "briefings/a.md")
    assert checked(record) == ["briefings/a.md"]
    assert "(2 outside the scope)" in r.stdout
    # nothing left to check is not an error: pre-commit passed only files out of scope
    r = run("check", "--force-exclude", "notes/n.md")
    assert r.exit_code == 0 and "nothing to check" in r.stderr and "gate passed" in r.stdout


def test_force_exclude_from_config(project, record, run):
    write(project / ".caveat.yaml", "exclude: ['notes/']\nforce-exclude: true\n")
    r = run("check", "notes/n.md", "briefings/a.md")
    assert checked(record) == ["briefings/a.md"] and r.exit_code == 1
    r = run("check", "notes/n.md", "--no-force-exclude")
    assert checked(record) == ["notes/n.md"]


def test_scope_settings_are_validated(project, run):
    for text, needle in (("exclude: 3\n", ".caveat.yaml:1: 'exclude' must be a list"),
                         ("include: ['[z-a]']\n", ".caveat.yaml:1: 'include': '[z-a]' is not a gitignore-style pattern"),
                         ("force-exclude: yes please\n", ".caveat.yaml:1: 'force-exclude' must be true or false")):
        write(project / ".caveat.yaml", text)
        r = run("check", ".")
        assert r.exit_code == 2 and needle in r.stderr, (text, r.stderr)


def test_warnings_write_never_writes_a_file_outside_the_scope(project, run):
    """pre-commit passes every staged Markdown file, corpus notes included."""
    write(project / ".caveat.yaml", "include: ['briefings/']\n")
    before = (project / "notes" / "n.md").read_bytes()
    r = run("warnings", "--write", "notes/n.md", "briefings/a.md")
    assert r.exit_code == 0, r.stderr
    assert (project / "notes" / "n.md").read_bytes() == before
    assert "left 1 file outside the scope (include) as it is: notes/n.md" in r.stderr
    assert "<!-- caveat:warnings:start -->" in (project / "briefings" / "a.md").read_text(encoding="utf-8")
    # without --write a named file is shown as it would read, scope or not
    r = run("warnings", "notes/n.md")
    assert r.exit_code == 0 and "2.8×" in r.stdout
