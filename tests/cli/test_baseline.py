"""Baseline: record findings by fingerprint, survive line moves, fail only on new ones, report stale."""
from __future__ import annotations

import json

from cli_support import as_json, write


def test_write_then_reuse_after_lines_move(fake, ws, run):
    write(ws / "a.md", "29% faster\nSpecInfr\n")
    r = run("check", "a.md", "--write-baseline", "base.json")
    assert r.exit_code == 0
    assert "wrote 2 baseline entries" in r.stderr
    data = json.loads((ws / "base.json").read_text())
    assert {e["code"] for e in data["entries"]} == {"CV101", "CV601"}
    assert all("line" not in e for e in data["entries"])

    # lines move: both findings are still accepted
    write(ws / "a.md", "# New heading\n\nintro\n\n29% faster\n\nSpecInfr\n")
    r = run("check", "a.md", "--baseline", "base.json", "--format", "json")
    assert r.exit_code == 0
    assert as_json(r)["findings"] == []

    # a new finding fails, the accepted ones stay suppressed
    write(ws / "a.md", "29% faster\nSpecInfr\n2.8× more\n")
    r = run("check", "a.md", "--baseline", "base.json", "--format", "json")
    assert r.exit_code == 1
    assert [f["code"] for f in as_json(r)["findings"]] == ["CV301"]


def test_a_second_copy_of_an_accepted_finding_is_new(fake, ws, run):
    write(ws / "a.md", "SpecInfr\n")
    run("check", "a.md", "--write-baseline", "base.json")
    write(ws / "a.md", "SpecInfr\nSpecInfr again\n")
    r = run("check", "a.md", "--baseline", "base.json")
    assert r.exit_code == 1


def test_stale_entries_are_reported_as_cv002_info(fake, ws, run):
    write(ws / "a.md", "29% faster\nSpecInfr\n")
    write(ws / "b.md", "SpecInfr\n")
    run("check", "a.md", "b.md", "--write-baseline", "base.json")
    write(ws / "a.md", "29% faster\nSpecInfer\n")      # the misspelling was fixed
    r = run("check", "a.md", "--baseline", "base.json", "--format", "json")
    assert r.exit_code == 0                           # info does not fail by default
    (stale,) = as_json(r)["findings"]                 # b.md was not checked: not stale
    assert stale["code"] == "CV002" and stale["severity"] == "info"
    assert stale["path"] == "base.json"
    lines = (ws / "base.json").read_text().splitlines()
    assert "SpecInfr" in lines[stale["line"] - 1] and '"a.md"' in lines[stale["line"] - 1]
    assert run("check", "a.md", "--baseline", "base.json", "--fail-on", "info").exit_code == 1


def test_baseline_works_from_another_directory(fake, ws, run, monkeypatch):
    write(ws / "docs" / "a.md", "SpecInfr\n")
    run("check", "docs/a.md", "--write-baseline", "base.json")
    monkeypatch.chdir(ws / "docs")
    assert run("check", "a.md", "--baseline", "../base.json").exit_code == 0


def test_broken_baseline_is_one_line_exit_2(fake, ws, run):
    write(ws / "a.md", "SpecInfr\n")
    write(ws / "base.json", "{not json\n")
    r = run("check", "a.md", "--baseline", "base.json")
    assert r.exit_code == 2 and r.stderr.startswith("caveat: base.json:1:")
    r = run("check", "a.md", "--baseline", "nope.json")
    assert r.exit_code == 2 and "nope.json" in r.stderr


def test_unwritable_baseline_is_one_line_exit_2(fake, ws, run):
    write(ws / "a.md", "SpecInfr\n")
    r = run("check", "a.md", "--write-baseline", "no/such/dir/base.json")
    assert r.exit_code == 2
    assert r.stderr.startswith("caveat: no/such/dir/base.json: cannot write baseline")
