"""The finding: what a rule reports about a claim, and its stable fingerprint."""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field

SEVERITIES = ("info", "warning", "error")
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


@dataclass
class Evidence:
    """Another place involved in a finding: the conflicting figure, the line stating a condition."""
    path: str
    line: int
    surface: str = ""
    col: int = 1
    note: str = ""             # e.g. 'states the conditions', 'cited source'


@dataclass
class Finding:
    code: str
    family: str
    severity: str
    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    surface: str
    message: str
    evidence: list = field(default_factory=list)     # list[Evidence]
    acknowledged: bool = False
    acknowledgeable: bool = True
    rule: str = ""             # the rule's dotted name, e.g. 'contradiction.figure'
    key: str = ""              # normalized claim key the finding is about (for fingerprints)
    help: str = ""             # what would fix it (one sentence, document language)
    suppressed: bool = False

    @property
    def fingerprint(self) -> str:
        """Stable across edits that move lines: rule code + normalized key + surface."""
        # surrogateescape: a file name that is not UTF-8 still gets a stable fingerprint
        h = hashlib.sha256(f"{self.code}\x1f{self.path}\x1f{self.key}\x1f{self.surface}"
                           .encode("utf-8", "surrogateescape"))
        return h.hexdigest()[:16]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["fingerprint"] = self.fingerprint
        return d
