"""What a briefing's counts count.

Two readings, both over the document model (``claims.model.Document``):

- ``count_claims(doc, claims, names)``: the counts the figure reader leaves out, as claims of
  kind ``count`` — Chinese numerals with a classifier (``三家``, ``两个``), English number
  words before a plural noun (``two open issues``), digits with ``+`` or a noun it does not
  know (``4+ PRs``, ``13 PRs``), and bare numbers under a count column (``~13`` under
  ``Issues``).  ``claims.api.analyze`` adds them to the document's claims.
- ``read(doc, claims)``: every declared count whose items can be identified, as a
  ``CountStatement`` with the ways of counting those items (``Reading``), and every item a
  header or summary lists, with the places in the body that mention it (``ListedItem``).
  The count kinds (``validator.kinds.count``) judge them: whether some reading matches the
  declared number, and whether a listed item is mentioned at all.

A count is only paired with items when the text says which items it counts: a section
heading over its entries, a summary line over the entries its word names, a header count
over the list right below it, a per-project table over the project's part of the document
(when the table says it counts the items the document cites), a count with its own
enumeration (``5 个（b10327–b10331）``, ``vLLM、SGLang、llama.cpp 三家``, ``三种策略：TP、PP
和 DP``) and a sentence that introduces a list (``The four strategies compared:``).
Where more than one reading is reasonable (linked references only, or also the bare
``#123`` ones; a range's span, or the ids listed inside it), every one is kept.
"""
from __future__ import annotations

from .count_claims import count_claims, merge_counts
from .count_lists import back_references, headed_counts, heading_counts, own_subsections, list_intros, named_after, named_before, paren_enumeration
from .count_records import CountStatement, Counts, Item, ListedItem, Reading
from .count_targets import header_counts, known_kinds, section_counts, stat_counts, summary_counts, table_counts
from .count_lists import TIME_AFTER
from .count_words import vocab
from .listed_items import listed_items

__all__ = ["count_claims", "merge_counts", "read", "Counts", "CountStatement", "Item", "ListedItem", "Reading"]


# a declared count at least this large and this many times every reading of its items counts
# something else than those items
_FAR_COUNT = 20
_FAR_FACTOR = 5


def read(doc, claims: list) -> Counts:
    """Every declared count whose items can be identified, and every listed item."""
    not_declared = vocab()["not_declared_before"]
    counts = [c for c in claims if c.kind == "count" and c.block is not None and c.value is not None
              and float(c.value).is_integer() and c.unit == "item"
              # '每档 20 个 burst' (a rate), '7×7=49 个' (a product's result): nothing declared
              and not not_declared.search(doc.text, max(doc.blocks[c.block].start, c.start - 8), c.start)]
    st = section_counts(doc) + summary_counts(doc) + header_counts(doc) + stat_counts(doc)
    st += table_counts(doc, counts)
    st += heading_counts(doc, counts)
    taken = {(s.start, s.end) for s in st}
    known = known_kinds(doc)
    figures_by_block = {}
    for c in claims:
        figures_by_block.setdefault(c.block, []).append(c)
    by_block = {}
    for c in counts:
        by_block.setdefault(c.block, []).append(c)
    for c in counts:
        if (c.start, c.end) in taken:
            continue
        b = doc.blocks[c.block]
        if b.role in ("references",):
            continue
        if TIME_AFTER.match(doc.text, c.end):
            continue        # '4 个月未修复': a duration
        got = paren_enumeration(doc, c, figures_by_block.get(c.block, ()), known)
        if got is None:
            got = named_before(doc, c)
        if got is None:
            got = named_after(doc, c, by_block[c.block])
        if got is None:
            continue
        for x in (got if isinstance(got, list) else [got]):
            st.append(x)
            taken.add((x.start, x.end))
    st += [x for x in list_intros(doc, counts) if (x.start, x.end) not in taken]
    taken |= {(x.start, x.end) for x in st}
    st += back_references(doc, counts, taken)
    taken |= {(x.start, x.end) for x in st}
    st += own_subsections(doc, counts, taken)
    taken |= {(x.start, x.end) for x in st}
    st += headed_counts(doc, taken)
    # '120 个稳态 step 的 A/B 结果：' over five metric rows, '`medium` 10,318 个、`low` 132 个': a
    # count many times what is listed beside it is a quantity of something else, not a miscount
    st = [x for x in st if not (x.what in ("enumeration", "list_intro", "list_named") and x.readings and x.value >= _FAR_COUNT
                                and all(x.value >= _FAR_FACTOR * max(r.high, 1) for r in x.readings))]
    st.sort(key=lambda x: (x.start, x.end))
    return Counts(statements=st, listed=listed_items(doc, claims))
