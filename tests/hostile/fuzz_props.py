"""The properties every generated corpus must satisfy, shared by the hypothesis test
(tests/hostile/test_fuzz.py) and the long unattended run (benchmark/fuzz_long.py).

For one to three briefings written as one corpus:
- reading, extraction and every rule run without raising, and no file is reported
  as bad (every generated file is valid UTF-8 under the size limit);
- every claim satisfies ``text[start:end] == surface`` with a line inside its file;
- every finding names a checked file, a line inside it, a known family and
  severity, and a one-line message;
- the CLI renders the chosen output format, exits 0 or 1, and prints no traceback.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import tempfile
from pathlib import Path

from click.testing import CliRunner

from claims.api import analyze
from validator.cli import main as cli_main
from validator.finding import SEVERITIES
from validator.kinds import families
from validator.options import Options
from validator.run import check_paths

FORMATS = ("json", "sarif", "text", "github")


@contextlib.contextmanager
def rules_loaded_once():
    """Fuzzing varies documents, not packs: parse the built-in packs once (pure-Python
    YAML costs ~0.5 s a run) and hand the same rules to every check."""
    from validator import packs
    cache, real = {}, packs.load_rules

    def cached(options=None):
        key = repr(dataclasses.replace(options, corpus=[])) if options is not None else ""
        if key not in cache:
            cache[key] = real(options)
        return cache[key]

    packs.load_rules = cached
    try:
        yield
    finally:
        packs.load_rules = real


def check_corpus(texts: list, fmt: str = "json") -> None:
    """Write ``texts`` as the briefings of one corpus, check them, assert every property."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        nlines = {}
        for i, text in enumerate(texts):
            p = root / "briefings" / f"2026-11-0{i + 1}-fuzz.md"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(text.encode("utf-8"))
            nlines[str(p)] = max(1, len(text.splitlines()) + 1)
            body = text[1:] if text.startswith("\ufeff") else text
            for c in analyze(body, path=str(p)).claims:
                assert body[c.start:c.end] == c.surface, (c.surface, c.start, c.end)
                assert 1 <= c.line <= nlines[str(p)], (c.surface, c.line)
        paths = list(nlines)

        res = check_paths(paths, Options(corpus=[str(root)]))
        assert res.errors == [], res.errors
        for f in res.findings:
            assert f.path in nlines, f.path
            assert f.family in families() and f.severity in SEVERITIES, f
            assert 1 <= f.line <= nlines[f.path], (f.code, f.line, nlines[f.path])
            assert f.message and "\n" not in f.message, f.message

        result = CliRunner().invoke(cli_main, ["check", "--format", fmt, "--corpus", str(root), *paths])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1), (result.exit_code, result.output[-2000:])
        assert "Traceback" not in result.output
        if fmt in ("json", "sarif"):
            json.loads(result.stdout)
