"""`caveat lsp`: a Language Server over stdio (pygls), for Markdown briefings in an editor.

The protocol side only: documents in and out, positions in the client's units, debouncing,
and turning what validator/lsp_check.py computes into LSP messages.

- Diagnostics on open, on change (debounced: ``DEBOUNCE_SECONDS`` after the last edit) and
  on save, of the editor's buffer (not the file on disk): code, severity, the range of the
  figure, the message in the document's language, ``codeDescription`` linking to the rule's
  page (``RULE_DOCS_URL``), and related information at the evidence (the other statement,
  the line stating the condition, the cited file). Acknowledged findings are shown as
  information; suppressed ones are not shown, as `caveat check` does not report them.
- Hover on a figure: the claim (value, unit, conditions, markers, claim key) and the other
  statements of its key in the corpus.
- Code actions on a finding: "Suppress CODE here (with reason)" (an inline comment), and
  "Disclose in the warnings section": the edit turning the buffer into exactly what
  `caveat warnings --write` writes (computed when the client resolves the action, when it
  can). On an unused suppression (CV001): remove it.

Checks run one at a time on one worker thread (the claim ledger's SQLite connection and
the rule engine stay on that thread), so the event loop keeps answering the client.
"""
from __future__ import annotations

import asyncio
import logging
import os
import sys

import click

# Where a diagnostic's code links to: one page per rule, written under docs/rules/.
RULE_DOCS_URL = "https://github.com/OWNER/caveat/blob/main/docs/rules/{code}.md"
# A check runs this long after the last edit of a burst of typing.
DEBOUNCE_SECONDS = 0.3
SOURCE = "caveat"

log = logging.getLogger("caveat.lsp")


def rule_docs_url(code: str) -> str:
    return RULE_DOCS_URL.format(code=code)


def _version() -> str:
    from validator import __version__
    return __version__


def make_server(corpus=(), config_path=None, lang=None, debounce: float = DEBOUNCE_SECONDS):
    """The language server (not started)."""
    from concurrent.futures import ThreadPoolExecutor

    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer
    from pygls.uris import to_fs_path

    from validator import lsp_check

    # whole texts, not increments: pygls splits lines where the protocol does not (U+2028,
    # form feed…), and a briefing is small enough to send whole
    server = LanguageServer("caveat", _version(), text_document_sync_kind=T.TextDocumentSyncKind.Full)
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="caveat-check")
    projects = lsp_check.Projects(corpus, config_path, lang)
    checks: dict = {}           # uri -> the BufferCheck last published
    pending: dict = {}          # uri -> asyncio.Task of a scheduled check
    shown: set = set()          # error lines already shown to the user (each once)

    # ------------------------------------------------------------------ helpers
    def path_of(uri: str):
        return to_fs_path(uri) if uri.startswith("file:") else None

    def folders() -> list:
        ws = server.workspace
        out = [to_fs_path(f.uri) for f in ws.folders.values()]
        if not out and ws.root_path:
            out.append(ws.root_path)
        return [f for f in out if f]

    async def in_worker(fn, *args):
        return await asyncio.get_running_loop().run_in_executor(worker, fn, *args)

    def say(message: str, kind=T.MessageType.Error) -> None:
        """An error the user should see, once; every one also goes to the log."""
        server.window_log_message(T.LogMessageParams(type=kind, message=f"caveat: {message}"))
        if message not in shown:
            shown.add(message)
            server.window_show_message(T.ShowMessageParams(type=kind, message=f"caveat: {message}"))

    def codec():
        return server.workspace.position_codec

    def pos(lines: list, line1: int, col1: int) -> T.Position:
        """A caveat position (1-based line and character column) in the client's units."""
        line = max(0, line1 - 1)
        if line >= len(lines):
            return T.Position(line=max(0, len(lines) - 1), character=codec().client_num_units(lines[-1]) if lines else 0)
        return codec().position_to_client_units(lines, T.Position(line=line, character=max(0, col1 - 1)))

    file_lines: dict = {}

    def lines_of(path: str, check) -> list:
        """The lines of an evidence file: the buffer's own, else the file on disk."""
        if os.path.realpath(path) == os.path.realpath(check.path):
            return lsp_check.line_texts(check.text)
        if path not in file_lines:
            try:
                with open(path, encoding="utf-8-sig", errors="replace") as fh:
                    file_lines[path] = lsp_check.line_texts(fh.read())
            except OSError:
                file_lines[path] = []
        return file_lines[path]

    def evidence_path(ev_path: str, check):
        if not ev_path:
            return None
        if os.path.isabs(ev_path):
            return ev_path if os.path.exists(ev_path) else None
        roots = list(check.project.options.corpus or ()) if check.project else []
        for base in roots + [os.path.dirname(check.path)]:
            p = os.path.join(base, ev_path)
            if os.path.exists(p):
                return os.path.abspath(p)
        return None

    def related(f, check) -> list:
        from pathlib import Path
        out = []
        for ev in f.evidence or ():
            p = evidence_path(ev.path, check)
            if p is None:
                continue
            lines = lines_of(p, check)
            if ev.surface and ev.line >= 1:
                rng = T.Range(start=pos(lines, ev.line, ev.col), end=pos(lines, ev.line, ev.col + len(ev.surface)))
            else:       # a line (where a condition is stated) or a whole cited file
                rng = T.Range(start=T.Position(line=max(0, ev.line - 1), character=0),
                              end=T.Position(line=max(0, ev.line), character=0))
            note = " ".join(x for x in (ev.note, ev.surface) if x) or os.path.basename(p)
            out.append(T.DiagnosticRelatedInformation(
                location=T.Location(uri=Path(p).as_uri(), range=rng), message=note))
        return out

    severity = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
                "info": T.DiagnosticSeverity.Information}

    def diagnostic(f, check, lines) -> T.Diagnostic:
        message = f.message
        if f.help:
            message += "\n" + f.help
        sev = severity.get(f.severity, T.DiagnosticSeverity.Warning)
        if f.acknowledged:
            # disclosed in the warnings section: it passes the gate, so it is not a warning
            message += ("\n（已在警示部分说明）" if check.lang == "zh" else
                        "\n(acknowledged in the warnings section)")
            sev = T.DiagnosticSeverity.Information
        return T.Diagnostic(
            range=T.Range(start=pos(lines, f.line, f.col), end=pos(lines, f.end_line, f.end_col)),
            severity=sev, code=f.code, source=SOURCE, message=message,
            code_description=T.CodeDescription(href=rule_docs_url(f.code)),
            related_information=related(f, check) or None,
            tags=[T.DiagnosticTag.Unnecessary] if f.code == "CV001" else None,
            data={"fingerprint": f.fingerprint, "code": f.code})

    def diagnostics(check) -> list:
        file_lines.clear()
        lines = lsp_check.line_texts(check.text)
        return [diagnostic(f, check, lines) for f in check.visible]

    # ------------------------------------------------------------------ checking
    async def run_check(uri: str):
        """Check the buffer as it is now; publish unless it changed meanwhile."""
        path = path_of(uri)
        if path is None or uri not in server.workspace.text_documents:
            return None
        doc = server.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        try:
            check = await in_worker(projects.check, path, text, folders())
        except Exception as e:  # noqa: BLE001 - reported, never a dead server
            from validator.cli import _user_errors
            if isinstance(e, _user_errors()):
                say(" ".join(str(e).split()))
            else:
                log.exception("check of %s failed", path)
                say(f"{path}: internal error: {type(e).__name__}: {e}")
            checks.pop(uri, None)
            server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[], version=version))
            return None
        check.version = version
        for e in check.errors:
            server.window_log_message(T.LogMessageParams(type=T.MessageType.Warning, message=f"caveat: {e}"))
        if current_version(uri) != version:
            return check        # closed or edited meanwhile: a newer check is on its way
        checks[uri] = check
        server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, diagnostics=diagnostics(check), version=version))
        return check

    def current_version(uri: str):
        if uri not in server.workspace.text_documents:
            return None
        return server.workspace.get_text_document(uri).version

    def schedule(uri: str, delay: float) -> None:
        old = pending.pop(uri, None)
        if old is not None:
            old.cancel()

        async def later():
            try:
                if delay:
                    await asyncio.sleep(delay)
                await run_check(uri)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - a bug in publishing: say it, keep serving
                log.exception("publishing diagnostics of %s failed", uri)
                say(f"{uri}: internal error: {type(e).__name__}: {e}")
            finally:
                if pending.get(uri) is task:
                    pending.pop(uri, None)
        task = asyncio.ensure_future(later())
        pending[uri] = task

    async def fresh(uri: str):
        """The check of the buffer as it is now (run now if the last one is of an older
        text, or of a config that has changed since); None when the document is not open
        or cannot be checked."""
        for _ in range(3):          # the text may change while it is being checked
            version = current_version(uri)
            if version is None:
                return None
            got = checks.get(uri)
            if got is not None and got.version == version and not got.project.closed:
                return got
            old = pending.pop(uri, None)
            if old is not None:
                old.cancel()
            check = await run_check(uri)
            if check is None:
                return None
            if check.version == current_version(uri):
                return check
        return None

    # ------------------------------------------------------------------ documents
    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: T.DidOpenTextDocumentParams):
        schedule(params.text_document.uri, 0)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: T.DidChangeTextDocumentParams):
        schedule(params.text_document.uri, debounce)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE, T.SaveOptions(include_text=False))
    def did_save(ls, params: T.DidSaveTextDocumentParams):
        uri = params.text_document.uri
        schedule(uri, 0)
        # the other open briefings may cite or contradict the file just saved
        for other in list(checks):
            if other != uri:
                schedule(other, debounce)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: T.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        old = pending.pop(uri, None)
        if old is not None:
            old.cancel()
        checks.pop(uri, None)
        server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # ------------------------------------------------------------------ hover
    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def hover(ls, params: T.HoverParams):
        uri = params.text_document.uri
        check = await fresh(uri)
        if check is None:
            return None
        lines = lsp_check.line_texts(check.text)
        if params.position.line >= len(lines):
            return None
        at = codec().position_from_client_units(lines, params.position)
        starts = lsp_check.line_starts(check.text)
        claim = lsp_check.claim_at(check.analysis, starts[at.line] + at.character)
        if claim is None:
            return None
        text = await in_worker(lsp_check.hover_markdown, check, claim)
        rng = T.Range(start=pos(lines, claim.line, claim.col), end=pos(lines, *_line_col(starts, claim.end)))
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text), range=rng)

    # ------------------------------------------------------------------ code actions
    def client_resolves_edits() -> bool:
        try:
            props = server.client_capabilities.text_document.code_action.resolve_support.properties
        except AttributeError:
            return False
        return "edit" in (props or ())

    def document_edit(uri: str, version, edits: list) -> T.WorkspaceEdit:
        try:
            versioned = bool(server.client_capabilities.workspace.workspace_edit.document_changes)
        except AttributeError:
            versioned = False
        if versioned:
            return T.WorkspaceEdit(document_changes=[T.TextDocumentEdit(
                text_document=T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                edits=edits)])
        return T.WorkspaceEdit(changes={uri: edits})

    def overlaps(a: T.Range, b: T.Range) -> bool:
        def key(p):
            return (p.line, p.character)
        return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)

    def matching(diag: T.Diagnostic, given) -> T.Diagnostic:
        """The client's own copy of a diagnostic, when it sent one (clients match by equality)."""
        for d in given or ():
            if d.code == diag.code and d.range == diag.range:
                return d
        return diag

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(
        code_action_kinds=[T.CodeActionKind.QuickFix], resolve_provider=True))
    async def code_action(ls, params: T.CodeActionParams):
        uri = params.text_document.uri
        only = params.context.only
        if only and not any(T.CodeActionKind.QuickFix.value.startswith(k) for k in only):
            return None
        check = await fresh(uri)
        if check is None:
            return None
        version = check.version
        lines = lsp_check.line_texts(check.text)
        actions, disclose_for = [], []
        for f in check.visible:
            diag = diagnostic(f, check, lines)
            if not overlaps(diag.range, params.range):
                continue
            diag = matching(diag, params.context.diagnostics)
            if f.code == "CV001":
                s, e = lsp_check.removal_span(check, f)
                starts = lsp_check.line_starts(check.text)
                rng = T.Range(start=pos(lines, *_line_col(starts, s)), end=pos(lines, *_line_col(starts, e)))
                title = "删除未使用的抑制注释" if check.lang == "zh" else "Remove the unused suppression"
                actions.append(T.CodeAction(title=title, kind=T.CodeActionKind.QuickFix, diagnostics=[diag],
                                            edit=document_edit(uri, version, [T.TextEdit(range=rng, new_text="")])))
                continue
            line, char, insert = lsp_check.suppression_insert(check, f)
            at = pos(lines, line + 1, char + 1)
            title = (f"抑制此处的 {f.code}（写明原因）" if check.lang == "zh" else
                     f"Suppress {f.code} here (with reason)")
            actions.append(T.CodeAction(
                title=title, kind=T.CodeActionKind.QuickFix, diagnostics=[diag],
                edit=document_edit(uri, version, [T.TextEdit(range=T.Range(start=at, end=at), new_text=insert)])))
            if check.project.disclosable(check, f):
                disclose_for.append(diag)
        if disclose_for:
            title = ("在警示部分说明（同 caveat warnings --write）" if check.lang == "zh" else
                     "Disclose in the warnings section (as caveat warnings --write)")
            action = T.CodeAction(title=title, kind=T.CodeActionKind.QuickFix, diagnostics=disclose_for,
                                  is_preferred=True, data={"uri": uri, "disclose": True})
            if not client_resolves_edits():
                action.edit = await disclose_edit(uri)
            actions.append(action)
        if current_version(uri) != version:
            return None         # edited meanwhile: these edits are of an older text
        return actions

    async def disclose_edit(uri: str):
        check = await fresh(uri)
        if check is None:
            return None
        try:
            new = await in_worker(check.project.disclosed, check.path, check.text)
        except Exception as e:  # noqa: BLE001 - a layout caveat refuses, or a bug: say so
            from validator.warnings_locate import LayoutError
            if isinstance(e, LayoutError):
                say(f"{check.path}:{e.line}: {e.message}")
            else:
                log.exception("disclosing in %s failed", check.path)
                say(f"{check.path}: internal error: {type(e).__name__}: {e}")
            return None
        if current_version(uri) != check.version:
            return None         # edited meanwhile: the edit would be of an older text
        return document_edit(uri, check.version, line_edits(check.text, new))

    @server.feature(T.CODE_ACTION_RESOLVE)
    async def resolve(ls, action: T.CodeAction):
        data = action.data if isinstance(action.data, dict) else {}
        if data.get("disclose") and data.get("uri") and action.edit is None:
            action.edit = await disclose_edit(data["uri"])
        return action

    @server.feature(T.SHUTDOWN)
    async def shutdown(ls, *args):
        for task in list(pending.values()):
            task.cancel()
        pending.clear()
        await in_worker(projects.close)
        worker.shutdown(wait=False)

    return server


def _line_col(starts: list, offset: int) -> tuple:
    """1-based (line, column) of a character offset, given the lines' start offsets."""
    from bisect import bisect_right
    i = bisect_right(starts, offset) - 1
    return i + 1, offset - starts[i] + 1


def line_edits(old: str, new: str) -> list:
    """Text edits turning ``old`` into ``new``, whole lines at a time (difflib's opcodes), so
    an editor keeps its cursor and folds outside the lines that change."""
    import difflib

    from lsprotocol import types as T

    # split on '\n' only, as caveat and the protocol count lines ('\r\n' stays whole)
    a, b = _split_lines(old), _split_lines(new)

    def at(i: int) -> T.Position:
        if i < len(a):
            return T.Position(line=i, character=0)
        if not a or a[-1].endswith("\n"):
            return T.Position(line=len(a), character=0)
        last = a[-1]
        return T.Position(line=len(a) - 1, character=len(last.encode("utf-16-le")) // 2)

    edits = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            edits.append(T.TextEdit(range=T.Range(start=at(i1), end=at(i2)), new_text="".join(b[j1:j2])))
    return edits


def _split_lines(text: str) -> list:
    out, i = [], 0
    while i < len(text):
        j = text.find("\n", i)
        if j < 0:
            out.append(text[i:])
            break
        out.append(text[i:j + 1])
        i = j + 1
    return out


@click.command("lsp")
@click.option("--corpus", "corpus", multiple=True, metavar="DIR",
              help="Corpus root, added to the config's (repeatable).")
@click.option("--config", "config_path", metavar="PATH",
              help="Config file; default: found from each document's workspace folder upwards.")
@click.option("--lang", type=click.Choice(("zh", "en")), default=None,
              help="Message language (default: each document's own).")
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the only transport; accepted for clients that pass it).")
def lsp_command(corpus, config_path, lang, stdio):
    """Run the caveat language server over stdio (diagnostics, hover, code actions)."""
    out, inp = sys.stdout.buffer, sys.stdin.buffer
    # the protocol owns stdout: anything printed by mistake goes to stderr instead
    sys.stdout = sys.stderr
    # and stdin: a process forked by multiprocessing (`caveat warnings`' corpus ledger
    # extracting many changed files) closes sys.stdin first, and would wait forever on the
    # lock the protocol's reader thread holds on the real one
    sys.stdin = open(os.devnull, encoding="utf-8")
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="caveat lsp: %(message)s")
    make_server(corpus, config_path, lang).start_io(inp, out)
