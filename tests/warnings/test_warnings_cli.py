"""`caveat warnings` end to end on the real pipeline: the example briefings written back
(golden files), the gate afterwards, encodings and line endings, read-only files, config."""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from validator.cli import main
from validator.kinds import families
from validator.warnings_locate import END, START
from validator.warnings_section import prepare

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "data" / "briefing-corpus"
GOLDEN = HERE / "golden"
BRIEFINGS = ("2026-11-02-inference.md", "2026-11-03-serving-weekly.md")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The example corpus copied, both briefings written back once, plus the findings before."""
    from validator.options import Options
    from validator.run import check_paths

    root = tmp_path_factory.mktemp("corpus") / "briefing-corpus"
    shutil.copytree(CORPUS, root)
    files = [root / "briefings" / b for b in BRIEFINGS]
    before = check_paths([str(f) for f in files], Options(corpus=[str(root)]))
    originals = {f.name: f.read_bytes() for f in files}
    res = run("warnings", "--corpus", root, "--write", *files)
    assert res.exit_code == 0, res.output
    return root, files, before, originals


def _block(text):
    lines = text.split("\n")
    return lines[lines.index(START) + 1:lines.index(END)]


def test_golden_files_are_current(written):
    """Regenerate with CAVEAT_UPDATE_GOLDEN=1 python -m pytest tests/warnings/test_warnings_cli.py."""
    root, files, _, _ = written
    for f in files:
        got = f.read_text(encoding="utf-8")
        gold = GOLDEN / f.name
        if os.environ.get("CAVEAT_UPDATE_GOLDEN"):
            gold.write_text(got, encoding="utf-8")
        assert gold.exists(), f"missing golden file {gold}; run with CAVEAT_UPDATE_GOLDEN=1"
        assert got == gold.read_text(encoding="utf-8"), \
            f"{f.name} written back differs from {gold} (rules changed? regenerate with CAVEAT_UPDATE_GOLDEN=1)"


def test_second_write_changes_nothing(written):
    root, files, _, _ = written
    once = {f: f.read_bytes() for f in files}
    res = run("warnings", "--corpus", root, "--write", *files)
    assert res.exit_code == 0 and "updated" not in res.output
    assert {f: f.read_bytes() for f in files} == once


def test_only_managed_parts_changed(written):
    root, files, _, originals = written
    for f in files:
        assert prepare(f.read_text(encoding="utf-8")).base_text.encode("utf-8") == originals[f.name]


def test_entries_cover_exactly_the_acknowledgeable_findings(written):
    root, files, before, _ = written
    for f in files:
        want = {(x.line, x.surface) for x in before.findings
                if os.path.samefile(x.path, f) and x.acknowledgeable and not x.acknowledged
                and not x.suppressed and x.severity != "info"}
        text = f.read_text(encoding="utf-8")
        got = set()
        for ln in _block(text):
            m = re.search(r"(?:第 (\d+) 行「(.+?)」：|line (\d+), (.+?): )", ln)
            if m:
                got.add((int(m.group(1) or m.group(3)), m.group(2) or m.group(4)))
        assert got == want, (f.name, sorted(got ^ want))
        assert want, "the example briefings do have acknowledgeable findings"


def test_heading_counts_follow(written):
    root, files, _, _ = written
    text = files[0].read_text(encoding="utf-8")
    head = next(ln for ln in text.split("\n") if ln.startswith("四、"))
    entries = [ln for ln in text.split("\n") if re.match(r"⚠️ T\d+ ", ln)]
    assert head == f"四、值得警惕的矛盾或待核实说法（{len(entries)} 条）"
    assert [int(re.match(r"⚠️ T(\d+)", e).group(1)) for e in entries] == list(range(1, len(entries) + 1))
    summary = next(ln for ln in text.split("\n") if ln.startswith("矛盾/待核实："))
    assert re.findall(r"（(T\d+)）", summary) == [f"T{i}" for i in range(1, len(entries) + 1)]


def test_check_afterwards_fails_only_on_must_fix_findings(written):
    from validator.options import Options
    from validator.run import check_paths
    root, files, _, _ = written
    after = check_paths([str(f) for f in files], Options(corpus=[str(root)]))
    open_findings = [x for x in after.findings
                     if not x.acknowledged and not x.suppressed and x.severity != "info"]
    assert open_findings, "the examples keep real errors the author must fix"
    must_fix = {fam for fam, ack in families().items() if not ack}
    assert {x.family for x in open_findings} <= must_fix, \
        [(x.code, x.line, x.surface) for x in open_findings if x.family not in must_fix]
    res = run("check", "--corpus", root, *files)
    assert res.exit_code == 1


ZH_DOC = "inference · 日报\n一、增量\n增量 1 · 吞吐\n要点：SGLang 吞吐领先 vLLM 29%，P99 延迟下降 38%\n二、本轮摘要\n增量条数：1 条"
EN_DOC = "# Weekly\n\nSGLang is 29% faster than vLLM; P99 latency dropped 38%.\n\n## Summary\n\nFine."


@pytest.mark.parametrize("doc", [ZH_DOC, EN_DOC], ids=["zh", "en"])
@pytest.mark.parametrize("bom", [False, True], ids=["nobom", "bom"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("trailing", [False, True], ids=["noeol", "eol"])
def test_encodings_line_endings_and_missing_section(tmp_path, doc, bom, newline, trailing):
    text = doc.replace("\n", newline) + (newline if trailing else "")
    raw = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    p = tmp_path / "b.md"
    p.write_bytes(raw)
    res = run("warnings", "--write", p)
    assert res.exit_code == 0, res.output
    new = p.read_bytes()
    assert new != raw, "a section is added: the figures lack their conditions"
    assert new.startswith(b"\xef\xbb\xbf") == bom
    body = new[3:] if bom else new
    assert body.endswith(newline.encode()) == trailing
    if newline == "\r\n":
        assert body.count(b"\n") == body.count(b"\r\n")
    else:
        assert b"\r" not in body
    decoded = body.decode("utf-8")
    assert prepare(decoded).base_text == text
    heading = "值得警惕的矛盾或待核实说法" if doc is ZH_DOC else "## Warnings"
    assert heading in decoded and "29%" in decoded.split(START)[1]
    assert decoded.index(START) < decoded.index("本轮摘要" if doc is ZH_DOC else "## Summary")
    again = run("warnings", "--write", p)
    assert again.exit_code == 0 and p.read_bytes() == new
    # the figures lack conditions, which the new section now discloses: the gate passes
    gate = run("check", p)
    assert gate.exit_code == 0, gate.output


def test_read_only_file_is_a_clear_error_and_unchanged(tmp_path):
    p = tmp_path / "b.md"
    p.write_text(EN_DOC, encoding="utf-8")
    os.chmod(p, 0o444)
    try:
        res = run("warnings", "--write", p)
        assert res.exit_code == 2
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and "read-only" in lines[0] and str(p) in lines[0]
        assert "Traceback" not in res.output
        assert p.read_text(encoding="utf-8") == EN_DOC
    finally:
        os.chmod(p, stat.S_IWUSR | stat.S_IRUSR)


def test_without_write_prints_the_section_and_leaves_the_file(tmp_path):
    p = tmp_path / "b.md"
    p.write_text(EN_DOC, encoding="utf-8")
    res = run("warnings", p)
    assert res.exit_code == 0
    assert res.output.startswith(START) or res.output.lstrip().startswith("## Warnings") or "## Warnings" in res.output
    assert "29%" in res.output and "Fine." not in res.output
    assert p.read_text(encoding="utf-8") == EN_DOC


def test_config_warnings_patterns_name_the_section(tmp_path):
    p = tmp_path / "b.md"
    p.write_text("# Weekly\n\nSGLang is 29% faster than vLLM.\n\n## Things we doubt\n\n- Nothing yet.\n",
                 encoding="utf-8")
    cfg = tmp_path / ".caveat.yaml"
    cfg.write_text("warnings-patterns:\n  - '^Things we doubt'\n", encoding="utf-8")
    res = run("warnings", "--config", cfg, "--write", p)
    assert res.exit_code == 0, res.output
    text = p.read_text(encoding="utf-8")
    assert "## Warnings" not in text
    assert text.index("## Things we doubt") < text.index(START) and "- Nothing yet." in text
    # the entries written there disclose the finding: the gate passes, and a second
    # write changes nothing
    check = run("check", "--config", cfg, p)
    assert check.exit_code == 0, check.output
    assert run("warnings", "--config", cfg, "--write", p).exit_code == 0
    assert p.read_text(encoding="utf-8") == text


def test_bad_input_is_one_line_exit_2(tmp_path):
    p = tmp_path / "bin.md"
    p.write_bytes(b"\x00\x01binary")
    q = tmp_path / "broken.md"
    q.write_text(f"# A\n\n{START}\n- x\n", encoding="utf-8")
    res = run("warnings", "--write", p, q, tmp_path / "missing.md")
    assert res.exit_code == 2
    out = res.output
    assert "bin.md:1: binary file" in out and "broken.md:3:" in out and "missing.md: no such file" in out
    assert "Traceback" not in out


def test_entry_of_a_fixed_figure_is_removed_with_the_section_caveat_added(tmp_path):
    p = tmp_path / "b.md"
    original = "# Weekly\n\nSGLang is 29% faster than vLLM.\n\nMore text.\n"
    p.write_text(original, encoding="utf-8")
    assert run("warnings", "--write", p).exit_code == 0
    assert START in p.read_text(encoding="utf-8")
    fixed = p.read_text(encoding="utf-8").replace("SGLang is 29% faster", "SGLang is faster")
    p.write_text(fixed, encoding="utf-8")
    res = run("warnings", "--write", p)
    assert res.exit_code == 0, res.output
    assert p.read_text(encoding="utf-8") == original.replace("SGLang is 29% faster", "SGLang is faster")


def test_file_edited_while_caveat_works_is_not_overwritten(tmp_path, monkeypatch):
    from validator import warnings_cmd
    p = tmp_path / "b.md"
    p.write_text(EN_DOC, encoding="utf-8")
    real = warnings_cmd.Session.rewrite

    def rewrite_while_someone_saves(self, path, text):
        out = real(self, path, text)
        p.write_text(EN_DOC + "\nEdited meanwhile.\n", encoding="utf-8")
        return out
    monkeypatch.setattr(warnings_cmd.Session, "rewrite", rewrite_while_someone_saves)
    res = run("warnings", "--write", p)
    assert res.exit_code == 2
    assert "changed on disk" in res.output and "Traceback" not in res.output
    assert p.read_text(encoding="utf-8") == EN_DOC + "\nEdited meanwhile.\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["b.md"]


def test_a_briefing_whose_figures_carry_their_conditions_is_left_alone_and_passes(tmp_path):
    p = tmp_path / "b.md"
    text = ("# Weekly\n\nSGLang is 29% faster than vLLM on H100 with Llama 3.1 8B "
            "under prefix-heavy traffic.\n")
    p.write_text(text, encoding="utf-8")
    res = run("warnings", "--write", p)
    assert res.exit_code == 0, res.output
    assert p.read_text(encoding="utf-8") == text
    assert run("check", p).exit_code == 0


def test_author_entry_under_a_config_heading_acknowledges_the_finding(tmp_path):
    p = tmp_path / "b.md"
    p.write_text("# Weekly\n\nSGLang is 29% faster than vLLM.\n\n## Things we doubt\n\n"
                 "- SGLang's 29% lead was measured without a stated GPU or model.\n", encoding="utf-8")
    assert run("check", p).exit_code == 1          # an unknown heading is body text
    cfg = tmp_path / ".caveat.yaml"
    cfg.write_text("warnings-patterns:\n  - '^Things we doubt'\n", encoding="utf-8")
    res = run("check", "--config", cfg, "--format", "json", p)
    assert res.exit_code == 0, res.output
    findings = json.loads(res.output)["findings"]
    assert findings and all(f["acknowledged"] for f in findings)
    assert all(f["line"] == 3 for f in findings)    # the disclosure's own 29% is not a claim
