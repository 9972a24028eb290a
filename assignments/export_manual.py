#!/usr/bin/env python3
"""PDFs of the hand-graded answers of a class, made offline.

    python assignments/export_manual.py SUBMISSIONS_DIR            # -> SUBMISSIONS_DIR/manual/*.pdf
    python assignments/export_manual.py sub/ann.ipynb --out pdfs/
    make export-manual SUBMISSIONS=dir

Each assignment ends with a derivation question that the autograder does not score
(otter's ``manual: true``). ``otter export --filtering`` keeps just those questions and
the student's answers, but its PDF routes need what this machine may not have: ``-e
latex`` needs XeLaTeX, and ``-e html`` needs Playwright's own Chromium download and
loads MathJax 2, jQuery and RequireJS from cdnjs, so offline the formulas stay raw TeX.
Here the same filtered notebook (otter's ``load_notebook(filtering=True,
pagebreaks=True)``) is rendered with nbconvert's HTML exporter, every script from a CDN
is dropped, MathJax 3 is taken from the book's vendored copy (``_vendor/mathjax``,
``tools/vendor_mathjax.sh``) and the page is printed by the system's headless Chromium
with the network sealed (as in ``tools/check_offline_math.py``). The formulas are
counted in the rendered page before printing, and a request leaving the machine is an
error.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from check_offline_math import find_chromium, inspect_netlog, run_chromium  # noqa: E402

MATHJAX = ROOT / "_vendor" / "mathjax" / "tex-mml-chtml.js"
MARKER = '<script type="application/json" id="svmtext-manual">'
MATHJAX_CONFIG = """<script>
window.MathJax = {tex: {inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]],
                        displayMath: [["$$", "$$"], ["\\\\[", "\\\\]"]],
                        processEscapes: true}};
</script>
<script src="%s"></script>"""
REPORT = """<script>
window.addEventListener("load", function () {
  MathJax.startup.promise.then(function () {
    var s = document.createElement("script");
    s.type = "application/json"; s.id = "svmtext-manual";
    s.textContent = JSON.stringify({
      typeset: document.querySelectorAll("mjx-container").length,
      errors: document.querySelectorAll("mjx-merror").length});
    document.body.appendChild(s);
  });
});
</script>"""


def manual_html(notebook: Path, mathjax: Path = MATHJAX) -> str:
    """The hand-graded questions of ``notebook`` and their answers as one HTML page
    that loads nothing from the network."""
    import nbconvert
    from otter.export.exporters.via_html import PDFViaHTMLExporter

    if not mathjax.is_file():
        raise FileNotFoundError(f"{mathjax} is missing: bash tools/vendor_mathjax.sh 3.2.2 "
                                "_vendor/mathjax")
    nb = PDFViaHTMLExporter.load_notebook(str(notebook), filtering=True, pagebreaks=True)
    if not nb.cells:
        raise ValueError(f"{notebook}: no hand-graded question (otter's manual: true) found")
    body, _ = nbconvert.HTMLExporter(template_name="lab").from_notebook_node(nb)
    body = re.sub(r"<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>", "", body)
    body = re.sub(r"<script type=\"text/x-mathjax-config\">.*?</script>", "", body, flags=re.S)
    body = re.sub(r"<script type=\"module\">.*?</script>",
                  lambda m: "" if "https://" in m.group(0) else m.group(0), body, flags=re.S)
    body = body.replace("<!-- #newpage -->",
                        '<div style="break-after: page"></div>')
    head = (MATHJAX_CONFIG % mathjax.resolve().as_uri()) + REPORT
    return body.replace("</head>", head + "</head>", 1)


def export(notebook: Path, pdf: Path, budget_ms: int = 20000) -> dict:
    """Write ``pdf``; returns {"pdf", "typeset", "errors", "network"}."""
    exe = find_chromium()
    pdf.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="svmtext-manual-") as tmp:
        page = Path(tmp) / f"{notebook.stem}.html"
        page.write_text(manual_html(notebook), encoding="utf-8")
        dom = run_chromium(exe, page.as_uri(), Path(tmp) / "dom.json", ["--dump-dom"],
                           budget_ms, "1280,1600")
        run_chromium(exe, page.as_uri(), Path(tmp) / "pdf.json",
                     [f"--print-to-pdf={pdf}", "--no-pdf-header-footer"], budget_ms,
                     "1280,1600")
        net = [r["url"] for log in ("dom.json", "pdf.json")
               for r in inspect_netlog(Path(tmp) / log)["page"]]
    found = re.findall(re.escape(MARKER) + r"(.*?)</script>", dom, re.S)
    rep = json.loads(found[-1]) if found else {"typeset": 0, "errors": -1}
    if net:
        raise RuntimeError(f"{notebook.name}: the page requested {net[:3]}")
    if not pdf.is_file() or not pdf.read_bytes().startswith(b"%PDF"):
        raise RuntimeError(f"{notebook.name}: Chromium wrote no PDF")
    return {"pdf": str(pdf), "typeset": rep["typeset"], "errors": rep["errors"],
            "network": net}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("submissions", type=Path, help="a folder of .ipynb, or one notebook")
    ap.add_argument("--out", type=Path, help="default: <folder>/manual")
    args = ap.parse_args(argv)
    src = args.submissions
    notebooks = sorted(src.glob("*.ipynb")) if src.is_dir() else [src]
    out = args.out or (src if src.is_dir() else src.parent) / "manual"
    status = 0
    for nb in notebooks:
        try:
            rep = export(nb, out / f"{nb.stem}.pdf")
            print(f"{rep['pdf']}: {rep['typeset']} formulas typeset, {rep['errors']} errors")
        except (ValueError, RuntimeError) as err:
            print(f"{nb}: {err}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
