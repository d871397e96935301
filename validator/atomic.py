"""Write a file in place without ever leaving it half-written or clobbering someone's edit.

`read_snapshot` takes the bytes and the stat of a file; `replace_if_unchanged`
writes new bytes next to it in a temporary file, copies the permissions, checks
that the file on disk is still the one that was read (size, mtime, hash) and
renames the temporary file over it. Any failure, Ctrl-C included, removes the
temporary file and leaves the original as it was.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from dataclasses import dataclass


class WriteError(Exception):
    """A file that cannot or must not be written: one line naming the file."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass(frozen=True)
class Snapshot:
    path: str
    data: bytes
    size: int
    mtime_ns: int
    mode: int
    uid: int
    gid: int
    digest: str


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_snapshot(path: str, max_bytes=None) -> Snapshot:
    """The bytes of `path` and what is needed to notice a later change to it (read by
    claims.reader, so the limits and refusals are those of every other command)."""
    from claims.errors import InputError
    from claims.reader import read_bytes
    try:
        data, st = read_bytes(path, max_bytes)
    except InputError as exc:
        raise WriteError(path, exc.message) from None
    return Snapshot(path, data, st.st_size, st.st_mtime_ns, stat.S_IMODE(st.st_mode),
                    st.st_uid, st.st_gid, _digest(data))


def _changed(snap: Snapshot) -> bool:
    try:
        st = os.stat(snap.path)
        if st.st_size != snap.size or st.st_mtime_ns != snap.mtime_ns:
            return True
        with open(snap.path, "rb") as fh:
            return _digest(fh.read()) != snap.digest
    except OSError:
        return True


def replace_if_unchanged(snap: Snapshot, data: bytes) -> bool:
    """Write `data` over the snapshotted file atomically; False when nothing had to change.

    Raises WriteError when the file is read-only (its write bits are off: checked on
    the mode, so it also holds for root), its directory is not writable, or the file
    changed on disk since it was read."""
    if data == snap.data:
        return False
    path = snap.path
    if not snap.mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        raise WriteError(path, "file is read-only; not written (make it writable or run without --write)")
    # Write through a symlink to its target, so the link itself survives.
    target = os.path.realpath(path)
    directory = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".", suffix=".caveat-tmp",
                                   dir=directory)
    except OSError as exc:
        raise WriteError(path, f"cannot create a temporary file beside it: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, snap.mode)
        try:
            os.chown(tmp, snap.uid, snap.gid)
        except OSError:
            pass  # not permitted for other users' files; the mode is what matters
        if _changed(snap):
            raise WriteError(path, "file changed on disk while caveat was working; not overwritten (run again)")
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise WriteError(path, f"cannot write: {exc.strerror or exc}") from None
    finally:
        # Reached on success (tmp is None), on WriteError and on KeyboardInterrupt alike.
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return True
