"""Config from [tool.caveat] in pyproject.toml, .caveat.yaml or --config; unknown keys rejected."""
from __future__ import annotations

import os

from cli_support import as_json, write

TEXT = "29% and SpecInfr\n"


def codes(result):
    return sorted({f["code"] for f in as_json(result)["findings"]})


def test_pyproject_tool_caveat(fake, ws, run):
    write(ws / "pyproject.toml", '[project]\nname = "x"\n\n[tool.caveat]\nignore = ["CV6"]\nfail-on = "error"\n')
    write(ws / "a.md", TEXT)
    r = run("check", "a.md", "--format", "json")
    assert codes(r) == ["CV101"]
    assert r.exit_code == 0          # only a warning left, and fail-on is error


def test_caveat_yaml_discovered_from_a_subdirectory(fake, ws, run, monkeypatch):
    write(ws / ".caveat.yaml", "select: [CV6]\nseverity:\n  CV601: info\n")
    write(ws / "docs" / "a.md", TEXT)
    monkeypatch.chdir(ws / "docs")
    r = run("check", "a.md", "--format", "json")
    assert codes(r) == ["CV601"]
    assert as_json(r)["findings"][0]["severity"] == "info"
    assert r.exit_code == 0


def test_yaml_beats_pyproject_in_the_same_directory(fake, ws, run):
    write(ws / "pyproject.toml", "[tool.caveat]\nselect = ['CV1']\n")
    write(ws / ".caveat.yaml", "select: [CV6]\n")
    write(ws / "a.md", TEXT)
    assert codes(run("check", "a.md", "--format", "json")) == ["CV601"]


def test_explicit_config_and_command_line_precedence(fake, ws, run):
    write(ws / "conf" / "mine.yaml", "select: [CV1]\nfail-on: never\ncorpus: [../corpus]\n"
          "params:\n  CV101: {roles: [body]}\n")
    write(ws / "a.md", TEXT)
    r = run("check", "a.md", "--config", "conf/mine.yaml", "--format", "json")
    assert codes(r) == ["CV101"] and r.exit_code == 0
    opts = fake.options
    assert opts.corpus == [os.path.normpath(str(ws / "corpus"))]   # relative to the config file
    assert opts.params == {"CV101": {"roles": ["body"]}}
    # the command line wins over the file
    r = run("check", "a.md", "--config", "conf/mine.yaml", "--select", "CV6", "--fail-on", "error",
            "--format", "json")
    assert codes(r) == ["CV601"] and r.exit_code == 1


def test_unknown_key_in_yaml_names_file_and_line(fake, ws, run):
    write(ws / ".caveat.yaml", "select: [CV1]\n\nfail_on: error\nseverty:\n  CV101: error\n")
    write(ws / "a.md", TEXT)
    r = run("check", "a.md")
    assert r.exit_code == 2
    # the path as shown relative to the working directory, the closest known key suggested
    assert r.stderr.startswith("caveat: .caveat.yaml:4: unknown config key 'severty' (did you mean 'severity'?)")
    assert "Traceback" not in r.stderr


def test_unknown_key_in_pyproject_names_file_and_line(fake, ws, run):
    write(ws / "pyproject.toml", '[project]\nname = "x"\n\n[tool.caveat]\nselect = ["CV1"]\nfail-onn = "error"\n')
    write(ws / "a.md", TEXT)
    r = run("check", "a.md")
    assert r.exit_code == 2
    assert "pyproject.toml:6: unknown config key 'fail-onn'" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_bad_values_are_rejected_with_their_line(fake, ws, run):
    write(ws / "a.md", TEXT)
    cases = {
        "fail-on: sometimes\n": ":1: 'fail-on'",
        "severity:\n  CV101: fatal\n": ":2: severity of CV101",
        "max-file-size: lots\n": ":1: 'max-file-size'",
        "select: [CV1]\nignore: 3\n": ":2: 'ignore'",
        "select: [CV1\n": ": invalid YAML",
    }
    for text, expected in cases.items():
        write(ws / ".caveat.yaml", text)
        r = run("check", "a.md")
        assert r.exit_code == 2, text
        assert expected in r.stderr, (text, r.stderr)


def test_broken_toml_names_the_line(fake, ws, run):
    write(ws / "pyproject.toml", "[tool.caveat]\nselect = [CV1\n")
    write(ws / "a.md", TEXT)
    r = run("check", "a.md")
    assert r.exit_code == 2 and "pyproject.toml:" in r.stderr


def test_missing_explicit_config(fake, ws, run):
    write(ws / "a.md", TEXT)
    r = run("check", "a.md", "--config", "nope.toml")
    assert r.exit_code == 2 and "nope.toml" in r.stderr


def test_pyproject_without_tool_caveat_is_skipped(ws):
    from validator.config import discover
    write(ws / "pyproject.toml", "[project]\nname='x'\n")
    assert discover(str(ws)) in (None,) or not discover(str(ws)).startswith(str(ws) + os.sep + "pyproject")


def test_all_documented_keys_load(ws):
    from validator.config import load
    write(ws / ".caveat.yaml", "select: [CV1, precondition]\nignore: CV7\nseverity: {CV301: error}\n"
          "fail-on: info\ncorpus: [c]\nrules: [r]\nparams: {CV101: {x: 1}}\n"
          "warnings-patterns: ['^## 风险']\nmax-file-size: 2 MB\nlang: zh\n")
    cfg = load(str(ws / ".caveat.yaml"))
    assert cfg.select == ["CV1", "precondition"] and cfg.ignore == ["CV7"]
    assert cfg.severity == {"CV301": "error"} and cfg.fail_on == "info"
    assert cfg.rules == [str(ws / "r")] and cfg.max_file_size == 2_000_000
    assert cfg.warnings_patterns == ["^## 风险"] and cfg.lang == "zh"
