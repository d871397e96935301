"""The pattern cache (claims/pattern_cache.py) hands back the patterns the compilers build.

Every pattern compiled while reading the example briefings is rebuilt from the arguments the
cache keeps and compared with the one its compiler builds: ``re`` patterns compare their code
with ``==``; ``regex`` patterns compare the arguments they pickle as, and what they find.
"""
from __future__ import annotations

import re

import regex

from claims import cache_file, guard_cache, pattern_cache
from claims.api import analyze


def _examples() -> list:
    texts = []
    for path in guard_cache.examples():
        with open(path, encoding="utf-8") as fh:
            texts.append(fh.read())
    return texts


def test_every_pattern_rebuilt_from_the_cache_is_the_compiled_one():
    texts = _examples()
    for text in texts:
        analyze(text, "x.md")
    keys = sorted(pattern_cache._used)
    assert sum(k[0] == "regex" for k in keys) >= 2 and sum(k[0] == "re" for k in keys) >= 20
    for engine, pattern, flags in keys:
        if engine == "re":
            args = pattern_cache._re_arguments(pattern, flags)
            assert pattern_cache._sre.compile(*args) == re.compile(pattern, flags), pattern[:80]
        else:
            fresh = regex.compile(pattern, flags)
            args = pattern_cache._regex_arguments(fresh)
            rebuilt = pattern_cache._regex_constructor()(*args)
            assert pattern_cache._regex_arguments(rebuilt) == args
            for text in texts[:5]:
                assert [m.span() for m in rebuilt.finditer(text)] == [m.span() for m in fresh.finditer(text)]


def test_a_pattern_goes_through_the_file_and_comes_back(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path))
    pattern_cache.reset()
    try:
        pattern = r"(?P<n>\d+)\s*(?:ms|s)\b"
        first = pattern_cache.compile_re(pattern, re.IGNORECASE)
        fig = pattern_cache.compile_regex(r"(?r)(?:about|around)\s*$", regex.V0)
        pattern_cache.save()
        assert pattern_cache.path().startswith(str(tmp_path))
        pattern_cache.reset()
        assert pattern_cache._lookup(("re", pattern, int(re.IGNORECASE))) is not None
        again = pattern_cache.compile_re(pattern, re.IGNORECASE)
        assert again == first and again.groupindex == {"n": 1}
        assert pattern_cache.compile_regex(r"(?r)(?:about|around)\s*$", regex.V0).search("at around ").span() \
            == fig.search("at around ").span()
        assert not pattern_cache._new      # nothing left to write: both came from the file
    finally:
        pattern_cache.reset()


def test_a_damaged_file_is_ignored_and_rewritten(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path))
    pattern_cache.reset()
    try:
        with open(pattern_cache.path(), "wb") as fh:
            fh.write(b"\x00not a cache")
        assert pattern_cache.compile_re(r"a+b", 0).match("aab").group() == "aab"
        pattern_cache.save()
        assert ("re", r"a+b", 0) in cache_file.read(pattern_cache.path())
    finally:
        pattern_cache.reset()


def _compile_large(prefix: str) -> list:
    """Compile and save eight large alternations (a few KB each); their cache keys."""
    keys = [("re", "%s%d|" % (prefix, i) + "|".join("w%d" % j for j in range(300)), 0) for i in range(8)]
    for key in keys:
        pattern_cache.compile_re(key[1], 0)
    pattern_cache.save()
    return keys


def test_a_file_grown_past_its_size_keeps_only_what_this_process_used(tmp_path, monkeypatch):
    # old versions of large alternations pile up as vocabularies change: reading them all back
    # slowed every start-up; past the cap, a writing process keeps only the patterns it used
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(pattern_cache, "MAX_BYTES", 20_000)
    pattern_cache.reset()
    try:
        stale = _compile_large("stale")
        assert all(k in cache_file.read(pattern_cache.path()) for k in stale)
        pattern_cache.reset()
        used = pattern_cache.compile_re(r"(?P<v>\d+)\s*tok/s", 0)
        assert used.search("at 120 tok/s").group("v") == "120"
        pattern_cache.save()
        kept = cache_file.read(pattern_cache.path())
        assert ("re", r"(?P<v>\d+)\s*tok/s", 0) in kept
        assert not any(k in kept for k in stale)
    finally:
        pattern_cache.reset()


def test_an_oversized_file_is_trimmed_even_when_nothing_new_was_compiled(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(pattern_cache, "MAX_BYTES", 20_000)
    pattern_cache.reset()
    try:
        keys = _compile_large("old")
        pattern_cache.reset()
        pattern_cache.compile_re(keys[0][1], 0)         # from the file: nothing new to add
        assert not pattern_cache._new
        pattern_cache.save()
        assert set(cache_file.read(pattern_cache.path())) == {keys[0]}
    finally:
        pattern_cache.reset()


def test_the_cache_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("CAVEAT_CACHE_DIR", "off")
    pattern_cache.reset()
    try:
        assert pattern_cache.path() is None
        assert pattern_cache.compile_re(r"x(y)", 0).match("xy").group(1) == "y"
        assert not pattern_cache._new
    finally:
        pattern_cache.reset()


def test_a_second_process_compiles_nothing_new(tmp_path):
    """Patterns built from vocabulary sets must come out the same in every process: with the
    alternatives of one length in set order (which PYTHONHASHSEED changes) each run compiled
    and wrote a few 'new' patterns, and the file grew by them until it was trimmed."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "CAVEAT_CACHE_DIR": str(tmp_path)}
    env.pop("CAVEAT_ENGINE", None)

    def run(seed):
        proc = subprocess.run([sys.executable, "-m", "validator.cli", "check", "--format", "json",
                               *guard_cache.examples()], env={**env, "PYTHONHASHSEED": seed},
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode in (0, 1), proc.stderr[-2000:]
        files = sorted(tmp_path.glob("patterns-*.marshal"))
        assert len(files) == 1
        return files[0].read_bytes()
    first = run("1")
    assert run("2") == first and run("3") == first
