"""Errors say what is wrong and where: config errors at their file and line, unknown codes
with the closest known one, a file that could not be read never reported as a pass, no
deprecation warnings from the command line."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_support import write

REPO = Path(__file__).resolve().parents[2]
TEXT = "29% and SpecInfr\n"


@pytest.mark.parametrize("toml,where", [
    ('[tool.caveat\nselect = ["CV6"]\n', "pyproject.toml:1: invalid TOML"),          # the header itself
    ('[project]\nname = "x"\n\n[tool.caveat]\nselect = [CV1\n', "pyproject.toml:5: invalid TOML"),
    ('[tool . "caveat"]\nfail-on = "warning"\nfail-on = "error"\n', "pyproject.toml:3: invalid TOML"),
])
def test_a_malformed_pyproject_table_is_an_error_naming_its_line(fake, ws, run, toml, where):
    write(ws / "pyproject.toml", toml)
    write(ws / "a.md", TEXT)
    r = run("check", "a.md")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"caveat: {where}"), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and r.stdout == ""


def test_someone_elses_broken_pyproject_is_not_ours(fake, ws, run):
    write(ws / "pyproject.toml", "[project\nname = 1\n")     # never mentions tool.caveat
    write(ws / "a.md", TEXT)
    assert run("check", "a.md").exit_code == 1


@pytest.mark.parametrize("config,expected", [
    ('[tool.caveat]\nselect = ["CV1"]\nignore = ["CV9"]\n', "pyproject.toml:3: 'ignore': unknown rule code or family 'CV9'"),
    ('[tool.caveat]\nselect = ["precondtion"]\n',
     "pyproject.toml:2: 'select': unknown rule code or family 'precondtion' (did you mean 'precondition'?)"),
    ('[tool.caveat.params.CV101]\nbogus = 1\n', "pyproject.toml:2: params of CV101: unknown param 'bogus'"),
    ('[tool.caveat.params]\nCV101 = {roles = "body"}\n', "pyproject.toml:2: params of CV101: param 'roles' must be a list"),
    ('[tool.caveat.severity]\nCV999 = "error"\n', "pyproject.toml:2: severity: unknown rule code or family 'CV999'"),
])
def test_config_values_judged_against_the_packs_name_file_and_line(fake, ws, run, config, expected):
    write(ws / "pyproject.toml", config)
    write(ws / "a.md", TEXT)
    r = run("check", "a.md")
    assert r.exit_code == 2
    assert r.stderr.startswith("caveat: " + expected), r.stderr


def test_yaml_config_value_errors_name_the_line_of_the_key(fake, ws, run):
    write(ws / ".caveat.yaml", "select: [CV1]\nparams:\n  CV101:\n    roles: [body]\n    nope: 2\n")
    write(ws / "a.md", TEXT)
    r = run("check", "a.md")
    assert r.exit_code == 2 and r.stderr.startswith("caveat: .caveat.yaml:5: params of CV101: unknown param 'nope'")


def test_unknown_codes_on_the_command_line(fake, ws, run):
    write(ws / "a.md", TEXT)
    r = run("check", "a.md", "--select", "CV999")
    assert r.exit_code == 2 and "--select: unknown rule code or family 'CV999'" in r.stderr
    r = run("check", "a.md", "--ignore", "entty")
    assert r.exit_code == 2 and "(did you mean 'entity'?)" in r.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_missing_file_is_an_error_never_a_pass(fake, ws, run, fmt):
    r = run("check", "missing.md", "--format", fmt)
    assert r.exit_code == 2
    assert "gate passed" not in r.stdout
    assert "caveat: missing.md: no such file or directory" in r.stderr
    if fmt == "text":
        assert r.stdout.strip().endswith("— 1 error: 1 file could not be checked")


def test_errors_and_findings_together_say_both(fake, ws, run):
    write(ws / "a.md", TEXT)
    r = run("check", "a.md", "missing.md")
    assert r.exit_code == 2
    last = r.stdout.strip().splitlines()[-1]
    assert "1 error: 1 file could not be checked; gate failed: 2 at or above warning" in last


def test_no_deprecation_warnings_from_the_command_line(tmp_path):
    """With every warning an error (the newest Click deprecates what older code used)."""
    write(tmp_path / "a.md", "# A\n\nSGLang is 29% faster than vLLM.\n")
    code = ("import sys; from validator.cli import main; "
            "sys.argv = ['caveat'] + sys.argv[1:]; main()")
    for args in (["check", "a.md"], ["check", "a.md", "--format", "json"], ["extract", "a.md"],
                 ["warnings", "a.md"], ["rules"], ["--version"]):
        r = subprocess.run([sys.executable, "-W", "error", "-c", code, *args], cwd=tmp_path,
                           capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO),
                                                                    CAVEAT_LEDGER="off"))
        assert "Warning" not in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
        assert r.returncode in (0, 1), (args, r.stderr)
