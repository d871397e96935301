"""The README's rule table is `caveat rules --format markdown`; this fails when it is stale.

Regenerate with:  python tests/cli/test_readme_rules_table.py --write
"""
from __future__ import annotations

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")
START, END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"


def expected_block() -> str:
    from validator import rules_table
    return rules_table.render_markdown(rules_table.load())


def current_block(text: str) -> str:
    m = re.search(re.escape(START) + r"\n(.*?)" + re.escape(END), text, re.S)
    assert m, f"README.md lacks the {START} … {END} markers"
    return m.group(1)


def test_readme_rules_table_is_current():
    with open(README, encoding="utf-8") as fh:
        text = fh.read()
    assert current_block(text) == expected_block(), (
        "README rule table is stale: run `python tests/cli/test_readme_rules_table.py --write`")


def write_readme():
    with open(README, encoding="utf-8") as fh:
        text = fh.read()
    current_block(text)
    new = re.sub(re.escape(START) + r"\n.*?" + re.escape(END),
                 lambda m: f"{START}\n{expected_block()}{END}", text, flags=re.S)
    with open(README, "w", encoding="utf-8") as fh:
        fh.write(new)


if __name__ == "__main__":
    if "--write" in sys.argv:
        sys.path.insert(0, ROOT)
        write_readme()
