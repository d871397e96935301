"""Atomic in-place write: permissions kept, read-only and concurrently changed files refused,
an interrupted write leaves the original and no temporary file."""
from __future__ import annotations

import os
import stat

import pytest

from validator import atomic
from validator.atomic import WriteError, read_snapshot, replace_if_unchanged


def _only(tmp_path):
    return sorted(p.name for p in tmp_path.iterdir())


def test_replace_keeps_mode_and_writes_bytes(tmp_path):
    p = tmp_path / "b.md"
    p.write_bytes(b"old\r\n")
    os.chmod(p, 0o640)
    snap = read_snapshot(str(p))
    assert replace_if_unchanged(snap, b"new\r\n") is True
    assert p.read_bytes() == b"new\r\n"
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o640
    assert _only(tmp_path) == ["b.md"]


def test_same_bytes_are_not_rewritten(tmp_path):
    p = tmp_path / "b.md"
    p.write_bytes(b"same")
    before = os.stat(p).st_mtime_ns
    assert replace_if_unchanged(read_snapshot(str(p)), b"same") is False
    assert os.stat(p).st_mtime_ns == before


def test_read_only_file_is_refused_and_unchanged(tmp_path):
    p = tmp_path / "b.md"
    p.write_bytes(b"old")
    os.chmod(p, 0o444)
    with pytest.raises(WriteError) as exc:
        replace_if_unchanged(read_snapshot(str(p)), b"new")
    assert "read-only" in str(exc.value) and str(p) in str(exc.value)
    assert p.read_bytes() == b"old" and _only(tmp_path) == ["b.md"]


def test_file_changed_between_read_and_write_is_not_overwritten(tmp_path):
    p = tmp_path / "b.md"
    p.write_bytes(b"old")
    snap = read_snapshot(str(p))
    p.write_bytes(b"edited by someone else")
    with pytest.raises(WriteError) as exc:
        replace_if_unchanged(snap, b"new")
    assert "changed on disk" in str(exc.value)
    assert p.read_bytes() == b"edited by someone else" and _only(tmp_path) == ["b.md"]


def test_same_size_edit_with_same_mtime_is_still_noticed(tmp_path):
    p = tmp_path / "b.md"
    p.write_bytes(b"aaa")
    snap = read_snapshot(str(p))
    p.write_bytes(b"bbb")
    os.utime(p, ns=(snap.mtime_ns, snap.mtime_ns))
    with pytest.raises(WriteError):
        replace_if_unchanged(snap, b"new")
    assert p.read_bytes() == b"bbb"


def test_ctrl_c_during_write_leaves_original_and_no_temp_file(tmp_path, monkeypatch):
    p = tmp_path / "b.md"
    p.write_bytes(b"old")

    def interrupted(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(atomic.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        replace_if_unchanged(read_snapshot(str(p)), b"new")
    assert p.read_bytes() == b"old" and _only(tmp_path) == ["b.md"]


def test_symlink_is_written_through(tmp_path):
    target = tmp_path / "real.md"
    target.write_bytes(b"old")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    replace_if_unchanged(read_snapshot(str(link)), b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_missing_file_is_one_line_error(tmp_path):
    with pytest.raises(WriteError) as exc:
        read_snapshot(str(tmp_path / "nope.md"))
    assert "no such file" in str(exc.value)
