"""The document and claim model shared by every stage of caveat.

These dataclasses are the contract between reading (``claims``) and judging
(``validator``): the JSON output of ``caveat extract`` is ``Claim.to_dict()``.
They hold data only; the code that fills them lives in the other modules.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import asdict, dataclass, field
from typing import NamedTuple, Optional

# Roles a block can play in a briefing.
ROLES = ("header", "body", "warnings", "summary", "sources_table", "references")

# Claim kinds (DESIGN.md, "The claim").
KINDS = (
    "percent", "percentage_point", "ratio", "throughput", "latency", "duration",
    "memory", "bandwidth", "count", "currency", "compute", "number",
)


@dataclass
class Section:
    """A top-level or nested section: a Markdown heading or a Chinese ordinal line."""
    title: str                 # heading text without '#' marks
    line: int                  # 1-based line of the heading
    level: int                 # 1..6 for '#' headings; 2 for Chinese ordinal lines
    role: str = "body"         # role inherited by blocks below it
    declared_count: Optional[int] = None   # '（4 条）', '(3 items)' in the heading
    count_surface: str = ""    # the text of that declaration, e.g. '4 条'
    count_col: int = 0         # 1-based column of count_surface in the heading line
    end_line: int = 0          # last line belonging to the section (inclusive)
    parent: Optional[int] = None   # index of the enclosing section (section path)
    sources: list = field(default_factory=list)   # sources cited in the section outside its entries


@dataclass
class Entry:
    """An entry inside a section that acts as a sub-heading: '增量 2 · …', '### 1. …', '⚠️ T1 …'."""
    label: str                 # '增量 2', '邻接 A', 'T1', '1'
    title: str                 # the whole heading text of the entry
    line: int
    end_line: int = 0
    sources: list = field(default_factory=list)     # cited sources (see Source)
    markers: list = field(default_factory=list)     # markers found anywhere in the entry
    section: Optional[int] = None   # index of the section holding the entry


@dataclass
class Source:
    """A cited source: a corpus-relative path, a URL or an arXiv id."""
    kind: str                  # 'path' | 'url' | 'arxiv'
    ref: str                   # the path / URL / id as written
    line: int
    col: int = 1
    rating: Optional[int] = None   # stars from a sources table, when known
    rating_text: str = ""          # '⭐⭐⭐', '参考', '基线'
    origin: str = ""               # 'line' (来源：/Sources:), 'table' (sources table), 'inline' (URL or arXiv in text)


@dataclass
class Block:
    """A span of prose the extractor reads: a paragraph line, one bullet, one table cell.

    ``start``/``end`` are character offsets into the document text; ``text`` is
    ``doc.text[start:end]`` with code spans, URLs and HTML comments still present
    (the extractor masks them via ``masked``)."""
    start: int
    end: int
    line: int
    col: int
    text: str
    role: str = "body"
    section: Optional[int] = None   # index into Document.sections
    entry: Optional[int] = None     # index into Document.entries
    kind: str = "paragraph"         # 'paragraph' | 'bullet' | 'table_cell' | 'heading' | 'entry_heading'
    bullet: int = 0                 # index of the bullet within a packed line ('要点： - a - b')
    row: Optional[int] = None       # table row index within its table
    masked: list = field(default_factory=list)   # [(start, end)] absolute offsets that are not prose
    cell: Optional[int] = None      # column index of a table cell within its row
    table: Optional[int] = None     # index into Document.tables of a table cell
    quoted: bool = False            # inside a block quote ('> …')
    html: bool = False              # inside an HTML block ('<p align="center"><img …><br>caption</p>')


class Mention(NamedTuple):
    """A name or condition the text mentions: 'hardware'/'model'/'system' from entities.yaml,
    or a condition facet ('workload', 'concurrency' …) from facets.yaml."""
    kind: str                  # the entity kind or the condition facet
    value: str                 # canonical value ('H100', 'Llama 3.1 70B', 'sglang', 'prefix-heavy')
    start: int                 # character offsets into the document text, end exclusive
    end: int
    surface: str               # as written


@dataclass
class Cell:
    """One cell of a table row; ``block`` is its Block (None for an empty cell)."""
    start: int
    end: int
    line: int
    col: int
    text: str                  # the cell's text, stripped
    column: int                # 0-based column index
    block: Optional[int] = None


@dataclass
class Row:
    line: int
    cells: list                # list[Cell], in column order
    index: int                 # 0 is the header row


@dataclass
class Table:
    """A Markdown table: its header cells, its data rows and the caption that introduces it
    (the sentence or heading before it, or a 'Table N:' / '表 N' line right after it)."""
    line: int                  # the header row's line
    end_line: int
    header: list               # list[Cell] of row 0
    rows: list                 # list[Row] of the data rows
    section: Optional[int] = None
    entry: Optional[int] = None
    role: str = "body"
    caption: Optional[int] = None   # block index of the caption, when there is one
    caption_blocks: list = field(default_factory=list)   # every block of the caption's paragraph

    def column_name(self, k: int) -> str:
        return next((c.text for c in self.header if c.column == k), "")

    def header_of(self, k: int):
        """The header cell of column ``k`` that is a block of its own, or None."""
        return next((h for h in self.header if h.column == k and h.block is not None), None)


@dataclass
class ListItem:
    """One list item (a bullet block) with the sentence that introduces its list."""
    block: int                 # index into Document.blocks
    list_id: int               # items of one list share it
    intro: Optional[int] = None     # block index of the introducing paragraph ('On 8× B300:')
    depth: int = 0             # nesting by indentation


@dataclass
class Sentence:
    """A sentence of a block, possibly spanning hard-wrapped lines."""
    start: int
    end: int
    block: int


@dataclass
class Setup:
    """A place that states the test setup for a scope: a setup section, a setup line
    ('实测条件：…', 'Setup: …'), a parenthesised setup, a list a setup sentence introduces, or
    the launch command of a code block ('--model-path meta-llama/…', '# Hardware: 8x A100')."""
    kind: str                  # 'section' | 'line' | 'paren' | 'list' | 'paragraph' | 'universal' | 'code' | 'row' | 'subject'
    blocks: list               # block indices whose conditions it states
    section: Optional[int] = None   # the section it applies to (None: the whole document)
    entry: Optional[int] = None     # the entry it applies to, when inside one
    line: int = 0
    mentions: list = field(default_factory=list)   # a 'code' setup's names (code is no block), a 'row' setup's model


@dataclass
class Reference:
    """Something a briefing cites by number: an arXiv id, an issue or PR, a release or build id
    (or a range of them, expanded in ``ids``), a commit."""
    kind: str                  # 'arxiv' | 'issue' | 'pr' | 'release' | 'commit'
    ref: str                   # as written ('#12345', 'b10327–b10331', 'v1.94.2', '2401.12345')
    start: int
    end: int
    line: int
    col: int
    ids: tuple = ()            # the identifiers it stands for ('b10327', …, 'b10331')
    block: Optional[int] = None
    url: str = ""              # the link target, when the reference is a link


@dataclass
class CodeRegion:
    """Code in the Markdown: a fenced or indented block (whole lines) or an inline span."""
    kind: str                  # 'fence' | 'indented' | 'inline'
    start: int                 # character offsets into the document text, end exclusive
    end: int
    line: int = 0              # first and last line (1-based) of a block; 0 for inline spans
    end_line: int = 0


@dataclass
class Comment:
    """A real HTML comment of the Markdown (never one shown inside code)."""
    start: int
    end: int
    line: int
    col: int
    body: str                  # the text between '<!--' and '-->'


@dataclass
class Document:
    path: str
    text: str
    lang: str = "en"                # 'zh' or 'en': the language messages should use
    date: Optional[str] = None      # ISO date of the briefing (file name, title or front matter)
    sections: list = field(default_factory=list)   # list[Section]
    entries: list = field(default_factory=list)    # list[Entry]
    blocks: list = field(default_factory=list)     # list[Block]
    sources: list = field(default_factory=list)    # list[Source] cited anywhere in the document
    line_starts: list = field(default_factory=list)  # offset of the first character of each line
    newline: str = "\n"
    bom: bool = False
    title: Optional[str] = None     # the document title (first heading or first line)
    header_sources: list = field(default_factory=list)  # sources cited above the first section
    code: list = field(default_factory=list)       # list[CodeRegion], by start
    comments: list = field(default_factory=list)   # list[Comment]: HTML comments outside code
    tables: list = field(default_factory=list)     # list[Table]
    items: list = field(default_factory=list)      # list[ListItem]
    sentences: list = field(default_factory=list)  # list[Sentence], by start
    setups: list = field(default_factory=list)     # list[Setup]
    references: list = field(default_factory=list)  # list[Reference], by start
    # sorted start offsets of the record lists above, built on the first lookup
    # (claims.structure.sentence_at and friends); not part of the document's content
    starts: dict = field(default_factory=dict, repr=False, compare=False)
    front_matter: int = 0           # number of leading lines of YAML/TOML front matter
    kind: str = "post"              # 'post' (about one thing) | 'digest' (gathers many sources)
    topic: str = ""                 # 'kernel': a post that measures a kernel (claims.structure.document_topic)
    systems: tuple = ()             # names it uses as systems beside known ones (claims.structure.local_systems)
    domain: str = "ml"              # 'ml', or 'other' when it names no model and no ML word (claims.structure.document_domain)

    def line_col(self, offset: int) -> tuple:
        """1-based (line, col) of a character offset."""
        i = bisect_right(self.line_starts, offset) - 1
        return i + 1, offset - self.line_starts[i] + 1

    def line_text(self, line: int) -> str:
        s = self.line_starts[line - 1]
        e = self.line_starts[line] if line < len(self.line_starts) else len(self.text)
        return self.text[s:e].rstrip("\r\n")


@dataclass
class Condition:
    """One condition facet attached to a claim and where it was found."""
    facet: str                 # hardware | model | workload | dataset | concurrency | precision | context_length | batch_size
    value: str                 # canonical value, e.g. 'H100', 'Llama 3.1 70B'
    scope: str                 # sentence | bullet | entry | section | document
    line: int
    surface: str = ""          # the text as written


@dataclass
class Claim:
    path: Optional[str]
    line: int
    col: int
    start: int
    end: int
    surface: str
    kind: str
    value: Optional[float] = None
    low: Optional[float] = None
    high: Optional[float] = None
    unit: str = "dimensionless"
    base_value: Optional[float] = None
    base_low: Optional[float] = None
    base_high: Optional[float] = None
    base_unit: str = "dimensionless"
    decimals: int = 0
    approx: bool = False
    bound: Optional[str] = None        # gt | ge | lt | le
    negative: bool = False             # '下降 38%', '-38%', 'reduction'
    subject: Optional[str] = None
    baseline: Optional[str] = None
    metric: Optional[str] = None
    conditions: dict = field(default_factory=dict)   # facet -> Condition (as dict in JSON)
    markers: list = field(default_factory=list)      # 'unverified', 'conditional', 'hedged', 'abstract_only'
    # how the figure is written: 'bare' (a name, the figure, nothing after it: 'SystemX 1.9×'),
    # 'other_experiment' (a quick test, a cited paper: the document's setup does not apply)
    # 'difference' (an absolute figure written as a difference: '4GB more', '多 120 ms')
    traits: list = field(default_factory=list)
    sources: list = field(default_factory=list)      # list[Source] of the claim's entry (or document)
    role: str = "body"
    # what the figure is: result | setting | capacity | size | hypothetical | symptom | count |
    # quote | withdrawn | interval | market | log (claims/nature.py); only a result needs preconditions
    nature: str = "result"
    section: Optional[str] = None      # title of the section
    entry: Optional[str] = None        # label of the entry
    block: Optional[int] = None        # index into Document.blocks
    comparison: Optional[int] = None   # index into Analysis.derivations of the derivation it is part of
    list_id: Optional[int] = None      # figures written as one list '2.03×/1.71×/1.66×' share an id

    def to_dict(self) -> dict:
        d = asdict(self)
        return d


@dataclass
class Derivation:
    """A figure the text derives from other figures, and those figures (claims/derive.py).

    ``stated`` is the derived figure as written (the gap, change, lead, whole or table ratio);
    None for two figures compared with nothing derived written beside them ('from 2.35s to
    1.78s').  ``operands`` are the figures it is derived from: (A, B) of a gap, change or
    lead — in the order the text gives them — or the parts of a sum.  Stated figures and
    operands are ``Claim`` records: those of ``Analysis.claims``, or figures that are no claim
    of their own (a bare number before an arrow, a table cell without a unit), which only
    derivations hold."""
    form: str                  # see claims/derive.py: 'gap' | 'change' | 'lead' | 'share' | 'sum' | 'ratio_column'
                               # | 'row_total' | 'table_lead' | 'range_summary' | 'restated' | 'quotient' | 'converted' | 'product'
                               # | 'difference' (a table's Δ column in the unit of its two measurements)
    stated: Optional[Claim]
    operands: tuple = ()
    direction: int = 0         # +1 a rise / X ahead, -1 a fall / X behind, 0 not stated
    inverse: bool = False      # lower is better (a latency): 'faster' compares the inverse
    alternatives: tuple = ()   # other readings of the same words (Derivations: another column, another
                               # baseline row); the statement holds when any reading recomputes
    factor: float = 1.0        # 'converted': the scaling a verb applies ('halving 60 RPM, i.e. …': 0.5)
    terms: tuple = ()          # 'product': how many operands each '+'-joined term multiplies ((2, 2): a×b + c×d)
    approx: bool = False       # 'product': the result is introduced by '≈'
    some: bool = False         # 'range_summary': a whole column's values, of which the range may sum up
                               # the rows its sentence speaks of (both its ends among them)
