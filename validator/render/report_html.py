"""The corpus report as one self-contained HTML file (inline CSS, inline SVG, one small
inline script; no network, no external resource), written group by group to the open file.

What a reviewer gets: the summary; a filter box (key, system, model, hardware, file: every
term typed must appear) that hides the groups and rows that do not match; the groups table,
most figures in conflict first; per group with contradictions a section with its chart
(validator/render/report_chart.py), its statements — each figure linked to its file and line
(validator/render/report_links.py) — and its pairs; each group without contradictions
collapsed to one line (``<details>``). Labels are short and bilingual (English · 中文), so a
Chinese, English or mixed corpus reads alike. At corpus scale only the first ``top`` groups
are shown in full (the groups table lists every one) and only the shown statements'
figures are read, so the page stays usable and the run stays fast."""
from __future__ import annotations

from html import escape

# the chart's palette is re-exported: the screenshot test finds the charts by these colours
from validator.render.report_chart import (C_BG, C_CONTRA, C_OK, C_OLD, MAX_CHART,  # noqa: F401
                                           chart, charted)
from validator.render.report_links import Links
from validator.render.report_md import (MAX_ROWS, MAX_UNVERIFIED, SUMMARY_ROWS, TOP_GROUPS, dates,
                                        fmt_conditions, fmt_value, key_title, newest,
                                        shown_statements, status_of)

MAX_LINKS = 12              # figures linked per statement (report.json lists every one)
MAX_SEARCH_FILES = 50       # files of a statement the filter searches (its first ones)

ZH = {"files": "文件", "claims": "数字声明", "groups": "有分歧的组", "contradictions": "矛盾对",
      "not_comparable": "不可比的陈述对", "superseded": "被取代的陈述", "unverified": "未核实的数字",
      "unreadable_files": "无法读取的文件"}

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","WenQuanYi Micro Hei","Microsoft YaHei",sans-serif;margin:1.5rem auto;max-width:72rem;color:#1b1b1b;padding:0 1rem;line-height:1.4}
h1{font-size:1.5rem;margin:.2rem 0 .8rem}h2{font-size:1.15rem;margin:.2rem 0 .4rem}
table{border-collapse:collapse;margin:.4rem 0 .8rem;font-size:.9rem}th,td{border:1px solid #d4d4d4;padding:.2rem .45rem;text-align:left;vertical-align:top}
th{background:#f3f3f3;font-weight:600}th .zh{font-weight:400;color:#555;font-size:.85em}td.n{text-align:right}code{background:#f5f5f5;padding:0 .2rem}
table.summary{float:right;margin:0 0 1rem 1.5rem}table.summary td,table.summary th{padding:.1rem .4rem}
.filter{margin:.6rem 0;clear:none}.filter input{font:inherit;width:min(34rem,100%);padding:.35rem .5rem;border:1px solid #999;border-radius:4px}
.filter .info{color:#555;margin-left:.6rem}
section.group{border-top:2px solid #ddd;margin-top:1.4rem;padding-top:.4rem;clear:both}
details.group{border-top:1px solid #e4e4e4;padding:.3rem 0;clear:both}details.group summary{cursor:pointer}
.contra{color:#a30000;font-weight:600}.nc{color:#555}.muted{color:#666}.badge{font-weight:400;font-size:.85rem;color:#a30000;margin-left:.4rem}
tr.quiet td{color:#666}ul.figs{margin:0;padding-left:1rem}ul.pairs{margin-top:0}
svg.chart{display:block;margin:.4rem 0 .1rem;max-width:100%;height:auto}
p.legend{font-size:.8rem;color:#444;margin:0 0 .6rem}.sw{display:inline-block;width:.9rem;height:.55rem;border-radius:2px;vertical-align:middle;margin:0 .15rem 0 .5rem}
[hidden]{display:none!important}
"""

# The filter: every term typed must appear in a row's text (its group's key — metric, system,
# baseline —, its statement: surface, conditions such as model and hardware, files); a group
# shows while one of its rows does, a collapsed group opens while it matches, the groups
# table keeps the groups that match.
SCRIPT = """
(function () {
  var box = document.getElementById("filter"), info = document.getElementById("filter-info");
  var groups = document.querySelectorAll(".group[data-search]");
  var index = document.querySelectorAll("tr.grow[data-search]");
  // a group shown in full lends its rows' text (every file of every figure) to its index row
  index.forEach(function (r) {
    var g = document.getElementById(r.getAttribute("data-group")), extra = [];
    if (g) g.querySelectorAll("tr[data-search]").forEach(function (t) { extra.push(t.getAttribute("data-search")); });
    if (extra.length) r.setAttribute("data-search", r.getAttribute("data-search") + " " + extra.join(" "));
  });
  function has(text, terms) {
    for (var i = 0; i < terms.length; i++) if (text.indexOf(terms[i]) < 0) return false;
    return true;
  }
  function apply() {
    var terms = box.value.toLowerCase().split(/\\s+/).filter(Boolean), shown = 0;
    groups.forEach(function (g) {
      var head = g.getAttribute("data-search"), any = has(head, terms);
      g.querySelectorAll("tr[data-search]").forEach(function (r) {
        var ok = has(head + " " + r.getAttribute("data-search"), terms);
        r.hidden = !ok;
        if (ok) any = true;
      });
      g.hidden = !any;
      if (g.tagName === "DETAILS") {
        if (terms.length && any && !g.open) { g.open = true; g.setAttribute("data-auto", "1"); }
        else if (!terms.length && g.getAttribute("data-auto")) { g.open = false; g.removeAttribute("data-auto"); }
      }
    });
    index.forEach(function (r) {
      var ok = has(r.getAttribute("data-search"), terms);
      r.hidden = !ok;
      if (ok) shown++;
    });
    info.textContent = terms.length ? shown + " / " + index.length + " groups · 组" : "";
  }
  box.addEventListener("input", apply);
  if (box.value) apply();
})();
"""


GROUP_HEADS = (("Group", "组"), ("Key", "键"), ("Statements", "陈述"), ("Figures", "数字"),
               ("In conflict", "冲突数字"), ("Contradicting pairs", "矛盾对"), ("Not comparable", "不可比"))
STATEMENT_HEADS = (("Statement", "陈述"), ("As written", "原文"), ("Normalized", "归一化"), ("Conditions", "条件"),
                   ("Source", "来源"), ("Figures", "数字"), ("Date", "日期"), ("Status", "状态"))


def _heads(heads) -> str:
    return "".join(f'<th>{en}<br><span class="zh">{zh}</span></th>' for en, zh in heads)


def _e(s) -> str:
    return escape(str(s), quote=True)


def _search(*parts) -> str:
    return _e(" ".join(str(p) for p in parts if p).lower())


def _key_search(g) -> str:
    k = g.key
    return " ".join(x for x in (g.id, k["metric"], k["subject"], k["baseline"]) if x)


def _statement_search(g, s) -> str:
    f = s.first
    conds = f.get("conditions") or {}
    borrowed = (f.get("borrowed") or {}).get("conditions") or {}
    return " ".join([g.ids[s.sig], str(f["surface"]), *map(str, conds.values()), *map(str, borrowed.values()),
                     *s.setup.values(), f["path"]])


class _Page:
    """The writer of one page: the open file and the links of its folder."""

    def __init__(self, report, fh, links: Links, top: int):
        self.report, self.w, self.links, self.top = report, fh.write, links, top
        self._shown, self._newest = set(), set()     # of the group being written
        self._link_parts: dict = {}

    def link(self, path, line) -> str:
        """``path:line``, linked to the file's line (the escaped parts cached per file)."""
        parts = self._link_parts.get(path)
        if parts is None:
            href = self.links.href(path)
            parts = self._link_parts[path] = (_e(href) if href else None, _e(path))
        href, text = parts
        return f'<a href="{href}#L{line}">{text}:{line}</a>' if href else f"{text}:{line}"

    def head(self):
        r, w = self.report, self.w
        title = f"Contradiction report · 矛盾报告: {', '.join(r.corpus)}"
        w("<!DOCTYPE html>\n" '<html lang="en"><head><meta charset="utf-8">\n'
          '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
          f"<title>{_e(title)}</title><style>{CSS}</style></head><body>\n"
          '<table class="summary"><tbody>\n')
        for k, label in SUMMARY_ROWS:
            w(f'<tr><th>{_e(label)} · {ZH[k]}</th><td class="n">{r.summary[k]}</td></tr>\n')
        w(f"</tbody></table>\n<h1>{_e(title)}</h1>\n")
        w('<p class="muted">Groups of one claim key (metric, system, baseline), most figures in conflict first. '
          '按冲突数字数量排序；无矛盾的组折叠为一行。</p>\n')
        w('<div class="filter"><input id="filter" type="search" autocomplete="off" '
          'placeholder="Filter · 筛选: key, system, model, hardware, file" '
          'aria-label="Filter groups by key, system, model, hardware or file"><span id="filter-info" class="info"></span></div>\n')

    def index(self):
        w, groups = self.w, self.report.groups
        if not groups:
            w('<p>No disagreeing statements · 没有分歧的陈述。</p>\n')
            return
        w('<table class="groups"><thead><tr>' + _heads(GROUP_HEADS) + "</tr></thead><tbody>\n")
        for i, g in enumerate(groups):
            name = f'<a href="#{_e(g.id)}">{_e(g.id)}</a>' if i < self.top else _e(g.id)
            # a group shown below lends its rows' text to this row in the browser (SCRIPT)
            text = _search(_key_search(g)) if i < self.top else \
                _search(_key_search(g), *(_statement_search(g, s) for s in g.statements[:MAX_ROWS]))
            quiet = "" if g.contradictions else " quiet"
            w(f'<tr class="grow{quiet}" data-group="{_e(g.id)}" data-search="{text}"><td>{name}</td><td>{_e(key_title(g.key))}</td>'
              f'<td class="n">{len(g.statements)}</td><td class="n">{g.n_figures}</td>'
              f'<td class="n">{g.conflict_figures}</td><td class="n">{g.contradictions}</td>'
              f'<td class="n">{g.not_comparable}</td></tr>\n')
        w("</tbody></table>\n")
        if len(groups) > self.top:
            w(f'<p class="muted">The first {self.top} groups are shown below; report.json has all {len(groups)}.</p>\n')

    def legend(self):
        self.w(f'<p class="legend"><b>Reading the charts · 图例</b>: one row per distinct statement, rows grouped '
               f'by setup · 按条件分组; bar: the interval the figure admits as written (its precision) · 书写精度区间, '
               f'tick: the value as written. <span class="sw" style="background:{C_CONTRA}"></span>contradicting · 矛盾'
               f'<span class="sw" style="background:{C_OK}"></span>not in conflict · 无冲突'
               f'<span class="sw" style="border:1.5px solid {C_OLD};background:#fff"></span>superseded · 已被取代'
               f'<span class="sw" style="border:2px solid #111;background:#fff"></span>newest · 最新; '
               f'a dashed arc joins each contradicting statement pair · 矛盾对; a date strip only when dates differ.</p>\n')

    def groups(self, figures):
        shown = [(g, shown_statements(g)) for g in self.report.groups[:self.top]]
        if any(g.contradictions for g, _ in shown):
            self.legend()
        for g, (sts, hidden) in shown:
            self._shown, self._newest = {s.sig for s in sts}, newest(g)
            rows = [self.row(g, st, *figures.of(g, st)) for st in sts]
            self.group(g, rows, hidden)

    def row(self, g, st, listed, files) -> str:
        f = st.first
        cls = ' class="contra"' if g.contradictions and g.contradicts.get(st.sig) else ""
        links = [self.link(x["path"], x["line"]) for x in listed]
        if st.n_figures > len(listed):
            links.append(f'<span class="muted">+{st.n_figures - len(listed)} more in report.json</span>')
        text = _search(_statement_search(g, st), *files)
        status = status_of(g, st)
        if st.sig in self._newest:
            status = "newest · 最新" + ("" if status == "—" else "; " + status)
        return (f'<tr data-search="{text}"><td{cls}>{_e(g.ids[st.sig])}</td><td><code>{_e(f["surface"])}</code></td>'
                f'<td>{_e(fmt_value(f, st.base_unit))}</td><td>{_e(fmt_conditions(f["conditions"], f["borrowed"]))}</td>'
                f'<td><ul class="figs">{"".join(f"<li>{a}</li>" for a in links)}</ul></td>'
                f'<td class="n">{st.n_figures}</td><td>{_e(dates(st))}</td><td>{_e(status)}</td></tr>\n')

    def group(self, g, rows, hidden):
        w = self.w
        head = _search(_key_search(g))
        if g.contradictions:
            w(f'<section class="group" id="{_e(g.id)}" data-search="{head}"><h2>{_e(g.id)} · {_e(key_title(g.key))}'
              f'<span class="badge">{g.conflict_figures} figures in conflict · 冲突数字 — '
              f'{g.contradictions} contradicting pairs · 矛盾对</span></h2>\n')
            sts, left = charted(g, [s for s in g.statements if s.sig in self._shown])
            w(chart(g, sts) + "\n")
            if left:
                w(f'<p class="legend">{left} statements not charted (another unit, or beyond the first '
                  f'{MAX_CHART}); the table lists them.</p>\n')
        else:
            reasons = sorted({r.split(" differs")[0] for p in g.pairs for r in p["reason"].split("; ")})
            w(f'<details class="group" id="{_e(g.id)}" data-search="{head}"><summary><b>{_e(g.id)}</b> · '
              f'{_e(key_title(g.key))} — {len(g.statements)} statements, {g.n_figures} figures; '
              f'no contradiction · 无矛盾; {g.not_comparable} not comparable pairs · 不可比'
              + (f' ({_e(", ".join(reasons))} differ)' if reasons else "") + "</summary>\n")
        w('<table class="statements"><thead><tr>' + _heads(STATEMENT_HEADS) + "</tr></thead><tbody>\n")
        for r in rows:
            w(r)
        if hidden:
            w(f'<tr><td>…</td><td colspan="7" class="muted">{hidden} more statements in report.json</td></tr>\n')
        w('</tbody></table><ul class="pairs">\n')
        for p in g.pairs[:MAX_ROWS]:
            n = f" ({p['figure_pairs']} figure pairs)" if p["status"] == "contradict" and p["figure_pairs"] > 1 else ""
            word = ('<span class="contra">contradict · 矛盾</span>' if p["status"] == "contradict"
                    else '<span class="nc">not comparable · 不可比</span>')
            w(f'<li>{_e(p["a"])} ↔ {_e(p["b"])}: {word}{_e(n)} — {_e(p["reason"])}</li>\n')
        more = len(g.pairs) - MAX_ROWS + g.pairs_omitted
        if more > 0:
            w(f'<li class="muted">… {more} more statement pairs in report.json</li>\n')
        w("</ul></section>\n" if g.contradictions else "</ul></details>\n")

    def tail(self):
        r, w = self.report, self.w
        if r.summary["unverified"]:
            w('<section><h2>Unverified figures · 未核实的数字</h2><ul>\n')
            for i, u in enumerate(r.unverified()):
                if i == MAX_UNVERIFIED:
                    w(f'<li class="muted">… {r.summary["unverified"] - MAX_UNVERIFIED} more in report.json</li>\n')
                    break
                w(f'<li>{self.link(u["path"], u["line"])}: <code>{_e(u["surface"])}</code> '
                  f'<span class="muted">({_e(", ".join(u["markers"]))})</span></li>\n')
            w("</ul></section>\n")
        if r.errors:
            w("<section><h2>Files that could not be read · 无法读取的文件</h2><ul>\n")
            for e in r.errors:
                w(f"<li>{_e(e)}</li>\n")
            w("</ul></section>\n")
        w(f"<script>{SCRIPT}</script>\n</body></html>\n")


class ShownFigures:
    """The figures the page shows: per shown statement of the first ``top`` groups, its first
    MAX_LINKS figures (linked) and first MAX_SEARCH_FILES files (searched). Collected while
    report.json streams every figure (``tap``), so the page costs no second pass over them,
    or read for the shown statements alone (``read``). Bounded by top x MAX_ROWS x
    (MAX_LINKS + MAX_SEARCH_FILES), whatever the corpus size."""

    def __init__(self, report, top=None):
        top = TOP_GROUPS if top is None else top
        self.only = [(g, shown_statements(g)[0]) for g in report.groups[:top]]
        self._of = {(g.claim_key, s.sig): ([], {}) for g, sts in self.only for s in sts}
        self.complete = False

    def _add(self, g, s, fig) -> None:
        got = self._of.get((g.claim_key, s.sig))
        if got is not None:
            listed, files = got
            if len(listed) < MAX_LINKS:
                listed.append(fig)
            if len(files) < MAX_SEARCH_FILES:
                files[fig["path"]] = None

    def tap(self, figures):
        """Pass ``figures`` (the report's (group, statement, figure) stream) through, keeping
        what the page shows."""
        for item in figures:
            self._add(*item)
            yield item
        self.complete = True

    def read(self, report) -> None:
        for item in report.figures(self.only):
            self._add(*item)
        self.complete = True

    def of(self, g, s) -> tuple:
        listed, files = self._of.get((g.claim_key, s.sig), ([], {}))
        return listed, list(files)


def write(report, fh, top=None, links=None, figures: "ShownFigures | None" = None) -> None:
    """``figures``: the shown figures when another writer already streamed them
    (report_files.py writes report.json first and hands them over); else read here."""
    top = TOP_GROUPS if top is None else top
    if figures is None or not figures.complete:
        figures = ShownFigures(report, top)
        figures.read(report)
    page = _Page(report, fh, links or Links((), "."), top)
    page.head()
    page.index()
    page.groups(figures)
    page.tail()
