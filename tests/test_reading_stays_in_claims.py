"""Reading stays in `claims/`: rule kinds judge what was read and never read text themselves.

Two guards of the "read once, judge many" plan, checked on the source tree:

- no module under ``validator/kinds/`` touches a document's raw text (``doc.text``,
  ``analysis.text``) or compiles a regular expression: what a kind needs to know is a field
  of the document model (``claims.model``), not something it finds again in the bytes;
- code fences are recognised by one module of the package (``claims/markdown.py``): a
  second fence pattern is a second, disagreeing reader of where code starts.

Each test also runs on a planted violation, so it is known to catch what it names.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KINDS = ROOT / "validator" / "kinds"
REGEX_MODULES = {"re", "regex"}
CACHED_COMPILES = {"compile_re", "compile_regex"}     # claims/pattern_cache.py
FENCE_HOME = "claims/markdown.py"


def raw_text_reads(source: str) -> list:
    """(line, what) for each raw-text read or regex use in a module's source."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "text":
            out.append((node.lineno, f"reads .text of {ast.unparse(node.value)}"))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, f"imports {a.name}") for a in node.names
                    if a.name.split(".")[0] in REGEX_MODULES]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in REGEX_MODULES:
            out.append((node.lineno, f"imports from {node.module}"))
    return out


def fence_patterns(source: str) -> list:
    """Lines where a regex of ``re``/``regex`` is given a pattern that matches a code fence."""
    out = []
    for node in ast.walk(ast.parse(source)):
        # re.compile(…), regex.search(…), and the compile of claims/pattern_cache.py (compile_re(…))
        regex_call = (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                      and node.func.value.id in REGEX_MODULES
                      or isinstance(node.func, ast.Name) and node.func.id in CACHED_COMPILES) \
            if isinstance(node, ast.Call) else False
        if not (regex_call
                and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            continue
        pat = node.args[0].value
        if "```" in pat or "~~~" in pat or "`{3" in pat or "~{3" in pat:
            out.append(node.lineno)
    return out


def test_rule_kinds_never_read_raw_text():
    found = []
    for path in sorted(KINDS.glob("*.py")):
        found += [f"{path.relative_to(ROOT)}:{ln}: {what}"
                  for ln, what in raw_text_reads(path.read_text(encoding="utf-8"))]
    assert not found, ("a rule kind reads text itself; read it in claims/ and give the model "
                       "a field:\n" + "\n".join(found))


def test_code_fences_are_recognised_in_one_module():
    homes = set()
    for pkg in ("claims", "validator"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if fence_patterns(path.read_text(encoding="utf-8")):
                homes.add(path.relative_to(ROOT).as_posix())
    assert homes == {FENCE_HOME}, homes


def test_the_guards_catch_a_planted_violation():
    planted = "import re\n\ndef facts(rule, ctx):\n    return re.findall(r'x', ctx.document.text)\n"
    assert [w for _, w in raw_text_reads(planted)] == ["imports re", "reads .text of ctx.document"]
    assert fence_patterns("import re\nFENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')\n") == [2]
    assert fence_patterns("import re\nWORD = re.compile(r'\\w+')\n") == []
    assert fence_patterns("FENCE = compile_re(r'^ {0,3}(`{3,}|~{3,})')\n") == [1]
