"""The import plan holds: `lint-imports` keeps every contract of pyproject.toml.

The contracts (``[tool.importlinter]`` in pyproject.toml) say that ``claims`` never
imports ``validator``, that the validator's modules sit on floors (cli -> run -> engine ->
packs -> kinds -> facts/arith, each new module placed on one), and that no rule kind
imports another. The second test breaks each contract on a copy of the packages, so the
contracts are known to catch what they name.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` over ``root``'s pyproject.toml, importing the packages from ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    # --no-cache: no cache folder left in the work tree; the whole graph takes well under a second
    return subprocess.run([sys.executable, "-c", LINT, "--no-cache"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_import_contracts_are_kept():
    res = lint_imports(ROOT)
    assert res.returncode == 0, (
        "an import breaks the plan in pyproject.toml [tool.importlinter] (move the import, or "
        "give a new module its floor there):\n" + res.stdout + res.stderr)


def test_each_contract_fails_on_a_forbidden_import(tmp_path):
    for pkg in ("claims", "validator"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    broken = {
        "claims/model.py": "from validator import finding",                 # reading judges
        "validator/kinds/count.py": "from validator import run",             # a kind climbs up
        "validator/kinds/entity.py": "from validator.kinds import count",    # a kind uses a kind
    }
    for rel, line in broken.items():
        with open(tmp_path / rel, "a", encoding="utf-8") as fh:
            fh.write(f"\n{line}  # noqa\n")
    res = lint_imports(tmp_path)
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert "3 broken" in out, out
    for importer, imported in (("claims.model", "validator.finding"),
                               ("validator.kinds.count", "validator.run"),
                               ("validator.kinds.entity", "validator.kinds.count")):
        assert importer in out and imported in out, (importer, imported, out)
