"""--select / --ignore with codes, prefixes, families and comma lists."""
from __future__ import annotations

from cli_support import as_json, write

TEXT = "29% and SpecInfr and 2.8× and 约 5 倍\n"


def codes(run, *args):
    return sorted({f["code"] for f in as_json(run("check", "a.md", "--format", "json", *args))["findings"]})


def test_select_prefix_and_comma_list(fake, ws, run):
    write(ws / "a.md", TEXT)
    assert codes(run) == ["CV101", "CV201", "CV301", "CV601"]
    assert codes(run, "--select", "CV3") == ["CV301"]
    assert codes(run, "--select", "CV1,cv6") == ["CV101", "CV601"]
    assert codes(run, "--select", "CV1", "--select", "CV2") == ["CV101", "CV201"]


def test_ignore_prefix_and_family(fake, ws, run):
    write(ws / "a.md", TEXT)
    assert codes(run, "--ignore", "CV1,CV2") == ["CV301", "CV601"]
    assert codes(run, "--ignore", "entity") == ["CV101", "CV201", "CV301"]


def test_more_specific_select_beats_broader_ignore(fake, ws, run):
    write(ws / "a.md", TEXT)
    assert codes(run, "--ignore", "CV", "--select", "CV301") == ["CV301"]


def test_ignored_error_no_longer_fails(fake, ws, run):
    write(ws / "a.md", "SpecInfr\n")
    assert run("check", "a.md").exit_code == 1
    assert run("check", "a.md", "--ignore", "CV601").exit_code == 0


def test_selection_reaches_the_engine_without_meta_codes(fake, ws, run):
    write(ws / "a.md", TEXT)
    run("check", "a.md", "--select", "CV1,CV001", "--ignore", "CV002")
    assert fake.options.select == ["CV1"]
    assert fake.options.ignore == []
