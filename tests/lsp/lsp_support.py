"""Helpers for driving `caveat lsp` over stdio with pytest-lsp: a client that records every
publishDiagnostics (with its version), a way to wait for the one of a given document
version, the command line to compare with, and a client's way of applying an edit."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = REPO / "tests" / "data" / "briefing-corpus"
SERVER = [sys.executable, "-m", "validator.cli", "lsp"]
# the server and the command line run this checkout's code, whatever is installed
SERVER_ENV = {**os.environ, "PYTHONPATH": str(REPO)}
WAIT = 60.0         # seconds: a 2-core machine shared by several test runs


def make_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics in order (``published``)."""
    client = LanguageClient(converter_factory=default_converter)
    features = {m: f for m, f in DEFAULT_CLIENT_FEATURES.items()
                if m != types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}

    def publish(ls, params: types.PublishDiagnosticsParams):
        ls.diagnostics[params.uri] = params.diagnostics
        ls.published.append(params)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    register_lsp_features(client, features)
    client.published = []
    return client


async def diagnostics_for(client, uri: str, version=None, after: int = 0, timeout: float = WAIT):
    """The first publishDiagnostics for ``uri`` (of ``version``, when given) received after
    the first ``after`` ones."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        for p in client.published[after:]:
            if p.uri == uri and (version is None or p.version == version):
                return p
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics for {uri} (version {version}) within {timeout} s")


def cli(*args, cwd) -> subprocess.CompletedProcess:
    """The `caveat` command line, run the way a user runs it in the workspace folder."""
    return subprocess.run([sys.executable, "-m", "validator.cli", *map(str, args)], cwd=cwd,
                          env=SERVER_ENV, capture_output=True, text=True, timeout=300)


def cli_findings(path, cwd) -> list:
    out = cli("check", "--format", "json", path, cwd=cwd)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)["findings"]


def utf16_col(line: str, col1: int) -> int:
    """A caveat column (1-based, characters) as an LSP character (UTF-16 code units)."""
    return len(line[:col1 - 1].encode("utf-16-le")) // 2


def apply_edit(text: str, edit: types.WorkspaceEdit, uri: str) -> str:
    """``text`` with the edits a client applies for ``uri`` (pygls's own document model,
    UTF-16 positions, edits taken from last to first as they all refer to the original)."""
    from pygls.workspace import TextDocument

    if edit.document_changes:
        edits = [e for dc in edit.document_changes if dc.text_document.uri == uri for e in dc.edits]
    else:
        edits = list((edit.changes or {}).get(uri, ()))
    doc = TextDocument(uri, text)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        doc.apply_change(types.TextDocumentContentChangePartial(range=e.range, text=e.new_text))
    return doc.source
