"""One name spelled two ways in a document, and one arXiv id given two titles.

Name-like tokens (CamelCase, acronyms, letters with digits, or any alias from
``claims/data/entities.yaml``) are compared pairwise within their length band with the
optimal-string-alignment distance (rapidfuzz).  Guards keep distinct things apart:

- case, hyphen, dot and space differences are the same name written differently, not a
  misspelling (``EAGLE-3``/``EAGLE3``, ``vLLM``/``VLLM``);
- different digits are different products (``H100``/``H200``, ``Qwen3``/``Qwen2``);
- one name extending the other is a variant (``GPT-4``/``GPT-4o``, ``vLLM``/``vLLM-Omni``);
- plurals, snake_case identifiers and path parts are ignored;
- two aliases of known entities are never a misspelling of each other;
- the rarer spelling is reported only when it is rare (a typo is not repeated everywhere).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

# ASCII boundaries on purpose: a name abutting Chinese text ('与SpecInfr不同') is still a token
_TOKEN = re.compile(r"(?<![A-Za-z0-9_/\\.@#-])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*"
                    r"(?![A-Za-z0-9_/\\@-]|\.[A-Za-z0-9])")
_MASKS = (
    re.compile(r"^(```|~~~).*?^\1", re.M | re.S),          # fenced code
    re.compile(r"`[^`\n]*`"),                               # inline code
    re.compile(r"<!--.*?-->", re.S),                        # HTML comments
    re.compile(r"https?://\S+|www\.\S+"),                   # URLs
    re.compile(r"\]\([^)\n]*\)"),                           # Markdown link targets
    re.compile(r"<[^>\n]{1,200}>"),                         # HTML tags
    re.compile(r"\A---\n.*?\n---\n", re.S),                 # front matter
)


@dataclass
class Occurrence:
    form: str
    start: int
    line: int = 0
    col: int = 0


@dataclass
class Misspelling:
    rare: str                    # the spelling reported
    common: str                  # the other spelling
    at: Occurrence               # first occurrence of the rare spelling
    others: list = field(default_factory=list)   # occurrences of the common spelling (evidence)
    distance: int = 0
    known: str = ""              # canonical entity the common spelling names, if any


@lru_cache(maxsize=4)
def load_entities(path: Optional[str] = None) -> dict:
    """alias (lower-case) -> canonical name, from claims/data/entities.yaml (systems, hardware)."""
    if path is None:
        from claims import _data
        data = _data.load("entities.yaml")
    else:
        import yaml
        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError):
            return {}
    out = {}
    for group in ("systems", "hardware"):
        for canon, aliases in (data.get(group) or {}).items():
            for a in [canon, *(aliases or [])]:
                out.setdefault(str(a).lower(), str(canon))
    return out


def masked_text(text: str) -> str:
    """The text with code, URLs, comments, tags and front matter blanked (offsets kept)."""
    spans = sorted((m.start(), m.end()) for rx in _MASKS for m in rx.finditer(text))
    if not spans:
        return text
    parts, pos = [], 0
    for a, b in spans:
        if b <= pos:
            continue
        a = max(a, pos)
        parts.append(text[pos:a])
        parts.append(re.sub(r"[^\n]", " ", text[a:b]))
        pos = b
    parts.append(text[pos:])
    return "".join(parts)


_FLAT = re.compile(r"[-._\s]")
_DIGIT_RUN = re.compile(r"\d+")
_A_DIGIT = re.compile(r"\d")
_TWO_LETTERS = re.compile(r"[A-Za-z]{2}")
_INNER_UPPER = re.compile(r"[A-Za-z][A-Z]")


def _flat(s: str) -> str:
    return _FLAT.sub("", s).lower()


def _digits(s: str) -> str:
    return "".join(_DIGIT_RUN.findall(s))


_FILE_EXT = re.compile(r"\.(?:md|mdx|py|ya?ml|json|txt|html?|csv|sh|toml|cfg|ipynb|pdf|png|jpe?g|svg|gif)$", re.I)


def _name_like(tok: str, known: dict) -> bool:
    if tok.lower() in known:
        return True
    if _FILE_EXT.search(tok) or tok.islower():
        return False        # file names and lower-case slugs are not names
    if _A_DIGIT.search(tok) and _TWO_LETTERS.search(tok):
        return True
    # an upper-case letter after the first character: CamelCase or an acronym
    return bool(_INNER_UPPER.search(tok)) and not tok.isupper() or (tok.isupper() and len(tok) >= 4)


def _is_plural_pair(a: str, b: str) -> bool:
    a, b = a.lower(), b.lower()
    for x, y in ((a, b), (b, a)):
        if x == y + "s" or x == y + "es":
            return True
    return False


def _short_segment_differs(a: str, b: str) -> bool:
    """'MiniMax-M3'/'MiniMax-H3', 'PESQ-WB'/'PESQ-NB': the names differ only inside a short
    code segment, which marks a variant (model line, band, revision), not a typo."""
    sa, sb = re.split(r"[-._ ]", a.lower()), re.split(r"[-._ ]", b.lower())
    if len(sa) != len(sb) or len(sa) < 2:
        return False
    diff = [(x, y) for x, y in zip(sa, sb) if x != y]
    return len(diff) == 1 and max(len(diff[0][0]), len(diff[0][1])) <= 3


def _case_shape_differs(a: str, b: str) -> bool:
    """'GEMMs'/'Gemma': an acronym and a word; a typo keeps the shape of the name's case."""
    def upper_share(t):
        letters = [c for c in t if c.isalpha()]
        return sum(c.isupper() for c in letters) / max(1, len(letters))
    return (upper_share(a) >= 0.6) != (upper_share(b) >= 0.6)


def _extends(a: str, b: str) -> bool:
    """One spelling is the other with something added at the start or end (a variant)."""
    fa, fb = a.lower(), b.lower()
    return fa.startswith(fb) or fb.startswith(fa) or fa.endswith(fb) or fb.endswith(fa)


def find_misspellings(text: str, known: Optional[dict] = None, min_len: int = 5,
                      max_edits: int = 1, long_len: int = 12, max_rare: int = 2,
                      min_similarity: float = 0.8) -> list:
    """Pairs of spellings of one name in ``text`` (see the module docstring for the guards)."""
    from rapidfuzz.distance import OSA

    known = known if known is not None else load_entities()
    src = masked_text(text)
    # occurrences are kept as offsets (the token at each in ``form_at``): Occurrence
    # objects are made only for the few a finding reports
    occ: dict = {}
    form_at: dict = {}
    verdicts: dict = {}         # a document repeats its words: judge each token once
    for m in _TOKEN.finditer(src):
        tok = m.group().rstrip(".")
        ok = verdicts.get(tok)
        if ok is None:
            ok = verdicts[tok] = len(tok) >= min_len and "_" not in tok and _name_like(tok, known)
        if ok:
            at = m.start()
            form_at[at] = tok
            occ.setdefault(tok, []).append(at)
    # one entry per flattened form: case / hyphen variants count together
    by_flat: dict = {}
    for tok, lst in occ.items():
        by_flat.setdefault(_flat(tok), []).append((tok, lst))
    forms = []
    for flat, group in by_flat.items():
        if len(group) == 1:
            total = group[0][1]         # one spelling: its offsets, in text order already
        else:
            group.sort(key=lambda g: -len(g[1]))
            total = sorted(o for _t, lst in group for o in lst)
        forms.append((flat, group[0][0], total))
    forms.sort(key=lambda f: len(f[0]))
    from rapidfuzz import process
    flats = [f[0] for f in forms]
    out = []
    for i, (fa, ta, oa) in enumerate(forms):
        # candidates: later (not shorter) forms within the edit budget, scored in C
        hi = i + 1
        while hi < len(forms) and len(flats[hi]) - len(fa) <= max_edits + 1:
            hi += 1
        if hi == i + 1:
            continue
        cutoff = max_edits + (1 if len(fa) >= long_len else 0)
        hits = process.extract(fa, flats[i + 1:hi], scorer=OSA.distance, score_cutoff=cutoff, limit=None)
        for _m, _score, j in sorted(hits, key=lambda h: h[2]):
            fb, tb, ob = forms[i + 1 + j]
            limit = max_edits + (1 if min(len(fa), len(fb)) >= long_len else 0)
            if abs(len(fa) - len(fb)) > limit:
                continue
            if (_digits(ta) != _digits(tb) or _is_plural_pair(ta, tb) or _extends(fa, fb)
                    or _short_segment_differs(ta, tb) or _case_shape_differs(ta, tb)):
                continue
            ka, kb = known.get(ta.lower()), known.get(tb.lower())
            if ka and kb:
                continue            # two known names: distinct entities or declared aliases
            d = OSA.distance(fa, fb)
            if d == 0 or d > limit:
                continue
            if 1 - d / max(len(fa), len(fb)) < min_similarity:
                continue
            # the rarer spelling is the suspect; a known entity's alias is never the suspect
            if kb and not ka:
                rare, common = (ta, oa), (tb, ob)
            elif ka and not kb:
                rare, common = (tb, ob), (ta, oa)
            elif len(oa) < len(ob) or (len(oa) == len(ob) and oa[0] > ob[0]):
                rare, common = (ta, oa), (tb, ob)
            else:
                rare, common = (tb, ob), (ta, oa)
            if len(rare[1]) > max_rare:
                continue
            at = rare[1][0]
            out.append(Misspelling(rare=form_at[at], common=form_at[common[1][0]],
                                   at=Occurrence(form_at[at], at),
                                   others=[Occurrence(form_at[o], o) for o in common[1][:3]],
                                   distance=d, known=known.get(common[0].lower(), "")))
    out.sort(key=lambda m: m.at.start)
    return out


# ---------------------------------------------------------------------- arXiv titles

_TITLE_COL = re.compile(r"标题|题目|论文|title|paper", re.I)
_GENERIC = {"paper", "arxiv", "link", "pdf", "abs", "论文", "原文", "链接", "here", "this paper"}


def _norm_title(t: str) -> str:
    t = re.sub(r"[（(][^）)]*[）)]", " ", t)
    t = "".join(ch for ch in t if unicodedata.category(ch)[0] in "LNZ" or ch in "-: ")
    return re.sub(r"\s+", " ", t).strip(" -:").lower()


def titles_for_ids(text: str, refs: list) -> dict:
    """arXiv id -> [(title, line, col)] from table rows (a title column beside the id),
    Markdown links ``[Title](…arxiv.org/abs/ID)`` and headings/entries ``Title（arXiv:ID…）``."""
    lines = text.split("\n")
    out: dict = {}
    by_line: dict = {}
    for r in refs:
        by_line.setdefault(r.line, []).append(r)
    header_cells = None
    for i, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        s = line.strip()
        if s.startswith("|"):
            cells = [c.strip() for c in s.strip("|").split("|")]
            if header_cells is None:
                header_cells = cells
                continue
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                continue
            tcols = [k for k, h in enumerate(header_cells) if _TITLE_COL.search(h)]
            for r in by_line.get(i, ()):
                for k in tcols:
                    if k < len(cells) and r.id not in cells[k]:
                        out.setdefault(r.id, []).append((cells[k], i, line.find(cells[k]) + 1))
            continue
        header_cells = None
        for r in by_line.get(i, ()):
            # Markdown link whose target holds the id
            for m in re.finditer(r"\[([^\]\n]{3,200})\]\(([^)\n]*)\)", line):
                if r.id in m.group(2):
                    out.setdefault(r.id, []).append((m.group(1), i, m.start(1) + 1))
            # 'Title（arXiv:ID…）' in an entry or heading line
            m = re.search(r"(?:^|[·•|#]\s*)([^·•|#（(\[\]]{6,200}?)\s*[（(]\s*arxiv\s*[:：]?\s*"
                          + re.escape(r.id), line, re.I)
            if m:
                out.setdefault(r.id, []).append((m.group(1).strip(), i, m.start(1) + 1))
    return out


_TITLE_STOP = {"the", "and", "for", "with", "via", "from", "into", "using", "based", "towards", "llm", "llms",
               "large", "language", "model", "models", "inference", "efficient", "serving", "fast", "new"}


def _title_words(t: str) -> set:
    return {w for w in re.findall(r"[a-z][a-z0-9-]{2,}", t) if w not in _TITLE_STOP}


def conflicting_titles(titles: dict, min_ratio: float = 80.0) -> list:
    """[(id, (title, line, col), (other title, line, col))] where one id has two titles."""
    from rapidfuzz import fuzz
    out = []
    for ident, ts in titles.items():
        good = [(t, l, c) for t, l, c in ts if len(_norm_title(t)) >= 6 and _norm_title(t) not in _GENERIC]
        if len(good) < 2:
            continue
        first = good[0]
        na = _norm_title(first[0])
        for other in good[1:]:
            nb = _norm_title(other[0])
            if na == nb or na in nb or nb in na or fuzz.token_set_ratio(na, nb) >= min_ratio:
                continue
            if _title_words(na) & _title_words(nb):
                continue        # 'EAGLE-3 在 H100 上的实测' describes the paper 'EAGLE-3: Scaling …'

            out.append((ident, other, first))
            break
    return out
