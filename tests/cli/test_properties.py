"""Properties of the surface helpers (hypothesis, modest example counts)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from validator.finding import Finding

TEXT = st.text(alphabet=st.sampled_from(list("ab 中文\n<>!-:=\"CV0123456789caveatignorefile%,`~")), max_size=200)


@settings(deadline=None, max_examples=150)
@given(TEXT)
def test_suppression_parser_never_raises_and_points_at_its_comment(text):
    from claims import analyze
    from validator.suppress import parse
    lines = text.split("\n")
    for s in parse(analyze(text, "a.md").document):
        assert s.surface.startswith("<!--")
        assert lines[s.line - 1][s.col - 1:].startswith(s.surface.split("\n")[0])


@settings(deadline=None, max_examples=150)
@given(st.text(max_size=60))
def test_github_escaping_leaves_no_raw_separators(s):
    from validator.render.github import escape_data, escape_property
    p = escape_property(s)
    assert not any(ch in p for ch in ",:\r\n")
    d = escape_data(s)
    assert "\n" not in d and "\r" not in d
    # escaping is reversible, so the message GitHub shows is the message we meant
    back = d.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")
    assert back == s


@settings(deadline=None, max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(["CV101", "CV301", "CV601"]), st.sampled_from(["29%", "2.8×", "SpecInfr"]),
                          st.integers(1, 500)), max_size=12),
       st.integers(0, 50))
def test_baseline_accepts_the_same_findings_after_any_line_shift(tmp_path_factory, items, shift):
    from validator import baseline

    def findings(delta):
        return [Finding(code=c, family="x", severity="warning", path="doc.md", line=ln + delta, col=1,
                        end_line=ln + delta, end_col=3, surface=s, message="m", key=f"k:{s}")
                for c, s, ln in items]
    d = tmp_path_factory.mktemp("b")
    path = str(d / "base.json")
    baseline.write(path, findings(0))
    moved = findings(shift)
    stale = baseline.apply(path, moved, ["doc.md"])
    assert all(f.suppressed for f in moved) and stale == []
