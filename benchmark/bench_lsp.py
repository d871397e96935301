"""Benchmark of `caveat lsp` (issue 15): how long after an edit the editor has its diagnostics.

The server runs as an editor runs it (stdio, a workspace folder holding a copy of the
example corpus and a `.caveat.yaml` naming it), driven by pygls's client. Per round, the
briefing's buffer gets a new figure and three figures are timed, interleaved with the
baseline of the same run:

- re-check: didChange then didSave at once (a save checks at once, without the typing
  debounce) -> publishDiagnostics of that version: what a re-check of one edited file costs;
- typing: didChange alone -> publishDiagnostics, i.e. the debounce (lsp.DEBOUNCE_SECONDS)
  plus the re-check;
- baseline: one-file `caveat check --corpus` of the same text saved to disk, as a process.

    python benchmark/bench_lsp.py [--rounds 10] [--extra-files N]

``--extra-files N`` adds a synthetic corpus of N files (benchmark/gen_corpus.py) beside the
example's, to see what the corpus's size costs a re-check (a stat per file, one query per
claim key).
"""
from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "tests" / "data" / "briefing-corpus"
BRIEFING = "briefings/2026-11-02-inference.md"


async def main(rounds: int, extra_files: int = 0) -> None:
    from lsprotocol import types as T
    from pygls.lsp.client import LanguageClient

    from validator.lsp import DEBOUNCE_SECONDS

    tmp = Path(tempfile.mkdtemp(prefix="bench-lsp-"))
    ws = tmp / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".caveat"))
    (ws / ".caveat.yaml").write_text('corpus: ["."]\n', encoding="utf-8")
    if extra_files:
        subprocess.run([sys.executable, str(REPO / "benchmark" / "gen_corpus.py"), str(ws / "synthetic"),
                        "--files", str(extra_files)], check=True, capture_output=True)
    path = ws / BRIEFING
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("四、"))

    client = LanguageClient("bench", "1")
    got: dict = {}

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(ls, params):
        got[params.version] = (time.perf_counter(), len(params.diagnostics))

    async def wait(version):
        while version not in got:
            await asyncio.sleep(0.001)
        return got[version]

    await client.start_io(sys.executable, "-m", "validator.cli", "lsp", cwd=str(REPO))
    await client.initialize_async(T.InitializeParams(
        capabilities=T.ClientCapabilities(), root_uri=ws.as_uri(),
        workspace_folders=[T.WorkspaceFolder(uri=ws.as_uri(), name="ws")]))
    client.initialized(T.InitializedParams())

    t0 = time.perf_counter()
    client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=uri, language_id="markdown", version=1, text=text)))
    t_open, n_open = await wait(1)
    print(f"corpus: the example's {len(list(EXAMPLE.rglob('*.md')))} files + {extra_files} synthetic")
    print(f"open -> diagnostics (cold server: patterns compiled, ledger built): {t_open - t0:.3f} s, {n_open} diagnostics")

    def edited(k: int) -> str:
        new = list(lines)
        new[at:at] = [f"补充 {k}：SGLang 比 vLLM 快 {20 + k}%。", ""]
        return "\n".join(new)

    recheck, typing, cli = [], [], []
    version = 1
    for k in range(rounds):
        version += 1
        t0 = time.perf_counter()
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=edited(k))]))
        client.text_document_did_save(T.DidSaveTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=uri)))
        recheck.append((await wait(version))[0] - t0)

        version += 1
        t0 = time.perf_counter()
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=edited(k + 100))]))
        typing.append((await wait(version))[0] - t0)

        scratch = ws / "briefings" / "bench-copy.md"
        scratch.write_text(edited(k), encoding="utf-8")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "validator.cli", "check", str(scratch)], cwd=ws,
                       capture_output=True, check=False)
        cli.append(time.perf_counter() - t0)
        scratch.unlink()

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    shutil.rmtree(tmp, ignore_errors=True)

    def med(xs):
        return statistics.median(xs)
    print(f"rounds: {rounds} (medians; min–max)")
    print(f"re-check after an edit (didChange+didSave -> diagnostics): {med(recheck):.3f} s "
          f"({min(recheck):.3f}–{max(recheck):.3f})")
    print(f"typing (didChange -> diagnostics, debounce {DEBOUNCE_SECONDS} s included): {med(typing):.3f} s "
          f"({min(typing):.3f}–{max(typing):.3f})")
    print(f"baseline, one-file `caveat check` process, same corpus: {med(cli):.3f} s "
          f"({min(cli):.3f}–{max(cli):.3f})")
    print(f"re-check / baseline: {med(recheck) / med(cli):.2f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--extra-files", type=int, default=0)
    args = ap.parse_args()
    asyncio.run(main(args.rounds, args.extra_files))
