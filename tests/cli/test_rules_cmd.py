"""`caveat rules`: the rule table from the loaded packs, in three formats."""
from __future__ import annotations

import json

from cli_support import write


def test_rules_json_lists_every_pack_rule_and_the_meta_rules(run):
    from validator import packs
    r = run("rules", "--format", "json")
    assert r.exit_code == 0
    rows = json.loads(r.stdout)
    codes = [row["code"] for row in rows]
    assert codes == sorted(codes)
    assert {"CV001", "CV002"} <= set(codes)
    assert {rule.code for rule in packs.load_all()} <= set(codes)
    for row in rows:
        assert set(row) >= {"code", "family", "severity", "acknowledgeable", "summary"}
        if row["family"] in ("arithmetic", "count", "entity", "reference"):
            assert row["acknowledgeable"] is False


def test_rules_table_and_markdown(run):
    table = run("rules").stdout.splitlines()
    assert table[0].split()[:4] == ["CODE", "FAMILY", "SEVERITY", "ACK"]
    assert any(ln.split()[:4] == ["CV001", "reference", "warning", "no"] for ln in table)
    md = run("rules", "--format", "markdown").stdout.splitlines()
    assert md[0] == "| Code | Family | Severity | Acknowledgeable | Summary |"
    assert any(ln.startswith("| `CV002` | reference | info | no |") for ln in md)


def test_user_pack_folder_is_listed_and_a_bad_one_is_one_line(run, tmp_path):
    from validator import packs
    builtin = sorted(packs.builtin_rules_dir().glob("*/*.yaml"))
    if not builtin:
        import pytest
        pytest.skip("no built-in rule packs yet")
    src = builtin[0].read_text(encoding="utf-8")
    code = builtin[0].stem
    new = "CV" + code[2] + "99"
    write(tmp_path / "mine" / f"{new}.yaml", src.replace(code, new))
    r = run("rules", "--rules", str(tmp_path / "mine"), "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert new in [row["code"] for row in json.loads(r.stdout)]
    write(tmp_path / "bad" / "CV199.yaml", "code: CV199\nbogus: 1\n")
    r = run("rules", "--rules", str(tmp_path / "bad"))
    assert r.exit_code == 2
    assert "CV199.yaml:" in r.stderr and len(r.stderr.strip().splitlines()) == 1
