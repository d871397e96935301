"""Options of one `check` run, filled by the CLI and config loader and read by validator.run."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass
class Options:
    select: Optional[list] = None        # codes, code prefixes ('CV1') or family names; None = all
    ignore: list = field(default_factory=list)
    severity: dict = field(default_factory=dict)   # {code: 'error'|'warning'|'info'}
    params: dict = field(default_factory=dict)     # {code: {param: value}}
    corpus: list = field(default_factory=list)     # corpus roots (directories)
    rules_dirs: list = field(default_factory=list) # extra user rule-pack folders
    fail_on: str = "warning"
    warnings_patterns: list = field(default_factory=list)   # config: extra warnings-section headings
    lang: Optional[str] = None           # force message language ('zh'|'en'); None = document's
    preview: bool = False                # run the rules marked ``preview: true`` too
