"""Rule kinds: the closed set of Python logics a rule-pack file selects with ``extends:``.

A rule file (``rules/<pack>/<CODE>.yaml``) is data; the *kind* it extends is the
Python that turns an analysed document into facts. A new rule of an existing kind
needs no code: copy a rule file, change its code, params, ``when:`` and messages.

The kind interface
==================

A kind is a module ``validator/kinds/<module>.py`` listed in ``KIND_MODULES`` below.
The module belongs to one family, and says so once, at its top::

    FAMILY = "<family>"               # precondition | unverified | contradiction | arithmetic |
                                      # count | entity | reference: every rule extending a kind
                                      # of this module is of this family
    ACKNOWLEDGEABLE = True | False    # may the briefing's warnings section acknowledge these
                                      # findings (True), or must they be fixed (False)?

These two are the only home of both facts: ``families()`` below, the rule table and
every finding's ``family``/``acknowledgeable`` come from them. The kind itself has::

    NAME = "<value of extends:>"      # e.g. "precondition.missing_facets"
    PARAMS = {param: type}            # allowed params (int, float, str, bool, list, dict);
                                      # values come from the rule file; config may override
    DEFAULTS = {param: value}         # optional: used when the rule file omits a param
    FIELDS = {field: type}            # fact fields a rule's `when:` may test (int, float, str, bool)
    WHEN = {...}                      # default `when:` (same condition language as rule files)
    VARS = {"name", ...}              # optional: message variables the kind puts in `_side`;
                                      # when present, the loader rejects unknown {placeholders}
    def facts(rule, ctx) -> Iterable[dict]

A module may instead hold several kinds: ``KINDS = [obj, ...]``, each object carrying the
kind attributes above (a class with static ``facts`` or a ``SimpleNamespace``);
``registry()`` gives each the module's ``FAMILY`` and ``ACKNOWLEDGEABLE``.

``rule`` is a ``validator.packs.Rule`` (``.code``, ``.name``, ``.family``, ``.severity``,
``.params`` with overrides applied, ``.message``, ``.fix``, ``.acknowledgeable``).
``ctx`` is a ``validator.facts.Context`` with ``.analysis`` (the current
``claims.api.Analysis``: ``.document``, ``.claims``, ``.comparisons``), ``.corpus``
(``validator.corpus.Corpus``: ``resolve(ref, from_path) -> path | None``, ``analysis(path)``,
``by_key(key)`` → claims from other corpus documents), ``.lang`` ('zh' | 'en') and
helpers: ``ctx.groups()`` (the document's claims grouped by claim key), ``ctx.markers_of``,
``ctx.cited_analyses(claim)``, ``ctx.external(key)``, ``ctx.memo(key, fn)`` (share work between
rules of one kind). ``validator.facts`` has the shared numerics: ``interval`` (precision-aware,
statcheck/GRIM style), ``values_agree``, ``conditions_of``, ``compare_conditions``,
``statements`` (key, phase and effective conditions per claim).

Each fact is a FLAT dict of scalars (str, int, float, bool): ``path, line, col,
end_line, end_col, surface, key`` plus the kind's ``FIELDS``. Every field named in
the rule's ``when:`` must be present and not None. The engine adds ``id``, ``sid``
and ``rule`` (reserved names). Anything that is not a scalar — the evidence list
(dicts with ``path, line, col, surface, note``) and message variables — goes in the
side field ``_side`` (a dict), which the engine keeps in Python and never asserts:
``{"evidence": [...], "vars": {...}}``. ``_side`` may instead be a function of no
arguments returning that dict: it is called only for a fact that fires (a kind with
one fact per figure builds its messages for the few that become findings).

The condition language of ``when:`` (compiled to durable_rules JSON by
``validator.packs``)::

    {field: NAME, eq|ne|gt|ge|lt|le: VALUE}      # one comparison
    {field: NAME, in: [V1, V2]}                  # any of
    {all: [COND, ...]}   {any: [COND, ...]}      # and / or

A fact that satisfies ``when:`` fires the rule's action, which renders the
rule's message (zh/en by document language) from the fact fields and ``_side``
``vars`` with plain ``{name}`` placeholders only, and emits a
``validator.finding.Finding``.
"""
from __future__ import annotations

import importlib

# Explicit list: a kind exists only when its module is named here (no plugin discovery,
# so a rule file can never make the validator import something arbitrary).
KIND_MODULES = (
    "precondition",
    "unverified",
    "contradiction",
    "restatement",
    "arithmetic",
    "count",
    "entity",
    "reference",
)

_REGISTRY: dict | None = None
_FAMILIES: dict | None = None
_REQUIRED_OF_MODULE = ("FAMILY", "ACKNOWLEDGEABLE")
_REQUIRED = ("NAME", "PARAMS", "FIELDS", "WHEN", "facts")


def registry() -> dict:
    """NAME -> kind, for every module of ``KIND_MODULES`` that is installed."""
    global _REGISTRY, _FAMILIES
    if _REGISTRY is None:
        reg, fams = {}, {}
        for mod_name in KIND_MODULES:
            full = f"{__name__}.{mod_name}"
            try:
                mod = importlib.import_module(full)
            except ModuleNotFoundError as e:
                # a family whose module has not been written yet; anything else missing is a bug
                if e.name == full:
                    continue
                raise
            missing = [a for a in _REQUIRED_OF_MODULE if not hasattr(mod, a)]
            if missing:
                raise RuntimeError(f"rule kind module {full} lacks {', '.join(missing)}")
            fams[mod.FAMILY] = bool(mod.ACKNOWLEDGEABLE)
            kinds = getattr(mod, "KINDS", None) or [mod]
            for k in kinds:
                missing = [a for a in _REQUIRED if not hasattr(k, a)]
                if missing:
                    raise RuntimeError(f"rule kind {full} lacks {', '.join(missing)}")
                # the module's declaration is the one home: a kind that restates it differently is a bug
                for a in _REQUIRED_OF_MODULE:
                    if getattr(k, a, getattr(mod, a)) != getattr(mod, a):
                        raise RuntimeError(f"rule kind {k.NAME} restates {a} unlike its module {full}")
                    setattr(k, a, getattr(mod, a))
                reg[k.NAME] = k
        _REGISTRY, _FAMILIES = reg, fams
    return _REGISTRY


def families() -> dict:
    """Family -> acknowledgeable, in ``KIND_MODULES`` order, for the installed kinds."""
    registry()
    return _FAMILIES


def get(name: str):
    return registry().get(name)
