"""Fixtures for the hostile-input tests."""
from __future__ import annotations

import shutil

import pytest

from .cli_helpers import CORPUS


@pytest.fixture
def briefing_copy(tmp_path):
    """A fresh copy of the two example briefings (and the corpus they cite)."""
    dst = tmp_path / "corpus"
    shutil.copytree(CORPUS, dst)
    return dst
