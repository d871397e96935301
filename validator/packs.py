"""Rule packs: load ``rules/<pack>/<CODE>.yaml`` (built-in and ``--rules`` folders), validate strictly.

Every problem in a pack is a ``UsageError('file:line: what is wrong')`` raised before
anything runs. A rule is data: its ``when:`` is a tiny condition language compiled here
to durable_rules JSON, its messages are templates with plain ``{name}`` placeholders
rendered by a restricted formatter (no attribute or index access, no eval).
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from . import kinds as kinds_mod
from .errors import UsageError
from .finding import SEVERITIES, Evidence, Finding
from .limits import MAX_PACK_BYTES
from .safe_yaml import YDict, line_of, load_file

CODE_RE = re.compile(r"^[A-Z]{1,6}[0-9]{2,5}$")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
COMMON_FIELDS = {"path": str, "line": int, "col": int, "end_line": int, "end_col": int,
                 "surface": str, "key": str}
RESERVED_FIELDS = ("id", "sid", "rule")
LANGS = ("zh", "en")

# key -> (type(s), required). ``family`` and ``acknowledgeable`` belong to the kind
# (validator/kinds); a rule file may restate them, and then they must agree with it.
SCHEMA = {
    "code": (str, True), "name": (str, True), "family": (str, False), "extends": (str, True),
    "severity": (str, True), "summary": (str, True), "why": (str, True),
    "params": (dict, False), "when": (dict, False), "message": (dict, True),
    "fix": (dict, True), "acknowledgeable": (bool, False), "preview": (bool, False),
}
_OPS = {"eq": None, "ne": "$neq", "gt": "$gt", "ge": "$gte", "lt": "$lt", "le": "$lte"}
_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a mapping"}


@dataclass
class Rule:
    code: str
    name: str
    family: str
    extends: str
    severity: str
    summary: str
    why: str
    params: dict
    when: dict                   # the condition as written (or the kind's default)
    condition: dict              # compiled durable_rules JSON for the fact ``m``
    message: dict                # {'zh': template, 'en': template}
    fix: dict
    acknowledgeable: bool
    path: str = ""
    pack: str = ""
    kind: object = field(default=None, repr=False)
    # a rule whose false-alarm rate on real briefings is not yet known: off unless the run asks
    # for preview rules (``--preview``, ``preview: true`` in config), as ruff ships its preview rules
    preview: bool = False

    def render(self, fact: dict, side: Optional[dict], lang: str) -> Finding:
        """The finding this rule reports for one matched fact (called by the engine's action)."""
        lang = lang if lang in LANGS else "en"
        side = side or {}
        values = dict(fact)
        values.update(side.get("vars") or {})
        evidence = []
        for ev in side.get("evidence") or ():
            evidence.append(ev if isinstance(ev, Evidence) else Evidence(
                path=str(ev.get("path", "")), line=int(ev.get("line", 0) or 0),
                surface=str(ev.get("surface", "")), col=int(ev.get("col", 1) or 1),
                note=str(ev.get("note", ""))))
        return Finding(
            code=self.code, family=self.family, severity=self.severity,
            path=str(fact.get("path", "")), line=int(fact.get("line", 0)),
            col=int(fact.get("col", 1)), end_line=int(fact.get("end_line", fact.get("line", 0))),
            end_col=int(fact.get("end_col", fact.get("col", 1))),
            surface=str(fact.get("surface", "")),
            message=format_template(self.message[lang], values),
            evidence=evidence, acknowledgeable=self.acknowledgeable, rule=self.name,
            key=str(fact.get("key", "")), help=format_template(self.fix[lang], values))


# ---------------------------------------------------------------- templates

class _Restricted(string.Formatter):
    """``{name}`` only; values missing at render time show as '?' rather than failing a run."""

    def get_field(self, field_name, args, kwargs):
        if not IDENT_RE.match(field_name):
            raise ValueError(f"placeholder {{{field_name}}} is not a plain name")
        return kwargs.get(field_name, "?"), field_name

    def format_field(self, value, format_spec):
        if isinstance(value, float):
            value = f"{value:.4g}"
        return str(value)

    def convert_field(self, value, conversion):
        return value


_FORMATTER = _Restricted()


def template_names(template: str) -> list:
    """Placeholder names in ``template``; ValueError for anything but plain ``{name}``."""
    names = []
    for _lit, fname, spec, conv in string.Formatter().parse(template):
        if fname is None:
            continue
        if not IDENT_RE.match(fname) or conv or spec:
            raise ValueError(f"placeholder {{{fname}{'!' + conv if conv else ''}"
                             f"{':' + spec if spec else ''}}} is not a plain {{name}}")
        names.append(fname)
    return names


def format_template(template: str, values: dict) -> str:
    return _FORMATTER.vformat(template, (), values)


# ---------------------------------------------------------------- conditions

def compile_when(cond, fields: dict, where) -> dict:
    """Condition language -> durable_rules JSON. ``where(obj, key)`` gives 'file:line' for errors."""
    if not isinstance(cond, dict):
        raise UsageError(f"{where(cond, None)}: a condition must be a mapping")
    if "all" in cond or "any" in cond:
        op = "all" if "all" in cond else "any"
        if len(cond) != 1:
            raise UsageError(f"{where(cond, op)}: '{op}' must be the only key of its condition")
        parts = cond[op]
        if not isinstance(parts, list) or not parts:
            raise UsageError(f"{where(cond, op)}: '{op}' needs a non-empty list of conditions")
        return {"$and" if op == "all" else "$or": [compile_when(p, fields, where) for p in parts]}
    unknown = [k for k in cond if k not in ("field", "in", *_OPS)]
    if unknown:
        raise UsageError(f"{where(cond, unknown[0])}: unknown condition key {unknown[0]!r} "
                         f"(use field with one of {', '.join([*_OPS, 'in'])}, or all/any)")
    if "field" not in cond:
        raise UsageError(f"{where(cond, None)}: condition lacks 'field'")
    fname = cond["field"]
    if fname not in fields:
        raise UsageError(f"{where(cond, 'field')}: unknown field {fname!r} "
                         f"(this kind offers: {', '.join(sorted(fields))})")
    ops = [k for k in cond if k != "field"]
    if len(ops) != 1:
        raise UsageError(f"{where(cond, None)}: condition on {fname!r} needs exactly one operator")
    op = ops[0]
    ftype = fields[fname]
    values = cond[op] if op == "in" else [cond[op]]
    if op == "in" and (not isinstance(values, list) or not values):
        raise UsageError(f"{where(cond, op)}: 'in' needs a non-empty list")
    for v in values:
        if not _is_type(v, ftype):
            raise UsageError(f"{where(cond, op)}: field {fname!r} is {_TYPE_NAMES[ftype]}, "
                             f"got {v!r}")
        if op in ("gt", "ge", "lt", "le") and ftype not in (int, float):
            raise UsageError(f"{where(cond, op)}: '{op}' needs a numeric field, {fname!r} is not")
    if op == "in":
        return {"$or": [{fname: v} for v in values]} if len(values) > 1 else {fname: values[0]}
    if op == "eq":
        return {fname: values[0]}
    return {_OPS[op]: {fname: values[0]}}


def evaluate(expr: dict, fact: dict) -> bool:
    """Evaluate compiled condition JSON in Python: used to verify that the engine ran
    every action it should have (a silent miss would be a false pass)."""
    for k, v in expr.items():
        if k == "$and":
            if not all(evaluate(e, fact) for e in v):
                return False
        elif k == "$or":
            if not any(evaluate(e, fact) for e in v):
                return False
        elif k.startswith("$"):
            (fname, want), = v.items()
            got = fact.get(fname)
            if got is None:
                return False
            try:
                ok = {"$neq": got != want, "$gt": got > want, "$gte": got >= want,
                      "$lt": got < want, "$lte": got <= want}[k]
            except TypeError:
                return False
            if not ok:
                return False
        else:
            got = fact.get(k)
            if got is None or got != v or isinstance(got, bool) != isinstance(v, bool):
                return False
    return True


def condition_fields(expr: dict) -> set:
    out = set()
    for k, v in expr.items():
        if k in ("$and", "$or"):
            for e in v:
                out |= condition_fields(e)
        elif k.startswith("$"):
            out |= set(v)
        else:
            out.add(k)
    return out


def _is_type(v, t) -> bool:
    if t is float:
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t is int:
        return isinstance(v, int) and not isinstance(v, bool)
    if t is dict:
        return isinstance(v, dict)
    if t is list:
        return isinstance(v, list)
    return isinstance(v, t)


# ---------------------------------------------------------------- loading

def _param_problem(kind, k, v):
    """What is wrong with param ``k`` = ``v`` for ``kind`` (a rule file or a config
    override), or None."""
    if k not in kind.PARAMS:
        return (f"unknown param {k!r} for kind {kind.NAME!r} "
                f"(allowed: {', '.join(sorted(kind.PARAMS)) or 'none'})")
    if not _is_type(v, kind.PARAMS[k]):
        return f"param {k!r} must be {_TYPE_NAMES[kind.PARAMS[k]]}, got {v!r}"
    return None


def builtin_rules_dir() -> Path:
    here = Path(__file__).resolve().parent.parent / "rules"
    if here.is_dir():
        return here
    try:  # installed (non-editable): rules/ ships as the package caveat_rules
        import caveat_rules
        return Path(caveat_rules.__file__).resolve().parent
    except ImportError:  # pragma: no cover
        return here


def _rule_files(root: Path, user: bool) -> list:
    """``root/<pack>/*.yaml``; a user folder may also hold ``*.yaml`` directly (pack = folder name)."""
    files = []
    if user:
        files += sorted(p for p in root.glob("*.yaml") if p.is_file())
    for pack in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        files += sorted(p for p in pack.glob("*.yaml") if p.is_file())
    return files


def load_rule(path: Path, pack: str) -> Rule:
    p = str(path)
    doc = load_file(path, MAX_PACK_BYTES)

    def where(obj, key):
        return f"{p}:{line_of(obj, key, 1)}"

    if not isinstance(doc, YDict):
        raise UsageError(f"{p}:1: a rule file must be a mapping of rule fields")
    for k in doc:
        if k not in SCHEMA:
            raise UsageError(f"{where(doc, k)}: unknown key {k!r} (allowed: {', '.join(SCHEMA)})")
    for k, (t, required) in SCHEMA.items():
        if k not in doc:
            if required:
                raise UsageError(f"{p}:{doc.line or 1}: missing field {k!r}")
            continue
        if not _is_type(doc[k], t):
            raise UsageError(f"{where(doc, k)}: {k!r} must be {_TYPE_NAMES[t]}, got {doc[k]!r}")
        if t is str and not doc[k].strip():
            raise UsageError(f"{where(doc, k)}: {k!r} is empty")
    code = doc["code"]
    if not CODE_RE.match(code):
        raise UsageError(f"{where(doc, 'code')}: code {code!r} must look like CV101")
    if path.stem != code:
        raise UsageError(f"{where(doc, 'code')}: code {code!r} differs from the file name {path.name!r}")
    if not NAME_RE.match(doc["name"]):
        raise UsageError(f"{where(doc, 'name')}: name {doc['name']!r} must be dotted lowercase, "
                         f"e.g. contradiction.figure")
    if doc["severity"] not in SEVERITIES:
        raise UsageError(f"{where(doc, 'severity')}: unknown severity {doc['severity']!r} "
                         f"(one of {', '.join(SEVERITIES)})")
    kind = kinds_mod.get(doc["extends"])
    if kind is None:
        raise UsageError(f"{where(doc, 'extends')}: unknown kind {doc['extends']!r} "
                         f"(known: {', '.join(sorted(kinds_mod.registry())) or 'none'})")
    if doc.get("family", kind.FAMILY) != kind.FAMILY:
        raise UsageError(f"{where(doc, 'family')}: family {doc['family']!r} disagrees with kind "
                         f"{kind.NAME!r}, which is of family {kind.FAMILY!r} (a rule's family "
                         f"comes from the kind it extends: delete this line)")
    if doc.get("acknowledgeable", kind.ACKNOWLEDGEABLE) != kind.ACKNOWLEDGEABLE:
        says = ("can be acknowledged in the warnings section" if kind.ACKNOWLEDGEABLE
                else "must be fixed, not acknowledged")
        raise UsageError(f"{where(doc, 'acknowledgeable')}: {kind.FAMILY} findings {says} "
                         f"(that comes from the kind {kind.NAME!r}: delete this line)")
    params = dict(getattr(kind, "DEFAULTS", {}) or {})
    given = doc.get("params") or YDict()
    for k, v in given.items():
        problem = _param_problem(kind, k, v)
        if problem:
            raise UsageError(f"{where(given, k)}: {problem}")
        params[k] = v
    for k in kind.PARAMS:
        if k not in params:
            raise UsageError(f"{p}:{line_of(doc, 'params', 1)}: missing param {k!r} "
                             f"for kind {kind.NAME!r}")
    fields = {**COMMON_FIELDS, **kind.FIELDS}
    when = doc.get("when")
    if when is None:
        when = kind.WHEN
        condition = compile_when(when, fields, lambda o, k: f"kind {kind.NAME} default when")
    else:
        condition = compile_when(when, fields, where)
    texts = {}
    known_names = set(fields) | set(getattr(kind, "VARS", ()) or ())
    for k in ("message", "fix"):
        m = doc[k]
        for lang in LANGS:
            if lang not in m or not isinstance(m[lang], str) or not m[lang].strip():
                raise UsageError(f"{where(doc, k)}: {k!r} needs a non-empty {lang!r} text")
        extra = [x for x in m if x not in LANGS]
        if extra:
            raise UsageError(f"{where(m, extra[0])}: unknown language {extra[0]!r} in {k!r} "
                             f"(zh and en)")
        for lang in LANGS:
            try:
                names = template_names(m[lang])
            except ValueError as e:
                raise UsageError(f"{where(m, lang)}: {k}.{lang}: {e}") from None
            if hasattr(kind, "VARS"):
                bad = [n for n in names if n not in known_names]
                if bad:
                    raise UsageError(f"{where(m, lang)}: {k}.{lang}: unknown placeholder "
                                     f"{{{bad[0]}}} (known: {', '.join(sorted(known_names))})")
        texts[k] = {lang: m[lang] for lang in LANGS}
    return Rule(code=code, name=doc["name"], family=kind.FAMILY, extends=doc["extends"],
                severity=doc["severity"], summary=doc["summary"].strip(), why=doc["why"].strip(),
                params=params, when=when, condition=condition, message=texts["message"],
                fix=texts["fix"], acknowledgeable=kind.ACKNOWLEDGEABLE, path=p, pack=pack,
                kind=kind, preview=bool(doc.get("preview", False)))


def load_all(rules_dirs=()) -> list:
    """Every rule of the built-in packs and of each user folder, validated; codes unique."""
    rules, seen = [], {}
    roots = [(builtin_rules_dir(), False)]
    for d in rules_dirs or ():
        pd = Path(d)
        if not pd.is_dir():
            raise UsageError(f"{d}: --rules folder does not exist")
        roots.append((pd, True))
    for root, user in roots:
        if not root.is_dir():
            continue
        for f in _rule_files(root, user):
            pack = f.parent.name
            rule = load_rule(f, pack)
            if rule.code in seen:
                raise UsageError(f"{f}:{1}: duplicate code {rule.code} (also defined in {seen[rule.code]})")
            seen[rule.code] = str(f)
            rules.append(rule)
    rules.sort(key=lambda r: r.code)
    return rules


def _matches(code: str, family: str, name: str, sel: str) -> bool:
    s = sel.strip()
    return code.startswith(s.upper()) or s == family or s == name or (s.upper() == "ALL")


def select_rules(rules: list, options) -> list:
    """Apply ``--select/--ignore``, severity and parameter overrides from ``Options``."""
    if options is None:
        return rules
    codes = {r.code: r for r in rules}
    for sel in list(options.select or []) + list(options.ignore or []):
        if not any(_matches(r.code, r.family, r.name, sel) for r in rules):
            raise UsageError(f"unknown rule code or family {sel!r} in select/ignore")
    out = []
    for r in rules:
        if r.preview and not getattr(options, "preview", False):
            continue
        if options.select and not any(_matches(r.code, r.family, r.name, s) for s in options.select):
            continue
        if any(_matches(r.code, r.family, r.name, s) for s in options.ignore or ()):
            continue
        out.append(r)
    for code, sev in (options.severity or {}).items():
        if code not in codes:
            raise UsageError(f"severity override for unknown rule {code!r}")
        if sev not in SEVERITIES:
            raise UsageError(f"severity override for {code}: unknown severity {sev!r} "
                             f"(one of {', '.join(SEVERITIES)})")
    for code, ps in (options.params or {}).items():
        if code not in codes:
            raise UsageError(f"parameter override for unknown rule {code!r}")
        kind = codes[code].kind
        for k, v in (ps or {}).items():
            problem = _param_problem(kind, k, v)
            if problem:
                raise UsageError(f"parameter override for {code}: {problem}")
    import copy
    final = []
    for r in out:
        sev = (options.severity or {}).get(r.code)
        ps = (options.params or {}).get(r.code)
        if sev or ps:
            r = copy.copy(r)
            if sev:
                r.severity = sev
            if ps:
                r.params = {**r.params, **ps}
        final.append(r)
    return final


def load_rules(options=None) -> list:
    """The rules a run uses: built-in + user packs, selected and overridden per ``options``."""
    return select_rules(load_all(getattr(options, "rules_dirs", ()) or ()), options)
