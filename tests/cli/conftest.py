"""Fixtures for the command-line tests: a fake engine, a temp workspace, a runner."""
from __future__ import annotations

import os
import sys

import pytest
from click.testing import CliRunner

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fake_engine  # noqa: E402
from cli_support import as_json, write  # noqa: E402,F401  (re-exported)


@pytest.fixture
def fake(monkeypatch):
    """Run the real CLI over the fake engine."""
    import validator.cli as cli

    def run_engine(files, options, show_progress):
        run_engine.options = options
        return fake_engine.check_paths(files, options)
    monkeypatch.setattr(cli, "_run_engine", run_engine)
    return run_engine


@pytest.fixture
def ws(tmp_path, monkeypatch):
    """A temp working directory with no config above it (cwd = tmp_path)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


@pytest.fixture
def run():
    from validator.cli import main

    def _run(*args, env=None):
        runner = CliRunner()
        try:   # click < 8.2 separates stderr only when asked
            runner = CliRunner(mix_stderr=False)
        except TypeError:
            pass
        return runner.invoke(main, list(args), env=env, catch_exceptions=False)
    return _run

