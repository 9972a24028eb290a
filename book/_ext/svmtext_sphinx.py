"""Book-wide Sphinx settings that _config.yml cannot express (loaded via local_extensions).

* Citations in one author-year style: the text cites "(Cortes and Vapnik, 1995)" or
  "Cortes and Vapnik (1995)" (``{cite:p}``/``{cite}`` and ``{cite:t}``, referencing style
  ``author_year_round``), and the bibliography labels its entries the same way
  ("[Cortes and Vapnik, 1995]", pybtex style ``svmtext``: unsrt formatting, entries sorted
  by author and year).
* The thebe configuration script is emitted once per page. sphinx-thebe adds it with
  ``app.add_js_file(None, body=...)`` after the HTML builder started; Sphinx then keeps
  it twice (once as filename None, once as ''), and the second ``const THEBE_JS_URL``
  is a SyntaxError on every page.
* Each chapter's download menu offers the executed notebook (``.ipynb``, with outputs)
  beside the ``.md`` source and the PDF. sphinx-book-theme offers it only when a launch
  service (Binder, JupyterHub, ...) is configured; this book has none.
"""
from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pybtex.plugin import register_plugin
from pybtex.richtext import Text
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
import sphinxcontrib.bibtex.plugin
from sphinxcontrib.bibtex.style.referencing import BracketStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle


def _plain(latex: str) -> str:
    return Text.from_latex(latex).render_as("text")


def author_year_label(entry) -> str:
    """"Cortes and Vapnik, 1995", "Boser et al., 1992": the label the text cites."""
    persons = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [_plain(" ".join(p.prelast_names + p.last_names)) for p in persons]
    if not names:
        names = [_plain(entry.fields.get("organization") or entry.fields.get("institution")
                        or entry.key)]
    if len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    return f"{who}, {entry.fields.get('year', 'n.d.')}"


class AuthorYearLabelStyle(BaseLabelStyle):
    """Author-year labels; equal labels get a, b, ... after the year."""

    def format_labels(self, sorted_entries):
        labels = [author_year_label(e) for e in sorted_entries]
        total, seen = Counter(labels), Counter()
        for label in labels:
            if total[label] == 1:
                yield label
            else:
                yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label]]
                seen[label] += 1


class AuthorYearStyle(UnsrtStyle):
    default_label_style = AuthorYearLabelStyle
    default_sorting_style = "author_year_title"


def _round() -> BracketStyle:
    return BracketStyle(left="(", right=")", sep="; ")


@dataclass
class RoundAuthorYearReferenceStyle(AuthorYearReferenceStyle):
    """Author-year references in round brackets: (Platt, 1999); Platt (1999);
    several separated by semicolons: (Chang and Lin, 2011; Fan et al., 2005)."""

    bracket_parenthetical: BracketStyle = field(default_factory=_round)
    bracket_textual: BracketStyle = field(default_factory=_round)
    bracket_author: BracketStyle = field(default_factory=_round)
    bracket_label: BracketStyle = field(default_factory=_round)
    bracket_year: BracketStyle = field(default_factory=_round)


register_plugin("pybtex.style.labels", "svmtext_author_year", AuthorYearLabelStyle)
register_plugin("pybtex.style.formatting", "svmtext", AuthorYearStyle)
sphinxcontrib.bibtex.plugin.register_plugin(
    "sphinxcontrib.bibtex.style.referencing", "author_year_round",
    RoundAuthorYearReferenceStyle)


def _dedupe_inline_scripts(app, env, docnames):
    """Drop the copies of inline scripts that Sphinx would emit twice (see module doc)."""
    builder = app.builder
    scripts = getattr(builder, "_js_files", None)
    if scripts is None:
        return
    def key(attrs, priority):
        return priority, tuple(sorted((k, str(v)) for k, v in attrs.items() if k != "priority"))

    registry = {key(a, a.get("priority", 500)) for f, a in app.registry.js_files if not f}
    keep = []
    for js in scripts:
        if js.filename is None and key(js.attributes, js.priority) in registry:
            continue   # re-added as '' from the registry when the pages are written
        keep.append(js)
    scripts[:] = keep


def _offer_executed_notebook(app, pagename, templatename, context, doctree):
    """Copy myst-nb's executed notebook to _sources/ and put it in the download menu."""
    if doctree is None or context.get("ipynb_source"):
        return
    if "kernelspec" not in app.env.metadata.get(pagename, {}):
        return
    executed = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb"
    if not executed.is_file():
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(executed, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app):
    # after sphinx-thebe's own env-before-read-docs handler (priority 500)
    app.connect("env-before-read-docs", _dedupe_inline_scripts, priority=900)
    # before sphinx-book-theme builds the download menu (priority 501)
    app.connect("html-page-context", _offer_executed_notebook, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
