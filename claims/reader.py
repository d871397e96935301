"""Read a briefing file into text: UTF-8 with or without BOM, LF or CRLF.

The text is returned without the BOM but with its original newlines, so that
offsets computed on it can be mapped back onto the file (``caveat warnings
--write`` rewrites the file byte for byte).  Anything that is not a text file
becomes an ``InputError`` naming the file and, where it helps, the byte offset
and line of the problem.
"""
from __future__ import annotations

import os
import stat

from .errors import InputError

DEFAULT_MAX_BYTES = 20 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def decode_bytes(data: bytes, path=None) -> tuple:
    """Decode file bytes; returns (text_without_bom, info) or raises InputError."""
    bom = data.startswith(_BOM)
    body = data[3:] if bom else data
    nul = body.find(b"\x00")
    if nul >= 0:
        off = nul + (3 if bom else 0)
        raise InputError(path, f"binary file (NUL byte at byte offset {off}); expected UTF-8 text",
                         line=_line_of(data, off))
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        off = exc.start + (3 if bom else 0)
        raise InputError(path, f"not valid UTF-8 (byte 0x{body[exc.start]:02x} at byte offset {off})",
                         line=_line_of(data, off)) from None
    crlf = text.find("\r\n")
    lf = text.find("\n")
    newline = "\r\n" if crlf >= 0 and crlf + 1 == lf else "\n"
    return text, {"bom": bom, "newline": newline}


def read_bytes(path, max_bytes=None) -> tuple:
    """(bytes, os.stat_result of the open file) of a regular file within ``max_bytes``
    (default: ``DEFAULT_MAX_BYTES`` at call time, which the config may have set)."""
    p = os.fspath(path)
    max_bytes = max_bytes or DEFAULT_MAX_BYTES
    try:
        if os.path.isdir(p):
            if not os.access(p, os.R_OK | os.X_OK):
                # a folder a directory walk could not list: its briefings were not checked
                raise InputError(p, "permission denied (cannot list this folder's Markdown files)")
            raise InputError(p, "is a directory, expected a Markdown file")
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):   # open() on a FIFO waits for a writer forever
            raise InputError(p, "not a regular file (a FIFO, socket or device)")
        size = st.st_size
        if size > max_bytes:
            raise InputError(p, f"file too large ({size} bytes > limit {max_bytes} bytes)")
        with open(p, "rb") as fh:
            st = os.fstat(fh.fileno())
            data = fh.read(max_bytes + 1)
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError(p, "no such file") from None
    except PermissionError:
        raise InputError(p, "permission denied") from None
    except OSError as exc:
        raise InputError(p, f"cannot read file ({exc.strerror or exc})") from None
    if len(data) > max_bytes:   # grew while we read it, or a special file
        raise InputError(p, f"file too large (> limit {max_bytes} bytes)")
    return data, st


def read_text(path, max_bytes=None) -> tuple:
    """Read ``path`` as UTF-8 text: (text_without_bom, {'bom': bool, 'newline': str})."""
    data, _ = read_bytes(path, max_bytes)
    return decode_bytes(data, os.fspath(path))
