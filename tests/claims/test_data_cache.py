"""The vocabulary cache (claims/data_cache.py) gives back what parsing the YAML gives."""
from __future__ import annotations

import os

from claims import _data, cache_file, data_cache


def test_every_vocabulary_from_the_cache_is_the_parsed_one(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path))
    data_cache.reset()
    try:
        names = sorted(n for n in os.listdir(_data.DATA_DIR) if n.endswith(".yaml"))
        raws = {}
        for name in names:
            with open(os.path.join(_data.DATA_DIR, name), "rb") as fh:
                raws[name] = fh.read()
        parsed = {name: data_cache.load(name, raw, _data._parse) for name, raw in raws.items()}
        data_cache.save()
        data_cache.reset()
        for name, raw in raws.items():
            def refuse(_raw):
                raise AssertionError(f"{name} parsed again")
            assert data_cache.load(name, raw, refuse) == parsed[name] == _data._parse(raw)
    finally:
        data_cache.reset()


def test_an_edited_vocabulary_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path))
    data_cache.reset()
    try:
        assert data_cache.load("x.yaml", b"a: 1\n", _data._parse) == {"a": 1}
        data_cache.save()
        data_cache.reset()
        assert data_cache.load("x.yaml", b"a: 2\n", _data._parse) == {"a": 2}
        data_cache.save()
        assert [k[0] for k in cache_file.read(data_cache.path())] == ["x.yaml"]   # the old one dropped
    finally:
        data_cache.reset()


def test_data_marshal_cannot_keep_is_parsed_every_time(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path))
    data_cache.reset()
    try:
        assert str(data_cache.load("d.yaml", b"when: 2024-01-02\n", _data._parse)["when"]) == "2024-01-02"
        assert not data_cache._new
    finally:
        data_cache.reset()


def test_entries_of_one_name_that_are_not_versions_of_a_file_are_all_kept(tmp_path, monkeypatch):
    # claims/prefilter.py keys every pattern's literals under one name: a process that adds
    # one must not drop what earlier processes kept
    monkeypatch.setenv("CAVEAT_CACHE_DIR", str(tmp_path))
    data_cache.reset()
    try:
        for raw in (b"a: 1\n", b"a: 2\n"):
            data_cache.load("many", raw, _data._parse, one_version=False)
            data_cache.save()
            data_cache.reset()
        assert len(cache_file.read(data_cache.path())) == 2
    finally:
        data_cache.reset()
