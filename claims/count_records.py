"""The records ``claims.counts`` reads a briefing's counts into: a declared count with the
ways of counting what it counts, and an item a header or summary lists."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

# the high end of a reading whose list is partial ('A、B 等'): any number from its low end up
UNBOUNDED = 10 ** 6


@dataclass
class Item:
    """One thing a count counts: an entry, a list item, a reference, a name."""
    line: int
    surface: str               # as written: '增量 2', '#12345', 'b10327', 'vLLM'
    col: int = 1
    closed: bool = False       # marked closed next to it ('CLOSED', '已关闭')


@dataclass
class Reading:
    """One reasonable way of counting the items a count counts: between ``low`` and
    ``high`` of them (equal unless some items may or may not belong)."""
    what: str                  # 'entries', 'subsections', 'table rows', 'list items', 'bullets',
    #                            'arXiv ids', 'issues', 'PRs', 'releases', 'listed', 'named'
    items: list                # list[Item], the ones counted for sure first
    low: int
    high: int


@dataclass
class CountStatement:
    """A declared count and the readings of what it counts."""
    what: str                  # 'section' | 'summary' | 'summary_part' | 'header' | 'table'
    #                            | 'enumeration' | 'list_intro' | 'list_named' | 'closed'
    #                            ('list_named': a count of a list named elsewhere, by its intro
    #                            or by a heading)
    line: int
    col: int
    start: int
    end: int
    surface: str               # the count as written: '4 条', '~13', 'three regressions'
    value: int
    approx: bool = False       # '~13', '约 14', 'about five'
    bound: Optional[str] = None     # 'ge' ('N+'), 'gt' ('20 多'), 'le', 'lt'
    readings: list = field(default_factory=list)   # list[Reading]
    label: str = ""            # what the count is of, as written ('SGLang · Issues', '个 PR')
    scope: str = ""            # the part of the document its items come from ('SGLang'), if not all


@dataclass
class ListedItem:
    """An item a header or summary lists, with the body places that mention it."""
    what: str                  # 'header' | 'summary'
    line: int
    col: int
    surface: str               # the item as written
    reason: str                # 'figure' | 'label' | 'text'
    claims: list = field(default_factory=list)     # indices of the figures the item states
    found: list = field(default_factory=list)      # lines of the body that mention it


@dataclass
class Counts:
    statements: list = field(default_factory=list)   # list[CountStatement]
    listed: list = field(default_factory=list)       # list[ListedItem]
