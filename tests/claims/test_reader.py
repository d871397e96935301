"""Reading files: what a user gets for good and bad input (one-line errors naming file and place)."""
import os

import pytest

from claims.errors import InputError
from claims.reader import read_text


def write(tmp_path, name, data: bytes):
    p = tmp_path / name
    p.write_bytes(data)
    return p


def test_plain_utf8_lf(tmp_path):
    p = write(tmp_path, "a.md", "提速 29%\nsecond 5%\n".encode())
    text, info = read_text(p)
    assert text == "提速 29%\nsecond 5%\n"
    assert info == {"bom": False, "newline": "\n"}


def test_bom_removed_and_reported_crlf_kept(tmp_path):
    p = write(tmp_path, "b.md", b"\xef\xbb\xbf" + "标题\r\n吞吐 1.2 万 tok/s\r\n".encode())
    text, info = read_text(p)
    assert not text.startswith("\ufeff")
    assert text == "标题\r\n吞吐 1.2 万 tok/s\r\n"
    assert info == {"bom": True, "newline": "\r\n"}


def test_binary_file_names_file_and_offset(tmp_path):
    p = write(tmp_path, "img.md", b"abc\n\x89PNG\x00\x00rest")
    with pytest.raises(InputError) as ei:
        read_text(p)
    msg = str(ei.value)
    assert str(p) in msg and "binary" in msg and "offset 8" in msg
    assert ei.value.line == 2
    assert "\n" not in msg


def test_undecodable_names_byte_offset(tmp_path):
    p = write(tmp_path, "gbk.md", "ok line\n".encode() + "中文".encode("gbk"))
    with pytest.raises(InputError) as ei:
        read_text(p)
    msg = str(ei.value)
    assert msg.startswith(f"{p}:2: ") and "UTF-8" in msg and "offset 8" in msg


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_text(tmp_path / "nope.md")
    with pytest.raises(InputError, match="directory"):
        read_text(tmp_path)


def test_size_limit_is_a_parameter(tmp_path):
    p = write(tmp_path, "big.md", b"x" * 2000)
    assert read_text(p, max_bytes=5000)[0] == "x" * 2000
    with pytest.raises(InputError, match="too large"):
        read_text(p, max_bytes=1000)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads anything")
def test_permission_denied(tmp_path):
    p = write(tmp_path, "secret.md", b"x")
    p.chmod(0)
    with pytest.raises(InputError, match="permission"):
        read_text(p)


def test_input_error_format():
    assert str(InputError("a.md", "bad", line=3)) == "a.md:3: bad"
    assert str(InputError("a.md", "bad")) == "a.md: bad"
    e = InputError("a.md", "bad", line=3)
    assert (e.path, e.line, e.message) == ("a.md", 3, "bad")
