"""Project configuration: ``[tool.caveat]`` in pyproject.toml, ``.caveat.yaml``, or ``--config``.

Discovery walks from the working directory upwards and takes the first directory
holding ``.caveat.yaml``/``.caveat.yml`` or a ``pyproject.toml`` with a
``[tool.caveat]`` table (the YAML file wins inside one directory, as ruff's own
file beats pyproject).  Every key is validated; an unknown key or a bad value is
one line naming the file and the line, and the run stops with exit 2.
Relative ``corpus`` and ``rules`` directories resolve against the config file.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Optional

from validator.errors import UsageError
from validator.finding import SEVERITIES
from validator.gate import FAIL_ON_LEVELS, parse_codes

YAML_NAMES = (".caveat.yaml", ".caveat.yml")
KNOWN_KEYS = ("select", "ignore", "severity", "fail-on", "corpus", "rules", "params",
              "warnings-patterns", "max-file-size", "lang", "preview")
CODE_RE = re.compile(r"^CV\d{1,3}$", re.I)


class ConfigError(UsageError):
    """A bad config file: ``str()`` is the one line to print (``path:line: message``).
    A UsageError, so every command that loads config reports it the same way (exit 2)."""

    def __init__(self, path, message, line=None):
        self.path, self.detail, self.line = path, message, line
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


@dataclass
class Config:
    path: Optional[str] = None          # file it came from; None when no config was found
    select: list = field(default_factory=list)
    ignore: list = field(default_factory=list)
    severity: dict = field(default_factory=dict)
    fail_on: Optional[str] = None
    corpus: list = field(default_factory=list)
    rules: list = field(default_factory=list)
    params: dict = field(default_factory=dict)
    warnings_patterns: list = field(default_factory=list)
    max_file_size: Optional[int] = None
    lang: Optional[str] = None
    preview: bool = False


def discover(start: Optional[str] = None) -> Optional[str]:
    """The config file governing ``start`` (default: cwd), or None."""
    d = os.path.abspath(start or os.getcwd())
    while True:
        for name in YAML_NAMES:
            p = os.path.join(d, name)
            if os.path.isfile(p):
                return p
        p = os.path.join(d, "pyproject.toml")
        if os.path.isfile(p) and _has_tool_caveat(p):
            return p
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _has_tool_caveat(path: str) -> bool:
    try:
        with open(path, encoding="utf-8") as fh:
            return re.search(r"^\s*\[\s*tool\.caveat\s*[\].]", fh.read(), re.M) is not None
    except OSError:
        return False


def load(explicit: Optional[str] = None, start: Optional[str] = None) -> Config:
    """Load ``explicit`` (``--config``) or the discovered file; an empty Config when none."""
    path = explicit or discover(start)
    if path is None:
        return Config()
    if not os.path.isfile(path):
        raise ConfigError(path, "config file not found")
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, f"cannot read config: {exc}")
    if path.endswith(".toml"):
        data, line_of = _load_toml(path, text)
    else:
        data, line_of = _load_yaml(path, text)
    return _validate(path, data, line_of)


# -- TOML ---------------------------------------------------------------------------

def _load_toml(path, text):
    import tomllib
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+)", str(exc))
        raise ConfigError(path, re.sub(r"\s*\(at line.*\)$", "", str(exc)),
                          int(m.group(1)) if m else None)
    tool = doc.get("tool", {})
    if "caveat" not in tool and os.path.basename(path) == "pyproject.toml":
        raise ConfigError(path, "no [tool.caveat] table")
    data = tool.get("caveat", doc if os.path.basename(path) != "pyproject.toml" else {})
    lines = text.splitlines()

    def line_of(keys):
        # tomllib keeps no positions: find the key textually inside the [tool.caveat] tables.
        header = None
        in_table = False
        target = keys[-1]
        parent = ".".join(keys[:-1])
        for i, ln in enumerate(lines, 1):
            h = re.match(r"^\s*\[\s*([^\]]+?)\s*\]", ln)
            if h:
                name = h.group(1).replace('"', "").replace("'", "")
                in_table = name == "tool.caveat" or name.startswith("tool.caveat.")
                if name == "tool.caveat":
                    header = header or i
                sub = name[len("tool.caveat."):] if name.startswith("tool.caveat.") else ""
                if len(keys) == 1 and sub == target:
                    return i
                if len(keys) > 1 and sub == parent:
                    header = i
                continue
            if in_table and re.match(r"^\s*[\"']?%s[\"']?\s*[=.]" % re.escape(target), ln):
                return i
            if in_table and len(keys) > 1 and re.search(r"[{,]\s*[\"']?%s[\"']?\s*=" % re.escape(target), ln):
                return i
        return header
    return data, line_of


# -- YAML ---------------------------------------------------------------------------

def _load_yaml(path, text):
    import yaml
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(path, f"invalid YAML: {problem}", mark.line + 1 if mark else None)
    except RecursionError:   # PyYAML composes recursively: '[[[[…' thousands deep
        raise ConfigError(path, "invalid YAML: nested too deeply") from None
    if data is None:
        return {}, lambda keys: None
    if not isinstance(data, dict):
        raise ConfigError(path, "the config must be a mapping of keys", 1)

    def line_of(keys):
        node, line = root, None
        for k in keys:
            if not isinstance(node, yaml.MappingNode):
                break
            for kn, vn in node.value:
                if str(kn.value) == str(k):
                    line, node = kn.start_mark.line + 1, vn
                    break
            else:
                break
        return line
    return data, line_of


# -- validation -----------------------------------------------------------------------

def _validate(path, data, line_of) -> Config:
    if not isinstance(data, dict):
        raise ConfigError(path, "[tool.caveat] must be a table")
    cfg = Config(path=path)
    base = os.path.dirname(os.path.abspath(path))

    def err(keys, msg):
        raise ConfigError(path, msg, line_of(keys))

    for raw_key, value in data.items():
        key = str(raw_key).replace("_", "-")
        k = (raw_key,)
        if key not in KNOWN_KEYS:
            err(k, f"unknown config key '{raw_key}' (known: {', '.join(KNOWN_KEYS)})")
        if key in ("select", "ignore"):
            if not isinstance(value, (str, list)) or (isinstance(value, list) and not all(isinstance(v, str) for v in value)):
                err(k, f"'{raw_key}' must be a list of rule codes or prefixes")
            codes = parse_codes(value)
            for c in codes:
                if c != "ALL" and not re.match(r"^(CV\d{0,3}|[a-z][a-z0-9_.]*)$", c):
                    err(k, f"'{raw_key}': '{c}' is not a rule code, prefix (CV3) or family name")
            setattr(cfg, key, codes)
        elif key == "severity":
            if not isinstance(value, dict):
                err(k, "'severity' must map rule codes to error, warning or info")
            for code, sev in value.items():
                if not CODE_RE.match(str(code)):
                    err(k + (code,), f"severity: '{code}' is not a rule code like CV301")
                if sev not in SEVERITIES:
                    err(k + (code,), f"severity of {code}: '{sev}' is not one of {', '.join(SEVERITIES)}")
                cfg.severity[str(code).upper()] = sev
        elif key == "fail-on":
            if value not in FAIL_ON_LEVELS:
                err(k, f"'fail-on': '{value}' is not one of {', '.join(FAIL_ON_LEVELS)}")
            cfg.fail_on = value
        elif key in ("corpus", "rules"):
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                err(k, f"'{raw_key}' must be a list of directories")
            setattr(cfg, key, [os.path.normpath(os.path.join(base, os.path.expanduser(v))) for v in value])
        elif key == "params":
            if not isinstance(value, dict):
                err(k, "'params' must map rule codes to {parameter: value}")
            for code, ps in value.items():
                if not CODE_RE.match(str(code)):
                    err(k + (code,), f"params: '{code}' is not a rule code like CV301")
                if not isinstance(ps, dict):
                    err(k + (code,), f"params of {code} must be a mapping of parameter: value")
                cfg.params[str(code).upper()] = dict(ps)
        elif key == "warnings-patterns":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                err(k, "'warnings-patterns' must be a list of regular expressions")
            from validator.limits import RegexError, safe_regex
            for v in value:
                try:
                    re.compile(v)
                except re.error as exc:
                    err(k, f"warnings-patterns: bad regular expression {v!r}: {exc}")
                try:    # runs on every heading of every briefing: refuse catastrophic backtracking
                    safe_regex(v, rule="warnings-patterns", path=path)
                except RegexError as exc:
                    err(k, f"warnings-patterns: {exc.reason}")
            cfg.warnings_patterns = list(value)
        elif key == "max-file-size":
            size = parse_size(value)
            if size is None:
                err(k, f"'max-file-size': {value!r} is not a size like 2000000, '512 KB' or '2 MB'")
            cfg.max_file_size = size
        elif key == "lang":
            if value not in ("zh", "en"):
                err(k, f"'lang': {value!r} is not zh or en")
            cfg.lang = value
        elif key == "preview":
            if not isinstance(value, bool):
                err(k, f"'preview': {value!r} is not true or false")
            cfg.preview = value
    return cfg


_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 10**6, "mb": 10**6,
          "mib": 2**20, "g": 10**9, "gb": 10**9, "gib": 2**30}


def parse_size(value) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    m = re.match(r"^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$", str(value))
    if not m or m.group(2).lower() not in _UNITS:
        return None
    size = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    return size if size > 0 else None
