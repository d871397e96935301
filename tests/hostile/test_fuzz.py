"""Fuzz the whole check pipeline with briefing-like Markdown (zh/en mixed, tables,
figures in every style, markers, sources, hostile control characters).

Properties, for any generated corpus of one to three briefings:
- reading, extraction and every rule run without raising, and no file is reported
  as bad (every generated file is valid UTF-8 under the size limit);
- every claim satisfies ``text[start:end] == surface`` with a line inside the file;
- every finding names a checked file, a line inside it, a known family and
  severity, and a one-line message;
- the CLI renders every output format, exits 0 or 1, and prints no traceback.

The default suite tries a modest number of examples; ``-m slow`` runs many more, and
``benchmark/fuzz_long.py`` runs for minutes (see benchmark/FUZZ.md).
"""
from __future__ import annotations

import dataclasses
import json
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.api import analyze
from validator.cli import main as cli_main
from validator.finding import FAMILIES, SEVERITIES
from validator.options import Options
from validator.run import check_paths

from .hostile_gen import HypothesisChooser, briefing

@pytest.fixture(scope="module", autouse=True)
def rules_loaded_once():
    """The fuzz varies documents, not packs: parse the built-in packs once (pure-Python
    YAML costs ~0.5 s a run) and hand the same rules to every check."""
    from validator import packs
    cache = {}
    real = packs.load_rules

    def cached(options=None):
        key = repr(dataclasses.replace(options, corpus=[])) if options is not None else ""
        if key not in cache:
            cache[key] = real(options)
        return cache[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(packs, "load_rules", cached)
        yield


COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_corpus(texts: list, fmt: str = "json") -> None:
    """Write ``texts`` as briefings of one corpus, check them, assert every property."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        paths = []
        for i, text in enumerate(texts):
            p = root / "briefings" / f"2026-11-0{i + 1}-fuzz.md"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(text.encode("utf-8"))
            paths.append(str(p))
        nlines = {p: max(1, len(t.splitlines()) + 1) for p, t in zip(paths, texts)}

        for p, text in zip(paths, texts):
            body = text[1:] if text.startswith("\ufeff") else text
            for c in analyze(body, path=p).claims:
                assert body[c.start:c.end] == c.surface, (c.surface, c.start, c.end)
                assert 1 <= c.line <= nlines[p]

        res = check_paths(paths, Options(corpus=[str(root)]))
        assert res.errors == [], res.errors
        for f in res.findings:
            assert f.path in nlines or str(Path(f.path).resolve()) in {str(Path(p).resolve()) for p in paths}, f.path
            assert f.family in FAMILIES and f.severity in SEVERITIES, f
            assert 1 <= f.line <= max(nlines.values()), f
            assert f.message and "\n" not in f.message, f.message

        result = CliRunner().invoke(cli_main, ["check", "--format", fmt, "--corpus", str(root), *paths])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code in (0, 1), (result.exit_code, result.output[-2000:])
        assert "Traceback" not in result.output
        if fmt in ("json", "sarif"):
            json.loads(result.stdout)


@st.composite
def corpora(draw):
    c = HypothesisChooser(draw)
    return [briefing(c) for _ in range(c.integer(1, 3))]


@settings(max_examples=20, **COMMON)
@given(texts=corpora(), fmt=st.sampled_from(["json", "sarif", "text", "github"]))
def test_fuzz_check_pipeline(texts, fmt):
    check_corpus(texts, fmt)


@settings(max_examples=40, **COMMON)
@given(text=st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",),
                                                exclude_characters="\x00"), max_size=400))
def test_fuzz_arbitrary_unicode(text):
    """Any Unicode text (not only briefing-like) checks cleanly."""
    check_corpus([text], "json")


@pytest.mark.slow
@settings(max_examples=1500, **COMMON)
@given(texts=corpora(), fmt=st.sampled_from(["json", "sarif", "text", "github"]))
def test_fuzz_check_pipeline_long(texts, fmt):
    check_corpus(texts, fmt)
