"""The limits that protect a run from hostile input, and the one way user regexes run.

`caveat` runs unattended (pre-commit hooks, publishing pipelines) over files anyone
can write and rule packs users share.  Every bound that keeps such a run finite
lives here, so the README's "Security" section and the code cannot drift apart:

- input size: the largest file read;
- rule packs: their size and YAML nesting depth;
- user regular expressions: compiled with the ``regex`` module and always run
  with a timeout (``safe_regex``), so catastrophic backtracking becomes a clean
  one-line error naming the rule instead of a hung hook;
- the rule engine: facts per durable_rules session (its 32-bit fact-id hash
  collides by ~77,000 facts; see DESIGN.md).

Limits are constants, not knobs scattered through modules; the config's
``max-file-size`` replaces the reader's default (``claims.reader.DEFAULT_MAX_BYTES``)
for a run.
"""
from __future__ import annotations

import regex

from claims import reader as _reader
from validator.errors import UsageError

# The largest file read (check, extract, warnings, corpus), as the reader ships it. One
# number for the whole program: the reader (claims/, which never imports validator/)
# owns it and the config's ``max-file-size`` replaces it at start-up.  A briefing is a few to a
# few hundred kilobytes, so the default leaves two orders of magnitude of headroom.
MAX_FILE_BYTES = _reader.DEFAULT_MAX_BYTES

# Rule packs are a few hundred bytes each; a megabyte pack is an attack or an accident.
MAX_PACK_BYTES = 256 * 1024
# Nesting depth of any YAML file caveat reads (packs, config, case files): a real
# pack nests three levels.  Alias bombs are bounded by expanded node count in
# validator/safe_yaml.py (MAX_NODES), measured before anything is built.
MAX_YAML_DEPTH = 20

# Seconds any single user-regex operation (search, match, a whole finditer) may take.
REGEX_TIMEOUT_S = 1.0
# Load-time probe: a pattern that cannot scan a short adversarial string in this
# long backtracks catastrophically; reject the pack before anything runs.
REGEX_PROBE_TIMEOUT_S = 0.05
REGEX_PROBE_LENGTH = 256
# Total probing time per pattern: bounds load time for slow-but-finite patterns.
REGEX_PROBE_BUDGET_S = 0.3
# Longest pattern text accepted from a rule pack.
MAX_REGEX_CHARS = 2000

# Statements of one claim key a rule compares each figure with when looking for
# evidence (the place that states a missing condition): a key restated thousands of
# times in one file must not cost all pairs.  Real briefings have a handful per key.
MAX_EVIDENCE_CANDIDATES = 200

# durable_rules identifies a fact by a 32-bit hash of its id: keep every engine
# session well below the ~77,000 facts at which a collision becomes likely.
MAX_FACTS_PER_SESSION = 40_000


class RegexError(UsageError):
    """A user regex that does not compile, is too long, or runs past its timeout.

    ``str()`` is the whole line (file:line: rule R: reason); ``reason`` is the part
    after the location, for callers that report the location their own way."""

    def __init__(self, where: str, reason: str):
        super().__init__(f"{where}: {reason}")
        self.reason = reason


def _where(rule: str, path: str | None, line: int | None) -> str:
    loc = path or "<rules>"
    if line:
        loc = f"{loc}:{line}"
    return f"{loc}: rule {rule}"


class SafeRegex:
    """A compiled user regex whose every operation runs under a timeout.

    Mirrors the subset of ``regex.Pattern`` the rule kinds need; a timeout raises
    ``RegexError`` naming the rule (and the document being scanned when given)."""

    __slots__ = ("pattern", "rule", "path", "line", "timeout", "_re")

    def __init__(self, compiled, pattern: str, rule: str, path, line, timeout: float):
        self._re = compiled
        self.pattern = pattern
        self.rule = rule
        self.path = path
        self.line = line
        self.timeout = timeout

    def _timed_out(self, doc: str | None) -> RegexError:
        on = f" on {doc}" if doc else ""
        return RegexError(_where(self.rule, self.path, self.line),
                          f"regex {self.pattern!r} timed out after {self.timeout:g}s{on} "
                          f"(catastrophic backtracking?)")

    def search(self, text: str, pos: int = 0, endpos: int | None = None, *, doc: str | None = None):
        try:
            return self._re.search(text, pos, endpos if endpos is not None else len(text),
                                   timeout=self.timeout)
        except TimeoutError:
            raise self._timed_out(doc) from None

    def match(self, text: str, pos: int = 0, endpos: int | None = None, *, doc: str | None = None):
        try:
            return self._re.match(text, pos, endpos if endpos is not None else len(text),
                                  timeout=self.timeout)
        except TimeoutError:
            raise self._timed_out(doc) from None

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None, *, doc: str | None = None) -> list:
        """All matches as a list: the timeout bounds the whole scan, not each match."""
        try:
            return list(self._re.finditer(text, pos, endpos if endpos is not None else len(text),
                                          timeout=self.timeout))
        except TimeoutError:
            raise self._timed_out(doc) from None

    def __repr__(self) -> str:
        return f"SafeRegex({self.pattern!r}, rule={self.rule!r})"


def _probe_inputs(pattern: str) -> list:
    """Short adversarial strings built from the pattern's own literal characters: a
    long run of a character the pattern can repeat, then a character it may require
    next (so the engine's required-literal shortcut does not skip the work), then
    one it cannot end on."""
    runs = sorted({c for c in pattern if c.isalnum()} | {"a", "1", " "})[:16]
    tails = [""] + sorted({c for c in pattern if not c.isalnum() and not c.isspace()
                           and c not in "\\()[]{}|*+?^$"})[:6]
    n = REGEX_PROBE_LENGTH
    return [c * n + t + "\x00" for c in runs for t in tails]


def safe_regex(pattern, *, rule: str, path: str | None = None, line: int | None = None,
               flags: int = 0, timeout: float = REGEX_TIMEOUT_S, probe: bool = True) -> SafeRegex:
    """Compile a regex from a rule pack with the ``regex`` module, or raise a
    one-line ``RegexError`` naming the pack file, line and rule.

    With ``probe`` the pattern is first run over a few short adversarial strings
    under ``REGEX_PROBE_TIMEOUT_S``: exponential backtracking shows up at a few
    dozen characters, so a pack with such a pattern is rejected at load time
    rather than stalling on the first long line of a briefing."""
    where = _where(rule, path, line)
    if not isinstance(pattern, str):
        raise RegexError(where, f"regex must be a string, got {type(pattern).__name__}")
    if len(pattern) > MAX_REGEX_CHARS:
        raise RegexError(where, f"regex is {len(pattern)} characters long (limit {MAX_REGEX_CHARS})")
    try:
        compiled = regex.compile(pattern, flags)
    except (regex.error, ValueError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
        raise RegexError(where, f"invalid regex {pattern!r}: {exc}") from None
    if probe:
        import time
        spent_until = time.perf_counter() + REGEX_PROBE_BUDGET_S
        for s in _probe_inputs(pattern):
            if time.perf_counter() > spent_until:
                break       # slow but not hung: the run-time timeout still guards it
            try:
                compiled.search(s, timeout=REGEX_PROBE_TIMEOUT_S)
            except TimeoutError:
                raise RegexError(where, f"regex {pattern!r} backtracks catastrophically (no result "
                                        f"within {REGEX_PROBE_TIMEOUT_S:g}s on a {len(s)}-character input)") from None
    return SafeRegex(compiled, pattern, rule, path, line, timeout)
