"""Fixtures of the language-server tests (helpers in lsp_support.py)."""
from __future__ import annotations

import os
import shutil
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from lsp_support import CORPUS  # noqa: E402


@pytest.fixture
def workspace(tmp_path):
    """A workspace folder holding a copy of the example corpus and a `.caveat.yaml` naming
    it as the corpus (no ledger copied: the server makes its own)."""
    root = tmp_path / "ws"
    shutil.copytree(CORPUS, root, ignore=shutil.ignore_patterns(".caveat"))
    (root / ".caveat.yaml").write_text('corpus: ["."]\n', encoding="utf-8")
    return root
