"""The version caveat prints is the installed package's (one source: validator.__version__)."""
from importlib.metadata import version

from click.testing import CliRunner

import validator
from validator.cli import main


def test_printed_version_is_the_installed_one():
    out = CliRunner().invoke(main, ["--version"]).output
    assert validator.__version__ == version("caveat")
    assert f"version {version('caveat')}" in out
