"""The durable_rules engine wrapper: fresh state per run, nothing left between runs in
one process, every action that should run ran, and engine failures are errors; the
same checks of facts and the same results from caveat's own evaluator."""
from __future__ import annotations

import os
import threading

import pytest

from validator import engine, packs
from validator.errors import EngineError
from validator.packs import Rule, compile_when

needs_durable = pytest.mark.skipif(engine._de is None, reason="durable_rules is not installed "
                                   "(it does not build on this Python)")


@pytest.fixture(params=["durable_rules", "python"])
def each_engine(request, monkeypatch):
    if request.param == "durable_rules" and engine._de is None:
        pytest.skip("durable_rules is not installed")
    monkeypatch.setenv("CAVEAT_ENGINE", request.param)
    return request.param


@pytest.fixture
def durable(monkeypatch):
    if engine._de is None:
        pytest.skip("durable_rules is not installed")
    monkeypatch.setenv("CAVEAT_ENGINE", "durable_rules")


FIELDS = {**packs.COMMON_FIELDS, "n": int, "flag": bool, "metric": str, "x": float}


def make_rule(code, when):
    cond = compile_when(when, FIELDS, lambda o, k: "test")
    return Rule(code=code, name=f"precondition.t{code.lower()}", family="precondition",
                extends="test.kind", severity="warning", summary="s", why="w", params={},
                when=when, condition=cond, message={"zh": "{surface} 中文", "en": "{surface} en"},
                fix={"zh": "改", "en": "fix"}, acknowledgeable=True)


R1 = make_rule("CV181", {"all": [{"field": "n", "gt": 0}, {"field": "flag", "eq": False},
                                 {"any": [{"field": "metric", "in": ["speedup", "lead"]},
                                          {"field": "x", "le": 1.5}]}]})
R2 = make_rule("CV182", {"field": "metric", "ne": "speedup"})


def facts(count):
    out = []
    for i in range(count):
        for r in (R1, R2):
            out.append((r, {"path": "doc.md", "line": i + 1, "col": 1, "surface": f"{i}%",
                            "n": i % 3, "flag": i % 5 == 0, "metric": ["speedup", "lead", "memory"][i % 3],
                            "x": i / 2, "_side": {"vars": {"i": i}, "evidence": [{"path": "o.md", "line": 1}]}}))
    return out


def run(items):
    got = []
    engine.run([R1, R2], items, lambda r, f, s: got.append((r.code, f["line"], s["vars"]["i"])))
    return got


def expected(items):
    return sorted((r.code, f["line"], f["_side"]["vars"]["i"]) for r, f in items
                  if packs.evaluate(r.condition, f))


def test_every_expected_action_runs_once(each_engine):
    items = facts(300)
    got = run(items)
    assert sorted(got) == expected(items)
    assert len(got) == len(set(got))     # an `any` matching twice still fires once
    assert any(c == "CV181" for c, _, _ in got) and any(c == "CV182" for c, _, _ in got)


def test_fresh_state_per_run_and_no_leftovers(durable):
    items = facts(50)
    first, second = run(items), run(items)
    assert first == second                 # a second run sees nothing of the first
    assert engine.leftover_state([R1, R2]) == []


def test_sessions_are_split_below_the_fact_id_collision_limit(monkeypatch, durable):
    monkeypatch.setattr(engine, "MAX_SESSION_FACTS", 7)
    items = facts(40)
    assert sorted(run(items)) == expected(items)
    assert engine.leftover_state([R1, R2]) == []


def test_one_host_per_process_and_no_thread_growth(durable):
    run(facts(5))
    host = engine._get_host()
    before = threading.active_count()
    for _ in range(5):
        run(facts(5))
    assert engine._get_host() is host
    assert threading.active_count() <= before


def test_handler_failure_is_an_error_not_swallowed(monkeypatch, durable):
    def boom(self, code, fid):
        raise RuntimeError("handler exploded")
    monkeypatch.setattr(engine._Session, "fired", boom)
    with pytest.raises(EngineError, match="handler exploded"):
        run(facts(3))


_INTERRUPT_IN_LIBRARY = """
import json, sys
from validator import engine
sys.path.insert(0, "tests/rules")
import test_engine as t

class Interrupting:
    def __getattr__(self, name):
        return getattr(json, name)

    @staticmethod
    def dumps(*args, **kwargs):
        if sys._getframe(1).f_code.co_name == "action_callback":
            raise KeyboardInterrupt
        return json.dumps(*args, **kwargs)

engine._de.json = Interrupting()
try:
    t.run(t.facts(3))
except KeyboardInterrupt:
    sys.exit(130)
"""


def test_interrupt_inside_the_library_is_an_interrupt_and_prints_nothing(durable):
    """Ctrl-C landing in durable_rules' own bookkeeping of an action (its json.dumps of the
    state): the run stops as interrupted, and no library traceback reaches stderr. In a
    process of its own: pytest's log capture would hide what logging prints there."""
    import pathlib
    import subprocess
    import sys
    root = pathlib.Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", _INTERRUPT_IN_LIBRARY], cwd=root,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "CAVEAT_ENGINE": "durable_rules"})
    assert proc.returncode == 130, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr


def test_fact_id_collision_is_reported(monkeypatch, durable):
    from durable import engine as de
    host = engine._get_host()

    def collide(name, fact):
        raise de.MessageObservedException(fact)
    monkeypatch.setattr(host, "assert_fact", collide)
    with pytest.raises(EngineError, match="collision"):
        run(facts(3))


def test_missed_action_is_detected(monkeypatch, durable):
    monkeypatch.setattr(engine._Session, "fired", lambda self, code, fid: None)
    with pytest.raises(EngineError, match="did not run"):
        run(facts(3))


@pytest.mark.parametrize("bad,needle", [
    ({"tags": ["a"]}, "non-scalar"),
    ({"id": "7"}, "reserved"),
    ({"n": None}, "without field 'n'"),
])
def test_malformed_facts_are_errors(bad, needle, each_engine):
    fact = {"path": "d.md", "line": 1, "n": 1, "flag": False, "metric": "lead", "x": 1.0}
    fact.update(bad)
    with pytest.raises(EngineError, match=needle):
        engine.run([R1], [(R1, fact)], lambda *a: None)


def test_engine_choice_is_checked_and_named(monkeypatch):
    from validator.errors import UsageError
    monkeypatch.setenv("CAVEAT_ENGINE", "rete")
    with pytest.raises(UsageError, match="not one of"):
        engine.selected()
    monkeypatch.setenv("CAVEAT_ENGINE", "python")
    assert engine.selected() == "python" and "own when: evaluator" in engine.describe()
    monkeypatch.delenv("CAVEAT_ENGINE")
    assert engine.selected() == ("python" if engine._de is None else "durable_rules")
    if engine._de is None:
        monkeypatch.setenv("CAVEAT_ENGINE", "durable_rules")
        with pytest.raises(UsageError, match="cannot be imported"):
            engine.selected()


def test_render_uses_document_language_and_side_vars():
    f = R1.render({"path": "d.md", "line": 3, "col": 2, "surface": "29%"},
                  {"evidence": [{"path": "o.md", "line": 4, "surface": "30%"}]}, "zh")
    assert f.message == "29% 中文" and f.line == 3 and f.evidence[0].line == 4
    assert R1.render({"surface": "29%", "line": 1}, None, "en").message == "29% en"


def test_a_run_goes_past_bad_files_and_folders_mean_their_markdown(tmp_path):
    from validator.options import Options
    from validator.run import check_paths
    (tmp_path / "d" / "sub").mkdir(parents=True)
    good = tmp_path / "d" / "sub" / "good.md"
    good.write_text("# Notes — 2026-11-03\n\nLMDeploy is 35% faster than vLLM.\n", encoding="utf-8")
    (tmp_path / "d" / "bad.md").write_bytes(b"\xff\xfe\x00bad")
    (tmp_path / "d" / "notes.txt").write_text("not markdown", encoding="utf-8")
    result = check_paths([str(tmp_path / "d"), str(tmp_path / "missing.md")],
                          Options(select=["CV101", "CV103"]))   # a figure with no setup anywhere: CV103
    assert [f.line for f in result.findings] == [3]
    assert len(result.errors) == 2 and all("\n" not in e for e in result.errors)
    assert any("bad.md" in e for e in result.errors) and any("missing.md" in e for e in result.errors)
    assert list(result.analyses) == [str(good)]
