"""validator/dirwalk.py lists what os.walk(followlinks=True) lists, and tells files and links
as os.path does (a regular file, a link to one, a dangling link, a link back up the tree)."""
from __future__ import annotations

import os

import pytest

from validator import dirwalk, paths


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "one.md").write_text("x")
    (tmp_path / "a" / "b" / "two.md").write_text("x")
    (tmp_path / "top.md").write_text("x")
    (tmp_path / "fifo.md").mkdir()                 # a folder named like a file
    try:
        os.symlink(tmp_path / "top.md", tmp_path / "a" / "link.md")
        os.symlink(tmp_path / "missing.md", tmp_path / "a" / "dangling.md")
        os.symlink(tmp_path / "a", tmp_path / "a" / "b" / "up")
    except (OSError, NotImplementedError):
        pytest.skip("no symlinks here")
    return tmp_path


def test_the_walk_is_os_walks(tree):
    mine = [(d, list(ds), sorted(fs)) for d, ds, fs in dirwalk.walk(str(tree))]
    theirs = []
    seen = 0
    for d, ds, fs in os.walk(str(tree), followlinks=True):
        theirs.append((d, list(ds), sorted(fs)))
        seen += 1
        if seen > 20:
            break
    assert mine[:len(theirs)] == theirs[:len(mine)] and mine


def test_files_and_links_as_os_path_tells_them(tree):
    for d, _ds, entries in dirwalk.walk(str(tree)):
        for name, entry in entries.items():
            p = os.path.join(d, name)
            assert dirwalk.file_or_link(entry) == (os.path.isfile(p) or os.path.islink(p))
            assert dirwalk.is_link(entry) == os.path.islink(p)
        if d.count("up") > 2:
            break


def test_markdown_entries_say_which_are_links(tree):
    got = paths.markdown_entries(str(tree))
    assert [p for p, _ in got] == paths.markdown_files(str(tree))
    assert all(link == os.path.islink(p) for p, link in got)
    assert any(link for _, link in got) and any(not link for _, link in got)
