"""`caveat lsp` end to end over stdio, as an editor drives it (pytest-lsp runs the server in a
subprocess): initialize, didOpen -> publishDiagnostics, hover, codeAction (and resolve),
didChange -> debounced diagnostics, didSave, didClose, shutdown. What the editor shows is
compared with what the command line says about the same text."""
from __future__ import annotations

import asyncio
import copy

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from lsp_support import (SERVER, SERVER_ENV, apply_edit, cli, cli_findings, diagnostics_for,
                      make_client, utf16_col)

pytestmark = pytest.mark.asyncio

BRIEFING = "briefings/2026-11-02-inference.md"
WEEKLY = "briefings/2026-11-03-serving-weekly.md"


def capabilities(kind: str) -> types.ClientCapabilities:
    if kind == "no-resolve":
        # a client that cannot resolve code actions: the edit must come with the action
        caps = copy.deepcopy(client_capabilities("visual-studio-code"))
        caps.text_document.code_action.resolve_support = None
        return caps
    return client_capabilities(kind)


async def start(client: LanguageClient, root, kind="visual-studio-code"):
    await client.initialize_session(types.InitializeParams(
        capabilities=capabilities(kind), root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")]))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=SERVER_ENV,
                                              client_factory=make_client))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def open_doc(client, path, text=None, version=1):
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8") if text is None else text
    n = len(client.published)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=version, text=text)))
    return uri, text, await diagnostics_for(client, uri, version, after=n)


async def change(client, uri, text, version):
    n = len(client.published)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    return await diagnostics_for(client, uri, version, after=n)


def find(diags, code, line0=None):
    got = [d for d in diags if d.code == code and (line0 is None or d.range.start.line == line0)]
    assert got, f"no {code} diagnostic" + (f" on line {line0 + 1}" if line0 is not None else "")
    return got[0]


async def actions_at(client, uri, diag):
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diag.range,
        context=types.CodeActionContext(diagnostics=[diag])))


# ---------------------------------------------------------------------- diagnostics

async def test_diagnostics_are_what_check_reports(client, workspace):
    """On open: one diagnostic per finding `caveat check` reports for the file (code, range
    over the figure in UTF-16 units, message in the briefing's language, severity), each
    code linked to its rule page, the evidence as related information."""
    await start(client, workspace)
    path = workspace / BRIEFING
    uri, text, pub = await open_doc(client, path)
    lines = text.split("\n")
    want = cli_findings(path, workspace)
    assert want, "the example briefing has findings"
    got = sorted(pub.diagnostics, key=lambda d: (d.range.start.line, d.range.start.character, d.code))
    assert [(d.code, d.range.start.line + 1) for d in got] == [(f["code"], f["line"]) for f in want]
    for d, f in zip(got, want):
        line = lines[f["line"] - 1]
        assert d.range.start.character == utf16_col(line, f["col"])
        assert d.range.end.character == utf16_col(lines[f["end_line"] - 1], f["end_col"])
        assert d.message.split("\n")[0] == f["message"]
        assert d.source == "caveat"
        assert d.code_description.href.endswith(f"docs/rules/{f['code']}.md")
        sev = types.DiagnosticSeverity.Information if f["acknowledged"] else {
            "error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "info": types.DiagnosticSeverity.Information}[f["severity"]]
        assert d.severity == sev
    # a Chinese briefing: messages in Chinese
    assert any("矛盾" in d.message for d in got)
    # the contradiction points at the conflicting statements, over their figures
    cv301 = find(got, "CV301", 1)
    amy = workspace / "inbox/amy/2026-11-02-serving-digest.md"
    rel = [r for r in cv301.related_information if r.location.uri == amy.as_uri()]
    assert rel and rel[0].location.range.start.line == 4
    amy_line = amy.read_text(encoding="utf-8").split("\n")[4]
    s, e = rel[0].location.range.start.character, rel[0].location.range.end.character
    assert amy_line[s:e] == "2.4×" and "2.4×" in rel[0].message
    # a missing condition points at the line that states it
    cv101 = find(got, "CV101", 1)
    assert any(r.location.uri == uri and r.location.range.start.line == 11 for r in cv101.related_information)


async def test_buffer_not_disk_and_debounced_change(client, workspace):
    """What is checked is the editor's text: an unsaved edit that removes a contradiction
    removes its diagnostic, one that adds a figure adds one; the file on disk is untouched."""
    await start(client, workspace)
    path = workspace / WEEKLY
    disk = path.read_bytes()
    uri, text, pub = await open_doc(client, path)
    before = {(d.code, d.range.start.line) for d in pub.diagnostics}
    assert ("CV101", 16) in before
    # line 17 cites 35% without conditions: state them in the buffer
    lines = text.split("\n")
    assert "35%" in lines[16]
    lines[16] = lines[16].replace("35%", "35%（A100 80GB，Qwen2.5-7B，长 prompt 批处理，输入 8K token）", 1)
    pub2 = await change(client, uri, "\n".join(lines), 2)
    after = {(d.code, d.range.start.line) for d in pub2.diagnostics}
    assert ("CV101", 16) not in after
    assert path.read_bytes() == disk
    # typing fast: only the last version of a burst is checked and published
    n = len(client.published)
    for v in (3, 4, 5):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + "x" * v)]))
    last = await diagnostics_for(client, uri, 5, after=n)
    assert [p.version for p in client.published[n:] if p.uri == uri] == [5]
    assert {(d.code, d.range.start.line) for d in last.diagnostics} == before


async def test_hover_shows_the_claim_and_its_other_statements(client, workspace):
    await start(client, workspace)
    path = workspace / BRIEFING
    uri, text, _ = await open_doc(client, path)
    lines = text.split("\n")
    col = lines[11].index("3.1×")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=11, character=utf16_col(lines[11], col + 2))))
    assert hover is not None
    md = hover.contents.value
    assert hover.range.start == types.Position(line=11, character=utf16_col(lines[11], col + 1))
    assert "3.1×" in md and "`3.1`" in md                       # the normalized value
    assert "hardware = 8×H100" in md and "model = Llama 3.1 70B" in md   # conditions
    assert "eagle-3" in md.lower()                              # subject, in the claim key
    # the other statements of the key: in the corpus (linked) and in this file
    assert "inbox/amy/2026-11-02-serving-digest.md:5" in md
    assert (workspace / "inbox/amy/2026-11-02-serving-digest.md").as_uri() + "#L5" in md
    assert "**2.4×**" in md
    # not on a figure: no hover
    none = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=2, character=1)))
    assert none is None
    # right after an edit (inside the debounce): the hover is of the text as it is now
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="新增一行\n" + text)]))
    moved = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=12, character=utf16_col(lines[11], col + 2))))
    assert moved is not None and moved.range.start.line == 12 and "**3.1×**" in moved.contents.value


# ---------------------------------------------------------------------- code actions

async def test_suppress_action_silences_that_finding(client, workspace):
    """"Suppress CODE here" inserts the inline comment; with it in the buffer the finding is
    gone, and the comment is not an unused suppression (no CV001)."""
    await start(client, workspace)
    path = workspace / BRIEFING
    uri, text, pub = await open_doc(client, path)
    target = find(pub.diagnostics, "CV703")
    acts = await actions_at(client, uri, target)
    sup = [a for a in acts if a.title == "Suppress CV703 here (with reason)"
           or a.title.startswith("抑制此处的 CV703")]
    assert len(sup) == 1 and sup[0].kind == types.CodeActionKind.QuickFix
    assert sup[0].diagnostics[0].code == "CV703"
    new = apply_edit(text, sup[0].edit, uri)
    assert "<!-- caveat: ignore CV703 reason=" in new.split("\n")[target.range.start.line]
    pub2 = await change(client, uri, new, 2)
    codes = [(d.code, d.range.start.line) for d in pub2.diagnostics]
    assert ("CV703", target.range.start.line) not in codes
    assert not any(c == "CV001" for c, _ in codes)
    # the command line agrees once it is saved
    path.write_text(new, encoding="utf-8")
    assert not [f for f in cli_findings(path, workspace) if f["code"] in ("CV703", "CV001")]


async def test_unused_suppression_can_be_removed(client, workspace):
    await start(client, workspace)
    path = workspace / BRIEFING
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    lines[2] += " <!-- caveat: ignore CV402 -->"
    uri, text2, pub = await open_doc(client, path, "\n".join(lines))
    cv001 = find(pub.diagnostics, "CV001", 2)
    assert list(cv001.tags) == [types.DiagnosticTag.Unnecessary]
    acts = await actions_at(client, uri, cv001)
    rm = [a for a in acts if a.diagnostics and a.diagnostics[0].code == "CV001"]
    assert len(rm) == 1
    assert apply_edit(text2, rm[0].edit, uri) == text


@pytest.mark.parametrize("kind,newline", [("visual-studio-code", "\n"), ("neovim", "\n"),
                                          ("no-resolve", "\n"), ("visual-studio-code", "\r\n")])
async def test_disclose_gives_the_bytes_of_warnings_write(client, workspace, kind, newline):
    """Applying "disclose in the warnings section" to the buffer gives exactly the file
    `caveat warnings --write` writes (resolved lazily where the client can, or sent with the
    action; versioned document changes or plain changes, as the client supports; the file's
    line endings kept)."""
    await start(client, workspace, kind)
    path = workspace / BRIEFING
    if newline != "\n":
        path.write_bytes(path.read_bytes().replace(b"\n", newline.encode()))
    text = path.read_bytes().decode("utf-8")
    uri, text, pub = await open_doc(client, path, text)
    target = find(pub.diagnostics, "CV301", 1)
    acts = await actions_at(client, uri, target)
    disclose = [a for a in acts if a.data and a.data.get("disclose")]
    assert len(disclose) == 1
    action = disclose[0]
    if kind == "no-resolve":
        assert action.edit is not None
    else:
        assert action.edit is None                  # computed only when chosen
        action = await client.code_action_resolve_async(action)
    edit = action.edit
    if kind == "visual-studio-code":
        assert edit.document_changes[0].text_document.version == 1
    new = apply_edit(text, edit, uri)
    assert new != text

    res = cli("warnings", "--write", path, cwd=workspace)
    assert res.returncode == 0, res.stderr
    assert new.encode("utf-8") == path.read_bytes()
    assert newline == "\n" or "\r\n" in new and "\n" not in new.replace("\r\n", "")

    # the disclosed figures are acknowledged now: shown as information, not as warnings
    pub2 = await change(client, uri, new, 2)
    cv301 = find(pub2.diagnostics, "CV301", 1)
    assert cv301.severity == types.DiagnosticSeverity.Information
    # nothing is left to disclose at that figure
    acts2 = await actions_at(client, uri, cv301)
    assert not [a for a in acts2 if a.data and a.data.get("disclose")]


async def test_must_fix_findings_are_not_offered_disclosure(client, workspace):
    await start(client, workspace)
    uri, _, pub = await open_doc(client, workspace / BRIEFING)
    cv702 = find(pub.diagnostics, "CV702")          # an impossible arXiv id must be fixed
    acts = await actions_at(client, uri, cv702)
    assert [a.title for a in acts] == ["抑制此处的 CV702（写明原因）"]


# ---------------------------------------------------------------------- save, close, errors

async def test_save_rechecks_open_briefings_that_depend_on_the_saved_file(client, workspace):
    """The weekly briefing borrows conditions from the daily one: when the daily file is
    saved without them, the weekly's diagnostics follow without the weekly being edited."""
    await start(client, workspace)
    daily, weekly = workspace / BRIEFING, workspace / WEEKLY
    duri, dtext, _ = await open_doc(client, daily)
    wuri, _, wpub = await open_doc(client, weekly)
    cv101 = find(wpub.diagnostics, "CV101", 16)
    assert any(r.location.uri == duri for r in cv101.related_information)
    # the daily briefing loses the line stating the 35% conditions, and is saved
    lines = dtext.split("\n")
    assert "A100 80GB，" in lines[15]
    lines[15] = lines[15].replace("A100 80GB，", "")
    new = "\n".join(lines)
    await change(client, duri, new, 2)
    daily.write_text(new, encoding="utf-8")
    n = len(client.published)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=duri)))
    wpub2 = await diagnostics_for(client, wuri, after=n)
    def seen(pub):
        return sorted((d.code, d.range.start.line + 1, d.message.split("\n")[0]) for d in pub.diagnostics)
    want = sorted((f["code"], f["line"], f["message"]) for f in cli_findings(weekly, workspace))
    assert seen(wpub2) == want
    assert seen(wpub2) != seen(wpub)        # the weekly now borrows its conditions elsewhere
    # closing a document clears its diagnostics
    n = len(client.published)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=wuri)))
    closed = await diagnostics_for(client, wuri, after=n)
    assert list(closed.diagnostics) == []


async def test_bad_config_is_one_message_and_the_server_lives_on(client, workspace):
    (workspace / ".caveat.yaml").write_text('corpus: ["."]\nselectt: [CV1]\n', encoding="utf-8")
    await start(client, workspace)
    uri, _, pub = await open_doc(client, workspace / BRIEFING)
    assert list(pub.diagnostics) == []
    msgs = [m.message for m in client.messages]
    assert any(".caveat.yaml:2: unknown config key 'selectt'" in m for m in msgs), msgs
    # fixed: the next check picks the config up again
    (workspace / ".caveat.yaml").write_text('corpus: ["."]\nselect: [CV7]\n', encoding="utf-8")
    pub2 = await change(client, uri, (workspace / BRIEFING).read_text(encoding="utf-8"), 2)
    assert pub2.diagnostics and {d.code[:3] for d in pub2.diagnostics} == {"CV7"}


async def test_positions_in_the_negotiated_encoding(client, workspace):
    """A client speaking UTF-8 positions gets byte columns; an astral emoji before a figure
    counts 4 there (and 2 in UTF-16)."""
    caps = client_capabilities("visual-studio-code")
    caps.general = types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8])
    res = await client.initialize_session(types.InitializeParams(
        capabilities=caps, root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")]))
    assert res.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    path = workspace / "notes.md"
    text = "# Notes\n\n🟡 中文 SGLang is 29% faster than vLLM.\n"
    path.write_text(text, encoding="utf-8")
    uri, _, pub = await open_doc(client, path)
    d = [d for d in pub.diagnostics if d.range.start.line == 2][0]
    line = text.split("\n")[2]
    assert d.range.start.character == len(line[:line.index("29%")].encode("utf-8"))
    assert d.range.end.character == d.range.start.character + len("29%")


def _notes(root, n, start=0):
    d = root / "inbox" / "bulk"
    d.mkdir(parents=True, exist_ok=True)
    for i in range(start, start + n):
        (d / f"note-{i:03d}.md").write_text(
            f"# Note {i}\n\nOn H100 with Llama 3.1 8B, vLLM reaches {1000 + i} tok/s.\n", encoding="utf-8")


async def test_a_corpus_of_many_changed_files(client, workspace):
    """A cold corpus larger than the ledger's parallel threshold is read on open, and a
    disclosure made after many corpus files changed (the warnings session extracts them,
    possibly in forked processes) still comes back, with the bytes of warnings --write."""
    _notes(workspace, 40)
    await start(client, workspace, "no-resolve")
    path = workspace / BRIEFING
    uri, text, pub = await open_doc(client, path)
    assert pub.diagnostics
    _notes(workspace, 40, start=40)
    target = find(pub.diagnostics, "CV301", 1)
    acts = await asyncio.wait_for(actions_at(client, uri, target), 120)
    (action,) = [a for a in acts if a.data and a.data.get("disclose")]
    new = apply_edit(text, action.edit, uri)
    res = cli("warnings", "--write", path, cwd=workspace)
    assert res.returncode == 0, res.stderr
    assert new.encode("utf-8") == path.read_bytes()
