"""The typed structure of a segmented briefing: sentences, list items and their
introductions, table captions, setup blocks and numbered references.

``build(doc)`` runs once, after ``claims.segment`` has cut the document into blocks
and tables, and fills ``doc.sentences``, ``doc.items``, ``doc.setups``,
``doc.references`` and each table's ``caption``.  Every later reader — figures'
context, derivations, the rule kinds — asks these records instead of reading the
text again, so there is one answer to "where does this sentence end?", "what does this
list's introduction say?" or "which issues does this section cite?".
"""
from __future__ import annotations

import bisect
import re
from functools import lru_cache

from ._data import load
from .conditions import find_conditions
from .entities import find_entities, guarded
from .model import ListItem, Mention, Reference, Sentence, Setup
from .pattern_cache import compile_re  # compiled once per machine, not per process

# ---------------------------------------------------------------- sentences

# The one definition of a sentence end.  ' + ' after a figure joins separate statements in
# briefing summaries ('EAGLE-3 3.1× + LMDeploy 35% 领先'; 'DCP + DSPARK' joins two names); a
# blank line ends a sentence; a full stop ends one only before a space or the end (not '3.5'),
# and not after a lone digit standing as a word (a packed list's '要点： 1. foo 2. bar', 'Step 3. Then');
# 'at batch 32. On batch 1 …', '… using FP16. SGLang …' and a name ending in a digit ('than
# PP-OCRv3. The table', 'Kimi K3. It', 'DeepSeek V3.2. Its') end sentences.
# (a period before closing emphasis ends a sentence too: '**Decode: 13% faster (0.88x).** Improvement: …')
SENT_END = compile_re(r"[。！？!?；;]|\.(?=[*_]{0,3}(?:\s|$))(?<!(?<![^\s(\[])\d\.)|\n\s*\n|(?<=[0-9%×倍）)])\s\+\s")
# A clause ends at a comma, a dash between spaces or a bracket as well as at a sentence end.
# what may stand between two items of one written list: ', ', '、', ' and ', ', and ', ' / ', '和'
# (fullmatch it between two items; a caller that needs a separator checks the text is not blank)
LIST_SEP = compile_re(r"\s{0,2}(?:,|，|、|/|;|；)?\s{0,2}(?:and|or|&|和|与|及|以及|或)?\s{0,2}")
CLAUSE_END = compile_re(r"[。！？!?；;，、]|\.(?=[*_]{0,3}(?:\s|$))|,(?!\d{3})|\s[-–—+]\s|[（(]|[）)]")
# Words that open a sentence by pointing back at the previous one ('That is 50% better …').
ANAPHORA = compile_re(r"\s*(?:That|This|It|These|Those|Which|Its|i\.e\.|这|该|其|此|它|即|也就是)", re.IGNORECASE)

_DIGIT = compile_re(r"\d")
_PROSE = ("paragraph", "bullet", "table_cell", "heading", "entry_heading")


def _sentences(doc) -> list:
    out = []
    text = doc.text
    for bi, b in enumerate(doc.blocks):
        if b.kind not in _PROSE:
            continue
        s = b.start
        for m in SENT_END.finditer(text, b.start, b.end):
            if m.end() > s and text[s:m.end()].strip():
                out.append(Sentence(s, m.end(), bi))
            s = m.end()
        if s < b.end and text[s:b.end].strip():
            out.append(Sentence(s, b.end, bi))
    return out


def sentence_index(doc, offset: int):
    """Index into ``doc.sentences`` of the sentence holding ``offset`` (None outside prose)."""
    starts = _starts(doc, "sentences")
    k = bisect.bisect_right(starts, offset) - 1
    if k >= 0 and doc.sentences[k].start <= offset < doc.sentences[k].end:
        return k
    return None


def sentence_at(doc, offset: int):
    """The Sentence holding ``offset`` (None outside prose)."""
    k = sentence_index(doc, offset)
    return None if k is None else doc.sentences[k]


def _starts(doc, what):
    """The sorted starts of one of the document's record lists (``doc.starts`` keeps them)."""
    seq = getattr(doc, what)
    cached = doc.starts.get(what)
    if cached is None or cached[0] is not seq or len(cached[1]) != len(seq):
        cached = doc.starts[what] = (seq, [x.start for x in seq])
    return cached[1]


# ---------------------------------------------------------------- lists

def _items(doc) -> list:
    """Bullet blocks as list items; a list is a run of bullets with nothing else between
    them but the items' own indented paragraphs ('1. **…**' then '   做法：…' then '2. …');
    its introduction is the paragraph (or packed-bullet label) right before it."""
    out = []
    list_id = -1
    prev = None          # index of the previous block
    text = doc.text
    indent_of = {}       # line -> indentation (packed bullets share their line's)
    last = None          # the block of the latest bullet, while only its own paragraphs follow it
    for bi, b in enumerate(doc.blocks):
        if b.kind != "bullet":
            if last is not None and not (b.kind == "paragraph" and _indent(doc, b) > _indent(doc, doc.blocks[last])
                                         and b.section == doc.blocks[last].section):
                last = None
            if last is None:
                prev = bi
            continue
        p = doc.blocks[prev] if prev is not None else None
        if not out or (out[-1].block != bi - 1 and out[-1].block != last):
            list_id += 1
            intro = None
            if p is not None and p.kind in ("paragraph", "heading", "entry_heading") and \
                    p.section == b.section and b.line - _last_line(doc, p) <= 2:
                intro = prev
        else:
            intro = out[-1].intro
        depth = indent_of.get(b.line)
        if depth is None:
            ls = doc.line_starts[b.line - 1]
            k = ls
            while k < b.start and text[k] in " \t>":
                k += 1
            depth = indent_of[b.line] = min((k - ls) // 2, 8)
        out.append(ListItem(block=bi, list_id=list_id, intro=intro, depth=depth))
        prev = last = bi
    return out


def _indent(doc, b) -> int:
    """Columns of white space (and block-quote marks) before the block's first line."""
    ls = doc.line_starts[b.line - 1]
    k = ls
    while k < b.start and doc.text[k] in " \t>":
        k += 1
    return k - ls


def _last_line(doc, b) -> int:
    return doc.line_col(max(b.start, b.end - 1))[0]


# ---------------------------------------------------------------- captions

_CAPTION_AFTER = compile_re(r"^\s*(?:\*\*|_)?(?:Table|Figure|Fig\.|表|图)\s*\d{0,3}\s*[:：.．]", re.IGNORECASE)


def _paragraph_of(doc, bi) -> list:
    """The blocks of the Markdown paragraph ending with block ``bi``: the segmenter cuts a
    paragraph at each line that ends a sentence, the reader of a caption does not."""
    out = [bi]
    k = bi
    while k > 0 and len(out) < 4:
        prev, cur = doc.blocks[k - 1], doc.blocks[k]
        if prev.kind != "paragraph" or prev.section != cur.section or _last_line(doc, prev) + 1 != cur.line:
            break
        out.insert(0, k - 1)
        k -= 1
    return out


def _captions(doc):
    """A table's caption: a 'Table N:' / '表 N' line right after it, else the paragraph or
    heading that introduces it (the block right before its header row, same section)."""
    first_block = {}
    last_block = {}
    for bi, b in enumerate(doc.blocks):
        if b.table is not None:
            first_block.setdefault(b.table, bi)
            last_block[b.table] = bi
    for k, t in enumerate(doc.tables):
        if k not in first_block:
            continue
        after = last_block[k] + 1
        if after < len(doc.blocks):
            b = doc.blocks[after]
            if b.kind == "paragraph" and b.line - t.end_line <= 2 and _CAPTION_AFTER.match(b.text):
                t.caption, t.caption_blocks = after, [after]
                continue
        before = first_block[k] - 1
        if before >= 0:
            b = doc.blocks[before]
            if b.kind in ("paragraph", "heading", "entry_heading") and b.table is None and \
                    t.line - _last_line(doc, b) <= 2 and b.section == t.section:
                t.caption = before
                t.caption_blocks = _paragraph_of(doc, before) if b.kind == "paragraph" else [before]


# ---------------------------------------------------------------- setups


@lru_cache(maxsize=None)
def _document_rx():
    """sections.yaml's document-level patterns: (subject_model, ml_vocabulary, header_not_system,
    ml_weak_vocabulary)."""
    d = load("sections.yaml")
    return tuple(compile_re(d.get(k) or r"(?!)") for k in
                 ("subject_model", "ml_vocabulary", "header_not_system", "ml_weak_vocabulary"))


@lru_cache(maxsize=None)
def _setup_rx():
    d = load("sections.yaml")
    # the searched ones carry a guard on their first characters (entities.guarded: same matches)
    return (compile_re(d["setup_line"], re.IGNORECASE), guarded(d["setup_paren"], re.IGNORECASE),
            compile_re(d["setup_section"]), compile_re(d["appendix_section"]),
            guarded(d["setup_intro"], re.IGNORECASE), guarded(d["setup_sentence"], re.IGNORECASE),
            guarded(d["setup_universal"], re.IGNORECASE), compile_re(d.get("model_row_label") or r"(?!)"),
            compile_re(d.get("hardware_column") or r"(?!)"))


_EVALUATION = compile_re(r"(?i)\b(?:evaluations?|experiments?|experimental results|results|benchmarks?|benchmarking|"
                         r"performance|measurements?)\b|评测|实验|测试|结果|性能|基准")


def _evaluation_ancestor(doc, k, clean_title):
    """The highest ancestor of section ``k`` (below the title level) that names an evaluation,
    else ``k`` itself."""
    best, cur, seen = k, k, 0
    while cur is not None and seen < 16:
        sec = doc.sections[cur]
        if sec.level > 1 and _EVALUATION.search(clean_title(sec.title)):
            best = cur
        cur, seen = sec.parent, seen + 1
    return best


_LEADING_TAGS = compile_re(r"^(?:\s*</?[A-Za-z][A-Za-z0-9]{0,20}(?:\s[^<>]{0,200})?>)+\s*")


def _setups(doc, clean_title) -> list:
    line_rx, paren_rx, section_rx, appendix_rx, intro_rx, sentence_rx, universal_rx = _setup_rx()[:7]
    out = []
    by_section = {}
    for bi, b in enumerate(doc.blocks):
        if b.section is not None and b.entry is None:
            by_section.setdefault(b.section, []).append(bi)
    for k, sec in enumerate(doc.sections):
        if section_rx.match(clean_title(sec.title)):
            parent = sec.parent
            scope = None if parent is None or appendix_rx.match(clean_title(doc.sections[parent].title)) else parent
            if scope is not None:
                # '## Evaluation > ### End-to-end Performance > ##### Experimental Setup' sets up
                # the whole evaluation, its profile and ablation sub-sections too
                scope = _evaluation_ancestor(doc, scope, clean_title)
            # its sub-sections are its setup too ('## 1. 测试环境' over '### 1.1 服务器配置')
            own = [k] + [j for j in range(k + 1, len(doc.sections)) if _descends(doc, j, k)]
            blocks = sorted(i for j in own for i in by_section.get(j, []))
            out.append(Setup("section", blocks, scope, None, sec.line,
                             mentions=_fenced_names(doc, k) + _hardware_cells(doc, own)))
    # a key-value table's model row ('| H3 主模型 | `minimax_h3_….safetensors` |'): the model of its
    # section (of the document above the first section), as a '**模型**：…' line would be, whether
    # or not a vocabulary knows the name
    model_row = _setup_rx()[7]
    for t in doc.tables:
        for row in t.rows:
            if len(row.cells) >= 2 and row.cells[0].column == 0 and row.cells[1].block is not None \
                    and model_row.match(row.cells[0].text):
                b = doc.blocks[row.cells[1].block]
                surface = doc.text[b.start:b.end]
                value = surface.strip().strip("`*").strip()
                if value and len(value) <= 120 and not _PLACEHOLDER.match(value):
                    out.append(Setup("row", [], b.section, b.entry, b.line,
                                     mentions=[Mention("model", value, b.start, b.end, surface)]))
    items_of = {}
    for it in doc.items:
        items_of.setdefault(it.intro, []).append(it.block)
    for bi, b in enumerate(doc.blocks):
        if b.kind not in ("paragraph", "bullet") or b.role not in ("body", "header", "summary"):
            continue
        t = b.text
        if t.startswith("<"):       # '<summary>Setup: GLM-5.2-FP8 on 32x H200 …</summary>'
            t = _LEADING_TAGS.sub("", t)
        m = line_rx.match(t) if (":" in t or "：" in t) else None
        if m:
            opens = b.text.rstrip().endswith((":", "："))
            listed = items_of.get(bi, []) if opens else []
            # ... or the table it introduces ('集群配置：' over '| 机器 | roles | disk |')
            out.append(Setup("line", [bi] + listed, b.section, b.entry, b.line,
                             mentions=_hardware_cells(doc, caption=bi) if opens else []))
            continue
        if ("(" in t or "（" in t) and paren_rx.search(t):
            out.append(Setup("paren", [bi], b.section, b.entry, b.line))
            continue
        if b.kind == "paragraph" and bi in items_of and t.rstrip().endswith((":", "：")) \
                and intro_rx.search(t):
            out.append(Setup("list", [bi] + items_of[bi], b.section, b.entry, b.line))
            continue
        # a setup sentence names hardware or a model, which always carries a digit ('H100', '70B')
        if not _DIGIT.search(t):
            continue
        if universal_rx.search(t):
            # 'All tests were run on an RTX 4090' (a paragraph, or a note under a table): every
            # figure of the post (of the entry, in a digest)
            out.append(Setup("universal", [bi], None if b.entry is None else b.section, b.entry, b.line))
            continue
        if b.kind == "paragraph" and sentence_rx.search(t):
            out.append(Setup("paragraph", [bi], b.section, b.entry, b.line))
    return out


# emphasis and code marks around a table cell's text
CELL_MARKUP = compile_re(r"[*_`]+")

# a Chinese character (the CJK Unified Ideographs block): Latin abutting it is no English prose
CJK_CHAR = compile_re(r"[\u4e00-\u9fff]")


def has_cjk(text: str) -> bool:
    """Does ``text`` hold a Chinese character?"""
    return CJK_CHAR.search(text) is not None


def _descends(doc, j: int, k: int) -> bool:
    """Is section ``j`` inside section ``k``?"""
    p, seen = doc.sections[j].parent, 0
    while p is not None and seen < 16:
        if p == k:
            return True
        p, seen = doc.sections[p].parent, seen + 1
    return False


def _hardware_cells(doc, sections: list = (), caption=None) -> list:
    """The machines a setup section's table lists under a hardware column ('| 服务器 | CPU | 内存 |'
    over '| 业务应用 | 4核 | 4GB |'): a cell of bare specifications names hardware by its header,
    as 'CPU: 4核' would.  ``caption``: the tables a setup line introduces instead ('集群配置：' over
    '| 机器 | roles | disk |')."""
    label = _setup_rx()[8]
    out = []
    for t in doc.tables:
        if caption is not None:
            if t.caption != caption:
                continue
        else:
            first = next((c.block for r in t.rows for c in r.cells if c.block is not None), None)
            if first is None or doc.blocks[first].section not in sections:
                continue
        heads = {h.column: CELL_MARKUP.sub("", h.text).strip() for h in t.header}
        cols = {j: h for j, h in heads.items() if label.match(h)}
        for row in t.rows if cols else ():
            for cell in row.cells:
                if cell.column in cols and cell.block is not None and cell.text.strip():
                    b = doc.blocks[cell.block]
                    surface = doc.text[b.start:b.end]
                    out.append(Mention("hardware", f"{cols[cell.column]} {surface.strip()}", b.start, b.end, surface))
    return out


def _fenced_names(doc, k: int) -> list:
    """The hardware and models a setup section states in a fenced block of its own body
    ('### 硬件配置' over a block of 'CPU: Model: AMD Ryzen 7 7840HS …', a pasted system report):
    code is no block, so the section's blocks alone would not name them.  An indented block
    is read the same way ('## 测试环境' over '    CPU: 24 Cores, Intel(R) Xeon(R) …')."""
    sec = doc.sections[k]
    nxt = next((s.line for s in doc.sections[k + 1:] if s.line > sec.line), None)
    out = []
    for region in doc.code:
        if region.kind in ("fence", "indented") and region.line > sec.line and (nxt is None or region.line < nxt):
            out += find_entities(doc.text, region.start, region.end, kinds=("hardware", "model"))
    return out


# a launch command's model argument and a hardware comment in a code block
# (or, in Python, the engine's model argument: 'LLM(model="meta-llama/…")', 'Runtime(model_path="…")')
_LAUNCH_MODEL = compile_re(r"(?:(?:--model(?:-path|_path)?|--served-model-name|(?:vllm|sglang)\s+serve|\s-m)[ =]+['\"]?"
                           r"|(?<![\w.])model(?:_path|_name|_id)?\s{0,2}=\s{0,2}['\"])(?P<v>[^\s'\"]{3,200})")
_HW_COMMENT = compile_re(r"(?im)^\s{0,8}(?:#|//)\s{0,4}(?:hardware|gpus?|硬件|机器)\s{0,4}[:：]\s{0,4}(?P<v>[^\n]{2,200})$")


def _code_setups(doc) -> list:
    """The setup a fenced code block's launch command or engine call states ('python3 -m
    sglang.launch_server --model-path meta-llama/Meta-Llama-3.1-8B-Instruct',
    'LLM(model="meta-llama/Meta-Llama-3-8B-Instruct")', '# Hardware: 8x A100 80GB GPUs'), for
    the top section (below the title) holding the block: the reproduce block of a section is how
    its figures were measured."""
    out = []
    text = doc.text
    heads = [(sec.line, k) for k, sec in enumerate(doc.sections)]
    for region in doc.code:
        if region.kind != "fence":
            continue
        found = []
        for m in _LAUNCH_MODEL.finditer(text, region.start, region.end):
            found += find_entities(text, m.start("v"), m.end("v"), kinds=("model",))
        for m in _HW_COMMENT.finditer(text, region.start, region.end):
            found += find_entities(text, m.start("v"), m.end("v"), kinds=("hardware",))
        if not found:
            continue
        k = None
        for ln, j in heads:
            if ln <= region.line:
                k = j
        while k is not None and doc.sections[k].parent is not None and doc.sections[k].level > 2:
            k = doc.sections[k].parent
        if k is not None and doc.sections[k].level <= 1:
            k = None            # under the title only: the whole document
        out.append(Setup("code", [], k, None, region.line, mentions=found))
    return out


# a header cell that is one name, perhaps with a version or a parenthesis ('acvram', 'vLLM 0.29（`vllm serve`）')
_CELL_NAME = compile_re(r"^[*_`\s]{0,4}(?P<n>[A-Za-z][\w.+-]{1,24}?)[*_`]{0,4}(?:\s{1,2}v?\d[\w.]{0,12})?\s{0,2}(?:[(（].{0,60}[)）])?[*_`\s]{0,4}$")
# a title comparing one name with another: 'Agave vs llama.cpp — Performance Benchmarks'
_VS = compile_re(r"(?<![\w.-])(?P<a>[A-Za-z][\w.+-]{1,24})\s{1,2}(?:vs\.?|versus|对比|对)\s{1,2}(?P<b>[A-Za-z][\w.+-]{1,24})(?![\w-])", re.IGNORECASE)


def document_domain(doc, names) -> str:
    """'ml' when the document names a model (``names``: block -> its model and hardware
    mentions), uses a word of machine learning in its prose (sections.yaml ``ml_vocabulary``) or two of
    the words machine learning shares with other fields (``ml_weak_vocabulary``); 'other'
    for a storage, database, web or compiler benchmark, whose figures depend on no model."""
    if any(m.kind == "model" for ms in names.values() for m in ms) \
            or any(m.kind == "model" for st in doc.setups for m in st.mentions):
        return "ml"     # a model named in prose, a launch command or a model row
    code = [(r.start, r.end) for r in doc.code]

    def prose(rx):
        # the words of the prose, not of a code block: 'Qdrant(quantization=False, …)' is a vector
        # database's setting, 'TOKEN="<your_jwt_token>"' a shell's (a serving command names its
        # model, which the setups read)
        return (m for m in rx.finditer(doc.text) if not any(a <= m.start() < b for a, b in code))
    if next(prose(_document_rx()[1]), None) is not None:
        return "ml"
    weak = set()
    for m in prose(_document_rx()[3]):
        weak.add(m.group().lower().rstrip("s"))
        if len(weak) >= 2:
            return "ml"     # 'inference' and 'GPU', '推理' and '显存'

    # a serving system the vocabulary knows ('SGLang', 'vLLM') runs models
    return "ml" if find_entities(doc.text, 0, len(doc.text), kinds=("system",)) else "other"



def local_systems(doc) -> tuple:
    """The names a document uses as systems beside systems a vocabulary knows: the other
    cells of a table header that names a known system ('| | acvram | vLLM 0.29 | llama.cpp |'),
    and the other side of a title's 'X vs <known system>' ('Agave vs llama.cpp'). A common
    English word in a header ('Native', 'Baseline') is a configuration, not a system; the
    title's explicit comparison is enough."""
    from .names import is_english
    found = []

    def known(name):
        return bool(find_entities(name, 0, len(name), kinds=("system",)))

    stop = _document_rx()[2]

    def other(name):
        # not hardware, a model, a condition ('BF16'), a column word ('Speedup') or a
        # configuration id ('vllm_fp8_quantization')
        return "_" not in name and not stop.match(name) and not find_conditions(name) \
            and not find_entities(name, 0, len(name), kinds=("hardware", "model"))

    for t in doc.tables:
        names = []
        for c in t.header:
            m = _CELL_NAME.match(c.text)
            names.append(m.group("n") if m else None)
        hits = [n for n in names if n and known(n)]
        if not hits:
            continue
        for n in names:
            if n and n not in hits and not known(n) and other(n) and not is_english(n):
                found.append(n)
    if doc.title:
        for m in _VS.finditer(doc.title):
            a, b = m.group("a"), m.group("b")
            for x, y in ((a, b), (b, a)):
                if known(y) and not known(x) and other(x):
                    found.append(x)
    return tuple(dict.fromkeys(found))


# a cell that names nothing yet ('| Model | TBD |', '| 模型 | 待定 |')
_PLACEHOLDER = compile_re(r"(?i)^(?:TBD|TBA|TODO|N/?A|none|unknown|-+|—|待定|未知|无|暂无)$")


def _subject_setups(doc) -> list:
    """The model a post names as its subject in its title or opening paragraph ('We compare
    Sigma V2's inference performance on vLLM …', 'one fixed-shape HSTU training run'): stated
    once for the whole post, as a setup line would be (sections.yaml ``subject_model``)."""
    if doc.kind != "post":
        return []
    rx = _document_rx()[0]
    opening = [b for b in doc.blocks[:6] if b.kind in ("heading", "paragraph") and b.section in (None, 0)]
    for b in opening[:3]:
        for m in rx.finditer(doc.text, b.start, b.end):
            g = "v" if m.group("v") else "v2"
            s, e = m.span(g)
            name = doc.text[s:e]
            if find_entities(doc.text, s, e, kinds=("system", "hardware")):
                continue        # "SGLang's inference performance": a system's, not a model's
            known = find_entities(doc.text, s, e, kinds=("model",))
            mention = known[0] if known else Mention("model", name, s, e, name)
            return [Setup("subject", [], None, None, b.line, mentions=[mention])]
    return []


# ---------------------------------------------------------------- references

# Issue / PR numbers and links, build and release ids: one pattern per form, each starting
# with a literal or a small class so the scan skips ahead (one alternation of all of them,
# or IGNORECASE, scans several times slower).
# (the look-behinds are written as Python tests after the match: a pattern that starts with
# a literal is searched for that literal, one that starts with a look-behind is tried everywhere)
_HASH = compile_re(r"#(\d{2,7})(?!\d)")
_LINK = compile_re(r"/(issues|pull|pulls|discussions)/(\d{1,7})(?!\d)")
_URL_HEAD = compile_re(r"https?://[^\s<>()\[\]{}\"'，。、；）（`]{1,400}$")
_WORD = compile_re(r"(PRs?|[Pp]ull [Rr]equests?|[Ii]ssues?|ISSUE)\s{0,2}#?(\d{1,7})(?![\d.])")
_BUILD = compile_re(r"b(\d{4,6})(?:\s{0,2}(?:[-–—~～]|to|至|到)\s{0,2}b?(\d{4,6}))?(?![\w.])")
_VER = compile_re(r"[vV]\d{1,3}(?:\.\d{1,4}){1,3}(?:[-.](?:rc|post|dev|alpha|beta)\.?\d{0,3})?(?![\w.])")
_ARXIV_CTX = compile_re(
    r"(?:\barxiv\s*(?:[:：#]|\s号|\sid)?\s*|arxiv\.org/(?:abs|pdf|html)/)"
    r"(?P<id>\d{3,5}\.\d{3,6})(?P<ver>v\d+)?(?!\d|\.\d)", re.IGNORECASE)
_ARXIV_BARE = compile_re(r"(?<![\w./-])(?P<id>\d{4}\.\d{4,5}|\d{3,5}\.\d{3,6})(?P<ver>v\d+)?(?![\w.])")
_ARXIV_COL = compile_re(r"arxiv", re.IGNORECASE)


def _glued(text, pos, extra) -> bool:
    """Is the character before ``pos`` part of a word (or one of ``extra``)?"""
    if pos == 0:
        return False
    ch = text[pos - 1]
    return ch.isalnum() or ch == "_" or ch in extra


def _in_code(doc):
    starts = [r.start for r in doc.code]

    def inside(pos):
        k = bisect.bisect_right(starts, pos) - 1
        return k >= 0 and doc.code[k].start <= pos < doc.code[k].end
    return inside


def _block_at(doc, pos):
    starts = _starts(doc, "blocks")
    k = bisect.bisect_right(starts, pos) - 1
    while k >= 0:
        b = doc.blocks[k]
        if b.start <= pos < b.end:
            return k
        if b.end <= pos:
            return None
        k -= 1
    return None


def _references(doc) -> list:
    text = doc.text
    in_code = _in_code(doc)
    out, seen = [], set()
    fm_end = doc.line_starts[doc.front_matter] if 0 < doc.front_matter < len(doc.line_starts) else 0

    def add(kind, ref, s, e, ids, url=""):
        if (kind, s) in seen or s < fm_end or in_code(s):
            return
        seen.add((kind, s))
        line, col = doc.line_col(s)
        out.append(Reference(kind, ref, s, e, line, col, tuple(ids), _block_at(doc, s), url))

    found = []      # (start, end, kind, ref, ids, url)
    if "#" in text:
        for m in _HASH.finditer(text):
            if _glued(text, m.start(), "&#/"):
                continue
            found.append((m.start(), m.end(), "issue", m.group(0), ("#" + m.group(1),), ""))
    if "/issues/" in text or "/pull" in text or "/discussions/" in text:
        for m in _LINK.finditer(text):
            head = _URL_HEAD.search(text, max(0, m.start() - 400), m.start())
            if head:
                url = text[head.start():m.end()]
                kind = "pr" if m.group(1).startswith("pull") else "issue"
                found.append((head.start(), m.end(), kind, url, ("#" + m.group(2),), url))
    for m in _WORD.finditer(text):
        if m.start() and text[m.start() - 1].isascii() and text[m.start() - 1].isalpha():
            continue
        kind = "pr" if m.group(1)[:1] in "Pp" else "issue"
        found.append((m.start(), m.end(), kind, m.group(0), ("#" + m.group(2),), ""))
    for m in _BUILD.finditer(text):
        if _glued(text, m.start(), ".-"):
            continue
        a = int(m.group(1))
        z = int(m.group(2)) if m.group(2) else a
        if z < a or z - a > 500:
            z = a
        found.append((m.start(), m.end(), "release", m.group(0), tuple(f"b{i}" for i in range(a, z + 1)), ""))
    for m in _VER.finditer(text):
        if _glued(text, m.start(), ".-"):
            continue
        found.append((m.start(), m.end(), "release", m.group(0), (m.group(0),), ""))
    # a form inside another ('#678' in 'PR #678', a link's number) is that one reference
    found.sort(key=lambda f: (f[0], -f[1]))
    end = -1
    for s_, e_, kind, ref, ids, url in found:
        if s_ < end:
            continue
        end = e_
        add(kind, ref, s_, e_, ids, url)
    # arXiv ids: only where the text says it is one (arXiv:…, an arxiv.org link, a column
    # headed arXiv, a source the segmenter classified as an arXiv id)
    if "rxiv" in text.lower():
        for m in _ARXIV_CTX.finditer(text):
            add("arxiv", m.group("id"), m.start("id"), m.end("id"), (m.group("id"),))
        for t in doc.tables:
            cols = {c.column for c in t.header if _ARXIV_COL.search(c.text)}
            if not cols:
                continue
            for row in t.rows:
                for c in row.cells:
                    if c.column in cols:
                        for m in _ARXIV_BARE.finditer(text, c.start, c.end):
                            add("arxiv", m.group("id"), m.start("id"), m.end("id"), (m.group("id"),))
    for src in doc.sources:
        if src.kind == "arxiv":
            ident = src.ref.split(":")[-1].strip()
            s = doc.line_starts[src.line - 1] + src.col - 1
            j = text.find(ident, s, s + 40)
            if j >= 0 and not any(r.kind == "arxiv" and r.line == src.line and r.ref == ident for r in out):
                add("arxiv", ident, j, j + len(ident), (ident,))
    out.sort(key=lambda r: (r.start, r.kind))
    return out


# ---------------------------------------------------------------- build


# a title that names the genre: 'Serving weekly — 2026-11-03', '推理 · 日间简报', 'AI 基础设施日报'
_DIGEST_TITLE = compile_re(r"(?i)\b(?:digest|weekly|daily|newsletter|round-?up|briefing|recap of the week)\b|"
                           r"日报|周报|简报|月报|速递|汇总|周刊|"
                           # '动态' is news only as the title's last noun ('社区动态', 'vLLM 动态 ·
                           # 2026-10-01'); '动态推测' (dynamic speculation) is a method
                           r"动态(?=\s*(?:$|[|·—:：(（\[【\-]|\d))")
_CHAPTER = compile_re(r"^\s*(?:\d{1,3}|[一二三四五六七八九十]{1,3})\s*[.、．]")


def document_kind(doc) -> str:
    """'digest' when the document gathers figures from many sources — entries that cite their
    own sources, or several top-level titles that are digests' titles ('vLLM 动态日报',
    'SGLang 动态日报'): each figure must then carry its own setup.  Otherwise 'post': a
    document about one thing, which states its setup once."""
    # a blog post's numbered sections link PRs inline; a digest's entries cite where each came
    # from ('来源：inbox/…', 'Sources: …', a file or an arXiv id)
    cited = sum(1 for e in doc.entries
                if any(s.kind != "url" or s.origin == "line" for s in e.sources or ()))
    if cited >= 2 or _DIGEST_TITLE.search(doc.title or ""):
        return "digest"
    # several digests pasted into one file ('vLLM 动态日报 …', 'SGLang Digest — …'); a blog post
    # whose sections are '#' headings ('# Benchmark Setup', '# Motivation') is still one post
    parts = [sec for sec in doc.sections if sec.level == 1 and _DIGEST_TITLE.search(sec.title)]
    return "digest" if len(parts) >= 2 else "post"


# what a kernel benchmark says it measures: 'the W4A16 quantized matmul kernel', 'GEMM 算子'
# (a kernel library named for its kernel counts too: 'DeepGEMM', 'FlashGEMM'; and an attention
# kernel written 'with pure MMA PTX': 'FlashAttention-2 MMA', Tensor Core instructions)
_KERNEL_SUBJECT = compile_re(r"(?i)(?<![A-Za-z])(?:kernels?|(?-i:[A-Z][a-z]+)?GEMM|GEMV|matmul|SpMM|SpMV|(?-i:MMA|PTX|WMMA))(?![A-Za-z])|算子|内核")


def document_topic(doc) -> str:
    """'kernel' when a post's title or its first paragraph says it measures a kernel ('All
    experiments for the W4A16 quantized matmul kernel on RTX 5090'): its figures depend on the
    problem shape the kernel ran on, not on a model. Otherwise ''."""
    if doc.kind != "post":
        return ""
    if doc.title and _KERNEL_SUBJECT.search(doc.title):
        return "kernel"
    first = next((b for b in doc.blocks if b.kind == "paragraph"), None)
    return "kernel" if first is not None and _KERNEL_SUBJECT.search(first.text) else ""


def build(doc, clean_title) -> None:
    """Fill the typed structure of ``doc`` (see the module docstring)."""
    doc.kind = document_kind(doc)
    doc.topic = document_topic(doc)
    doc.sentences = _sentences(doc)
    doc.items = _items(doc)
    _captions(doc)
    doc.systems = local_systems(doc)
    doc.setups = _setups(doc, clean_title) + _code_setups(doc) + _subject_setups(doc)
    doc.references = _references(doc)
