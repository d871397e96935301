"""Check one text that is not (or not yet) the file on disk: ``caveat check -`` (stdin).

The text is analysed under the path it will have (``--stdin-filename``), so its corpus,
its language and the citations it resolves are those of ``caveat check PATH``; inside a
corpus it stands in for the file on disk (which the corpus otherwise reads), and the
claim ledger never stores it. Gives the ``RunResult`` ``validator.run.check_paths``
gives, so the command line treats both alike.
"""
from __future__ import annotations

import os

from validator.options import Options


def read_stdin(stream, path: str, max_bytes: int) -> tuple:
    """(text, info) of the bytes on ``stream``, checked the way a file is (UTF-8, no NUL,
    within the size limit); ``InputError`` naming ``path`` otherwise."""
    from claims.errors import InputError
    from claims.reader import decode_bytes
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputError(path, f"standard input too large (> limit {max_bytes} bytes)")
    return decode_bytes(data, path)


def check_text(text: str, path: str, options: Options | None = None, *, bom: bool = False,
               newline=None):
    from claims.api import analyze
    from validator import packs
    from validator.corpus import Corpus
    from validator.errors import UsageError
    from validator.run import RunResult, _check_one, _read

    options = options or Options()
    rules = packs.load_rules(options)
    for root in options.corpus or ():
        if not os.path.exists(root):
            raise UsageError(f"{root}: corpus folder does not exist")
    result = RunResult(rules=rules)
    corpus = Corpus(options.corpus, _read, errors=[]) if options.corpus else None
    result.corpus = corpus
    analysis = analyze(text, path, bom=bom, newline=newline)
    result.analyses[path] = analysis
    if corpus is not None:
        corpus.add(path, analysis)      # the edited text, not the file as on disk
    found, err = _check_one(path, analysis, rules, corpus, options)
    result.findings = sorted(found, key=lambda f: (f.path, f.line, f.col, f.code))
    if err is not None:
        result.errors.append(err)
    if corpus is not None:
        result.errors += [e for e in corpus.errors if e not in result.errors]
    return result
