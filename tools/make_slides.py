#!/usr/bin/env python3
"""Slide decks of the chapters from the cells tagged in them (reveal.js via nbconvert).

    python tools/make_slides.py                    # every chapter of _toc.yml -> _build/slides
    python tools/make_slides.py book/margin.md     # one deck
    python tools/make_slides.py --no-execute ...   # code cells without their outputs
    python tools/make_slides.py --executed _build/jupyter_execute/book ...

A cell goes on the slides when it carries a slide tag, in either of jupytext's MyST forms::

    +++ {"tags": ["slide"]}                        (a markdown cell; the next +++ ends it)
    ```{code-cell} ipython3
    :tags: [slide]
    ```
    +++ {"slideshow": {"slide_type": "fragment"}}

Tags ``slide`` (a new slide), ``subslide`` (a slide below the current one), ``fragment``
(appears on the current slide at the next key press) and ``notes`` (speaker notes); the
notebook form ``slideshow.slide_type`` also takes ``-`` (the current slide continues).
Every other cell is left out. A code cell shows its outputs only; the tag ``slide-code``
shows its source as well. Each deck opens with a title slide (the chapter's heading).

MyST markup that nbconvert's Markdown renderer does not know is rewritten: section labels
are dropped, ``{cite}`` becomes author and year (book/references.bib), ``{ref}`` the
section's title, ``{eq}`` the equation's number in its chapter (labelled display equations
carry it as ``\\tag``), ``{glue}`` the value glued by the chapter's run, ``prf:``
blocks and admonitions become a bold heading and their
body. Any other directive, and any cell from an exercise's solution, is refused with the
chapter and line named, so that a deck never shows raw markup or a solution.

Outputs come from an executed copy of the chapter: the notebooks of a book build
(``--executed``, used when newer than the chapter) or a run of the chapter with nbclient
(the default; ``--no-execute`` skips it and shows no outputs). Decks are written as
``_build/slides/<chapter>.slides.html`` beside ``reveal.js/`` (npm's reveal.js, see
``--reveal``) and ``mathjax/`` (the book's vendored MathJax, tools/vendor_mathjax.sh): the
folder works offline and can be copied anywhere. ``tools/check_slides.py`` checks the decks
in headless Chromium.
"""
from __future__ import annotations

import argparse
import copy
import html
import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
OUT = ROOT / "_build" / "slides"
TEMPLATES = Path(__file__).resolve().parent / "slides_template"
MATHJAX = ROOT / "_vendor" / "mathjax"
REVEAL_VERSION = "4.6.1"
REVEAL = ROOT / "_build" / "vendor" / "reveal.js"   # npm's copy, fetched once

FAILED: list[str] = []   # chapters whose run stopped with an error (make_slides exits 1)
SLIDE_TYPES = ("slide", "subslide", "fragment", "notes")
WIDTH, HEIGHT = 1024, 768
PRF_NAMES = {"definition": "Definition", "theorem": "Theorem", "lemma": "Lemma",
             "proof": "Proof", "corollary": "Corollary", "proposition": "Proposition",
             "remark": "Remark", "example": "Example", "algorithm": "Algorithm",
             "conjecture": "Conjecture", "property": "Property", "observation": "Observation",
             "criterion": "Criterion", "assumption": "Assumption", "axiom": "Axiom"}
ADMONITIONS = {"note": "Note", "tip": "Tip", "warning": "Warning", "important": "Important",
               "hint": "Hint", "attention": "Attention", "caution": "Caution",
               "seealso": "See also"}


class SlideError(ValueError):
    """A tagged cell the slides cannot show (the message names the chapter and line)."""


# ------------------------------------------------------------------ which cells

def slide_type(cell) -> str | None:
    """The reveal.js slide type of a cell, or None when the cell is not on the slides."""
    st = (cell.metadata.get("slideshow") or {}).get("slide_type")
    if st in (*SLIDE_TYPES, "-"):
        return st
    tags = cell.metadata.get("tags") or []
    for t in SLIDE_TYPES:
        if t in tags:
            return t
    return None


def tagged_cells(nb) -> list[tuple[int, object, str]]:
    """(index, cell, slide type) of every cell of ``nb`` that goes on the slides."""
    return [(i, c, st) for i, c in enumerate(nb.cells) if (st := slide_type(c))]


# ------------------------------------------------------------------ cross-references

def _bib_labels(bib: Path) -> dict[str, tuple[str, str]]:
    """key -> (authors as cited, year) from a BibTeX file (first author et al.)."""
    from pybtex.database import parse_file   # sphinxcontrib-bibtex's parser

    out = {}
    for key, entry in parse_file(str(bib)).entries.items():
        names = [" ".join(p.last_names) for p in entry.persons.get("author", [])]
        names = [re.sub(r"[{}]", "", n) for n in names if n]
        if not names:
            f = entry.fields
            names = [re.sub(r"[{}]", "", f.get("institution") or f.get("organization")
                            or f.get("title", key)[:30])]
        who = (names[0] if len(names) == 1 else f"{names[0]} and {names[1]}"
               if len(names) == 2 else f"{names[0]} et al.")
        out[key] = (who, entry.fields.get("year", "n.d."))
    return out


def _targets(book: Path) -> dict[str, dict]:
    """Labels of every chapter: sections -> title, equations -> (chapter, number),
    prf blocks -> their kind and title."""
    sections, equations, blocks, figures = {}, {}, {}, {}
    for md in sorted(book.glob("*.md")):
        lines = md.read_text(encoding="utf-8").splitlines()
        n_eq = n_fig = 0
        for i, line in enumerate(lines):
            m = re.match(r"^\s*:?name:\s*(fig-\S+)\s*$", line)
            if m:
                n_fig += 1
                figures[m.group(1)] = (md.stem, n_fig)
            m = re.match(r"^\((.+)\)=\s*$", line)
            if m:
                nxt = next((ln for ln in lines[i + 1:] if ln.strip()), "")
                h = re.match(r"^#+\s+(.*)$", nxt)
                if h:
                    sections[m.group(1)] = h.group(1).strip()
            m = re.match(r"^\$\$\s*\((eq-[^)]+)\)\s*$", line)
            if m:
                n_eq += 1
                equations[m.group(1)] = (md.stem, n_eq)
            m = re.match(r"^:label:\s*(\S+)", line)
            if m and i and re.match(r"^(`{3,}|:{3,})\{math\}", lines[i - 1]):
                n_eq += 1
                equations[m.group(1)] = (md.stem, n_eq)
            elif m:
                opener = next((ln for ln in reversed(lines[:i]) if re.match(r"^(`{3,}|:{3,})\{", ln)), "")
                k = re.match(r"^(?:`{3,}|:{3,})\{prf:(\w+)\}\s*(.*)$", opener)
                if k:
                    blocks[m.group(1)] = (PRF_NAMES.get(k.group(1), k.group(1).title()),
                                          k.group(2).strip())
                elif re.match(r"^(?:`{3,}|:{3,})\{exercise\}", opener):
                    blocks[m.group(1)] = ("Exercise", "")
    return {"sections": sections, "equations": equations, "blocks": blocks, "figures": figures}


class Converter:
    """MyST markup of one chapter's markdown cells -> Markdown that nbconvert renders."""

    def __init__(self, chapter: str, book: Path = BOOK, glue: dict | None = None):
        self.chapter = chapter
        self.glue = glue     # myst-nb's glued values of a run of the chapter (None: not run)
        self.bib = _bib_labels(book / "references.bib")
        self.targets = _targets(book)
        self.titles = {}
        for md in book.glob("*.md"):
            h = re.search(r"^# (.+)$", md.read_text(encoding="utf-8"), re.M)
            if h:
                self.titles[md.stem] = h.group(1).strip()

    def _fail(self, where: str, what: str):
        raise SlideError(f"book/{self.chapter}.md, {where}: {what} (untag the cell, or "
                         "teach tools/make_slides.py this markup)")

    # roles -----------------------------------------------------------------
    def _cite(self, keys: str, textual: bool, where: str) -> str:
        parts = []
        for k in (k.strip() for k in keys.split(",")):
            if k not in self.bib:
                self._fail(where, f"{{cite}} of {k!r}, which book/references.bib lacks")
            who, year = self.bib[k]
            parts.append(f"{who} ({year})" if textual else f"{who}, {year}")
        return "; ".join(parts) if textual else "(" + "; ".join(parts) + ")"

    def _ref(self, text: str, where: str) -> str:
        m = re.match(r"^(.*?)\s*<([^>]+)>$", text, re.S)
        t = self.targets
        if m and "%s" in m.group(1) and m.group(2) in t["figures"]:
            return m.group(1).replace("%s", str(t["figures"][m.group(2)][1]))
        if m:
            return m.group(1)
        if text in t["figures"]:
            ch, n = t["figures"][text]
            return f"Fig. {n}" + ("" if ch == self.chapter else
                                  f" of “{self.titles.get(ch, ch)}”")
        if text in t["sections"]:
            return f"“{t['sections'][text]}”"
        if text in t["blocks"]:
            kind, title = t["blocks"][text]
            return f"{kind} ({title})" if title else kind
        self._fail(where, f"reference to an unknown label {text!r}")

    def _eq(self, label: str, where: str) -> str:
        if label not in self.targets["equations"]:
            self._fail(where, f"{{eq}} of an unknown label {label!r}")
        ch, n = self.targets["equations"][label]
        if ch == self.chapter:
            return f"({n})"
        return f"({n}) of “{self.titles.get(ch, ch)}”"

    def _glue(self, arg: str, where: str) -> str:
        """A glued value (``key`` or ``key:format``), as the book shows it."""
        key, _, fmt = arg.partition(":")
        if self.glue is None:         # the chapter was not run (--no-execute)
            return f"⟨{key}⟩"
        if key not in self.glue:
            self._fail(where, f"{{glue}} of {key!r}, which the chapter's run did not glue")
        text = self.glue[key]
        if fmt:
            try:
                text = format(float(text), fmt)
            except ValueError:
                self._fail(where, f"{{glue}} format {fmt!r} for the value {text!r}")
        return text

    def roles(self, text: str, where: str) -> str:
        def sub(m):
            role, arg = m.group(1), m.group(2)
            if role in ("cite", "cite:p", "cite:ps"):
                return self._cite(arg, False, where)
            if role in ("cite:t", "cite:ts"):
                return self._cite(arg, True, where)
            if role in ("ref", "numref", "prf:ref", "doc"):
                return self._ref(arg, where)
            if role == "eq":
                return self._eq(arg, where)
            if role in ("glue", "glue:", "glue:text", "glue:any", "glue:md"):
                return self._glue(arg, where)
            if role == "math":
                return f"${arg}$"
            if role in ("code", "samp", "file", "kbd"):
                return f"`{arg}`"
            self._fail(where, f"the role {{{role}}}")
        return re.sub(r"\{([a-z:]+)\}`([^`]*)`", sub, text)

    # blocks ----------------------------------------------------------------
    def markdown(self, source: str, line0: int) -> str:
        """Rewrite one markdown cell (``line0``: its first line in the chapter)."""
        lines = source.splitlines()
        out = self._blocks(lines, line0)
        text = "\n".join(out)
        return self.roles(text, f"cell at line {line0}")

    def _blocks(self, lines: list[str], line0: int) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            where = f"line {line0 + i}"
            if re.match(r"^\(.+\)=\s*$", line) or re.match(r"^<!--.*-->\s*$", line):
                i += 1
                continue
            m = re.match(r"^\$\$\s*\((eq-[^)]+)\)\s*$", line)
            if m:   # closing $$ of a labelled equation: the number as \tag
                n = self.targets["equations"].get(m.group(1), (self.chapter, "?"))[1]
                out.append(f"\\tag{{{n}}}")
                out.append("$$")
                i += 1
                continue
            m = re.match(r"^(`{3,}|:{3,})\{([^}]+)\}\s*(.*)$", line)
            if m:
                fence, name, arg = m.groups()
                j = i + 1
                depth = 1
                while j < len(lines):
                    opener = re.match(rf"^({re.escape(fence[0])}+)\{{", lines[j])
                    if opener and len(opener.group(1)) == len(fence):
                        depth += 1
                    elif lines[j].strip() == fence:
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                if j >= len(lines):
                    self._fail(where, f"the directive {{{name}}} is not closed in its cell")
                body = lines[i + 1:j]
                opts = {}
                while body and re.match(r"^:[\w-]+:", body[0]):
                    k, _, v = body.pop(0)[1:].partition(":")
                    opts[k] = v.strip()
                if body and body[0].strip() == "---":   # YAML options block
                    end = body.index("---", 1)
                    body = body[end + 1:]
                out.extend(self._directive(name, arg, opts, body, line0 + i + 1, where))
                i = j + 1
                continue
            out.append(line)
            i += 1
        return out

    def _directive(self, name, arg, opts, body, body_line0, where) -> list[str]:
        if name.startswith(("solution", "exercise")):
            self._fail(where, f"an exercise or its solution ({{{name}}}) on a slide")
        inner = self._blocks(body, body_line0)
        if name == "math":
            label = opts.get("label")
            tag = ([f"\\tag{{{self.targets['equations'][label][1]}}}"]
                   if label in self.targets["equations"] else [])
            return ["$$", *inner, *tag, "$$"]
        if name.startswith("prf:"):
            kind = PRF_NAMES.get(name[4:], name[4:].title())
            head = f"**{kind}" + (f" ({arg})" if arg else "") + ".**"
            return ["", head, "", *inner, ""]
        if name == "admonition":
            return ["", f"**{arg}**", "", *inner, ""]
        if name in ADMONITIONS:
            return ["", f"**{ADMONITIONS[name]}.**", "", *inner, ""]
        self._fail(where, f"the directive {{{name}}}")


# ------------------------------------------------------------------ the deck

def macros(config: Path = ROOT / "_config.yml") -> dict:
    """The book's MathJax macros (_config.yml's mathjax3_config)."""
    import yaml

    conf = yaml.safe_load(config.read_text(encoding="utf-8"))
    return conf["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]


def _first_lines(path: Path, nb) -> list[int]:
    """The chapter line where each cell of ``nb`` starts (for messages)."""
    text = path.read_text(encoding="utf-8").splitlines()
    starts, pos = [], 0
    for cell in nb.cells:
        first = next((ln for ln in cell.source.splitlines() if ln.strip()), "")
        k = pos
        while k < len(text) and (not first or first.strip() != text[k].strip()):
            k += 1
        if k < len(text):
            pos = k
        starts.append(pos + 1)
    return starts


def slide_notebook(md: Path, executed=None):
    """The notebook of the deck: a title slide and the tagged cells (outputs from
    ``executed``, a notebook of the same chapter with outputs, matched by source)."""
    import jupytext
    import nbformat

    nb = jupytext.read(md)
    outputs, glue = {}, None
    if executed is not None:
        glue = {}
        for c in executed.cells:
            if c.cell_type == "code":
                outputs.setdefault(c.source.strip(), c.get("outputs", []))
                for o in c.get("outputs", []):
                    rec = (o.get("metadata") or {}).get("scrapbook")
                    if rec:
                        data = o.get("data", {})
                        key = rec.get("mime_prefix", "") + "text/plain"
                        glue[rec["name"]] = str(data.get(key, "")).strip("'\"")
    conv = Converter(md.stem, md.parent, glue)
    starts = _first_lines(md, nb)
    title = conv.titles.get(md.stem, md.stem)
    cells = [nbformat.v4.new_markdown_cell(
        f'<div class="svmtext-title">\n\n# {title}\n\n{objectives(nb, conv)}'
        f'<p class="svmtext-source">Slides of the chapter <code>book/{md.stem}.md</code> of '
        "<em>Support Vector Machines, Three Ways</em></p>\n\n</div>",
        metadata={"slideshow": {"slide_type": "slide"}})]
    chosen = tagged_cells(nb)
    if not chosen:
        raise SlideError(f"book/{md.stem}.md has no cell tagged for the slides "
                         f"(tags {', '.join(SLIDE_TYPES)})")
    for k, (i, cell, st) in enumerate(chosen):
        if k == 0 and st not in ("slide", "subslide"):
            st = "slide"
        meta = {"slideshow": {"slide_type": st}}
        if cell.cell_type == "markdown":
            src = conv.markdown(cell.source, starts[i])
            cells.append(nbformat.v4.new_markdown_cell(src, metadata=meta))
        elif cell.cell_type == "code":
            new = nbformat.v4.new_code_cell(cell.source, metadata=meta)
            new.outputs = slide_outputs(outputs.get(cell.source.strip(), []))
            show_code = "slide-code" in (cell.metadata.get("tags") or [])
            if not show_code:
                new.metadata["tags"] = ["slide-hide-input"]
            cells.append(new)
            cont = {"slideshow": {"slide_type": "-"}}
            if not new.outputs and not show_code:
                cells.append(nbformat.v4.new_markdown_cell(
                    "*(This cell's output appears when the deck is built with the chapter "
                    "run: `make slides`.)*", metadata=cont))
            caption = ((cell.metadata.get("mystnb") or {}).get("figure") or {}).get("caption")
            if caption:
                first = re.split(r"(?<=[.!?])\s", " ".join(caption.split()), maxsplit=1)[0]
                first = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(first, quote=False))
                cells.append(nbformat.v4.new_markdown_cell(
                    f'<p class="svmtext-caption">{first}</p>', metadata=cont))
    out = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "title": title})
    return out


def slide_outputs(outs: list) -> list:
    """What a slide shows of a cell's outputs: its figures when it drew any, else its
    printed text and results; never an error or stderr."""
    outs = [o for o in copy.deepcopy(outs) if o.get("output_type") != "error"
            and not (o.get("output_type") == "stream" and o.get("name") == "stderr")
            and "scrapbook" not in (o.get("metadata") or {})]
    figures = [o for o in outs if any(k.startswith("image/") for k in o.get("data", {}))]
    return figures or outs


def objectives(nb, conv: Converter) -> str:
    """The chapter's learning objectives (its "In this chapter" box) for the title slide."""
    for cell in nb.cells:
        m = re.search(r"\*\*Learning objectives\.\*\*(.*?)(?:\n\s*\n|\Z)", cell.source, re.S)
        if cell.cell_type == "markdown" and m:
            return "**Learning objectives.**" + conv.roles(m.group(1), "objectives") + "\n\n"
    return ""


def execute(md: Path, timeout: int = 300):
    """Run the chapter (cwd book/) with nbclient; the notebook with its outputs."""
    import jupytext
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = jupytext.read(md)
    env_backend = os.environ.get("MPLBACKEND")
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(md.parent)}}).execute()
    except CellExecutionError as err:   # the cells run so far keep their outputs
        last = re.sub(r"\x1b\[[0-9;]*m", "", str(err).strip().splitlines()[-1])[:300]
        FAILED.append(f"book/{md.name}: {last}")
        print(f"make_slides: WARNING book/{md.name} stopped with an error; cells after it "
              f"show no output in its deck: {last}", file=sys.stderr)
    finally:
        if env_backend is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = env_backend
    return nb


def vendor_reveal(dest: Path = REVEAL, version: str = REVEAL_VERSION) -> Path:
    """reveal.js from npm (``npm pack reveal.js@version``) into ``dest``, once."""
    import subprocess
    import tarfile
    import tempfile

    if (dest / "dist" / "reveal.js").is_file() and \
            (dest / "VERSION").read_text().strip() == version:
        return dest
    npm = shutil.which("npm")
    if not npm:
        raise RuntimeError("npm is needed once to fetch reveal.js "
                           f"(npm pack reveal.js@{version}); install nodejs/npm")
    with tempfile.TemporaryDirectory() as tmp:
        res = subprocess.run([npm, "pack", "--silent", f"reveal.js@{version}"], cwd=tmp,
                             capture_output=True, text=True, timeout=300)
        tgz = Path(tmp) / (res.stdout.strip().splitlines() or ["none"])[-1]
        if res.returncode or not tgz.is_file():
            raise RuntimeError(f"npm pack reveal.js@{version} failed: {res.stderr[-500:]}")
        with tarfile.open(tgz) as tf:
            tf.extractall(tmp, filter="data")
        stage = dest.with_name(dest.name + ".stage")
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        pkg = Path(tmp) / "package"
        shutil.copytree(pkg / "dist", stage / "dist")
        shutil.copytree(pkg / "plugin" / "notes", stage / "plugin" / "notes")
        shutil.copy(pkg / "LICENSE", stage / "LICENSE")
        (stage / "VERSION").write_text(version + "\n")
        shutil.rmtree(dest, ignore_errors=True)
        stage.rename(dest)
    return dest


def _copy_assets(out: Path):
    """reveal.js and MathJax beside the decks (copied once, or when missing)."""
    out.mkdir(parents=True, exist_ok=True)
    if not (MATHJAX / "tex-mml-chtml.js").is_file():
        raise RuntimeError(f"{MATHJAX} is missing: bash tools/vendor_mathjax.sh 3.2.2 "
                           "_vendor/mathjax (make slides does it)")
    if "cdn" in (MATHJAX / "VERSION").read_text(encoding="utf-8").lower():
        print("make_slides: WARNING the vendored MathJax is a CDN loader: "
              "math in the slides needs internet", file=sys.stderr)
    for src, name in ((vendor_reveal(), "reveal.js"), (MATHJAX, "mathjax")):
        dst = out / name
        if not dst.exists() or (src / "VERSION").read_text() != (dst / "VERSION").read_text():
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst)


def export(nb, dest: Path) -> Path:
    """Write the deck ``dest`` (``<chapter>.slides.html``) with the local template."""
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    c = Config()
    c.SlidesExporter.reveal_url_prefix = "reveal.js"
    c.SlidesExporter.reveal_theme = "white"
    c.SlidesExporter.reveal_width = str(WIDTH)
    c.SlidesExporter.reveal_height = str(HEIGHT)
    c.SlidesExporter.mathjax_url = "mathjax/tex-mml-chtml.js"
    c.SlidesExporter.exclude_input_prompt = True
    c.SlidesExporter.exclude_output_prompt = True
    c.SlidesExporter.extra_template_basedirs = [str(TEMPLATES)]
    c.SlidesExporter.template_name = "svmtext-reveal"
    c.TagRemovePreprocessor.remove_input_tags = {"slide-hide-input"}
    c.TagRemovePreprocessor.enabled = True
    exp = SlidesExporter(config=c)
    body, _ = exp.from_notebook_node(nb, resources={"svmtext_macros": macros()})
    dest.write_text(body, encoding="utf-8")
    return dest


def chapters() -> list[Path]:
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [ch["file"] for part in toc.get("parts", []) for ch in part.get("chapters", [])]
    return [ROOT / f"{f}.md" for f in files
            if (ROOT / f"{f}.md").is_file()
            and (ROOT / f"{f}.md").read_text(encoding="utf-8").startswith("---\njupytext")
            and f.split("/")[-1] not in ("references", "instructor", "syllabus")]


def build(md: Path, out: Path = OUT, execute_cells: bool = True,
          executed_dir: Path | None = None) -> Path:
    """One deck: ``out/<chapter>.slides.html``."""
    import nbformat

    _copy_assets(out)
    executed = None
    cand = executed_dir / f"{md.stem}.ipynb" if executed_dir else None
    if cand is not None and cand.is_file() and cand.stat().st_mtime >= md.stat().st_mtime:
        executed = nbformat.read(cand, as_version=4)
    elif execute_cells:
        executed = execute(md)
    nb = slide_notebook(md, executed)
    return export(nb, out / f"{md.stem}.slides.html")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("chapters", nargs="*", type=Path, help="book/<chapter>.md (default: all)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--no-execute", action="store_true",
                    help="do not run the chapters (code cells show no outputs)")
    ap.add_argument("--executed", type=Path, default=ROOT / "_build" / "jupyter_execute" / "book",
                    help="executed notebooks of a book build, used when newer than the chapter")
    args = ap.parse_args(argv)
    for md in args.chapters or chapters():
        deck = build(md.resolve(), args.out, not args.no_execute, args.executed)
        print(deck.relative_to(ROOT) if deck.is_relative_to(ROOT) else deck)
    if FAILED:
        print("make_slides: decks written, but these chapters did not run to the end:\n  "
              + "\n  ".join(FAILED), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
