"""Entity kinds (CV6xx): one name spelled two ways, one arXiv id given two titles.

Both judge what ``claims.names`` read from the document model: the names of the prose
(with checkpoint ids and their organisation) and the titles the document gives each arXiv id.

``entity.spelling`` compares the spellings of a document pairwise, within an edit budget
(optimal-string-alignment distance, rapidfuzz), and reports the spelling the context does
not support, whichever is rarer: a pipeline repeats a typo, so the misspelling can be the
common form.  What supports a spelling, strongest first:

- the vocabulary (``claims/data/names.yaml`` and the systems and hardware of
  ``entities.yaml``): 'Trition' beside 'Triton', however often each is written;
- a published checkpoint id: ``Qwen/Qwen-32B`` drops the generation of ``Qwen/Qwen3-32B``,
  which the vocabulary lists and which it does not;
- an arXiv title the document gives: the spelling inside the paper's title;
- the document's majority: the other spelling is written more often, and the suspect at
  most ``max_rare`` times or ``max_rare_share`` of the other's (a pipeline repeats a typo:
  GOMEMLIMT 4x beside GOMEMLIMIT 20x).  Acronyms of fewer than eight capitals are dense, so
  one letter apart they are two (MMLU / MMMU); longer words in capitals are names' spellings.

Guards keep distinct things apart, and win over every kind of support:

- case, hyphen, dot and space differences are one name written differently
  (``EAGLE-3``/``EAGLE3``, ``Pytorch``/``PyTorch``);
- other digits are other products (``H100``/``H200``, ``Qwen3``/``Qwen2``, a version suffix
  ``Qwen2``/``Qwen2.5``), except a last digit written twice after a name read elsewhere
  with one (``Grok-11`` beside ``Grok-1``: a repeated key or a footnote mark run in);
- one spelling extending the other is a variant (``GPT-4``/``GPT-4o``);
- a short code segment that differs marks a variant (``MiniMax-M3``/``MiniMax-H3``);
- plurals, an acronym against a word (``GEMMs``/``Gemma``), two names of the vocabulary
  (``Mistral``/``Mixtral``), and an English word one edit from a name (``Touch``/``Torch``).
"""
from __future__ import annotations

import bisect

from claims import names as _names
from claims.structure import has_cjk

FAMILY = "entity"
ACKNOWLEDGEABLE = False  # these findings must be fixed: no warnings-section entry acknowledges them

# what can support one spelling against the other, strongest first (a rule's `support`
# param gives the message's phrase for each)
BASES = ("vocabulary", "checkpoint", "size", "title", "doubled", "dictionary", "majority", "tie")


def _phrase(rule, ctx, basis: str, values: dict) -> str:
    """The rule's phrase for ``basis`` in the message language, its {placeholders} filled."""
    phrases = rule.params.get("support") or {}
    by_lang = phrases.get(basis) or {}
    text = str(by_lang.get(ctx.lang) or by_lang.get("en") or "")
    for k, v in values.items():
        text = text.replace("{" + k + "}", str(v))
    return text


class _Group:
    """The spellings of one name that differ only in case and separators."""
    __slots__ = ("flat", "forms", "names", "known", "word_only", "in_title", "org", "spelling")

    def __init__(self, flat):
        self.flat = flat
        self.forms = {}             # surface -> Form
        self.names = []
        self.known = ""
        self.word_only = True
        self.in_title = False
        self.org = ""
        self.spelling = ""          # the most frequent spelling (the first written on a tie)

    @property
    def form(self):
        return self.forms[self.spelling]

    @property
    def first(self):
        return self.names[0]


def _groups(dn, p, also_known) -> dict:
    min_len = int(p["min_len"])
    groups: dict = {}
    for surface, written in dn.by_surface.items():
        f = dn.forms[surface]
        if f.file_like or len(f.name) < min_len:
            continue
        known = f.known or also_known.get(f.name.lower(), "")
        if f.shape == "lower" and not known:
            continue                # a lower-case word that is no name
        g = groups.get(f.flat)
        if g is None:
            g = groups[f.flat] = _Group(f.flat)
            g.org = f.org
        g.forms[surface] = f
        g.names.extend(written)
        g.known = g.known or known
        if f.shape == "name" or known or (surface.isupper() and len(surface) >= 8):
            # (a word of eight capitals or more, 'GOMEMLIMIT', is an identifier's name, not English)
            g.word_only = False
        g.in_title = g.in_title or any(n.title for n in written)
    by = dn.by_surface
    for g in groups.values():
        if len(g.forms) > 1:
            g.names.sort(key=lambda n: n.start)
            # the most frequent spelling, the first written on a tie
            g.spelling = max(g.forms, key=lambda t: (len(by[t]), -by[t][0].start))
        else:
            g.spelling = next(iter(g.forms))
    return groups


# ---------------------------------------------------------------- guards

def _plural(a, b) -> bool:
    return (any(f.plural_of == b.flat for f in a.forms.values())
            or any(f.plural_of == a.flat for f in b.forms.values()))


def _short_segment_differs(a, b) -> bool:
    """'MiniMax-M3'/'MiniMax-H3', 'PESQ-WB'/'PESQ-NB', 'HF-cache'/'HiCache': the names differ
    only inside a short code segment (between separators or CamelCase words), which marks a
    variant (model line, band, revision) or another acronym, not a typo.  A name made of such
    codes may differ in several of them: 'JSdbMtSelect'/'SJSdbStSelect' are two scenarios
    (JDBC or Sharding-JDBC, one table or many), each code a letter or two."""
    for pa, pb in _splits(a, b):
        if len(pa) != len(pb) or len(pa) < 2:
            continue
        diff = [(x, y) for x, y in zip(pa, pb) if x != y]
        if diff and all(max(len(x), len(y)) <= 3 for x, y in diff):
            return True
    return False


def _splits(a, b):
    """The two ways of cutting both spellings: at separators, and into CamelCase words."""
    fa, fb = a.form, b.form
    return ((fa.parts, fb.parts), (fa.words, fb.words))


def _part_added(a, b) -> bool:
    """'UTF16-encoded'/'UTF16-LE-encoded', 'BigInt'/'BigUInt', 'arrayBufferView'/
    'ArrayBuffer.isView': one spelling is the other with a part or word added (a variant)."""
    for pa, pb in _splits(a, b):
        short, long = (pa, pb) if len(pa) < len(pb) else (pb, pa)
        if len(long) == len(short) + 1 and any(long[:k] + long[k + 1:] == short for k in range(len(long))):
            return True
    return False


def _one_word_differs(a, b):
    """(x, y): the one CamelCase word or part the two spellings differ in, or None."""
    wa, wb = a.form.words, b.form.words
    if len(wa) != len(wb):
        return None
    diff = [(x, y) for x, y in zip(wa, wb) if x != y]
    return diff[0] if len(diff) == 1 else None


def _upper_share(t: str) -> float:
    letters = [c for c in t if c.isalpha()]
    return sum(c.isupper() for c in letters) / max(1, len(letters))


def _acronym(t: str) -> bool:
    return _upper_share(t) >= 0.6


def _case_shape_differs(ta: str, tb: str) -> bool:
    """'GEMMs'/'Gemma': an acronym and a word; a typo keeps the shape of the name's case."""
    return _acronym(ta) != _acronym(tb)


def _transposed(x: str, y: str) -> bool:
    """One pair of adjacent characters swapped ('GTP-4' for 'GPT-4')."""
    if len(x) != len(y):
        return False
    diff = [k for k in range(len(x)) if x[k] != y[k]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and x[diff[0]] == y[diff[1]] and x[diff[1]] == y[diff[0]]


def _identifier(t: str) -> bool:
    """Code written in prose: lowerCamelCase ('readInt', 'httpsProxy') or a member access
    ('fs.readFileSync').  ('vLLM', 'iPhone', 'kFoo': a one-letter prefix is a name's style.)"""
    if not t[:1].islower():
        return False
    if "." in t.strip("."):
        return True
    k = 0
    while k < len(t) and t[k].islower():
        k += 1
    return k >= 2 and k < len(t) and t[k].isupper()


def _at_word_edge(x: str, y: str) -> bool:
    """Do two words differ at their start or their end ('live'/'alive', 'http'/'https')?"""
    p = 0
    while p < min(len(x), len(y)) and x[p] == y[p]:
        p += 1
    s = 0
    while s < min(len(x), len(y)) - p and x[-1 - s] == y[-1 - s]:
        s += 1
    return p == 0 or s == 0


def _distinct(a, b, d, known) -> bool:
    """Do the two spellings name two things, whatever supports one of them?"""
    ta, tb = a.spelling, b.spelling
    if _plural(a, b) or _case_shape_differs(ta, tb) or _short_segment_differs(a, b) or _part_added(a, b):
        return True
    if _acronym(ta) and _acronym(tb) and not _transposed(a.flat, b.flat) and min(len(a.flat), len(b.flat)) < 8:
        # acronyms are dense: one letter more or other is another acronym (MMLU/MMMU,
        # NCCL/RCCL, SIGILL/SIGKILL); a long one of the vocabulary keeps its typos (NVIDA), and
        # so does a word in capitals of eight letters or more (GOMEMLIMT for GOMEMLIMIT): no
        # acronym that long is one letter from another
        k = a if a.known else b if b.known else None
        if k is None or len(k.flat) < 6:
            return True
    pair = _one_word_differs(a, b)
    if pair is not None:
        x, y = pair
        if x in a.form.capitals | b.form.capitals and y in a.form.capitals | b.form.capitals \
                and not _transposed(x, y) and min(len(x), len(y)) < 8:
            return True         # two acronyms inside a name: 'NCCL-tests'/'RCCL-tests'
        if known(x) and known(y):
            return True         # 'MixtralForCausalLM'/'MistralForCausalLM'
        if _names.is_english(x) and _names.is_english(y) and not ((a.known or b.known) and _inflected(x, y)):
            # 'TextEncoder'/'TextDecoder', 'applyPatch'/'applyPath'; but a word of a well-known
            # name with its inflection dropped ('PageAttention' for 'PagedAttention') is its typo
            return True
        if d >= 2 and min(len(x), len(y)) < 8:
            return True         # two edits rewrite a short word: 'secureConnect'/'SecureContext'
        if _at_word_edge(x, y) and any(c.isdigit() for c in x + y):
            return True         # a type or version code: 'BigInt64Array'/'BigUint64Array'
    if _identifier(ta) or _identifier(tb):
        # API members differ at a word's edge: 'readSync'/'readvSync', 'isLive'/'isAlive'
        if pair is None or _at_word_edge(*pair):
            return True
    return False


_INFLECTIONS = ("d", "ed", "s", "es", "ing")


def _inflected(x: str, y: str) -> bool:
    """One word is the other with an inflection added ('page' / 'paged', 'cache' / 'caches')."""
    short, long = sorted((x, y), key=len)
    return len(short) >= 3 and any(long == short + e for e in _INFLECTIONS)


def _listed_together(a, b) -> bool:
    """Both spellings are items of one written list (claims/names.py ``listed``)."""
    lists = {n.listed for n in a.names if n.listed >= 0}
    return any(n.listed in lists for n in b.names)


def _doubled_last_digit(short, long) -> bool:
    """'Grok-11' is 'Grok-1' with its last digit written twice (a repeated key, or a footnote
    mark run into the name).  The short name's digit is a one-digit generation after a
    separator or a word ('Grok-1', 'Qwen3'), not a number ('A10'/'A100') or a one-letter code
    ('V1'/'V11', 'v1'/'v11': versions); the long name writes the two digits together
    ('Llama-3.3' beside 'Llama-3' is a version suffix)."""
    if not (len(long.flat) == len(short.flat) + 1 and long.flat.startswith(short.flat)):
        return False
    ts, tl = short.spelling, long.spelling
    d = ts[-1:]
    if not d.isdigit() or tl[-2:] != d + d or tl[-3:-2].isdigit():
        return False
    before = ts[-2:-1]
    return (before != "" and before in "-_ ") or (before.isalpha() and ts[-3:-2].isalpha())


_SIZE_UNITS = "bBmMtT"


def _size_unit_dropped(short, long) -> bool:
    """'CodeLlama-34' beside 'CodeLlama-34B': a model's size written without its unit letter
    is the same model, not a variant (as 'GPT-4o' is of 'GPT-4').  The short name ends in a
    separator and a size of two digits or more ('Llama-70'), or in a size after an earlier
    generation ('Llama2-7'); 'Llama-3' beside 'Llama-3B' may be a generation and a size."""
    ts, tl = short.spelling, long.spelling
    if len(tl) != len(ts) + 1 or not tl.startswith(ts) or tl[-1] not in _SIZE_UNITS:
        return False
    k = len(ts)
    while k > 0 and ts[k - 1].isdigit():
        k -= 1
    size, head = ts[k:], ts[:k]
    if not size or not head or head[-1] not in "-_ ":
        return False
    return len(size) >= 2 or any(ch.isdigit() for ch in head)


# ---------------------------------------------------------------- pairs

class _Finding:
    __slots__ = ("suspect", "other", "basis", "distance")

    def __init__(self, suspect, other, basis, distance):
        self.suspect, self.other, self.basis, self.distance = suspect, other, basis, distance


def _judge_pair(a, b, d, p, known):
    """The finding for two spelling groups ``d`` edits apart, or None when a guard says they
    are two things (or nothing says which spelling is right)."""
    if a.org != b.org:
        return None
    if a.known and b.known:
        return None             # two names of the vocabulary: distinct, or declared aliases
    if 1 - d / max(len(a.flat), len(b.flat)) < float(p["min_similarity"]):
        return None
    short, long = (a, b) if len(a.flat) <= len(b.flat) else (b, a)
    if _doubled_last_digit(short, long):
        if _plural(a, b) or _case_shape_differs(a.spelling, b.spelling):
            return None
        if len(long.names) > len(short.names) or len(long.names) > int(p["max_rare"]):
            return None         # written as often as the other: a name of its own
        return _Finding(long, short, "doubled", d)
    if _size_unit_dropped(short, long):
        return _Finding(short, long, "size", d)
    if a.form.digits != b.form.digits or _extends(a.flat, b.flat):
        return None
    if _listed_together(a, b):
        return None             # 'TDPBSSD, TDPBUSD, TDPBUUD, TDPBSUD': a list of distinct names
    # a plain word is compared only with a name of the vocabulary, and never when it is English
    for w, other in ((a, b), (b, a)):
        if w.word_only and (not other.known or _names.is_english(w.spelling)):
            return None
    if _distinct(a, b, d, known):
        return None
    na, nb = len(a.names), len(b.names)
    if a.known or b.known:
        good, bad = (a, b) if a.known else (b, a)
        if len(bad.names) >= 5 and len(bad.names) >= 3 * len(good.names):
            return None         # 'PostgresML' 19x beside 'PostgreSQL' 2x: a product of its own, named
                                # so throughout (a repeated typo stays rarer than that)
        return _Finding(bad, good, "vocabulary", d)
    if a.in_title != b.in_title:
        good, bad = (a, b) if a.in_title else (b, a)
        return _Finding(bad, good, "title", d)
    pair = _one_word_differs(a, b)
    if pair is not None and _names.is_english(pair[0]) != _names.is_english(pair[1]):
        # 'checkServerIndentity' beside 'checkServerIdentity': the word that is English
        good, bad = (a, b) if _names.is_english(pair[0]) else (b, a)
        return _Finding(bad, good, "dictionary", d)
    if na < nb or (na == nb and a.first.start > b.first.start):
        rare, common = a, b
    else:
        rare, common = b, a
    if len(rare.names) > max(int(p["max_rare"]), float(p.get("max_rare_share", 0)) * len(common.names)):
        return None             # a spelling written everywhere is a name of its own (a typo a
                                # pipeline repeated, GOMEMLIMT 4x beside GOMEMLIMIT 20x, stays one)
    return _Finding(rare, common, "majority" if na != nb else "tie", d)


def _extends(fa: str, fb: str) -> bool:
    """One spelling is the other with something added at the start or end (a variant)."""
    return fa.startswith(fb) or fb.startswith(fa) or fa.endswith(fb) or fb.endswith(fa)


_SERIES = 32            # see _indexed_pairs
_LONGEST = 40           # longer spellings are not compared (and their deletion sets would be large)


def _deletions(s: str, k: int) -> set:
    """``s`` and every string made from it by deleting up to ``k`` characters."""
    out = {s}
    edge = {s}
    for _ in range(k):
        edge = {t[:i] + t[i + 1:] for t in edge for i in range(len(t))}
        out |= edge
    return out


def _edit_pairs(groups, p) -> list:
    """Pairs of spelling groups within the edit budget (optimal string alignment: one edit,
    two when both are at least ``long_len`` long); a last digit written twice is one edit."""
    max_edits, long_len = int(p["max_edits"]), int(p["long_len"])

    def budget(x, y):
        return max_edits + (1 if min(len(x), len(y)) >= long_len else 0)

    found = [g for g in groups.values() if len(g.flat) <= _LONGEST]
    if len(found) <= _FEW:
        candidates = _band_pairs(found, max_edits, long_len)
    else:
        candidates = _indexed_pairs(found, max_edits, long_len)
    from rapidfuzz.distance import OSA
    out = []
    for a, b in candidates:
        if a.word_only and b.word_only:
            continue            # two plain words: only a name of the vocabulary is compared with one
        lim = budget(a.flat, b.flat)
        d = OSA.distance(a.flat, b.flat, score_cutoff=lim)
        if 0 < d <= lim:
            out.append((a, b, int(d)))
    return out


# A document's few hundred spellings are compared within bands of length (rapidfuzz, in C);
# past this many, candidates come from an index of deletion keys, whose work grows with the
# document rather than with the square of its names.
_FEW = 1500


def _band_pairs(found, max_edits, long_len):
    from rapidfuzz import process
    from rapidfuzz.distance import OSA
    found = sorted(found, key=lambda g: len(g.flat))
    flats = [g.flat for g in found]
    lengths = [len(f) for f in flats]
    for i, a in enumerate(found):
        hi = bisect.bisect_right(lengths, lengths[i] + max_edits + 1, i + 1)
        if hi == i + 1:
            continue
        cutoff = max_edits + (1 if len(a.flat) >= long_len else 0)
        for _m, _d, j in process.extract(a.flat, flats[i + 1:hi], scorer=OSA.distance,
                                         score_cutoff=cutoff, limit=None):
            yield a, found[i + 1 + j]


def _indexed_pairs(found, max_edits, long_len):
    """Two spellings within k edits share a string made by deleting at most k characters from
    each (the SymSpell index).  A key shared by more than ``_SERIES`` spellings marks a series
    of names (Node-A … Node-Z, generated ids), not one name spelled two ways."""
    index: dict = {}
    for g in found:
        for key in _deletions(g.flat, max_edits + (1 if len(g.flat) >= long_len else 0)):
            index.setdefault(key, []).append(g)
    seen = set()
    for members in index.values():
        if len(members) < 2 or len(members) > _SERIES:
            continue
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                pair = (a.flat, b.flat) if a.flat < b.flat else (b.flat, a.flat)
                if pair not in seen:
                    seen.add(pair)
                    yield a, b


def _generation_dropped(groups, dn) -> list:
    """Checkpoint ids of one organisation where one drops the generation of a published one:
    'Qwen/Qwen-32B' beside 'Qwen/Qwen3-32B' (the vocabulary lists the second, not the first)."""
    by_key: dict = {}
    for g in groups.values():
        if not g.org:
            continue
        f = g.form
        if f.family and f.rest:
            by_key.setdefault((f.org, f.family, f.rest), []).append(g)
    out = []
    for same in by_key.values():
        if len(same) < 2:
            continue
        bare = [g for g in same if not g.form.generation and not any(f.checkpoint for f in g.forms.values())]
        full = [g for g in same if g.form.generation and any(f.checkpoint for f in g.forms.values())]
        for g in bare:
            if full:
                best = max(full, key=lambda h: (len(h.names), -h.first.start))
                out.append(_Finding(g, best, "checkpoint", len(best.form.generation)))
    return out


def _lines(names, limit=3) -> str:
    seen = []
    for n in names:
        if n.line not in seen:
            seen.append(n.line)
    shown = ", ".join(str(x) for x in seen[:limit])
    return shown + (", …" if len(seen) > limit else "")


class Spelling:
    NAME = "entity.spelling"
    PARAMS = {"min_len": int, "max_edits": int, "long_len": int, "max_rare": int, "max_rare_share": float,
              "min_similarity": float, "also_known": list, "support": dict}
    DEFAULTS = {"min_len": 5, "max_edits": 1, "long_len": 12, "max_rare": 2, "max_rare_share": 0.2,
                "min_similarity": 0.8, "also_known": [], "support": {}}
    FIELDS = {"distance": int, "known": bool, "rare_count": int, "common_count": int, "basis": str}
    WHEN = {"field": "distance", "ge": 1}
    VARS = {"name", "other", "other_line", "count", "other_count", "support",
            # the names of earlier releases of this rule's messages
            "rare", "common", "common_line"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.document
        p = rule.params
        dn = _names.read(ctx.analysis)
        also = {str(w).lower(): str(w) for w in p["also_known"] or ()}
        groups = _groups(dn, p, also)
        vocab = _names.vocabulary()["known"]

        def known(word):
            return word in vocab or word in also
        found = [f for a, b, d in _edit_pairs(groups, p) for f in [_judge_pair(a, b, d, p, known)] if f]
        found += _generation_dropped(groups, dn)
        reported = set()
        for f in sorted(found, key=lambda f: f.suspect.first.start):
            if f.suspect.flat in reported:
                continue            # one finding per suspect spelling
            reported.add(f.suspect.flat)
            yield _fact(rule, ctx, doc, dn, f)


def _fact(rule, ctx, doc, dn, f):
    at = f.suspect.first
    other = f.other
    values = {"name": at.surface, "other": other.spelling, "count": len(f.suspect.names),
              "other_count": len(other.names), "other_line": _lines(other.names)}
    ev = [{"path": doc.path, "line": n.line, "col": n.col, "surface": n.surface, "note": "other spelling"}
          for n in other.names[:3]]
    if f.basis == "title":
        n = next(n for n in other.names if n.title)
        t = next((t for t in dn.titles[n.title] if t.start <= n.start < t.start + len(t.surface)), None)
        if t is not None:
            values["title_line"] = t.line
            ev.append({"path": doc.path, "line": t.line, "col": t.col, "surface": t.surface,
                       "note": f"arXiv {t.ref} title"})
    values["support"] = _phrase(rule, ctx, f.basis, values)
    side = {"evidence": ev, "vars": {**values, "rare": at.surface, "common": other.spelling,
                                     "common_line": other.first.line}}
    return {
        "path": doc.path, "line": at.line, "col": at.col, "end_line": at.line,
        "end_col": at.col + len(at.surface), "surface": at.surface,
        "key": f"entity:{other.spelling.lower()}", "distance": int(f.distance),
        "known": bool(other.known) or f.basis == "checkpoint", "rare_count": len(f.suspect.names),
        "common_count": len(other.names), "basis": f.basis, "_side": side,
    }


# ---------------------------------------------------------------- arXiv titles

_GENERIC = {"paper", "arxiv", "link", "pdf", "abs", "论文", "原文", "链接", "here", "this paper"}


def conflicting_titles(titles: dict, min_ratio: float = 80.0) -> list:
    """[(id, Title, other Title)] where the document gives one id two titles."""
    from rapidfuzz import fuzz
    out = []
    for ident, ts in titles.items():
        # a link of one or two words names what the paper describes ('[RadixAttention](…)',
        # '[GPT-4](…)'), not the paper's title
        good = [t for t in ts if len(t.norm) >= 6 and t.norm not in _GENERIC
                and (t.via != "link" or len(t.norm.split()) >= 3)]
        if len(good) < 2:
            continue
        first = good[0]
        for other in good[1:]:
            na, nb = first.norm, other.norm
            if na == nb or na in nb or nb in na or fuzz.token_set_ratio(na, nb) >= min_ratio:
                continue
            if first.words & other.words:
                continue        # 'EAGLE-3 在 H100 上的实测' describes the paper 'EAGLE-3: Scaling …'
            if has_cjk(na) != has_cjk(nb) and (first if has_cjk(na) else other).via == "link":
                continue        # '在[Pre-training 任务和 Fine-tuning 任务](arXiv …)上': the writer's words for
                                # the paper in another language than its title, not a second title
            out.append((ident, other, first))
            break
    return out


class ArxivTitle:
    NAME = "entity.arxiv_title"
    PARAMS = {"min_ratio": float}
    DEFAULTS = {"min_ratio": 80.0}
    FIELDS = {"conflict": bool}
    WHEN = {"field": "conflict", "eq": True}
    VARS = {"id", "title", "other_title", "other_line"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.document
        dn = _names.read(ctx.analysis)
        for ident, t, o in conflicting_titles(dn.titles, float(rule.params["min_ratio"])):
            yield {
                "path": doc.path, "line": t.line, "col": t.col, "end_line": t.line,
                "end_col": t.col + len(t.surface), "surface": t.surface, "key": f"arxiv:{ident}", "conflict": True,
                "_side": {"evidence": [{"path": doc.path, "line": o.line, "col": o.col, "surface": o.surface,
                                        "note": "other title"}],
                          "vars": {"id": ident, "title": t.surface, "other_title": o.surface, "other_line": o.line}},
            }


# ---------------------------------------------------------------- case variants

def _title_cased(a: str, b: str) -> bool:
    """'Zero-overhead'/'Zero-Overhead', 'Llama-70B'/'llama-70B', 'KV-Block'/'KV-block': the
    spellings differ only in the first letter of a part, as a title or a sentence start
    capitalises it; that is one name written as headings and sentences write it."""
    if len(a) != len(b):
        return False
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y or (x.lower() == y.lower() and (i == 0 or a[i - 1] in "-._ ")):
            continue
        if x in "- " and y in "- " and not (_product_like(a) or _product_like(b)):
            continue        # 'High-concurrency' / 'High Concurrency', 'User-Defined': words joined or not
        # 'Llama-2 7B' / 'Llama-2-7B', 'SGLang-Omni' / 'SGLang Omni': one product written two
        # ways, unless what differs is a word joined to the name as a compound modifier
        return _compound_of_word(a, b)
    return True


def _spelled_out(forms, accepted) -> bool:
    """'Hollow EdgeNodes' beside the title's 'Edge Nodes', 'InnoDB DoubleWrite' beside a cited
    'Double Write Buffer': the spaced form is plain English words (each one a word), so it is the
    words the identifier is made of, not a second spelling of a name; unless the vocabulary knows
    the name ('Red Hat' / 'RedHat')."""
    if accepted:
        return False
    spaced = [t for t in forms if " " in t]
    return bool(spaced) and all(all(w.isalpha() and _names.is_english(w.lower()) for w in t.split())
                                for t in spaced)


def _english_compound(t: str) -> bool:
    """'Write-heavy', 'read-only', 'long-context': English words joined by hyphens, in lower
    case after a sentence's first capital (an adjective of the prose, not a name)."""
    parts = t.split("-")
    return len(parts) >= 2 and all(p.isalpha() and _names.is_english(p) for p in parts) \
        and all(p.islower() for p in parts[1:]) and parts[0][1:].islower()


def _compound_of_word(a: str, b: str) -> bool:
    """'OpenClaw-ecosystem' (a compound modifier: '13 OpenClaw-ecosystem projects') beside
    'OpenClaw Ecosystem' (a heading in title case): the name is the same, and what differs is
    an English word after it, joined by a hyphen in lower case and set apart in capitals.
    'SGLang-Omni' / 'SGLang Omni' keep their case: one product written two ways."""
    pa, pb = a.replace("-", " ").split(" "), b.replace("-", " ").split(" ")
    if len(pa) != len(pb) or len(pa) < 2 or [ch for ch in a if ch in "- "] == [ch for ch in b if ch in "- "]:
        return False
    differs = False
    for x, y in zip(pa, pb):
        if x == y:
            continue
        if x.lower() != y.lower() or not (x.islower() or y.islower()):
            return False
        w = x.lower()
        if not (_names.is_english(w) or w in _names.vocabulary()["terms"]):
            return False
        differs = True
    return differs


def _product_like(t: str) -> bool:
    """A part with a digit or mixed case inside it ('Llama-2', 'SGLang', 'MiniMax', 'ZeRO'):
    a product's name, whose hyphens are part of its spelling."""
    for p in _names.parts(t):
        if any(c.isdigit() for c in p) or (any(c.isupper() for c in p[1:]) and any(c.islower() for c in p)):
            return True
    return False


def _shouted_words(t: str) -> bool:
    """'OPEN', 'THIRD-PARTY', 'SHARDED': English words in capitals (a label, a licence's
    emphasis), not a name."""
    return t.isupper() and all(_names.is_english(w.lower()) for w in _names.parts(t) if w)


def _shout_of_word(a: str, b: str) -> bool:
    """'SHARDED' beside 'Sharded': a capitalised word written in capitals for emphasis."""
    return (a.isupper() and b[:1].isupper() and b[1:].islower()) or \
        (b.isupper() and a[:1].isupper() and a[1:].islower())


def _case_excluded(t: str) -> bool:
    """A spelling that is no name to keep consistent: a lower-case word or identifier
    ('fp8', 'kimi-k3', 'groupBy'), or English words in capitals."""
    return t.replace(" ", "").islower() or _identifier(t) or _shouted_words(t)


class CaseVariant:
    """One name written in two cases, with and without a hyphen, or as one token and as two
    words ('DeepGemm' beside 'DeepGEMM', 'Qwen-1.5-72B' beside 'Qwen1.5-72B', 'CuteDSL' beside
    'CuTe DSL'). Names read
    by ``claims.names`` from the prose (code, links and a quoted PR title's bracket tags such
    as '[Nixl]' are the writers' own spelling, not the document's)."""
    NAME = "entity.case"
    PARAMS = {"min_len": int, "support": dict}
    DEFAULTS = {"min_len": 4, "support": {}}
    FIELDS = {"known": bool, "rare_count": int, "common_count": int}
    WHEN = {"field": "common_count", "ge": 1}
    VARS = {"name", "other", "other_line", "count", "other_count", "support", "known"}

    @staticmethod
    def facts(rule, ctx):
        # a spelling inside a longer one reported at the same place ('Stage-2' of 'ZeRO Stage-2')
        # is that finding's part, not a second one
        found = list(CaseVariant._facts(rule, ctx))
        spans = [(f["line"], f["col"], f["end_col"]) for f in found]
        for f in found:
            if not any(ln == f["line"] and a <= f["col"] and f["end_col"] <= z and (a, z) != (f["col"], f["end_col"])
                       for ln, a, z in spans):
                yield f

    @staticmethod
    def _facts(rule, ctx):
        doc = ctx.document
        dn = _names.read(ctx.analysis)
        min_len = int(rule.params["min_len"])
        groups: dict = {}       # names.case_key -> {spelling: [Name]}
        camel: dict = {}        # 'influxDB', 'hugeCTR': lowerCamelCase, read as code unless a name's slip
        for surface, written in dn.by_surface.items():
            f = dn.forms[surface]
            if f.org or f.file_like or len(surface) < min_len:
                continue
            # (a references list's entries are other works' titles, cased as those works case them)
            written = [n for n in written if not n.code and not n.quoted and not _names.in_cited_entry(doc, n)]
            if not written:
                continue
            if _case_excluded(surface):
                if _identifier(surface) and "." not in surface:
                    camel[surface] = written
                continue
            groups.setdefault(_names.case_key(surface), {})[surface] = written
        for n in dn.joined:
            g = groups.get(_names.case_key(n.surface))
            if g is not None and not _case_excluded(n.surface):
                g.setdefault(n.surface, []).append(n)
        vocab = _names.vocabulary()["accepted"]
        lowered: dict = {}      # 'julia' beside 'Julia': the lower-case spelling -> its Names
        for n in dn.lowered:
            lowered.setdefault(n.surface, []).append(n)
        for low, written in lowered.items():
            g = groups.get(_names.case_key(low))
            caps = [t for t in g or () if t.lower() == low]
            # the capitalised name is the document's way (written at least twice as often, and
            # not only where a sentence or heading starts): the lower case is the slip; a name
            # written mostly in lower case is the author's way of writing a package ('tokio').
            # When the vocabulary writes it so ('Kubernetes'), as often as the lower case will do.
            # An English word lowered against Chinese ('java函数', 'intel芯片') is a name only when
            # the vocabulary knows it: 'Issue' or 'Zone' capitalised is a term, lowered the same term
            known = caps[0] in vocab.get(_names.case_key(low), ()) if caps else False
            if _names.is_english(low) and not known:
                continue
            if len(caps) == 1 and caps[0] in dn.used_as_names and (
                    len(g[caps[0]]) >= 2 * len(written) or (known and len(g[caps[0]]) >= len(written))):
                yield _case_fact(rule, ctx, doc, low, written, caps[0], g[caps[0]], False,
                                 basis="lowered")
        for low, written in camel.items():
            key = _names.case_key(low)
            forms = groups.get(key)
            if not forms:
                continue
            caps = [t for t in forms if t[:1].isupper() and t[1:] == low[1:]]
            if caps and (caps[0] in vocab.get(key, ()) or len(forms[caps[0]]) >= max(3, 2 * len(written))):
                # 'influxDB' beside 'InfluxDB': the same name with its first letter lowered. A
                # title or a sentence start capitalises a letter, never lowers one, and code is
                # written as code; so when the capitalised spelling is the vocabulary's or the
                # document's way (written twice as often, three times at least: a field 'fileHeader'
                # beside its class 'FileHeader' written twice is code), the lowered one is the slip
                cap = caps[0]
                yield _case_fact(rule, ctx, doc, low, written, cap, forms[cap], cap in vocab.get(key, ()))
            elif low in vocab.get(key, ()) or len(written) >= max(3, 3 * max(len(v) for v in forms.values())):
                # 'openGauss' (44x) beside 'Opengauss' and 'OpenGauss': the name is written so
                # ('iPhone', 'eBay'; a method written twice beside its class, 'groupBy' / 'GroupBy',
                # is not evidence enough), and the others are its slips; its first letter capitalised
                # is one only where no sentence or heading starts ('ShardingSphere&OpenGauss')
                for odd in sorted(forms, key=lambda t: forms[t][0].start):
                    names = forms[odd]
                    if odd in caps and all(_names.starts_sentence(doc, n) for n in names):
                        continue
                    yield _case_fact(rule, ctx, doc, odd, names, low, written, low in vocab.get(key, ()))
                del groups[key]
        for key, forms in groups.items():
            if len(forms) < 2:
                continue
            if all(_names.form(t.replace(" ", "")).shape == "word" for t in forms):
                continue        # words, not names ('Realtime' / 'Real-time')
            # 'write-heavy workloads' beside the 'WriteHeavy' preset: an English adjective and the
            # identifier made of its words are two things; the adjective is no spelling of a name
            forms = {t: v for t, v in forms.items() if not _english_compound(t)}
            # 'Leveled is consistently constrained…' beside 'LevelEd': an English word capitalised
            # only where a sentence or a heading starts is the word (or the lower-case name
            # 'leveled' the prose writes so), no spelling of the camel-case one
            forms = {t: v for t, v in forms.items()
                     if not (t[:1].isupper() and t[1:].islower() and _names.is_english(t.lower())
                             and all(_names.starts_sentence(doc, n) for n in v))}
            if len(forms) < 2:
                continue
            if any(" " in t for t in forms) and (any(t in dn.code_words for t in forms)
                                                 or _names.is_english(key) or _spelled_out(forms, vocab.get(key))):
                continue        # a class of the code ('DisposableTensor'), or an English word
                                # written as two ('Show Case' / 'Showcase'): the prose may spell it out
            accepted = vocab.get(key, set())
            known = [t for t in forms if t in accepted]
            if accepted and not known:
                # 'NVidia' beside 'Nvidia' where the vocabulary writes 'NVIDIA': each is odd
                spelled = sorted(accepted)[0]
                order = sorted(forms, key=lambda t: forms[t][0].start)
                for odd in order:
                    other = max((t for t in order if t != odd), key=lambda t: (len(forms[t]), -forms[t][0].start))
                    if _title_cased(odd, other) or _shout_of_word(odd, other):
                        continue
                    yield _case_fact(rule, ctx, doc, odd, forms[odd], other, forms[other], False, spelled)
                continue
            if not known:
                # 'DeepseekR1' beside 'DeepSeekR1': neither is in the vocabulary as a whole, but
                # one starts with the vocabulary's 'DeepSeek' as written and the other does not
                heads = {t: _vocab_head(t) for t in forms}
                exact = [t for t, h in heads.items() if h and h[1]]
                if exact and any(h and not h[1] for h in heads.values()):
                    head = max(exact, key=lambda t: (len(forms[t]), -forms[t][0].start))
                    for odd in sorted(forms, key=lambda t: forms[t][0].start):
                        if heads[odd] and not heads[odd][1] and not _title_cased(odd, head):
                            yield _case_fact(rule, ctx, doc, odd, forms[odd], head, forms[head], True,
                                             heads[head][0], "vocabulary_part")
                    forms = {t: forms[t] for t in exact}
            # the vocabulary's spelling, else the one written most often (the first on a tie); a
            # capital inside a word is no evidence either way (GeForce / Geforce, but RedShift,
            # SuperSet, StoryBook for Redshift, Superset, Storybook: holdout sets 31 and 34)
            best = known[0] if known else max(forms, key=lambda t: (len(forms[t]), -forms[t][0].start))
            for odd in sorted(forms, key=lambda t: forms[t][0].start):
                if odd == best or odd in accepted or _title_cased(odd, best):
                    continue            # both spellings are in use ('Hugging Face', 'HuggingFace')
                if _shout_of_word(odd, best) and not known:
                    continue
                yield _case_fact(rule, ctx, doc, odd, forms[odd], best, forms[best], bool(known))


def _vocab_head(t: str):
    """(the vocabulary's spelling, whether ``t`` writes it so) of the longest well-known name
    ``t`` begins with, ended where a new part starts ('DeepseekR1' -> ('DeepSeek', False));
    None when it begins with none."""
    known = _names.vocabulary()["known"]
    for k in range(len(t) - 1, 3, -1):
        if t[k].islower():
            continue            # inside a word: 'Deeps' is no head of 'DeepseekR1'
        spelled = known.get(t[:k].lower())
        if spelled is not None and spelled.lower() == t[:k].lower():
            return spelled, t[:k] == spelled
    return None


def _case_fact(rule, ctx, doc, odd, odd_names, best, best_names, known, spelled="", basis=""):
    at = odd_names[0]
    basis = basis or ("vocabulary" if known else "neither" if spelled else
                      ("majority" if len(best_names) > len(odd_names) else "tie"))
    values = {"name": odd, "other": best, "count": len(odd_names), "other_count": len(best_names),
              "other_line": _lines(best_names), "known": spelled}
    values["support"] = _phrase(rule, ctx, basis, values)
    ev = [{"path": doc.path, "line": n.line, "col": n.col, "surface": n.surface, "note": "other spelling"}
          for n in best_names[:3]]
    return {
        "path": doc.path, "line": at.line, "col": at.col, "end_line": at.line,
        "end_col": at.col + len(at.surface), "surface": at.surface,
        "key": f"entity:{best.lower()}", "known": bool(known), "rare_count": len(odd_names),
        "common_count": len(best_names), "_side": {"evidence": ev, "vars": values},
    }


KINDS = [Spelling, ArxivTitle, CaseVariant]
