"""Inline suppression comments, and CV001 for a suppression that matches nothing."""
from __future__ import annotations

import pytest

from cli_support import as_json, write


def check(run, *args):
    r = run("check", "a.md", "--format", "json", *args)
    return r, as_json(r)


def test_suppression_on_the_line_and_on_the_line_before(fake, ws, run):
    write(ws / "a.md", 'SpecInfr <!-- caveat: ignore CV601 reason="vendor spelling" -->\n'
                       "<!-- caveat: ignore CV1 -->\n"
                       "29% faster\n")
    r, doc = check(run)
    assert r.exit_code == 0
    assert doc["findings"] == []
    assert sorted(f["code"] for f in doc["suppressed"]) == ["CV101", "CV601"]
    assert doc["summary"]["suppressed"] == 2


def test_suppression_does_not_reach_two_lines_down_or_other_codes(fake, ws, run):
    write(ws / "a.md", "<!-- caveat: ignore CV601 -->\n\nSpecInfr\n29% <!-- caveat: ignore CV6 -->\n")
    r, doc = check(run)
    codes = sorted(f["code"] for f in doc["findings"])
    # the finding two lines down stays, and both comments matched nothing
    assert codes == ["CV001", "CV001", "CV101", "CV601"]
    assert r.exit_code == 1


def test_unused_suppression_is_reported_at_the_comment(fake, ws, run):
    write(ws / "a.md", "fine\n<!-- caveat: ignore CV301 reason=\"old\" -->\nstill fine\n")
    r, doc = check(run)
    (f,) = doc["findings"]
    assert (f["code"], f["line"], f["col"], f["severity"]) == ("CV001", 2, 1, "warning")
    assert "CV301" in f["message"]
    assert r.exit_code == 1
    # a code this run does not check cannot be called unused
    r, doc = check(run, "--select", "CV6")
    assert doc["findings"] == [] and r.exit_code == 0
    # and CV001 itself can be ignored
    assert check(run, "--ignore", "CV001")[1]["findings"] == []


def test_unused_message_follows_document_language(fake, ws, run):
    write(ws / "a.md", "中文简报\n<!-- caveat: ignore CV301 -->\n")
    (f,) = check(run)[1]["findings"]
    assert "未使用" in f["message"]


def test_ignore_file(fake, ws, run):
    write(ws / "a.md", "<!-- caveat: ignore-file CV601 -->\nSpecInfr\n\n\nSpecInfr\n29%\n")
    doc = check(run)[1]
    assert [f["code"] for f in doc["findings"]] == ["CV101"]
    assert len(doc["suppressed"]) == 2


def test_comment_inside_fenced_code_is_an_example_not_a_directive(fake, ws, run):
    write(ws / "a.md", "```\n<!-- caveat: ignore CV601 -->\n```\nSpecInfr\n")
    doc = check(run)[1]
    assert [f["code"] for f in doc["findings"]] == ["CV601"]


@pytest.mark.parametrize("shown", [
    "Write `<!-- caveat: ignore-file -->` at the top to silence a file.\n",
    "Example:\n\n    <!-- caveat: ignore-file -->\n\nafter\n",
    "~~~markdown\n<!-- caveat: ignore-file -->\n~~~\n",
    "- In a list: ``<!-- caveat: ignore CV601 -->`` is the syntax.\n",
])
def test_a_directive_shown_as_code_is_text_and_the_gate_still_fails(fake, ws, run, shown):
    # a briefing that documents the suppression syntax must not silence itself
    write(ws / "a.md", "# Notes\n\n" + shown + "\nSpecInfr and SpecInfer differ.\n")
    r, doc = check(run)
    assert [f["code"] for f in doc["findings"]] == ["CV601"] and r.exit_code == 1


def _parse(text):
    from claims import analyze
    from validator.suppress import parse
    return parse(analyze(text, "a.md").document)


def test_parse_reason_and_codes():
    (s,) = _parse('x <!-- caveat: ignore CV301, CV1 reason="checked with vendor" -->')
    assert s.codes == ["CV301", "CV1"] and s.reason == "checked with vendor" and not s.file_level
    (s,) = _parse("<!-- caveat:ignore-file -->")
    assert s.codes == [] and s.file_level
    assert _parse("`<!-- caveat:ignore-file -->`") == []


def test_lang_option_and_severity_override_apply_to_meta_findings(fake, ws, run):
    write(ws / "a.md", "中文简报\n<!-- caveat: ignore CV301 -->\n")
    (f,) = check(run, "--lang", "en")[1]["findings"]
    assert f["message"].startswith("unused suppression")
    write(ws / ".caveat.yaml", "severity: {CV001: error}\nfail-on: error\n")
    r, doc = check(run)
    assert doc["findings"][0]["severity"] == "error" and r.exit_code == 1
