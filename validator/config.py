"""Project configuration: ``[tool.caveat]`` in pyproject.toml, ``.caveat.yaml``, or ``--config``.

Discovery walks from the working directory upwards and takes the first directory
holding ``.caveat.yaml``/``.caveat.yml`` or a ``pyproject.toml`` with a
``[tool.caveat]`` table (the YAML file wins inside one directory, as ruff's own
file beats pyproject).  Every key is validated; an unknown key or a bad value is
one line naming the file and the line, and the run stops with exit 2.
Relative ``corpus`` and ``rules`` directories, and the ``include``/``exclude``
patterns (gitignore syntax), resolve against the config file's folder.

A ``pyproject.toml`` is parsed before it is asked whether it has a ``[tool.caveat]``
table: one that does not parse is skipped only when it never mentions ``tool.caveat``,
so a broken ``[tool.caveat`` header is an error, not a silently ignored config.
The key positions (``Config.line_of``) stay with the loaded config, so values that
can only be judged against the rule packs (``select``, ``severity``, ``params``) are
reported at their line too (``validator.commands``).
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
              "warnings-patterns", "max-file-size", "lang", "preview", "include", "exclude",
              "respect-gitignore", "force-exclude")
_MENTIONS_CAVEAT = re.compile(r"tool\s*\.\s*[\"']?caveat\b")
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
    include: list = field(default_factory=list)      # gitignore-style, relative to the config's folder
    exclude: list = field(default_factory=list)
    respect_gitignore: Optional[bool] = None
    force_exclude: Optional[bool] = None
    line_of: object = field(default=None, repr=False, compare=False)   # keys -> line or None

    @property
    def root(self) -> Optional[str]:
        """The folder the config's relative paths and patterns are relative to."""
        return os.path.dirname(os.path.abspath(self.path)) if self.path else None

    def error(self, keys, message) -> "ConfigError":
        """A ConfigError naming this file and the line of ``keys`` (a tuple of nested keys)."""
        line = self.line_of(tuple(keys)) if self.line_of else None
        return ConfigError(self.path, message, line)


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
    """Whether ``path`` (a pyproject.toml) configures caveat. Parsed first: a file that
    does not parse is an error when it mentions ``tool.caveat`` anywhere (the header
    itself may be what is broken), and someone else's business otherwise."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError):
        return False
    toml = _toml_module()
    try:
        doc = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        if _MENTIONS_CAVEAT.search(text):
            raise _toml_error(path, exc) from None
        return False
    tool = doc.get("tool")
    return isinstance(tool, dict) and "caveat" in tool


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

def _toml_module():
    try:
        import tomllib                      # Python 3.11+
    except ModuleNotFoundError:             # Python 3.10: the same parser, packaged
        import tomli as tomllib
    return tomllib


def _toml_error(path, exc) -> ConfigError:
    m = re.search(r"\(at line (\d+)", str(exc))
    return ConfigError(path, "invalid TOML: " + re.sub(r"\s*\(at line.*\)$", "", str(exc)),
                       int(m.group(1)) if m else getattr(exc, "lineno", None))


def _load_toml(path, text):
    toml = _toml_module()
    try:
        doc = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        raise _toml_error(path, exc) from None
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
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(path, f"invalid YAML: {problem}", mark.line + 1 if mark else None) from None
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
    cfg = Config(path=path, line_of=line_of)
    base = os.path.dirname(os.path.abspath(path))

    def err(keys, msg):
        raise ConfigError(path, msg, line_of(keys))

    for raw_key, value in data.items():
        key = str(raw_key).replace("_", "-")
        k = (raw_key,)
        if key not in KNOWN_KEYS:
            err(k, f"unknown config key '{raw_key}'{did_you_mean(key, KNOWN_KEYS)} "
                   f"(known: {', '.join(KNOWN_KEYS)})")
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
        elif key in ("include", "exclude"):
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                err(k, f"'{raw_key}' must be a list of gitignore-style patterns")
            from validator.paths import check_patterns
            problem = check_patterns(value)
            if problem:
                err(k, f"'{raw_key}': {problem}")
            setattr(cfg, key, list(value))
        elif key in ("respect-gitignore", "force-exclude"):
            if not isinstance(value, bool):
                err(k, f"'{raw_key}' must be true or false, got {value!r}")
            setattr(cfg, key.replace("-", "_"), value)
        elif key == "lang":
            if value not in ("zh", "en"):
                err(k, f"'lang': {value!r} is not zh or en")
            cfg.lang = value
        elif key == "preview":
            if not isinstance(value, bool):
                err(k, f"'preview': {value!r} is not true or false")
            cfg.preview = value
    return cfg


def did_you_mean(word: str, choices) -> str:
    """' (did you mean 'x'?)' for the closest of ``choices``, or ''."""
    import difflib
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


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
