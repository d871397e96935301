"""The names a briefing writes and the titles it gives the arXiv papers it cites, read once
from the document model for the entity rules (one name spelled two ways, one arXiv id
given two titles).

``read(analysis)`` returns a ``DocumentNames`` and keeps it on ``analysis.names`` (a run
that checks no entity rule never pays for it):

- ``names``: every name-like token of the prose, with its offsets, line and column: words
  with a capital letter or a digit ('SpecInfer', 'Triton', 'EAGLE-3', 'Grok-1', 'vLLM'; a
  capitalised English word too, which the judge tells apart), and model checkpoint ids with
  their organisation ('Qwen/Qwen3-32B', one token).  Only the prose blocks are read, minus their
  masked ranges, so code, HTML comments and tags, URLs, link targets, file paths and front
  matter give no names; a checkpoint id written as inline code (`` `Qwen/Qwen-32B` ``, the
  usual way of writing one) is read from ``doc.code``.
- ``forms``: one ``Form`` per distinct spelling, with what comparing spellings needs
  (flattened, digits, parts, organisation, generation, vocabulary entry, dictionary word).
- ``titles``: arXiv id -> the titles the document gives it: the title column of a table row
  that holds the id (``doc.tables``), the text of a link to the paper, and
  ``Title（arXiv:ID）`` in a heading, entry or line (``doc.references`` of kind arxiv).

The vocabulary is ``claims/data/names.yaml`` (well-known technical names and published
checkpoint ids) with the system and hardware names of ``claims/data/entities.yaml``;
``claims/data/english_words.txt`` lists common English words (``python -m claims.names``
regenerates it from pyspellchecker's English dictionary).
"""
from __future__ import annotations

import bisect
import os
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

from ._data import DATA_DIR, load
from .pattern_cache import compile_re  # compiled once per machine, not per process
from .structure import CJK_CHAR, LIST_SEP, has_cjk

# ASCII boundaries on purpose: a name abutting Chinese text ('与SpecInfr不同') is still a token.
# A token next to '/' is part of a path or of an 'A/B' alternative and is not read as a name.
# (the letter comes first and the look-behind after it: a pattern that starts with a look-behind
# is tried at every position, one that starts with a class skips to the next letter)
# A lower-case word is a name only with a capital or a digit in it ('vLLM', 'gpt-oss-120b'):
# the look-ahead skips 'llama.cpp' and every English word without building a match for it.
_TOKEN = compile_re(r"[A-Za-z](?<![A-Za-z0-9_/\\.@#-][A-Za-z])(?:(?<=[A-Z])|(?=[a-z]*(?:[-.][a-z]+)*[-.]?[A-Z0-9]))"
                    r"[A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?![A-Za-z0-9_/\\@-]|\.[A-Za-z0-9])")
# a checkpoint id 'Org/Name': an organisation without digits, a name that holds one
_ID = compile_re(r"(?<![\w/\\.@#-])([A-Za-z][A-Za-z_-]{1,38}[A-Za-z])/([A-Za-z][A-Za-z0-9]*(?:[-._][A-Za-z0-9]+)*)"
                 r"(?![\w/\\@-]|\.[A-Za-z0-9])")
_DIGIT = compile_re(r"\d")
_SIZE_CASE = compile_re(r"\d[a-z]")
_SEP = compile_re(r"[-._ ]")
# inside a part, where CamelCase starts a new word: 'HiCache' -> 'Hi', 'Cache'; 'vLLM' -> 'v', 'LLM'
_CAMEL = compile_re(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_TWO_LETTERS = compile_re(r"[A-Za-z]{2}")
_INNER_UPPER = compile_re(r"[A-Za-z][A-Z]")
# the generation right after a model family's name: 'Qwen3-32B' -> ('qwen', '3', '32b')
_GENERATION = compile_re(r"([a-z]+)[-_]?(\d+(?:\.\d+)?)?(?:[-_](.*))?$")
_FILE_EXT = compile_re(r"\.(?:md|mdx|py|ya?ml|json|txt|html?|csv|sh|toml|cfg|ipynb|pdf|png|jpe?g|svg|gif)$", re.I)
_PROSE = ("paragraph", "bullet", "table_cell", "heading", "entry_heading")
MIN_LEN = 3          # shorter tokens are never compared


@dataclass(slots=True)
class Name:
    """One name as written in the document."""
    surface: str
    start: int
    end: int
    line: int
    col: int
    block: Optional[int] = None      # None when read from inline code
    org: str = ""                    # 'Qwen' of the checkpoint id 'Qwen/Qwen3-32B'
    code: bool = False               # read from inline code
    title: str = ""                  # the arXiv id whose title (as the document gives it) holds it
    listed: int = -1                 # names written as one list ('TDPBSSD, TDPBUSD, TDPBUUD') share it
    quoted: bool = False             # inside a quoted PR / issue title: a link's text to /pull/,
                                     # /issues/ or /commit/, or a bracket tag ('[Nixl]', '[Perf]')


@dataclass
class Form:
    """One spelling of a name and what comparing it with another spelling needs."""
    surface: str                     # as written ('Qwen/Qwen3-32B', 'SpecInfr')
    flat: str                        # lower-cased, without '-', '.', '_', ' ' ('qwen/qwen332b')
    digits: str                      # its digits in order ('33 2' -> '332')
    parts: tuple                     # lower-cased parts between separators
    words: tuple = ()                # the parts cut where CamelCase starts a word ('hi', 'cache')
    capitals: frozenset = frozenset()    # the words written in capitals ('nccl' of 'NCCL-tests')
    org: str = ""                    # organisation of a checkpoint id, lower-cased
    name: str = ""                   # the id's name part ('Qwen3-32B'), or the text
    family: str = ""                 # leading letters of the name ('qwen')
    generation: str = ""             # the version after the family ('3', '2.5', '')
    rest: str = ""                   # what follows the generation ('32b')
    shape: str = "name"              # 'name' | 'word' | 'lower' (see _shape)
    known: str = ""                  # the vocabulary's spelling of this name, if it is one
    checkpoint: bool = False         # a published checkpoint id (names.yaml checkpoints)
    file_like: bool = False          # ends like a file name ('config.json')
    plural_of: str = ""              # flat form it is the plural of, when it ends in s/es


@dataclass
class Title:
    """A title the document gives an arXiv id."""
    ref: str                         # the id ('2610.04412')
    surface: str                     # as written
    start: int
    line: int
    col: int
    via: str                         # 'table' | 'link' | 'line'
    norm: str = ""                   # lower-cased, notes in brackets and punctuation dropped
    words: frozenset = frozenset()   # its distinctive words (no stop words)


@dataclass
class DocumentNames:
    names: list = field(default_factory=list)       # list[Name], in text order
    by_surface: dict = field(default_factory=dict)  # spelling -> its Names, in text order
    forms: dict = field(default_factory=dict)       # spelling -> Form
    titles: dict = field(default_factory=dict)      # arXiv id -> list[Title], in text order
    # two names written with one space between them whose joined spelling is a name the
    # document also writes as one token ('CuTe DSL' beside 'CuteDSL'): Names, in text order
    joined: list = field(default_factory=list)
    # the identifiers with a capital letter written in code ('DisposableTensor'): names that
    # are code, whatever the prose calls them
    code_words: frozenset = frozenset()
    # a capitalised name written in lower case in the prose ('across julia sessions' beside
    # 'Julia'): Names, in text order (only names of letters that are no English word)
    lowered: list = field(default_factory=list)
    # the capitalised spellings of those the document uses as names (``_used_as_name``)
    used_as_names: frozenset = frozenset()


def read(analysis) -> DocumentNames:
    """The names and titles of ``analysis.document`` (computed once, kept on the analysis)."""
    got = getattr(analysis, "names", None)
    if got is None:
        got = read_document(analysis.document)
        analysis.names = got
    return got




# two names set against each other ('vLLama (vLLM) vs Ollama', 'SGLang 对比 vLLM'): two things
_COMPARED = compile_re(r"(?<![A-Za-z])(?:vs\.?|versus|v\.s\.|against)(?![A-Za-z])|对比|相比|对阵|比较")
_SENTENCE_BREAK = compile_re(r"[。;；!?！？\n]|\.(?:\s|$)")
_COMPARE_SPAN = 40      # characters between two compared names (a parenthesis may stand between)


def _mark_lists(text: str, names: list) -> None:
    """Give the names written one after another with only a list separator between them one
    ``listed`` number: a list names different things, whatever their spellings.  So do names
    of one sentence with a comparison word between them ('vLLama (vLLM) vs Ollama')."""
    compared = [m.start() for m in _COMPARED.finditer(text)]     # one scan: most names have none near
    run = -1
    for i in range(1, len(names)):
        b = names[i]
        together = []
        a = names[i - 1]
        if a.block is not None and a.block == b.block and text[a.end:b.start].strip() \
                and LIST_SEP.fullmatch(text, a.end, b.start):
            together.append(a)
        k = bisect.bisect_left(compared, b.start) - 1
        if k >= 0 and b.start - compared[k] <= _COMPARE_SPAN:
            for j in range(i - 1, max(-1, i - 4), -1):
                a = names[j]
                if a.block is None or a.block != b.block or b.start - a.end > _COMPARE_SPAN:
                    break
                if a not in together and a.end <= compared[k] \
                        and not _SENTENCE_BREAK.search(_COMPARED.sub(" ", text[a.end:b.start])):
                    together.append(a)
        if not together:
            continue
        ids = {n.listed for n in together + [b] if n.listed >= 0}
        if not ids:
            run += 1
            ids = {run}
        keep = min(ids)
        if len(ids) > 1:              # one list: the ids of the lists it joins become one
            for n in names[max(0, i - 64):i + 1]:
                if n.listed in ids:
                    n.listed = keep
        for n in together + [b]:
            n.listed = keep


def read_document(doc) -> DocumentNames:
    vocab = vocabulary()
    out = DocumentNames()
    titles = quoted_titles(doc)
    if "《" in doc.text:
        titles = sorted(titles + [m.span(1) for m in _WORK_TITLE.finditer(doc.text)])
    out.names = _names(doc, vocab, titles)
    _mark_lists(doc.text, out.names)
    for n in out.names:
        seen = out.by_surface.get(n.surface)
        if seen is None:
            out.by_surface[n.surface] = [n]
            out.forms[n.surface] = form(n.surface, n.org, vocab)
        else:
            seen.append(n)
    out.titles = _titles(doc)
    if out.titles:
        _mark_titled(out)
    out.joined = _joined(doc.text, out)
    out.lowered = _lowered(doc, out, titles)
    if out.lowered:
        lows = {n.surface for n in out.lowered}
        out.used_as_names = frozenset(s for s, ns in out.by_surface.items()
                                      if s.lower() in lows and _used_as_name(doc, ns))
    if out.joined:      # only a name written as two words asks whether it is a class of the code
        out.code_words = _code_words(doc)
    return out


# a work's title in Chinese title marks ('《详解DeepSeekV4：…》', a podcast's, a paper's, a book's):
# the names in it are spelled as that work spells them, not as the document does
_WORK_TITLE = compile_re(r"《([^《》\n]{1,200})》")
# a link whose text quotes a PR, issue or commit title: '[[PD][Nixl] Add support … #36687](https://…/pull/36687)'
_TITLE_LINK = compile_re(r"\[((?:[^\[\]\n]|\[[^\[\]\n]*\])+)\]\(\s*https?://[^)\s]*/(?:pull|pulls|issues|commit|merge_requests)/[^)\s]*\)")
_CODE_WORD = compile_re(r"[A-Za-z_][A-Za-z0-9_]*")


# a list item that is a PR's or issue's title, its link after it: '* [Model] Add tuned triton
# fused_moe configs for Qwen3Moe on B200 ([#31448](https://…/pull/31448)) by @Jzz1943'
_TITLE_ITEM = compile_re(r"[(（]?\s{0,2}\[#\d{1,7}\]\(\s*https?://[^)\s]*/(?:pull|pulls|issues|commit|merge_requests)/[^)\s]*\)"
                         r"\s{0,2}[)）]?(?:\s{0,4}(?:by|from|—|-|–)\s{0,4}@?[\w.-]{1,40})?\s{0,4}$")


# a list item that is only an issue's or PR's title in bold, its state tags before it and its
# number after it: '**[CLOSED] [2.0] tui: ctrl+c discards composed prompt draft (#48636)**'
_TITLE_BOLD = compile_re(r"\*\*\s{0,2}(?:\[[^\]\n]{1,24}\]\s{0,2})*(?P<t>[^*\n]{3,300}?)\s{0,2}[(（]#\d{1,7}[)）]\s{0,2}\*\*\s*$")


_ARTICLE_LINK_ITEM = compile_re(r"\[(?P<t>[^\[\]\n]{4,300})\]\(\s*(?P<url>https?://[^)\s]+)\s*\)")
_CODE_HOST_ITEM = compile_re(r"/(?:pull|pulls|issues|commit|commits|merge_requests|releases|compare)(?:/|$)")


@lru_cache(maxsize=1)
def _commit_title_bold():
    """A bold lead that is a commit-style PR title, its link right after it: '- **feat: add higress
    api mcp server** ([#2923](…/pull/2923)): 该功能…' (the release notes' description follows);
    the commit types are names.yaml ``commit_types``."""
    types = "|".join(re.escape(str(t)) for t in load("names.yaml").get("commit_types") or ())
    return compile_re(r"\*\*\s{0,2}(?P<t>(?:" + (types or "(?!)") + r")(?:\([^)\n]{1,40}\))?!?\s{0,2}[:：]"
                      r"[^*\n]{2,300}?)\s{0,2}\*\*\s{0,2}[(（]?\s{0,2}\[#\d{1,7}\]\(", re.IGNORECASE)


def quoted_titles(doc, links: bool = True) -> list:
    """(start, end) of every quoted PR / issue / commit title (a link's text, a list item
    that is the title its link ends, or a bold item that is only a title and its number), in
    text order.  ``links=False`` leaves out a link's text: the writer may word it ('[~40% faster
    dependency tracking](…/pull/4017)' in release notes is the notes' own claim)."""
    text = doc.text
    spans = [m.span(1) for m in _TITLE_LINK.finditer(text)] if links and "](" in text else []
    for b in doc.blocks:
        if b.kind == "bullet" and b.text.startswith("[") and b.text.rstrip().endswith(")"):
            # '* [从 serde 库切换到 nom 库，输入信息的解析速度提高了 3-10 倍](https://medium.com/…)': an item
            # that is only a link to an article is that article's title (a PR's or issue's link text,
            # which release notes word themselves, is _TITLE_LINK's)
            m = _ARTICLE_LINK_ITEM.fullmatch(b.text.rstrip())
            if m is not None and not _CODE_HOST_ITEM.search(m.group("url")):
                spans.append((b.start + m.start("t"), b.start + m.end("t")))
                continue
        if b.kind == "bullet" and "(#" in b.text:
            m = _TITLE_BOLD.fullmatch(b.text)
            if m is not None:
                spans.append((b.start + m.start("t"), b.start + m.end("t")))
                continue
        if b.kind == "bullet" and "[#" in b.text and b.text.startswith("**"):
            m = _commit_title_bold().match(b.text)
            if m is not None:
                spans.append((b.start + m.start("t"), b.start + m.end("t")))
                continue
        if b.kind == "bullet" and "[#" in b.text:
            m = _TITLE_ITEM.search(b.text)
            # the title as its author wrote it: one line, no bold lead nor sentence of the
            # digest's own ('**DeepSeekV4-Flash incorrect output** — Regression from …. [#46710](…)')
            if m is not None and m.start() > 0 and "**" not in b.text[:m.start()] \
                    and not _SENTENCE_BREAK.search(b.text, 0, m.start()):
                spans.append((b.start, b.start + m.start()))
    return sorted(spans)


def _inside(spans: list, x: int) -> bool:
    if not spans:
        return False
    k = bisect.bisect_right(spans, (x, float("inf"))) - 1
    return k >= 0 and spans[k][0] <= x < spans[k][1]


def _code_words(doc) -> frozenset:
    text = doc.text
    return frozenset(w for r in doc.code for w in _CODE_WORD.findall(text, r.start, r.end)
                     if not w.islower())


def case_key(t: str) -> str:
    """What the spellings of one name written in two cases, with and without a hyphen, or as
    one word and two share: the letters lower-cased, without spaces and hyphens ('Llama-3 8B',
    'Llama-3-8B', 'llama-3-8b'; dots stay: 'Qwen1.5' is not 'Qwen15')."""
    return t.lower().replace(" ", "").replace("-", "")


def parts(t: str) -> list:
    """A spelling cut at its separators ('Zero-Overhead' -> ['Zero', 'Overhead'])."""
    return _SEP.split(t)


# (or with a letter or two before the digit: 'V3', 'R1', 'M2' are shorter than a name token)
_DIGIT_PART = compile_re(r"(?:[A-Za-z]{1,2})?\d[A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?![A-Za-z0-9_/\\@-]|\.[A-Za-z0-9])")


# a release number ('Sharding-JDBC 1.5.2'): the product's version, not part of its name
_RELEASE = compile_re(r"\d+\.\d+\.\d+")


def _joined(text: str, out: DocumentNames) -> list:
    """The names written as two words ('CuTe DSL') that the document also writes as one
    token ('CuteDSL'): one Name per such pair, its surface the two words as written."""
    keys = {case_key(s) for s, f in out.forms.items() if not f.org}
    got = []
    names = out.names
    for a, b in zip(names, names[1:]):
        if a.block is None or a.block != b.block or a.org or b.org or b.start != a.end + 1 \
                or text[a.end] != " ":
            continue
        key = case_key(a.surface) + case_key(b.surface)
        if key in keys and _sentence_start(text, a.start) and is_english(a.surface.lower()) \
                and re.search(r"(?<![A-Za-z])%s(?![A-Za-z])" % re.escape(key), text):
            # 'Fast HTTP implementation for Go.' in the README of 'fasthttp': a name written in
            # lower case is capitalised only where a sentence starts, and the sentence's first
            # word is an ordinary one
            continue
        if key in keys:
            got.append(Name(f"{a.surface} {b.surface}", a.start, b.end, a.line, a.col, a.block))
    # a name and a version or size written apart ('LLaMA 3-8B' beside 'LLaMA3-8B', 'DeepSeek V3'
    # beside 'DeepSeek-V3'): the second part starts with a digit or is too short to be a name
    # token ('V3'), so it is no name token of its own
    paired = {n.start for n in got}
    for a in names:
        if a.block is None or a.org or text[a.end:a.end + 1] != " " or a.start in paired:
            continue
        m = _DIGIT_PART.match(text, a.end + 1)
        if m and not _RELEASE.fullmatch(m.group()) and case_key(a.surface) + case_key(m.group()) in keys:
            got.append(Name(f"{a.surface} {m.group()}", a.start, m.end(), a.line, a.col, a.block))
    got.sort(key=lambda n: n.start)
    return got


# a capitalised name of letters only ('Julia', 'Tokio', 'Netpoll'; not 'JSON', not 'vLLM'; not
# 'FlashInfer' either: a CamelCase product's lower case is its package, 'flashinfer kernels')
_CAPITALISED = compile_re(r"[A-Z][a-z]{3,}")


@lru_cache(maxsize=256)
def _lower_pattern(words: tuple):
    alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    # as a name token is bounded; a word inside a path, an identifier or a hyphenated compound is not one
    return re.compile(r"(?<![A-Za-z0-9_/\\.@#-])(?:%s)(?![A-Za-z0-9_/\\@-]|\.[A-Za-z0-9])" % alts)


_RUNNING_PROSE = ("paragraph", "bullet")   # prose a reader runs through: no table, no heading
_LOWER_NOT_NAME = compile_re(r":\s|\s{0,2}v?\d|\s(?:library|package|crate|module|wheel|gem|extension|binary|cli|command)\b")
_LOWER_PACKAGE = compile_re(r"\binstall(?:ing|ed)?\s+$")
_IMAGE_ALT = compile_re(r"!\[([^\]\n]*)\]")


def _plural_of_a_word(text: str, s: str) -> bool:
    """A capitalised plural whose singular the text writes in lower case ('Iterators and
    MultiGet' beside 'a new iterator'): a common noun capitalised as an API's, not a name."""
    if len(s) < 5 or not s.endswith("s"):
        return False
    return re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(s[:-1].lower()), text) is not None


def _lowered(doc, out: DocumentNames, titles: list) -> list:
    """The names of ``out`` written all in lower case in the prose: a capitalised name of
    letters only. An English word's lower case is the word ('rust', 'java'), except against
    Chinese text, where a Latin word is no English prose ('java函数', 'intel芯片')."""
    terms = vocabulary()["terms"]
    words = {s.lower() for s, f in out.forms.items()
             if not f.org and _CAPITALISED.fullmatch(s) and s.lower() not in terms
             and not _plural_of_a_word(doc.text, s)}
    english = {w for w in words if is_english(w)}
    if not words or (words <= english and not has_cjk(doc.text)):
        return []
    rx = _lower_pattern(tuple(sorted(words)))
    text, got = doc.text, []
    alts = [m.span(1) for m in _IMAGE_ALT.finditer(text)] if "![" in text else []
    for bi, b in enumerate(doc.blocks):
        if b.kind not in _RUNNING_PROSE or b.quoted:
            continue        # a table's labels and headings are labels; a block quote is another writer's spelling
        for s, e in _unmasked(b):
            for m in rx.finditer(text, s, e):
                if _inside(titles, m.start()) or _LOWER_NOT_NAME.match(text, m.end()) \
                        or text.startswith("](", m.end()) or _LOWER_PACKAGE.search(text, max(s, m.start() - 9), m.start()) \
                        or _inside(alts, m.start()):
                    # a commit subject's component ('vulkan: support …'), a package pin
                    # ('triton 3.6→3.7.1') or the package itself ('the modelscope library',
                    # 'install flashinfer'), a link's text as its address writes it, an image's alt text
                    continue
                if m.group() in english and not _abuts_cjk(text, m.start(), m.end()):
                    continue
                line, col = doc.line_col(m.start())
                got.append(Name(m.group(), m.start(), m.end(), line, col, bi))
    return got


def _abuts_cjk(text: str, a: int, b: int) -> bool:
    """Is ``text[a:b]`` written against a Chinese character on either side ('java函数',
    '，intel芯片'; '安装 docker 程序' has spaces between: not against)?"""
    before = text[a - 1:a] if a > 0 else ""
    after = text[b:b + 1]
    return bool(CJK_CHAR.match(before) or CJK_CHAR.match(after))


def _used_as_name(doc, names) -> bool:
    """A capitalised word the document uses as a name: vocabulary aside, written at least
    twice inside running prose with no capitalised word beside it ('the Tokio scheduler'),
    not where a sentence starts, nor in a heading, a table or a Title Case run ('Chunked
    Prefill', 'Peak Throughput'), where terms are capitalised too."""
    if vocabulary()["known"].get(names[0].surface.lower()) == names[0].surface:
        return True
    text, alone = doc.text, 0
    for n in names:
        if n.block is None or doc.blocks[n.block].kind not in _RUNNING_PROSE or _sentence_start(text, n.start):
            continue
        before = text[max(0, n.start - 30):n.start].split()
        after = text[n.end:n.end + 30].split()
        if (before and before[-1][:1].isupper()) or (after and after[0][:1].isupper()):
            continue
        alone += 1
    return alone >= 2


def in_cited_entry(doc, n) -> bool:
    """Is name ``n`` in a references or sources list, outside a link's text (a cited work's
    title: 'Snowflake Engineering Blog: SuffixDecoding at Production Scale')?  A link's text is
    the writer's own words for the page ('[SgLang Prefix Caching …](https://lmsys.org/…){…}')."""
    if n.block is None or doc.blocks[n.block].role not in ("references", "sources_table"):
        return False
    b, text = doc.blocks[n.block], doc.text
    opened = text.rfind("[", b.start, n.start)
    if opened >= 0 and text.rfind("]", opened, n.start) < 0:
        close = text.find("]", n.end, b.end)
        if close >= 0 and text.startswith("(", close + 1):
            return False
    return True


def starts_sentence(doc, n) -> bool:
    """Is name ``n`` where a sentence or a heading starts (where a capital is the text's)?"""
    if n.block is not None and doc.blocks[n.block].kind in ("heading", "entry_heading"):
        return True
    return _sentence_start(doc.text, n.start)


def _sentence_start(text: str, i: int) -> bool:
    """Nothing but markup, a number or a list mark between ``i`` and the start of its line or
    sentence: a capital there is the sentence's, not the name's."""
    j = i - 1
    while j >= 0 and text[j] in " \t*_#>-`[(0123456789.":
        j -= 1
    return j < 0 or text[j] in "\n。！？!?：:|"


def _mark_titled(out):
    """Each name inside a title the document gives an arXiv id records that id (titles are
    merged into disjoint ranges first: a link's text inside a table's title cell is one range)."""
    ranges = []
    for s_, e_, ref in sorted((t.start, t.start + len(t.surface), t.ref) for ts in out.titles.values() for t in ts):
        if ranges and s_ < ranges[-1][1]:
            ranges[-1][1] = max(ranges[-1][1], e_)
        else:
            ranges.append([s_, e_, ref])
    starts = [r[0] for r in ranges]
    for n in out.names:
        k = bisect.bisect_right(starts, n.start) - 1
        if k >= 0 and n.start < ranges[k][1]:
            n.title = ranges[k][2]


# ---------------------------------------------------------------- names

def _unmasked(b):
    """(start, end) pieces of a block outside its masked ranges."""
    pos = b.start
    for s, e in b.masked:
        if s > pos:
            yield pos, s
        pos = max(pos, e)
    if pos < b.end:
        yield pos, b.end


def _names(doc, vocab, titles: list) -> list:
    text = doc.text
    starts = doc.line_starts
    last = len(starts) - 1
    out = []
    li = 0          # the tokens come in text order: their line is found by walking forward
    for bi, b in enumerate(doc.blocks):
        if b.kind not in _PROSE:
            continue
        for s, e in _unmasked(b):
            if text.find("/", s, e) >= 0:
                for m in _ID.finditer(text, s, e):
                    if _DIGIT.search(m.group(2)):
                        ms = m.start()
                        while li < last and starts[li + 1] <= ms:
                            li += 1
                        out.append(Name(m.group(0), ms, m.end(), li + 1, ms - starts[li] + 1, bi, m.group(1)))
            for m in _TOKEN.finditer(text, s, e):
                tok = m.group()
                if len(tok) < MIN_LEN:
                    continue
                ms = m.start()
                while li < last and starts[li + 1] <= ms:
                    li += 1
                me = m.end()
                # '[Nixl]', '[Perf]': a quoted PR title's tag, as its author wrote it
                quoted = (ms > 0 and text[ms - 1] == "[" and me < len(text) and text[me] == "]") \
                    or _inside(titles, ms)
                out.append(Name(tok, ms, me, li + 1, ms - starts[li] + 1, bi, "", quoted=quoted))
    # a checkpoint id is usually written as code: `Qwen/Qwen3-32B`
    for r in doc.code:
        if r.kind != "inline" or text.find("/", r.start, r.end) < 0:
            continue
        for m in _ID.finditer(text, r.start, r.end):
            if _DIGIT.search(m.group(2)):
                line, col = doc.line_col(m.start())
                out.append(Name(m.group(0), m.start(), m.end(), line, col, None, m.group(1), True))
    out.sort(key=lambda n: n.start)
    return out


# ---------------------------------------------------------------- forms

def flatten(s: str) -> str:
    """Lower-cased without '-', '.', '_' and spaces: the spellings of one name compare equal."""
    return _SEP.sub("", s).lower()


def form(text: str, org: str = "", vocab: Optional[dict] = None) -> Form:
    """The Form of one spelling (shared between documents: a corpus repeats its names)."""
    if vocab is None or vocab is vocabulary():
        return _form(text, org)
    return _make_form(text, org, vocab)


@lru_cache(maxsize=16384)
def _form(text: str, org: str) -> Form:
    return _make_form(text, org, vocabulary())


def _make_form(text: str, org: str, vocab: dict) -> Form:
    name = text.split("/", 1)[1] if org else text
    low = name.lower()
    f = Form(surface=text, flat=flatten(text), digits="".join(ch for ch in text if ch.isdigit()),
             parts=tuple(p for p in _SEP.split(low) if p), org=org.lower(), name=name)
    cased = [w for p in _SEP.split(name) if p for w in _CAMEL.split(p) if w]
    f.words = tuple(w.lower() for w in cased)
    f.capitals = frozenset(w.lower() for w in cased if len(w) >= 2 and w.isupper())
    g = _GENERATION.match(low)
    if g:
        f.family, f.generation, f.rest = g.group(1), g.group(2) or "", g.group(3) or ""
    else:
        f.family, f.rest = "", low
    f.shape = _shape(name)
    f.known = vocab["known"].get(text.lower() if not org else "", "") or vocab["known"].get(low, "")
    if org:
        f.checkpoint = _is_checkpoint(f.org, low, vocab)
    f.file_like = bool(_FILE_EXT.search(text))
    for suffix in ("es", "s"):
        if low.endswith(suffix) and len(low) > len(suffix) + 2:
            f.plural_of = f.plural_of or flatten(low[:-len(suffix)])
    return f


def _shape(name: str) -> str:
    """'name' when the spelling itself says it is a name: a digit beside letters ('Grok-1'),
    a capital inside it ('SpecInfer', 'vLLM'), or an acronym of four letters or more
    ('TTFT'); 'lower' for a lower-case word; 'word' for any other ('Triton', 'Tokens')."""
    if name.islower():
        return "lower"
    if _DIGIT.search(name) and _TWO_LETTERS.search(name):
        return "name"
    if name.isupper():
        return "name" if len(name) >= 4 else "word"
    return "name" if _INNER_UPPER.search(name) else "word"


def _is_checkpoint(org: str, name: str, vocab) -> bool:
    listed = vocab["checkpoints"].get(org)
    if not listed:
        return False
    if name in listed:
        return True
    # a listed checkpoint with a suffix: 'qwen3-32b-fp8', 'llama-2-7b-chat-hf'
    k = name.rfind("-")
    while k > 0:
        if name[:k] in listed:
            return True
        k = name.rfind("-", 0, k)
    return False


@lru_cache(maxsize=1)
def vocabulary() -> dict:
    """known: lower-cased spelling -> the vocabulary's spelling (names.yaml names, the systems
    and hardware of entities.yaml); checkpoints: org -> set of lower-cased names."""
    data = load("names.yaml")
    ents = load("entities.yaml")
    known = {}
    for n in data.get("names") or ():
        known.setdefault(str(n).lower(), str(n))
    for group in ("systems", "hardware"):
        for canon, aliases in (ents.get(group) or {}).items():
            for a in [canon, *(aliases or [])]:
                # entities.yaml keys are ids ('vllm'); its first alias is the spelling
                spelled = str((aliases or [canon])[0])
                known.setdefault(str(a).lower(), spelled)
    checkpoints = {str(org).lower(): {str(n).lower() for n in names or ()}
                   for org, names in (data.get("checkpoints") or {}).items()}
    # every spelling the vocabulary accepts, by ``case_key``: one name may have two ('Hugging
    # Face' and 'HuggingFace', 'Winogrande' and 'WinoGrande')
    accepted: dict = {}
    for n in data.get("names") or ():
        accepted.setdefault(case_key(str(n)), set()).add(str(n))
    for key, spelled in known.items():
        accepted.setdefault(case_key(key), set()).add(spelled)
    # a published checkpoint's name is its spelling ('DeepSeek-V3', 'Qwen1.5-72B'), except the
    # case of a size ('Llama-2-7b' is the repository's; prose writes 7B)
    for names in (data.get("checkpoints") or {}).values():
        for n in names or ():
            if not _SIZE_CASE.search(str(n)):
                accepted.setdefault(case_key(str(n)), set()).add(str(n))
    # technical terms a writer capitalises as a term ('Prefill 阶段', 'Omni 模型'), not names
    terms = frozenset(str(t).lower() for t in data.get("terms") or ())
    return {"known": known, "checkpoints": checkpoints, "accepted": accepted, "terms": terms}


ENGLISH = "english_words.txt"


class SortedWords:
    """Membership in a sorted word file without building a set: the file is read as one
    string (a fraction of a millisecond) and a word is found by bisection over its lines,
    so a document that asks about three words does not pay for 44,000."""

    def __init__(self, path: str):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        i = 0
        while text.startswith("#", i):          # the header's comment lines
            i = text.index("\n", i) + 1
        self.text, self.lo = text, i

    def __contains__(self, word: str) -> bool:
        text = self.text
        lo, hi = self.lo, len(text)         # invariant: lo is a line start, hi an offset past it
        while lo < hi:
            mid = (lo + hi) // 2
            start = text.rfind("\n", lo, mid) + 1 or lo
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            here = text[start:end]
            if here == word:
                return True
            if here < word:
                lo = end + 1
            else:
                hi = start
        return False


@lru_cache(maxsize=1)
def _english() -> SortedWords:
    return SortedWords(os.path.join(DATA_DIR, ENGLISH))


def is_english(word: str) -> bool:
    """Is ``word`` (any case) a common English word?  The list is loaded on the first question:
    only a document with two spellings to tell apart asks one."""
    return word.lower() in _english()


# ---------------------------------------------------------------- titles

_TITLE_COL = compile_re(r"标题|题目|论文|title|paper", re.I)
_LINE_TITLE = compile_re(r"(?:^|[·•|#]\s*)([^·•|#（(\[\]]{6,200}?)\s*[（(]\s*arxiv\s*[:：]?\s*$", re.I)
_NOTE = compile_re(r"[（(][^）)]*[）)]")
_SPACES = compile_re(r"\s+")
_WORDS = compile_re(r"[a-z][a-z0-9-]{2,}")
_TITLE_STOP = {"the", "and", "for", "with", "via", "from", "into", "using", "based", "towards", "llm", "llms",
               "large", "language", "model", "models", "inference", "efficient", "serving", "fast", "new"}


def norm_title(t: str) -> str:
    """A title lower-cased, its notes in brackets and punctuation other than '-' and ':' dropped."""
    t = _NOTE.sub(" ", t)
    t = "".join(ch for ch in t if unicodedata.category(ch)[0] in "LNZ" or ch in "-: ")
    return _SPACES.sub(" ", t).strip(" -:").lower()


def _title(ref, text, start, doc, via) -> Title:
    line, col = doc.line_col(start)
    n = norm_title(text)
    words = frozenset(w for w in _WORDS.findall(n) if w not in _TITLE_STOP)
    return Title(ref, text, start, line, col, via, n, words)


def _titles(doc) -> dict:
    out: dict = {}
    for r in doc.references:
        if r.kind != "arxiv" or r.block is None:
            continue
        b = doc.blocks[r.block]
        got = None
        if b.table is not None and b.row is not None:
            got = _table_title(doc, r, b)
        if got is None:
            got = _link_title(doc, r, b) or _line_title(doc, r, b)
        if got is not None:
            out.setdefault(r.ref, []).append(got)
    for ts in out.values():
        ts.sort(key=lambda t: t.start)
    return out


def _table_title(doc, r, b):
    """The title column of the row that holds the id (a cell other than the id's own)."""
    t = doc.tables[b.table]
    cols = [c.column for c in t.header if _TITLE_COL.search(c.text)]
    if not cols:
        return None
    row = next((rw for rw in t.rows if rw.index == b.row), None)
    if row is None:
        return None
    for c in row.cells:
        if c.column in cols and c.column != b.cell and c.text and r.ref not in c.text:
            return _title(r.ref, c.text, c.start, doc, "table")
    return None


def _link_title(doc, r, b):
    """'[Title](https://arxiv.org/abs/ID)': the id sits in a masked link target '](…)'."""
    text = doc.text
    for s, e in b.masked:
        if s <= r.start < e and text.startswith("](", s):
            k = text.rfind("[", b.start, s)
            if k >= 0 and 3 <= s - k - 1 <= 200 and text.find("\n", k, s) < 0:
                return _title(r.ref, text[k + 1:s], k + 1, doc, "link")
    return None


def _line_title(doc, r, b):
    """'Title（arXiv:ID…）' in a heading, an entry or a line."""
    lo = max(b.start, r.start - 400)          # a title is at most 200 characters
    head = doc.text[lo:r.start]
    m = _LINE_TITLE.search(head)
    if not m:
        return None
    t = m.group(1)
    return _title(r.ref, t.strip(), lo + m.start(1) + len(t) - len(t.lstrip()), doc, "line")


# ---------------------------------------------------------------- the English word list

def english_words(frequencies: dict, min_count: int = 100) -> list:
    """The words ``english_words.txt`` holds: alphabetic ASCII words of three letters or more
    seen at least ``min_count`` times in the dictionary's frequency list."""
    return sorted(w for w, c in frequencies.items()
                  if c >= min_count and len(w) >= 3 and w.isascii() and w.isalpha() and w.islower())


def _write_english():      # pragma: no cover - run by hand (needs pyspellchecker)
    from spellchecker import SpellChecker
    words = english_words(SpellChecker(language="en").word_frequency.dictionary)
    path = os.path.join(DATA_DIR, ENGLISH)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("# Common English words (pyspellchecker's English frequency list, words seen 100 times\n"
                 "# or more): a word here beside a name one edit away is a word, not a misspelling.\n"
                 "# Generated by `python -m claims.names`; do not edit.\n")
        for w in words:
            fh.write(w + "\n")
    print(f"{path}: {len(words)} words")


if __name__ == "__main__":
    _write_english()
