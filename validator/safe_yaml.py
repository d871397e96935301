"""Safe YAML loading for rule packs, config and case files.

Why not ``yaml.safe_load``: error messages must name the line of the offending key,
so mappings and lists come back as ``YDict``/``YList`` that remember lines; and an
alias bomb ("billion laughs") must fail cleanly instead of eating memory, so the
node graph is measured before anything is built. Only the plain YAML types are
allowed (str, int, float, bool, null, map, seq); any other tag — ``!!python/…``,
``!custom``, ``!!binary``, ``!!set`` — is refused. Dates stay strings.
"""
from __future__ import annotations

import yaml

from .errors import UsageError
from .limits import MAX_PACK_BYTES, MAX_YAML_DEPTH

# Expanded node count above which a document is refused (aliases are counted every
# time they are used, so a bomb of 9 levels × 9 references is ~400 million).
MAX_NODES = 100_000
MAX_DEPTH = MAX_YAML_DEPTH
MAX_BYTES = max(MAX_PACK_BYTES, 2_000_000)   # config and case files may exceed one pack

_T = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_T + "str", _T + "int", _T + "float", _T + "bool", _T + "null"}
_TIMESTAMP = _T + "timestamp"


class YDict(dict):
    """A mapping that remembers the 1-based line of itself and of each key."""
    line: int = 0
    key_lines: dict

    def line_of(self, key) -> int:
        return self.key_lines.get(key, self.line)


class YList(list):
    """A sequence that remembers the 1-based line of itself and of each item."""
    line: int = 0
    item_lines: list

    def line_of(self, index) -> int:
        try:
            return self.item_lines[index]
        except (IndexError, TypeError):
            return self.line


def line_of(obj, key=None, default: int = 0) -> int:
    """Best-known line for ``obj[key]`` (or ``obj`` itself)."""
    if key is not None and hasattr(obj, "line_of"):
        return obj.line_of(key)
    return getattr(obj, "line", default) or default


# libyaml's parser when present (10x faster on a pack of rules); the pure-Python one otherwise.
# Either way only the node graph is taken from it: objects are built by _build below.
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    pass


def _err(path: str, line: int, what: str) -> UsageError:
    what = " ".join(str(what).split())   # one line, whatever PyYAML put in its message
    return UsageError(f"{path}:{line}: {what}" if line else f"{path}: {what}")


def _measure(node, path: str) -> None:
    """Refuse alias bombs and self-referencing anchors before building anything."""
    memo: dict = {}
    on_stack: set = set()

    def size(n, depth):
        if depth > MAX_DEPTH:
            raise _err(path, n.start_mark.line + 1, f"YAML nested deeper than {MAX_DEPTH} levels")
        k = id(n)
        if k in memo:
            return memo[k]
        if k in on_stack:
            raise _err(path, n.start_mark.line + 1, "YAML alias refers to itself (recursive anchor)")
        on_stack.add(k)
        total = 1
        if isinstance(n, yaml.SequenceNode):
            for child in n.value:
                total += size(child, depth + 1)
                if total > MAX_NODES:
                    break
        elif isinstance(n, yaml.MappingNode):
            for kn, vn in n.value:
                total += size(kn, depth + 1) + size(vn, depth + 1)
                if total > MAX_NODES:
                    break
        on_stack.discard(k)
        memo[k] = total
        if total > MAX_NODES:
            raise _err(path, n.start_mark.line + 1,
                       f"YAML expands to more than {MAX_NODES} nodes (alias bomb?)")
        return total

    size(node, 0)


def _build(node, path: str, constructor):
    line = node.start_mark.line + 1
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _TIMESTAMP:
            return node.value
        if node.tag not in _SCALAR_TAGS:
            raise _err(path, line, f"YAML tag {node.tag!r} is not allowed (plain values only)")
        return constructor.construct_object(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        if node.tag != _T + "seq":
            raise _err(path, line, f"YAML tag {node.tag!r} is not allowed (plain lists only)")
        out = YList(_build(c, path, constructor) for c in node.value)
        out.line = line
        out.item_lines = [c.start_mark.line + 1 for c in node.value]
        return out
    if isinstance(node, yaml.MappingNode):
        if node.tag != _T + "map":
            raise _err(path, line, f"YAML tag {node.tag!r} is not allowed (plain mappings only)")
        out = YDict()
        out.line = line
        out.key_lines = {}
        for kn, vn in node.value:
            if kn.tag == _T + "merge":
                raise _err(path, kn.start_mark.line + 1, "YAML merge keys ('<<') are not supported")
            key = _build(kn, path, constructor)
            if isinstance(key, (dict, list)):
                raise _err(path, kn.start_mark.line + 1, "YAML mapping key must be a plain value")
            if key in out:
                raise _err(path, kn.start_mark.line + 1, f"duplicate key {key!r}")
            out[key] = _build(vn, path, constructor)
            out.key_lines[key] = kn.start_mark.line + 1
        return out
    raise _err(path, line, "unsupported YAML node")  # pragma: no cover


def loads(text: str, path: str = "<string>"):
    """Parse one YAML document from ``text``; errors are ``UsageError('path:line: …')``."""
    loader = None
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
        if node is None:
            return None
        _measure(node, path)
        return _build(node, path, loader)
    except UsageError:
        raise
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else 0
        what = " ".join(x for x in (e.context, e.problem) if x) or "invalid YAML"
        raise _err(path, line, f"invalid YAML: {what}") from None
    except yaml.YAMLError as e:
        what = getattr(e, "reason", None) or str(e).splitlines()[0]
        if getattr(e, "character", None) is not None:
            what = f"character #x{e.character:04x} is not allowed (binary file?)"
        raise _err(path, 0, f"invalid YAML: {what}") from None
    except RecursionError:
        raise _err(path, 0, "YAML nested too deeply") from None
    finally:
        if loader is not None:
            loader.dispose()


def load_file(path, max_bytes: int = MAX_BYTES) -> object:
    """Read and parse a YAML file; unreadable files are a clean ``UsageError`` too."""
    p = str(path)
    try:
        with open(p, "rb") as fh:
            raw = fh.read(max_bytes + 1)
    except OSError as e:
        raise UsageError(f"{p}: cannot read: {e.strerror or e}") from None
    if len(raw) > max_bytes:
        raise UsageError(f"{p}: YAML file larger than {max_bytes} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(f"{p}: not UTF-8 (byte offset {e.start})") from None
    return loads(text, p)
