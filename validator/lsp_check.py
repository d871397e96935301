"""What the language server (validator/lsp.py) computes, apart from the protocol.

A ``Project`` is what one config governs, loaded once: the config found the way the
command line finds it (from the workspace folder upwards, ``.caveat.yaml`` or
``pyproject.toml`` ``[tool.caveat]``), the options built from it, the rule packs and the
corpus's claim ledger, kept open so that checking a buffer again after an edit re-reads
nothing but the buffer (and the corpus files saved meanwhile). ``Project.check`` gives the
findings of an editor's buffer as ``caveat check`` would report them for a file holding
that text: same selection, severity overrides and inline suppressions. ``Project.disclosed``
is the text ``caveat warnings --write`` would write.

Positions here are what caveat uses (1-based lines, columns and offsets in characters);
the protocol side converts them to the client's units. Everything here touches the
ledger's SQLite connection, so the server calls it from one worker thread only.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

# Statements of the hovered figure's claim key listed in a hover, at most.
MAX_HOVER_STATEMENTS = 12


def _stamp(path: Optional[str]):
    """What tells a config file was edited since it was loaded."""
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


@dataclass
class BufferCheck:
    """The findings of one buffer's text, with what a hover or a code action needs."""
    path: str
    text: str
    findings: list                  # every finding, suppressed ones included (f.suppressed)
    analysis: object                # claims.api.Analysis of the text
    corpus: object = None           # validator.corpus.Corpus of this check, or None
    errors: list = field(default_factory=list)     # one-line messages (unreadable corpus files…)
    project: object = None
    version: Optional[int] = None   # the editor's version of the text (set by the server)

    @property
    def visible(self) -> list:
        """What the editor shows: what `caveat check` reports (suppressed ones left out)."""
        return [f for f in self.findings if not f.suppressed]

    @property
    def lang(self) -> str:
        return (self.project.options.lang if self.project is not None else None) or \
            getattr(self.analysis.document, "lang", "en")


class Project:
    """Config, options, rules and claim ledger of the documents one config governs."""

    def __init__(self, config_path: Optional[str], corpus_args=(), lang: Optional[str] = None):
        from validator import config as config_mod
        from validator import packs
        from validator.cli import build_options

        self.config_path = config_path
        self.stamp = _stamp(config_path)
        self.corpus_args = tuple(os.path.abspath(c) for c in corpus_args)
        self.lang = lang
        # never config_mod.load(None): that would discover from the server's working
        # directory, not from the document's workspace folder
        self.cfg = config_mod.load(config_path) if config_path else config_mod.Config()
        self.options, self.sel, self.ign = build_options(self.cfg, self.corpus_args, (), (), (), None, lang)
        self.rules = packs.load_rules(self.options)
        self.errors: list = []
        self.closed = False
        self.ledger = None
        if self.options.corpus:
            for root in self.options.corpus:
                if not os.path.exists(root):
                    from validator.errors import UsageError
                    raise UsageError(f"{root}: corpus folder does not exist")
            try:
                from validator.ledger import CorpusIndex
                # jobs=1: no forked extraction workers. The server is multi-threaded (the
                # protocol's stdin reader), and a fork copies the locks other threads hold.
                # A cold ledger of a large corpus is then built on one core, once: a
                # `caveat check --corpus` builds the same ledger file in parallel.
                self.ledger = CorpusIndex(self.options.corpus, jobs=1)
            except Exception as e:  # noqa: BLE001 - a cache: the corpus is analysed in memory
                self.errors.append(f"claim ledger unavailable ({e}); analysing the corpus in memory")

    def stale(self) -> bool:
        return _stamp(self.config_path) != self.stamp

    def close(self) -> None:
        self.closed = True
        if self.ledger is not None:
            try:
                self.ledger.close()
            except Exception:  # noqa: BLE001 - a cache that cannot close is no reason to fail
                pass
            self.ledger = None

    # ------------------------------------------------------------------ checking
    def check(self, path: str, text: str) -> BufferCheck:
        """The findings of ``text`` as the file ``path``: what `caveat check PATH` reports
        for a file holding this text (selection, severity overrides, inline suppressions
        and unused-suppression findings applied the way validator/cli.py applies them)."""
        from validator import run
        from validator import suppress as suppress_mod
        from validator.gate import is_enabled

        res = run.check_text(text, path, self.options, rules=self.rules, ledger=self.ledger,
                             max_bytes=self.cfg.max_file_size)
        analysis = res.analyses[path]
        lang = self.options.lang or getattr(analysis.document, "lang", "en")
        findings = []
        for f in res.findings:
            if not is_enabled(f.code, self.sel, self.ign, f.family, f.rule):
                continue
            if f.code in self.cfg.severity:
                f.severity = self.cfg.severity[f.code]
            findings.append(f)
        sups = suppress_mod.parse(analysis.document, path)
        suppress_mod.apply(findings, sups)
        for f in suppress_mod.unused(sups, self.sel, self.ign, lambda _p: lang):
            if f.code in self.cfg.severity:
                f.severity = self.cfg.severity[f.code]
            findings.append(f)
        findings.sort(key=lambda f: (f.line, f.col, f.code))
        return BufferCheck(path, text, findings, analysis, res.corpus,
                           list(self.errors) + list(res.errors), self)

    # ------------------------------------------------------------------ disclosing
    def disclosable(self, check: BufferCheck, finding) -> bool:
        """Whether `caveat warnings --write` would write an entry for ``finding``."""
        from validator.warnings_section import select
        return bool(select([finding], check.path, tuple(self.options.corpus or ())))

    def disclosed(self, path: str, text: str) -> str:
        """The text `caveat warnings --write PATH` writes for a file holding ``text``
        (validator/warnings_cmd.py does it: the same session, findings and writer). Raises
        warnings_locate.LayoutError where the command would refuse the file."""
        from validator.warnings_cmd import Session
        session = Session(self.corpus_args, self.config_path, self.lang, cfg=self.cfg)
        try:
            return session.rewrite(path, text).text
        finally:
            if session.corpus is not None:
                session.corpus.close()


class Projects:
    """The projects of the open documents, by config file (reloaded when it changes)."""

    def __init__(self, corpus_args=(), config_path: Optional[str] = None, lang: Optional[str] = None):
        self.corpus_args = tuple(corpus_args)
        self.config_path = os.path.abspath(config_path) if config_path else None
        self.lang = lang
        self._by_config: dict = {}

    def config_for(self, path: str, folders=()) -> Optional[str]:
        """The config governing ``path``: ``--config`` when given, else the one the command
        line finds when run in the workspace folder holding the file (from there upwards),
        else from the file's own folder upwards when it is outside every workspace folder."""
        from validator import config as config_mod
        if self.config_path:
            return self.config_path
        return config_mod.discover(workspace_folder(path, folders) or os.path.dirname(path))

    def project_for(self, path: str, folders=()) -> Project:
        cfg_path = self.config_for(path, folders)
        p = self._by_config.get(cfg_path)
        if p is not None and p.stale():
            p.close()
            p = None
        if p is None:
            p = self._by_config[cfg_path] = Project(cfg_path, self.corpus_args, self.lang)
        return p

    def check(self, path: str, text: str, folders=()) -> BufferCheck:
        return self.project_for(path, folders).check(path, text)

    def close(self) -> None:
        for p in self._by_config.values():
            p.close()
        self._by_config.clear()


def workspace_folder(path: str, folders) -> Optional[str]:
    """The deepest of ``folders`` (file system paths) holding ``path``, or None."""
    real = os.path.realpath(path)
    best = None
    for f in folders:
        rf = os.path.realpath(f)
        if real == rf or real.startswith(os.path.join(rf, "")):
            if best is None or len(rf) > len(best):
                best = rf
    return best


# ---------------------------------------------------------------------- text positions

def line_starts(text: str) -> list:
    """0-based character offset of each line's start (lines end at '\\n', as in claims)."""
    out = [0]
    i = text.find("\n")
    while i >= 0:
        out.append(i + 1)
        i = text.find("\n", i + 1)
    return out


def line_texts(text: str) -> list:
    """Each line's text without its line ending (CRLF or LF)."""
    return [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]


# ---------------------------------------------------------------------- hover

def claim_at(analysis, offset: int):
    """The figure under the character ``offset`` (or just after its last character)."""
    for c in analysis.claims:
        if c.start <= offset <= c.end and c.start != c.end:
            if offset == c.end and any(o.start == offset for o in analysis.claims if o is not c):
                continue        # the next figure starts here
            return c
    return None


_LABELS = {
    "en": {"value": "value", "base": "base", "approx": "approximate", "bound": "bound",
           "subject": "subject", "baseline": "baseline", "metric": "metric",
           "conditions": "conditions", "none": "none", "markers": "markers", "unit": "unit",
           "key": "claim key", "role": "role",
           "others": "Other statements of this key", "no_key": "no claim key (no metric or subject)",
           "no_others": "no other statement of this key in the corpus", "this": "this file",
           "more": "and {n} more"},
    "zh": {"value": "数值", "base": "基本单位", "approx": "约数", "bound": "界限",
           "subject": "对象", "baseline": "基线", "metric": "指标",
           "conditions": "条件", "none": "无", "markers": "标记", "unit": "单位",
           "key": "声明键", "role": "位置",
           "others": "同一声明键的其他说法", "no_key": "无声明键（缺指标或对象）",
           "no_others": "语料中没有同一声明键的其他说法", "this": "本文",
           "more": "另有 {n} 处"},
}
_BOUND = {"gt": ">", "ge": "≥", "lt": "<", "le": "≤"}


def _num(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _value(c, base: bool = False, unit: bool = True) -> str:
    v, lo, hi, u = ((c.base_value, c.base_low, c.base_high, c.base_unit) if base
                       else (c.value, c.low, c.high, c.unit))
    if v is not None:
        s = _num(v)
    elif lo is not None or hi is not None:
        s = f"{_num(lo) if lo is not None else '…'}–{_num(hi) if hi is not None else '…'}"
    else:
        return ""
    if c.negative:
        s = "−" + s
    return f"{s} {u}" if unit and u != "dimensionless" else s


def _cond_items(c) -> list:
    """[(facet, value, scope, line)] of a claim's conditions (objects or stored dicts)."""
    out = []
    for facet, cond in (c.conditions or {}).items():
        get = cond.get if isinstance(cond, dict) else (lambda k, _c=cond: getattr(_c, k, None))
        out.append((facet, get("value") or get("surface") or "", get("scope") or "", get("line")))
    return out


def _md(s) -> str:
    """Text for a Markdown hover, its emphasis and code characters escaped."""
    s = str(s)
    for ch in "\\`*_[]<>|":
        s = s.replace(ch, "\\" + ch)
    return s


def _file_uri(path: str, line: Optional[int] = None) -> str:
    from pathlib import Path
    uri = Path(os.path.abspath(path)).as_uri()
    return f"{uri}#L{line}" if line else uri


def hover_markdown(check: BufferCheck, claim) -> str:
    """The claim under the cursor, as Markdown: its normalized value and unit, subject,
    metric, conditions (with where each was stated), markers, claim key, and the other
    statements of that key in this file and across the corpus (with links)."""
    from validator.facts import claim_key, keyed_claims

    L = _LABELS.get(check.lang, _LABELS["en"])
    c = claim
    out = [f"**{_md(c.surface)}** · {c.kind}"]
    rows = []
    val = _value(c, unit=False)
    if val:
        base = _value(c, base=True)
        extra = [L["approx"]] if c.approx else []
        if c.bound:
            extra.append(f"{L['bound']} {_BOUND.get(c.bound, c.bound)}")
        rows.append(f"- {L['value']}: `{val}` · {L['unit']} `{c.unit}` · {L['base']} `{base}`"
                    + (f" · {', '.join(extra)}" if extra else ""))
    who = [f"{L['subject']} `{c.subject}`" if c.subject else "",
           f"{L['baseline']} `{c.baseline}`" if c.baseline else "",
           f"{L['metric']} `{c.metric}`" if c.metric else ""]
    if any(who):
        rows.append("- " + " · ".join(w for w in who if w))
    conds = _cond_items(c)
    if conds:
        items = []
        for facet, value, scope, line in conds:
            where = ", ".join(x for x in (scope, f"L{line}" if line else "") if x)
            items.append(f"{_md(facet)} = {_md(value)}" + (f" ({where})" if where else ""))
        rows.append(f"- {L['conditions']}: " + "; ".join(items))
    else:
        rows.append(f"- {L['conditions']}: {L['none']}")
    rows.append(f"- {L['markers']}: " + (", ".join(f"`{m}`" for m in c.markers) if c.markers else L["none"]))
    rows.append(f"- {L['role']}: `{c.role}`")
    key = claim_key(c)
    rows.append(f"- {L['key']}: `{key}`" if key else f"- {L['key']}: {L['no_key']}")
    out.append("\n".join(rows))
    if not key:
        return "\n\n".join(out)

    others = [(check.path, o) for o in keyed_claims(check.analysis).get(key, ()) if o is not c]
    if check.corpus is not None:
        others += check.corpus.by_key(key, exclude=check.path)
    if not others:
        out.append(f"_{L['no_others']}_")
        return "\n\n".join(out)
    lines = [f"**{L['others']}** ({len(others)}):"]
    for p, o in others[:MAX_HOVER_STATEMENTS]:
        name = L["this"] if p == check.path else (check.corpus.short(p) if check.corpus else p)
        cond = ", ".join(f"{facet} {value}" for facet, value, _, _ in sorted(_cond_items(o)))
        lines.append(f"- [{_md(name)}:{o.line}]({_file_uri(p, o.line)}) **{_md(o.surface)}**"
                     + (f" — {_md(cond)}" if cond else ""))
    if len(others) > MAX_HOVER_STATEMENTS:
        lines.append("- " + L["more"].format(n=len(others) - MAX_HOVER_STATEMENTS))
    out.append("\n".join(lines))
    return "\n\n".join(out)


# ---------------------------------------------------------------------- code actions

def suppression_comment(finding, lang: str) -> str:
    """The inline comment (validator/suppress.py syntax) that suppresses ``finding`` here,
    with a reason for the author to write."""
    reason = "待补充：为何可以忽略" if lang == "zh" else "TODO: why this is fine"
    return f'<!-- caveat: ignore {finding.code} reason="{reason}" -->'


def suppression_insert(check: BufferCheck, finding) -> tuple:
    """(0-based line, character in that line, text to insert) putting the suppression of
    ``finding`` where it covers the finding and changes nothing else that is read: at the
    end of the finding's line; inside the last cell of a table row (after the row's last
    pipe it would add a cell); on a line of its own above a heading (a section or entry
    heading with a comment at its end is another heading: its declared count, its title)."""
    text = check.text
    lines = line_texts(text)
    i = max(0, min(finding.line - 1, len(lines) - 1))
    line = lines[i]
    comment = suppression_comment(finding, check.lang)
    doc = check.analysis.document
    headings = {s.line for s in doc.sections} | {e.line for e in doc.entries}
    if finding.line in headings:
        nl = "\r\n" if text.split("\n", finding.line)[finding.line - 1].endswith("\r") else "\n"
        return i, 0, comment + nl
    body = line.rstrip()
    if body.lstrip().startswith("|") and body.endswith("|") and len(body.strip()) > 1:
        at = len(body) - 1
        return i, at, ("" if line[:at].endswith(" ") else " ") + comment + " "
    return i, len(body), " " + comment


def removal_span(check: BufferCheck, finding) -> tuple:
    """(start, end) character offsets to delete an unused suppression (CV001): the whole
    line when the comment is alone on it, else the comment and the blanks before it."""
    starts = line_starts(check.text)
    s = starts[finding.line - 1] + finding.col - 1
    e = starts[finding.end_line - 1] + finding.end_col - 1
    text = check.text
    ls = starts[finding.line - 1]
    le = text.find("\n", e)
    le = len(text) if le < 0 else le + 1
    if not text[ls:s].strip() and not text[e:le].strip():
        return ls, le
    while s > ls and text[s - 1] in " \t":
        s -= 1
    return s, e
