"""What the language server computes, without the protocol: checking a buffer's text is
checking the file, and the suppression it inserts silences exactly what the README says."""
from __future__ import annotations

import shutil

import pytest

from claims.errors import InputError
from validator import lsp_check
from validator.options import Options
from validator.run import check_paths, check_text

from lsp_support import CORPUS

BRIEFINGS = ("briefings/2026-11-02-inference.md", "briefings/2026-11-03-serving-weekly.md")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("lsp") / "briefing-corpus"
    shutil.copytree(CORPUS, root, ignore=shutil.ignore_patterns(".caveat"))
    return root


@pytest.fixture(scope="module")
def project(corpus):
    p = lsp_check.Project(None, [str(corpus)])
    yield p
    p.close()


def _seen(findings) -> list:
    return [(f.code, f.line, f.col, f.end_line, f.end_col, f.surface, f.message, f.acknowledged,
             [(e.path, e.line, e.col, e.surface, e.note) for e in f.evidence]) for f in findings]


@pytest.mark.parametrize("name", BRIEFINGS)
def test_check_text_of_the_file_is_check_of_the_file(corpus, project, name):
    path = str(corpus / name)
    text = (corpus / name).read_text(encoding="utf-8")
    opts = Options(corpus=[str(corpus)])
    on_disk = check_paths([path], opts)
    assert on_disk.findings
    assert _seen(check_text(text, path, opts).findings) == _seen(on_disk.findings)
    # and again through the server's project, ledger kept open between checks
    for _ in range(2):
        assert _seen(project.check(path, text).visible) == _seen(on_disk.findings)


def test_check_text_checks_the_text_not_the_file(corpus, project):
    path = str(corpus / BRIEFINGS[1])
    text = (corpus / BRIEFINGS[1]).read_text(encoding="utf-8")
    lines = text.split("\n")
    at = lines.index("## Warnings")
    lines[at:at] = ["SGLang is 29% faster than vLLM.", ""]
    got = project.check(path, "\n".join(lines)).visible
    assert any(f.line == at + 1 and f.surface == "29%" for f in got)
    assert not any(f.surface == "29%" for f in project.check(path, text).visible)


def test_bad_text_is_an_input_error_naming_the_file(project, corpus):
    path = str(corpus / BRIEFINGS[0])
    with pytest.raises(InputError, match=r"2026-11-02-inference\.md: binary text \(NUL character at offset 3\)"):
        check_text("abc\x00def", path, project.options)
    with pytest.raises(InputError, match=r"2026-11-02-inference\.md: text too large"):
        check_text("x" * 101, path, project.options, max_bytes=100)


def _insert(check, finding) -> tuple:
    """(new text, whether the comment went on a line of its own above the finding)."""
    line, char, text = lsp_check.suppression_insert(check, finding)
    starts = lsp_check.line_starts(check.text)
    at = starts[line] + char
    return check.text[:at] + text + check.text[at:], text.endswith("\n")


@pytest.mark.parametrize("name", BRIEFINGS)
def test_suppressing_each_finding_silences_it_and_what_the_comment_reaches(corpus, project, name):
    """For every finding of the example briefings: with the inserted comment, that finding
    and the same code within the comment's documented reach (its line and the next) are
    gone, nothing else changes, and the comment is used (no CV001)."""
    path = str(corpus / name)
    text = (corpus / name).read_text(encoding="utf-8")
    base = project.check(path, text)
    assert base.visible
    for f in base.visible:
        if f.code == "CV001":
            continue
        new, own_line = _insert(base, f)
        after = project.check(path, new)
        # a comment on its own line above the finding moves the lines below it down by one
        left = {(g.code, g.line - 1 if own_line and g.line > f.line else g.line, g.col, g.surface)
                for g in after.visible}
        reach = (f.line,) if own_line else (f.line, f.line + 1)
        want = {(g.code, g.line, g.col, g.surface) for g in base.visible
                if not (g.code == f.code and g.line in reach)}
        assert left == want, f"suppressing {f.code} at line {f.line}"


def test_suppression_in_a_table_row_stays_in_its_last_cell(tmp_path):
    p = lsp_check.Project(None)
    path = str(tmp_path / "t.md")
    text = ("# Bench\n\n| system | result |\n|---|---|\n| SGLang | 29% faster than vLLM |\n"
            "| vLLM | 12% slower than SGLang |\n")
    base = p.check(path, text)
    f = next(f for f in base.visible if f.surface == "29%")
    new, _ = _insert(base, f)
    row = new.split("\n")[4]
    assert row.startswith("| SGLang | 29% faster than vLLM <!-- caveat: ignore ") and row.endswith("--> |")
    assert row.count("|") == 3                  # still two cells
    after = p.check(path, new)
    assert not [g for g in after.visible if g.surface == "29%" or g.code == "CV001"]
    assert {(g.code, g.surface) for g in after.visible} == \
        {(g.code, g.surface) for g in base.visible if g.surface != "29%" or g.code != f.code}


def test_removing_an_unused_suppression_restores_the_text(tmp_path):
    p = lsp_check.Project(None)
    path = str(tmp_path / "t.md")
    clean = "# Notes\n\nSGLang is fast.\n"
    for text in ("# Notes\n\nSGLang is fast. <!-- caveat: ignore CV402 -->\n",
                 "# Notes\n\n<!-- caveat: ignore CV402 -->\nSGLang is fast.\n"):
        ch = p.check(path, text)
        (f,) = [f for f in ch.visible if f.code == "CV001"]
        s, e = lsp_check.removal_span(ch, f)
        assert text[:s] + text[e:] == clean


def test_claim_at_covers_the_figure_and_its_end(project, corpus):
    path = str(corpus / BRIEFINGS[0])
    text = (corpus / BRIEFINGS[0]).read_text(encoding="utf-8")
    ch = project.check(path, text)
    c = ch.analysis.claims[0]
    assert lsp_check.claim_at(ch.analysis, c.start) is c
    assert lsp_check.claim_at(ch.analysis, c.end) is c
    assert lsp_check.claim_at(ch.analysis, c.start - 1) in (None,) or c.start == 0


def test_config_is_found_from_the_workspace_folder(tmp_path):
    ws = tmp_path / "ws"
    (ws / "docs" / "deep").mkdir(parents=True)
    (ws / ".caveat.yaml").write_text("select: [CV1]\n", encoding="utf-8")
    # a config in a sub-folder is not what the command line run in the workspace finds
    (ws / "docs" / ".caveat.yaml").write_text("select: [CV7]\n", encoding="utf-8")
    doc = ws / "docs" / "deep" / "b.md"
    projects = lsp_check.Projects()
    assert projects.config_for(str(doc), [str(ws)]) == str(ws / ".caveat.yaml")
    # outside every workspace folder: from the file's own folder upwards
    assert projects.config_for(str(doc), [str(tmp_path / "elsewhere")]) == str(ws / "docs" / ".caveat.yaml")
    # an edited config is loaded again
    pr = projects.project_for(str(doc), [str(ws)])
    assert pr.sel == ["CV1"]
    (ws / ".caveat.yaml").write_text("select: [CV3, CV1]\n", encoding="utf-8")
    assert projects.project_for(str(doc), [str(ws)]).sel == ["CV3", "CV1"]
    projects.close()
