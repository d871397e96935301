"""The claim ledger: re-extracts only changed files, survives corrupt or foreign files and
concurrent writers, and keeps every claim's provenance.

The extractor is replaced by a counting stand-in here: these tests are about what the
ledger stores and when it re-reads, not about extraction (tests/claims covers that)."""
from __future__ import annotations

import multiprocessing as mp
import re
import sqlite3

import pytest

from claims.model import Claim, Condition, Source
import validator.ledger as L

FIG = re.compile(r"(\w+) speedup (\d+(?:\.\d+)?)x(?: on (\w+))?")
CALLS: list = []


def fake_analyze(path):
    CALLS.append(path)
    text = open(path, encoding="utf-8").read()
    out = []
    for m in FIG.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        conds = {"hardware": Condition("hardware", m.group(3), "sentence", line, m.group(3))} if m.group(3) else {}
        out.append(Claim(path=path, line=line, col=m.start() - text.rfind("\n", 0, m.start()), start=m.start(),
                         end=m.end(), surface=m.group(0), kind="ratio", value=float(m.group(2)),
                         base_value=float(m.group(2)), decimals=len(m.group(2).partition(".")[2]),
                         subject=m.group(1).lower(), metric="speedup", conditions=conds,
                         markers=["unverified"] if "TBD" in text else [],
                         sources=[Source("path", "inbox/a.md", line)], role="body"))
    m = L._DATE_IN_NAME.search(path.rsplit("/", 1)[-1])
    return "en", (m.group(0) if m else None), out


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.setattr(L, "_analyze", fake_analyze)
    CALLS.clear()
    root = tmp_path / "corpus"
    (root / "notes").mkdir(parents=True)
    for i in range(5):
        (root / "notes" / f"n{i}.md").write_text(f"# note {i}\neagle speedup {2 + i}.4x on H100\n", encoding="utf-8")
    return root


def test_warm_run_reextracts_only_the_changed_file(corpus):
    files = L.corpus_files([corpus])
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        first = led.analyses_for(files)
    assert len(CALLS) == 5 and all(len(v) == 1 for v in first.values())
    assert (corpus / ".caveat" / "ledger.sqlite").exists()
    CALLS.clear()
    changed = corpus / "notes" / "n3.md"
    changed.write_text("# note 3\neagle speedup 9.9x on H200\nmedusa speedup 1.5x\n", encoding="utf-8")
    (corpus / "notes" / "n1.md").touch()          # touched, same content: not re-extracted
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        second = led.analyses_for(files)
    assert CALLS == [str(changed)]
    assert [c.surface for c in second[str(changed)]] == ["eagle speedup 9.9x on H200", "medusa speedup 1.5x"]
    c = second[str(changed)][0]
    assert (c.path, c.line, c.metric, c.subject, c.conditions["hardware"].value, c.sources[0].ref) == \
        (str(changed), 2, "speedup", "eagle", "H200", "inbox/a.md")
    assert second[str(corpus / "notes" / "n0.md")][0].value == 2.4


def test_claims_by_key_reads_only_the_group(corpus):
    files = L.corpus_files([corpus])
    (corpus / "notes" / "m.md").write_text("medusa speedup 1.5x\n", encoding="utf-8")
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        led.sync(L.corpus_files([corpus]))
        got = led.claims_by_key({"speedup|medusa|"})
        assert [(p, c.surface) for p, c in got] == [("notes/m.md", "medusa speedup 1.5x")]
        assert led.path_of(got[0][0]) == str((corpus / "notes" / "m.md").resolve())
        assert len(led.claims_by_key({"speedup|eagle|"}, exclude_paths=files[:2])) == 3


@pytest.mark.parametrize("damage", ["garbage", "foreign", "missing_tables"])
def test_corrupt_or_foreign_ledger_is_rebuilt_with_a_notice(corpus, capsys, damage):
    path = corpus / ".caveat" / "ledger.sqlite"
    path.parent.mkdir()
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    else:
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE notes (x)")
        if damage == "missing_tables":
            con.execute(f"PRAGMA application_id = {L.APPLICATION_ID}")
            con.execute(f"PRAGMA user_version = {L.SCHEMA_VERSION}")
        con.commit()
        con.close()
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        got = led.analyses_for(L.corpus_files([corpus]))
    assert sum(len(v) for v in got.values()) == 5
    err = capsys.readouterr().err
    assert "rebuilding" in err and str(path) in err and "Traceback" not in err
    with L.Ledger.for_roots([corpus], jobs=1) as led:      # and it is healthy afterwards
        led.analyses_for(L.corpus_files([corpus]))
    assert "rebuilding" not in capsys.readouterr().err


def test_older_schema_is_upgraded_quietly(corpus, capsys):
    path = corpus / ".caveat" / "ledger.sqlite"
    path.parent.mkdir()
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE files (path)")
    con.execute(f"PRAGMA application_id = {L.APPLICATION_ID}")
    con.execute(f"PRAGMA user_version = {L.SCHEMA_VERSION - 1}")
    con.commit()
    con.close()
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        assert sum(len(v) for v in led.analyses_for(L.corpus_files([corpus])).values()) == 5
    assert capsys.readouterr().err == ""
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == L.SCHEMA_VERSION


def test_unwritable_location_falls_back_to_memory(corpus, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with L.Ledger(blocker / "sub" / "ledger.sqlite", root=corpus, jobs=1) as led:
        got = led.analyses_for(L.corpus_files([corpus]))
    assert sum(len(v) for v in got.values()) == 5
    assert led.path == ":memory:" and capsys.readouterr().err == ""


def _writer(args):
    root, n = args
    with L.Ledger.for_roots([root], jobs=1) as led:
        for k in range(n):
            f = root / "notes" / f"n{k % 5}.md"
            f.write_text(f"eagle speedup {k}.5x\n", encoding="utf-8")
            led.analyses_for(L.corpus_files([root]))
    return True


def test_concurrent_runs_do_not_corrupt_the_ledger(corpus):
    ctx = mp.get_context("fork")
    with ctx.Pool(3) as pool:
        assert all(pool.map(_writer, [(corpus, 8)] * 3))
    con = sqlite3.connect(corpus / ".caveat" / "ledger.sqlite")
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # every file has exactly the claims of one extraction of it
    rows = con.execute("SELECT f.path, f.n_claims, count(c.idx) FROM files f LEFT JOIN claims c "
                       "ON c.path = f.path GROUP BY f.path").fetchall()
    assert len(rows) == 5 and all(n == k for _, n, k in rows)


def test_parallel_extraction_matches_serial(corpus):
    for i in range(5, 40):
        (corpus / "notes" / f"n{i}.md").write_text(f"eagle speedup {i}.1x on H100\n", encoding="utf-8")
    files = L.corpus_files([corpus])
    with L.Ledger(":memory:", root=corpus, jobs=1) as a, L.Ledger(":memory:", root=corpus, jobs=2) as b:
        serial, parallel = a.analyses_for(files), b.analyses_for(files)
    assert {k: [c.to_dict() for c in v] for k, v in serial.items()} == \
        {k: [c.to_dict() for c in v] for k, v in parallel.items()}


def test_a_new_extractor_version_invalidates_every_stored_claim(corpus, monkeypatch):
    files = L.corpus_files([corpus])
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        led.analyses_for(files)
    CALLS.clear()
    monkeypatch.setattr(L, "_FINGERPRINT", "another-extractor")
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        led.analyses_for(files)
    assert len(CALLS) == 5


def test_unreadable_file_is_recorded_not_raised(corpus):
    bad = corpus / "notes" / "missing.md"
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        got = led.analyses_for([bad])
    assert got == {str(bad): []}
    assert len(led.errors) == 1 and "missing.md" in led.errors[0]


def test_corpus_index_serves_keys_and_files_with_caller_paths(corpus, monkeypatch):
    monkeypatch.delenv("CAVEAT_LEDGER", raising=False)
    files = [str(f) for f in L.corpus_files([corpus])]
    idx = L.CorpusIndex([corpus], jobs=1)
    idx.sync(files)
    got = idx.by_key("speedup|eagle|")
    assert sorted(p for p, _ in got) == sorted(files)
    assert all(c.path == p for p, c in got)
    assert [c.value for c in idx.analysis(files[0]).claims] == [2.4]
    idx.close()
    CALLS.clear()
    idx = L.CorpusIndex([corpus], jobs=1)          # a second run re-extracts nothing
    idx.sync(files)
    assert CALLS == [] and len(idx.by_key("speedup|eagle|")) == 5
    idx.close()


def test_ledger_location_from_environment(corpus, monkeypatch, tmp_path):
    monkeypatch.setenv("CAVEAT_LEDGER", str(tmp_path / "elsewhere.sqlite"))
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        led.sync(L.corpus_files([corpus]))
    assert (tmp_path / "elsewhere.sqlite").exists() and not (corpus / ".caveat").exists()
    monkeypatch.setenv("CAVEAT_LEDGER", "off")
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        assert led.path == ":memory:"


def test_ledger_damaged_inside_is_rebuilt_during_the_report(corpus, capsys, tmp_path):
    from validator.render.report_files import write_report
    from validator.report import report_corpus
    for i in range(5, 60):
        (corpus / "notes" / f"n{i}.md").write_text(f"eagle speedup {i}.1x on H100\n" * 20, encoding="utf-8")
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        led.sync(L.corpus_files([corpus]))
        led.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path = corpus / ".caveat" / "ledger.sqlite"
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])          # pages of the claims table are gone
    with L.Ledger.for_roots([corpus], jobs=1) as led:
        model, _ = report_corpus([corpus], lambda r: write_report(r, tmp_path / "out", ("json",)), led)
    assert model.summary["claims"] == 5 + 55 * 20
    err = capsys.readouterr().err
    assert "rebuilding" in err and "Traceback" not in err
