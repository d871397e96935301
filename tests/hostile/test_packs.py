"""Malformed and malicious rule packs: each is refused before anything runs, with one
line naming the pack file, the line and what is wrong; nothing in a pack ever runs
code, builds Python objects, expands without bound or backtracks without end.

Every variant is checked in-process against the loader (fast), and a representative
set end to end through ``caveat check --rules DIR`` (exit 2, one line, no traceback).
"""
from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from validator import limits, packs
from validator.errors import UsageError

from .cli_helpers import REPO, assert_one_line_error, invoke_in_process, run_caveat

# A valid user rule of an existing kind: every variant below breaks exactly one thing.
TEMPLATE = """\
code: CV790
name: reference.user_rule
family: reference
extends: reference.arxiv
severity: warning
summary: A user rule copied from CV701.
why: Tests that a user pack loads.
when: {field: problem, ne: ""}
message:
  zh: "arXiv 号 {id} 格式不对：{reason}"
  en: "arXiv id {id} is malformed: {reason}"
fix:
  zh: "核对论文页面"
  en: "Look the paper up"
acknowledgeable: false
"""


def replace_line(prefix: str, new: str | None) -> str:
    out = []
    for ln in TEMPLATE.splitlines(keepends=True):
        if ln.startswith(prefix):
            if new is not None:
                out.append(new + "\n")
        else:
            out.append(ln)
    return "".join(out)


BOMB = ("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        + "".join(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi")))

# name: (files {relative path: content}, needles the error line must contain)
VARIANTS = {
    "bad_yaml": ({"p/CV790.yaml": replace_line("family:", "family: [reference")},
                 ["CV790.yaml:"]),
    "bad_yaml_indent": ({"p/CV790.yaml": TEMPLATE.replace("  en: \"arXiv", " en: \"arXiv")},
                        ["CV790.yaml:"]),
    "unknown_key": ({"p/CV790.yaml": TEMPLATE + "colour: red\n"}, ["CV790.yaml:16", "colour"]),
    "missing_field": ({"p/CV790.yaml": replace_line("why:", None)}, ["CV790.yaml", "why"]),
    "missing_message_lang": ({"p/CV790.yaml": replace_line("  zh: \"arXiv", None)},
                             ["CV790.yaml", "zh"]),
    "duplicate_code": ({"p/CV790.yaml": TEMPLATE, "q/CV790.yaml": TEMPLATE},
                       ["CV790.yaml", "duplicate", "CV790"]),
    "duplicate_builtin_code": ({"p/CV701.yaml": TEMPLATE.replace("CV790", "CV701")},
                               ["CV701.yaml", "duplicate"]),
    "code_differs_from_file": ({"p/CV791.yaml": TEMPLATE}, ["CV791.yaml:1", "CV790"]),
    "wrong_type_bool": ({"p/CV790.yaml": replace_line("acknowledgeable:", 'acknowledgeable: "no"')},
                        ["CV790.yaml:15", "acknowledgeable"]),
    "wrong_type_severity": ({"p/CV790.yaml": replace_line("severity:", "severity: 3")},
                            ["CV790.yaml:5", "severity"]),
    "wrong_type_message": ({"p/CV790.yaml": TEMPLATE.replace(
        'message:\n  zh: "arXiv 号 {id} 格式不对：{reason}"\n  en: "arXiv id {id} is malformed: {reason}"\n',
        'message: "just text"\n')}, ["CV790.yaml:9", "message"]),
    "unknown_severity": ({"p/CV790.yaml": replace_line("severity:", "severity: fatal")},
                         ["CV790.yaml:5", "fatal"]),
    "unknown_family": ({"p/CV790.yaml": replace_line("family:", "family: gossip")},
                       ["CV790.yaml:3", "gossip"]),
    "family_of_another_kind": ({"p/CV790.yaml": replace_line("family:", "family: contradiction")},
                               ["CV790.yaml:3", "contradiction", "reference.arxiv"]),
    "acknowledgeable_must_fix_kind": ({"p/CV790.yaml": replace_line("acknowledgeable:", "acknowledgeable: true")},
                                      ["CV790.yaml:15", "must be fixed"]),
    "unknown_kind": ({"p/CV790.yaml": replace_line("extends:", "extends: reference.teleport")},
                     ["CV790.yaml:4", "teleport"]),
    "kind_is_a_module_path": ({"p/CV790.yaml": replace_line("extends:", "extends: os.system")},
                              ["CV790.yaml:4", "os.system"]),
    "unknown_when_field": ({"p/CV790.yaml": replace_line("when:", "when: {field: __class__, eq: 1}")},
                           ["CV790.yaml:8", "__class__"]),
    "unknown_when_op": ({"p/CV790.yaml": replace_line("when:", 'when: {field: problem, eval: "1"}')},
                        ["CV790.yaml:8", "eval"]),
    "when_wrong_value_type": ({"p/CV790.yaml": replace_line("when:", "when: {field: problem, ne: [1]}")},
                              ["CV790.yaml:8", "problem"]),
    "template_attribute_access": ({"p/CV790.yaml": TEMPLATE.replace("{reason}\"\n  en", "{id.__class__}\"\n  en")},
                                  ["CV790.yaml:10", "__class__"]),
    "template_index_access": ({"p/CV790.yaml": TEMPLATE.replace("malformed: {reason}", "malformed: {id[0]}")},
                              ["CV790.yaml:11"]),
    "template_positional": ({"p/CV790.yaml": TEMPLATE.replace("malformed: {reason}", "malformed: {0}")},
                            ["CV790.yaml:11"]),
    "python_object_apply": ({"p/CV790.yaml": replace_line(
        "summary:", 'summary: !!python/object/apply:os.system ["touch PWNED"]')}, ["CV790.yaml:6", "tag"]),
    "python_name": ({"p/CV790.yaml": replace_line("summary:", "summary: !!python/name:os.system")},
                    ["CV790.yaml:6", "tag"]),
    "python_object_new": ({"p/CV790.yaml": replace_line(
        "summary:", "summary: !!python/object/new:subprocess.Popen [[touch, PWNED]]")}, ["CV790.yaml:6", "tag"]),
    "custom_tag": ({"p/CV790.yaml": replace_line("why:", "why: !include /etc/passwd")}, ["CV790.yaml:7", "tag"]),
    "set_tag": ({"p/CV790.yaml": replace_line("why:", "why: !!set {a, b}")}, ["CV790.yaml:7", "tag"]),
    "alias_bomb": ({"p/CV790.yaml": BOMB + "code: CV790\n"}, ["CV790.yaml", "alias"]),
    "alias_bomb_in_params": ({"p/CV790.yaml": TEMPLATE + "params:\n" + "".join(
        "  " + ln + "\n" for ln in BOMB.splitlines())}, ["CV790.yaml"]),
    "merge_key": ({"p/CV790.yaml": "base: &b {severity: error}\n" + TEMPLATE.replace(
        "severity: warning", "<<: *b")}, ["CV790.yaml"]),
    "deep_nesting": ({"p/CV790.yaml": "why: " + "[" * 5000 + "]" * 5000 + "\n"}, ["CV790.yaml"]),
    "deep_mapping": ({"p/CV790.yaml": "why:" + "".join("\n" + " " * i + f"k{i}:" for i in range(1, 400)) + " x\n"},
                     ["CV790.yaml"]),
    "not_a_mapping": ({"p/CV790.yaml": "- code: CV790\n"}, ["CV790.yaml:1"]),
    "empty_file": ({"p/CV790.yaml": ""}, ["CV790.yaml"]),
    "not_utf8": ({"p/CV790.yaml": TEMPLATE.encode().replace(b"A user rule", b"A \xff user rule")},
                 ["CV790.yaml", "offset"]),
    "binary": ({"p/CV790.yaml": b"\x00\x01\x02\x03" * 64}, ["CV790.yaml"]),
    "too_large": ({"p/CV790.yaml": TEMPLATE + "# " + "x" * (limits.MAX_PACK_BYTES * 10) + "\n"},
                  ["CV790.yaml"]),
    "multiple_documents": ({"p/CV790.yaml": TEMPLATE + "---\n" + TEMPLATE}, ["CV790.yaml"]),
}


def make_pack(root: Path, files: dict) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def only_cv701(tmp_path, monkeypatch):
    """Built-in packs reduced to CV701, so these tests judge the loader, not the
    state of the other built-in rules."""
    core = tmp_path / "builtin" / "core"
    core.mkdir(parents=True)
    (core / "CV701.yaml").write_bytes((REPO / "rules" / "core" / "CV701.yaml").read_bytes())
    monkeypatch.setattr(packs, "builtin_rules_dir", lambda: core.parent)


def test_template_is_a_valid_pack(tmp_path, only_cv701):
    """The variants mean something only if the unbroken rule loads."""
    rules = packs.load_all([make_pack(tmp_path / "rules", {"p/CV790.yaml": TEMPLATE})])
    assert "CV790" in {r.code for r in rules}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_malformed_pack_is_one_line_naming_file_and_line(tmp_path, name, monkeypatch, only_cv701):
    files, needles = VARIANTS[name]
    root = make_pack(tmp_path / "rules", files)
    monkeypatch.chdir(tmp_path)
    t0 = time.perf_counter()
    with pytest.raises(UsageError) as exc:
        packs.load_all([root])
    took = time.perf_counter() - t0
    msg = str(exc.value)
    assert "\n" not in msg, msg
    for n in needles:
        assert n in msg, (n, msg)
    assert took < 5, f"refusing the pack took {took:.1f}s"
    assert not (tmp_path / "PWNED").exists(), "the pack ran code"


@pytest.mark.parametrize("name", ["alias_bomb", "alias_bomb_in_params", "too_large"])
def test_refusing_a_pack_takes_bounded_memory(tmp_path, name, only_cv701):
    files, _needles = VARIANTS[name]
    root = make_pack(tmp_path / "rules", files)
    tracemalloc.start()
    try:
        with pytest.raises(UsageError):
            packs.load_all([root])
        _cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20, f"refusing the pack used {peak / 2**20:.0f} MB"


def test_rules_folder_missing(tmp_path):
    with pytest.raises(UsageError, match="nowhere"):
        packs.load_all([tmp_path / "nowhere"])


# ------------------------------------------------------------------ end to end

# A real process for a few; the in-process CliRunner (same command, no start-up) for the rest.
E2E = ["bad_yaml", "python_object_apply", "alias_bomb"]
IN_PROCESS = ["unknown_key", "missing_field", "duplicate_code", "wrong_type_bool", "unknown_kind",
              "family_of_another_kind",
              "deep_nesting", "not_utf8", "template_attribute_access", "custom_tag"]


@pytest.mark.parametrize("name", E2E + IN_PROCESS)
def test_malformed_pack_cli(tmp_path, name):
    files, needles = VARIANTS[name]
    root = make_pack(tmp_path / "rules", files)
    doc = tmp_path / "b.md"
    doc.write_text("# Note 2026-11-02\n\narXiv:2613.01234 reports 29% more.\n", encoding="utf-8")
    args = ["check", "--rules", root, doc]
    proc = run_caveat(args, cwd=tmp_path) if name in E2E else invoke_in_process(args, tmp_path)
    assert_one_line_error(proc, *needles)
    assert not (tmp_path / "PWNED").exists()


# ------------------------------------------------------------------ user regexes

CATASTROPHIC = [r"(a|aa)+$", r"(x+x+)+y", r"(\d|\d\d)+%$", r"^(\w|\w\w)+!$"]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_catastrophic_regex_refused_at_load_naming_the_rule(pattern):
    t0 = time.perf_counter()
    with pytest.raises(limits.RegexError) as exc:
        limits.safe_regex(pattern, rule="CV790", path="rules/p/CV790.yaml", line=9)
    msg = str(exc.value)
    assert msg.startswith("rules/p/CV790.yaml:9: rule CV790:"), msg
    assert "\n" not in msg
    assert time.perf_counter() - t0 < 2


@pytest.mark.parametrize("pattern", [r"(", r"[z-a]", r"a**", r"\p{NoSuchScript}", "a{99999999999}"])
def test_invalid_regex_refused_naming_the_rule(pattern):
    with pytest.raises(limits.RegexError, match=r"^rules/p/CV790.yaml:9: rule CV790: "):
        limits.safe_regex(pattern, rule="CV790", path="rules/p/CV790.yaml", line=9)


def test_regex_that_passes_the_probe_still_times_out_at_run_time():
    """The probe is a heuristic; the timeout is the guarantee.  This pattern is fast on
    the probe's inputs but exponential on the right one."""
    rx = limits.safe_regex(r"(?:ab|a)+(?:ab|a)+c", rule="CV790", path="p.yaml", timeout=0.2, probe=False)
    t0 = time.perf_counter()
    with pytest.raises(limits.RegexError, match="CV790.*timed out.*on doc.md"):
        rx.search("ab" * 5000 + "x", doc="doc.md")
    assert time.perf_counter() - t0 < 3


@pytest.mark.parametrize("pattern", [r"待核实|未经精读|unverified|TBD", r"(?i)\b(?:h100|a100|mi300x)\b",
                                     r"(?m)^(?:##\s+)?(?:Warnings|Caveats)\b", r"(\d+(?:\.\d+)?)\s*%"])
def test_ordinary_patterns_pass_and_run_fast(pattern):
    t0 = time.perf_counter()
    rx = limits.safe_regex(pattern, rule="CV790")
    assert time.perf_counter() - t0 < 0.05
    text = "SGLang 29% on H100, 待核实.\n## Warnings\n" * 20000
    t0 = time.perf_counter()
    assert rx.finditer(text)
    assert time.perf_counter() - t0 < limits.REGEX_TIMEOUT_S


def test_config_warnings_pattern_that_backtracks_is_a_clean_error(tmp_path):
    """Heading patterns are the user regexes a config supplies (warnings-patterns):
    a catastrophic one is refused, never a hung pre-commit hook."""
    (tmp_path / ".caveat.yaml").write_text("warnings-patterns: ['^(a|aa)+$']\n", encoding="utf-8")
    doc = tmp_path / "b.md"
    doc.write_text("# T\n\n## " + "a" * 60 + "!\n\nSGLang 29% faster.\n", encoding="utf-8")
    for cmd in (["warnings", doc], ["check", doc]):
        proc = run_caveat(cmd, cwd=tmp_path, timeout=8)
        assert_one_line_error(proc, ".caveat.yaml:1", "warnings-patterns")
