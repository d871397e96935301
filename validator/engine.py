"""The rule engine: runs compiled rule packs on durable_rules. The ONLY module importing it.

What durable_rules does badly, and what this module does about it
(see ../shared/reference/perf-anchors.md §4 and DESIGN.md):

- Each ``Host()`` starts timer threads that never stop and lease actions in the
  background, and holds C handles never freed: ONE host per process, created
  lazily, with its background dispatcher switched off so that actions run only
  inside our own ``assert_fact`` calls (synchronously, in order).
- A ruleset cannot be unregistered: compiled rulesets are cached by the hash of their
  definition; every run uses a fresh state id (``sid``) whose state is deleted
  afterwards, so two runs in one process share nothing.
- Facts are identified by a 32-bit hash of their id: ids are short sequential
  strings, a session holds at most ``MAX_SESSION_FACTS`` facts, and a collision
  (``MessageObservedException``) is raised as ``EngineError``, never swallowed.
- A handler's exception does not propagate: it lands in the returned state under
  ``"exception"``; we check it after every assert.
- ``MessageNotHandledException`` only means "no rule matched this fact".
- Every action the compiled conditions call for is verified to have run (the
  conditions are re-evaluated in Python); a miss is an ``EngineError``. Facts the
  Python reading rules out are not asserted at all (most facts match nothing, and an
  assert costs a JSON round trip); the engine decides the rest.

Where durable_rules is not installed (it does not build on CPython 3.13 and later: the
dependency carries an environment marker) the same compiled conditions run on
``packs.evaluate``, caveat's own evaluator of the ``when:`` language, with the same
fact checks and the same firing order. ``CAVEAT_ENGINE=python`` picks it everywhere,
``CAVEAT_ENGINE=durable_rules`` insists on durable_rules (a usage error where it is
absent); tests/rules/test_engines_agree.py runs every rule case file through both.
"""
from __future__ import annotations

import contextlib
import copy
import hashlib
import itertools
import json
import os
import threading
import warnings

# durable_rules 2.0.28 times each action with datetime.utcfromtimestamp(0), deprecated from
# Python 3.12: one DeprecationWarning per matched fact, about the library's code, not ours
# (6,384 in the test run, and an error under `python -W error`). Silenced around the
# library's calls only (``_quiet_durable``), where a caller's filters cannot undo it.
_DURABLE_DEPRECATION = r"datetime\.datetime\.utcfromtimestamp\(\) is deprecated"

try:
    from durable import engine as _de
    _DURABLE_PROBLEM = None
    # durable_rules logs every exception in an action's bookkeeping (logger.exception, a
    # full traceback) before handing it back, and with no handler configured logging's
    # last resort prints that to stderr: a Ctrl-C landing there showed a traceback above
    # "caveat: interrupted". Every such failure reaches us (raised, or as the state's
    # "exception") and is reported in one line, so the library's own log goes nowhere.
    import logging as _logging
    _logging.getLogger("durable").addHandler(_logging.NullHandler())
    _logging.getLogger("durable").propagate = False
except ImportError as _exc:   # not installed, or built against a C API this Python lacks
    _de = None
    _DURABLE_PROBLEM = " ".join(str(_exc).split())[:200] or type(_exc).__name__

from .errors import EngineError, UsageError
from .packs import evaluate

ENGINES = ("durable_rules", "python")

from .limits import MAX_FACTS_PER_SESSION as MAX_SESSION_FACTS  # noqa: E402
_SCALARS = (str, int, float, bool)

_host = None
_host_lock = threading.Lock()


def durable_version():
    """The installed durable_rules version, or None where it cannot be imported."""
    if _de is None:
        return None
    try:
        from importlib.metadata import version
        return version("durable_rules")
    except Exception:  # noqa: BLE001 - installed without metadata (a source checkout)
        return "unknown version"


def selected() -> str:
    """The engine this process runs: ``CAVEAT_ENGINE`` when set, else durable_rules
    where it imports, else caveat's own evaluator."""
    want = os.environ.get("CAVEAT_ENGINE", "").strip().lower().replace("-", "_")
    if want in ("", "auto"):
        return "durable_rules" if _de is not None else "python"
    if want in ("durable", "durable_rules"):
        if _de is None:
            raise UsageError(f"CAVEAT_ENGINE={want}: durable_rules cannot be imported here "
                             f"({_DURABLE_PROBLEM}); unset it to use caveat's own evaluator")
        return "durable_rules"
    if want == "python":
        return "python"
    raise UsageError(f"CAVEAT_ENGINE={want!r} is not one of auto, durable_rules, python")


def describe() -> str:
    """One line for ``caveat --version``: which engine runs the rule packs, and why."""
    try:
        which = selected()
    except UsageError as exc:
        return str(exc)
    if which == "durable_rules":
        return f"rule engine: durable_rules {durable_version()}"
    why = ("CAVEAT_ENGINE=python" if _de is not None
           else f"durable_rules unavailable: {_DURABLE_PROBLEM}")
    return f"rule engine: caveat's own when: evaluator ({why})"


_rulesets: dict = {}            # definition hash -> ruleset name
_sessions: dict = {}            # sid -> _Session
_sid_counter = itertools.count(1)


def _quiet_host():
    class _QuietHost(_de.Host):
        """A Host without the background dispatch/timer threads: we drive actions ourselves."""

        def _run(self):  # noqa: D401 - override
            self._d_timer = None
            self._t_timer = None
    return _QuietHost()


def _get_host():
    global _host
    with _host_lock:
        if _host is None:
            _host = _quiet_host()
        return _host


def _dispatch(c):
    """The single action of every rule: hand the matched fact to its session."""
    sid = c.s.sid
    session = _sessions.get(str(sid))
    if session is None:
        raise RuntimeError(f"no session for state {sid}")
    session.fired(c.m.rule, c.m.id)


def _ruleset_for(rules) -> str:
    """Name of a registered ruleset for this exact set of rule conditions (compiled once)."""
    definition = {}
    for r in rules:
        definition[r.code] = {"all": [{"m": {"$and": [{"rule": r.code}, r.condition]}}]}
    blob = json.dumps(definition, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha1(blob.encode()).hexdigest()[:16]
    name = _rulesets.get(digest)
    if name is None:
        name = f"caveat_{digest}"
        full = copy.deepcopy(definition)
        for v in full.values():
            v["run"] = _dispatch
        _get_host().set_rulesets({name: full})
        _rulesets[digest] = name
    return name


class _Session:
    def __init__(self, sid: str):
        self.sid = sid
        self.facts: dict = {}      # id -> (rule, fact, side)
        self.order: list = []      # (code, id) in firing order
        self.fired_set: set = set()

    def fired(self, code, fid):
        key = (str(code), str(fid))
        if key in self.fired_set:
            # durable_rules expands `$or` into alternative rules: a fact matching two
            # branches fires once per branch. One finding per fact and rule.
            return
        self.fired_set.add(key)
        self.order.append(key)


def _clean(rule, fact: dict, needed: set) -> dict:
    out = {}
    for k, v in fact.items():
        if k == "_side" or v is None:
            continue
        if k in ("id", "sid", "rule"):
            raise EngineError(f"kind {rule.extends} produced a fact with reserved field {k!r}")
        if not isinstance(v, _SCALARS):
            raise EngineError(f"kind {rule.extends} produced a non-scalar fact field {k!r} "
                              f"({type(v).__name__}); put it in _side")
        if isinstance(v, str) and not v.isascii():
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                # the engine serializes facts as UTF-8 JSON and rejects lone surrogates (a file
                # name that is not UTF-8); the finding keeps the original from the stored fact
                v = v.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        out[k] = v
    missing = [f for f in needed if f not in out]
    if missing:
        raise EngineError(f"kind {rule.extends} produced a fact for {rule.code} without "
                          f"field {missing[0]!r} that its condition tests")
    return out


def run(rules, facts, on_match) -> int:
    """Assert ``facts`` (an iterable of ``(rule, fact_dict)``) against the compiled ``rules``.

    ``on_match(rule, fact, side)`` is called, in firing order, for every fact whose rule
    condition holds. Returns the number of facts asserted. Raises ``EngineError`` when the
    engine fails in any of the ways listed in the module docstring."""
    rules = list(rules)
    if not rules:
        return 0
    by_code = {r.code: r for r in rules}
    needed = {}
    from .packs import condition_fields
    for r in rules:
        needed[r.code] = condition_fields(r.condition)
    if selected() == "python":
        return _run_python(by_code, needed, facts, on_match)
    with _quiet_durable():
        name = _ruleset_for(rules)
        host = _get_host()
        total = 0
        batch = []
        for item in facts:
            batch.append(item)
            if len(batch) >= MAX_SESSION_FACTS:
                total += _run_session(host, name, by_code, needed, batch, on_match)
                batch = []
        if batch:
            total += _run_session(host, name, by_code, needed, batch, on_match)
        return total


@contextlib.contextmanager
def _quiet_durable():
    """A context in which durable_rules' own deprecation warning (see above) is not shown."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_DURABLE_DEPRECATION, category=DeprecationWarning)
        yield


def _run_python(by_code, needed, facts, on_match) -> int:
    """The same rules without durable_rules: each fact that its rule's compiled condition
    holds for fires once, in the order the facts come (the order durable_rules fires in,
    since every assert runs its actions synchronously)."""
    total = 0
    for rule, fact in facts:
        total += 1
        if rule.code not in by_code:
            raise EngineError(f"fact for rule {rule.code} which is not in this run")
        clean = _clean(rule, fact, needed[rule.code])
        if evaluate(rule.condition, clean):
            on_match(rule, fact, fact.get("_side"))
    return total


def _run_session(host, name, by_code, needed, batch, on_match) -> int:
    sid = str(next(_sid_counter))
    session = _Session(sid)
    _sessions[sid] = session
    expected = []
    # delete_state on a state whose every fact was 'not handled' segfaults inside
    # durable_rules (a half-created state); such a state holds no facts, so skip it.
    handled = False
    try:
        for n, (rule, fact) in enumerate(batch, 1):
            if rule.code not in by_code:
                raise EngineError(f"fact for rule {rule.code} which is not in this run")
            fid = str(n)
            clean = _clean(rule, fact, needed[rule.code])
            if not evaluate(rule.condition, clean):
                # the Python reading of `when:` rules this fact out: asserting it would cost
                # the engine a JSON round trip (~10 µs) to say "not handled" — most facts
                # (one per figure) match nothing. Facts that may match are still decided by
                # the engine, and every one of them must fire.
                continue
            session.facts[fid] = (rule, fact, fact.get("_side"))
            expected.append((rule.code, fid))
            payload = dict(clean, id=fid, sid=sid, rule=rule.code)
            try:
                state = host.assert_fact(name, payload)
            except _de.MessageNotHandledException:
                continue
            except _de.MessageObservedException:
                raise EngineError(f"rule engine: fact id collision at {fact.get('path')}:"
                                  f"{fact.get('line')} (fact {fid} of session {sid})") from None
            handled = True
            if isinstance(state, dict) and state.get("exception"):
                raise EngineError(f"rule engine: action failed for {rule.code} at "
                                  f"{fact.get('path')}:{fact.get('line')}: "
                                  f"{str(state['exception']).splitlines()[0][:300]}")
        missing = [k for k in expected if k not in session.fired_set]
        expected_set = set(expected)      # built once: per item it made a session quadratic
        extra = [k for k in session.order if k not in expected_set]
        if missing or extra:
            code, fid = (missing or extra)[0]
            rule, fact, _ = session.facts[fid]
            what = "did not run" if missing else "ran unexpectedly"
            raise EngineError(f"rule engine: action for {code} {what} at "
                              f"{fact.get('path')}:{fact.get('line')}")
        for code, fid in session.order:
            rule, fact, side = session.facts[fid]
            on_match(rule, fact, side)
        return len(batch)
    finally:
        _sessions.pop(sid, None)
        try:
            if handled:
                host.delete_state(name, sid)
        except Exception:  # noqa: BLE001 - a state that never got a fact does not exist
            pass


def leftover_state(rules) -> list:
    """Facts still stored under any state id used so far (for tests: must be empty)."""
    name = _ruleset_for(list(rules))
    host = _get_host()
    left = []
    for sid in range(1, next(_sid_counter)):
        try:
            left += host.get_facts(name, str(sid))
        except Exception:  # noqa: BLE001 - deleted state: what we want
            continue
    return left
