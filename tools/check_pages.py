#!/usr/bin/env python3
"""Check built book pages as a reader sees them: headless Chromium at 1280 px, offline.

    python tools/check_pages.py                          # _build/html/book/intro.html
    python tools/check_pages.py _build/html/book/smo.html
    python tools/check_pages.py /tmp/svmtext-one-smo/_build/html/book/smo.html
    python tools/check_pages.py --all                    # every page of _build/html/book + index
    python tools/check_pages.py --all --report page-report.txt
    python tools/check_pages.py --self-test              # synthetic pages: each defect is caught

For each page, a copy with a measuring script (tools/pagecheck.js) is opened in Debian's
headless Chromium with the network sealed (as in tools/check_offline_math.py); the script
waits for MathJax, measures at the window width and writes a JSON report into the DOM,
which ``--dump-dom`` returns. The page fails (exit 1) on any of

text        raw ``$``, ``\\command``, ``{eq}``/``{ref}``/``{numref}``/``{cite}`` or a Markdown table
            rule ``|---|`` in the visible text outside math and code (e.g. a line of a proof starting with
            ``+ `` or ``- `` that Markdown read as a list item)
untypeset   math nodes MathJax did not typeset
math-err    MathJax errors and undefined macros
eq-wide     display equations wider than their container (hidden behind a scroll bar)
out-wide    outputs and tables wider than the text column or scrolling sideways
code-wide   code cells with lines too long for the column (about 76 characters)
out-long    printed outputs longer than 40 lines
cell-error  a cell's error (traceback) among the outputs
stderr      stray stderr output (warnings, progress bars)
img-load    images (anywhere on the page) that did not load
fig-*       figures (images in the text and in cell outputs) with no caption (not in a
            <figure> with <figcaption>), no or file-name alt text, no label, or shown at
            less than 75 % of their natural width (matplotlib's 10-pt text then drops
            below ~10 px) unless deliberately full width (cell tag ``full-width``)
console     JavaScript errors and resources that failed to load
network     any request leaving the machine

and prints, per page, the counts and the first offending snippets (equation number and
label, TeX, text excerpt, section) so that a chapter's author can find them.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_offline_math import find_chromium, inspect_netlog, run_chromium  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
VENDOR_MATHJAX = ROOT / "_vendor" / "mathjax" / "tex-mml-chtml.js"
MEASURE_JS = Path(__file__).resolve().parent / "pagecheck.js"

CATEGORIES = ["text", "untypeset", "math-err", "eq-wide", "out-wide", "code-wide", "out-long",
              "cell-error", "stderr", "img-load", "fig-caption", "fig-alt", "fig-label", "fig-small",
              "console", "network"]

ERROR_HOOK = """<script>
window.__svmtextErrors = [];
window.addEventListener("error", function (e) {
  var t = e.target;
  if (t && t !== window && (t.src || t.href)) {
    window.__svmtextErrors.push("failed to load " + (t.src || t.href));
  } else {
    window.__svmtextErrors.push(String(e.message) +
      (e.filename ? " (" + e.filename.split("/").pop() + ":" + e.lineno + ")" : ""));
  }
}, true);
(function () {
  var ce = console.error;
  console.error = function () {
    try {
      window.__svmtextErrors.push("console.error: " +
        Array.prototype.map.call(arguments, String).join(" ").slice(0, 300));
    } catch (err) {}
    return ce.apply(console, arguments);
  };
})();
</script>"""


def _eq_tag(d: dict) -> str:
    return " ".join(x for x in (d["number"], d["label"] and f"[{d['label']}]") if x)


# (key in the measuring script's report, category, how one finding reads)
REPORT_ITEMS = [
    ("text", "text", lambda d: f"{d['kind']} {d['match']!r}: \"{d['excerpt']}\""),
    ("untypeset", "untypeset", lambda d: f"{d['tex']!r}"),
    ("math_errors", "math-err", lambda d: f"{d['kind']} {d['message']!r} in {d['tex']!r}"),
    ("wide_equations", "eq-wide", lambda d: (
        f"eq. {_eq_tag(d) or '(unnumbered)'} {d['width_px']} px in {d['avail_px']} px: "
        f"{d['tex']!r}")),
    ("wide_outputs", "out-wide", lambda d: (
        f"{d['kind']} hides/overhangs {d['hidden_px']} px (longest line {d['chars']} chars): "
        f"\"{d['excerpt']}\"")),
    ("wide_code", "code-wide", lambda d: (
        f"code line of {d['chars']} chars scrolls {d['hidden_px']} px: \"{d['excerpt']}\"")),
    ("long_outputs", "out-long", lambda d: f"{d['lines']} lines: \"{d['excerpt']}\""),
    ("cell_errors", "cell-error", lambda d: f"\"{d['excerpt']}\""),
    ("stderr", "stderr", lambda d: f"\"{d['excerpt']}\""),
    ("broken_images", "img-load", lambda d: f"{d['src']!r} (alt {d['alt']!r}) did not load"),
]

def _mathjax_src(html: str, page: Path) -> tuple[str, str]:
    """Point the copy at a MathJax that exists: the site's own, else the repository's."""
    m = re.search(r'<script[^>]*src="([^"]*tex-mml-chtml\.js)[^"]*"', html)
    if not m:
        return html, ""
    src = m.group(1)
    if "://" in src:
        return html, ""
    if (page.parent / src).resolve().is_file():
        return html, ""
    if VENDOR_MATHJAX.is_file():
        html = html.replace(f'src="{src}', f'src="{VENDOR_MATHJAX.as_uri()}', 1)
        return html, f"the site has no {src}: using {VENDOR_MATHJAX}"
    return html, (f"the site has no {src} and {VENDOR_MATHJAX} is missing "
                  "(bash tools/vendor_mathjax.sh 3.2.2 _vendor/mathjax)")


def instrument(html: str, page: Path) -> tuple[str, str]:
    html, note = _mathjax_src(html, page)
    html = re.sub(r"(<head[^>]*>)", lambda m: m.group(1) + ERROR_HOOK, html, count=1)
    script = "<script>\n" + MEASURE_JS.read_text(encoding="utf-8") + "\n</script>"
    i = html.rfind("</body>")
    html = html[:i] + script + html[i:] if i >= 0 else html + script
    return html, note


def redirect_target(html: str) -> str | None:
    m = re.search(r'http-equiv="refresh"[^>]*content="[^"]*url=([^"]+)"', html, re.I)
    return m.group(1) if m else None


def check_page(page: Path, out: Path | None = None, budget_ms: int = 20000,
               size: str = "1280,1600") -> dict:
    """Measure one page; returns {"page", "counts", "items", "notes"}.

    ``out`` keeps the net log and the dumped DOM (default: a temporary folder, removed).
    File names carry the process id, so several checks can run at once.
    """
    page = page.resolve()
    html = page.read_text(encoding="utf-8")
    res = {"page": str(page), "counts": dict.fromkeys(CATEGORIES, 0),
           "items": {c: [] for c in CATEGORIES}, "notes": []}
    target = redirect_target(html)
    if target and "bd-article" not in html:
        ok = (page.parent / target.split("#")[0]).is_file()
        res["notes"].append(f"redirect to {target}" + ("" if ok else " (MISSING)"))
        if not ok:
            res["counts"]["console"] += 1
            res["items"]["console"].append(f"redirect target {target} does not exist")
        return res

    exe = find_chromium()
    keep = out is not None
    out = Path(out) if keep else Path(tempfile.mkdtemp(prefix="svmtext-page-check-"))
    out.mkdir(parents=True, exist_ok=True)
    tag = f"{page.stem}-{os.getpid()}"
    copy_html, note = instrument(html, page)
    if note:
        res["notes"].append(note)
    copy = page.parent / f".pagecheck-{tag}.html"
    netlog = out / f"{tag}.netlog.json"
    marker = '<script type="application/json" id="svmtext-pagecheck">'
    try:
        copy.write_text(copy_html, encoding="utf-8")
        for attempt in range(3):   # a busy machine can starve the page of time: retry longer
            dom = run_chromium(exe, copy.as_uri(), netlog, ["--dump-dom"],
                               budget_ms * (attempt + 1), size)
            if marker in dom:
                break
            res["notes"].append(f"no report within {budget_ms * (attempt + 1)} ms: retried")
    finally:
        copy.unlink(missing_ok=True)
    net = inspect_netlog(netlog)
    if keep:
        (out / f"{tag}.dom.html").write_text(dom, encoding="utf-8")
    else:
        shutil.rmtree(out, ignore_errors=True)
    for r in net["page"]:
        res["items"]["network"].append(f"page requested {r['url'][:120]}")
    for h in net["remote_connects"]:
        res["items"]["network"].append(f"connection to {h}")

    found = re.findall(re.escape(marker) + r"(.*?)</script>", dom, re.S)
    if not found:
        res["items"]["console"].append("the measuring script did not report (JavaScript "
                                       "error, or the time budget is too short: --budget)")
        rep = {}
    else:
        rep = json.loads(found[-1])
    if "fatal" in rep:
        res["items"]["console"].append("measuring script failed: " + rep["fatal"][:300])
    res["measure"] = {k: rep.get(k) for k in ("column_px", "window_px", "mathjax", "n_math",
                                              "n_display", "n_images")}
    if rep.get("n_math") and not rep.get("mathjax"):
        res["items"]["untypeset"].append("MathJax did not start")

    def loc(d):
        return f"  ({d['where']})" if d.get("where") else ""

    for key, cat, fmt in REPORT_ITEMS:
        res["items"][cat].extend(fmt(d) + loc(d) for d in rep.get(key, []))
    for d in rep.get("figures", []):
        name = d["label"] or d["src"]
        for p in d["problems"]:
            cat = ("fig-caption" if p == "no caption" else "fig-label" if p == "no label"
                   else "fig-small" if p.startswith("shrunk")
                   else "fig-alt")
            res["items"][cat].append(f"{name}: {p}{loc(d)}")
    res["items"]["console"].extend(rep.get("console", []))
    res["counts"] = {c: len(res["items"][c]) for c in CATEGORIES}
    return res


def _page_name(page: str, root: Path | None, bare: bool) -> str:
    """The page relative to ``root``; else its file name (``bare``) or full path."""
    page = Path(page)
    try:
        if root:
            return str(page.relative_to(root))
    except ValueError:
        pass
    return page.name if bare else str(page)


def format_result(res: dict, max_items: int = 5, root: Path | None = None) -> str:
    name = _page_name(res["page"], root, bare=False)
    bad = {c: n for c, n in res["counts"].items() if n}
    head = f"== {name}: " + ("OK" if not bad else "FAIL " + ", ".join(
        f"{c} {n}" for c, n in bad.items()))
    lines = [head]
    meas = res.get("measure")
    if meas:
        lines.append(f"   column {meas['column_px']} px in a {meas['window_px']} px window; "
                     f"{meas['n_math']} math nodes ({meas['n_display']} display), "
                     f"{meas['n_images']} images")
    for n in res["notes"]:
        lines.append(f"   note: {n}")
    for c in CATEGORIES:
        items = res["items"][c]
        if not items:
            continue
        lines.append(f"   {c} ({len(items)}):")
        for it in items[:max_items]:
            lines.append(f"     - {it}")
        if len(items) > max_items:
            lines.append(f"     ... and {len(items) - max_items} more")
    return "\n".join(lines)


def summary_table(results: list[dict], root: Path | None = None) -> str:
    short = {c: c.replace("fig-", "f-").replace("cell-error", "cell-err").replace("code-wide", "code-w")
             for c in CATEGORIES}
    names = [_page_name(r["page"], root, bare=True) for r in results]
    w = max([len(n) for n in names] + [4])
    lines = ["page".ljust(w) + " " + " ".join(f"{short[c]:>9}" for c in CATEGORIES) + "  total"]
    for n, r in zip(names, results):
        lines.append(n.ljust(w) + " " + " ".join(f"{r['counts'][c]:>9}" for c in CATEGORIES)
                     + f"  {sum(r['counts'].values()):>5}")
    return "\n".join(lines)


def all_pages(html_root: Path) -> list[Path]:
    pages = sorted(p for p in (html_root / "book").glob("*.html")
                   if not p.name.startswith("."))
    index = html_root / "index.html"
    return ([index] if index.is_file() else []) + pages


# ---------------------------------------------------------------- self-test

_SELFTEST_HEAD = """<!DOCTYPE html><html><head><meta charset="utf-8">
<style>body {{ margin: 0; }} article.bd-article {{ width: 700px; margin: 0 auto; }}
img {{ max-width: 100%; }} pre {{ overflow: auto; }} div.math {{ overflow-x: auto; }}
.tbl {{ overflow-x: auto; }}</style>
{network}
<script>window.MathJax = {{"tex": {{"macros": {{"R": "\\\\mathbb{{R}}"}}}},
 "options": {{"processHtmlClass": "tex2jax_process|mathjax_process|math|output_area",
              "ignoreHtmlClass": "tex2jax_ignore|mathjax_ignore|document"}}}}</script>
{mathjax}
</head><body><article class="bd-article"><section id="sec-test"><h1>Test page</h1>
"""

_DEFECTS = r"""
<div class="proof"><p class="admonition-title">Proof of the theorem</p>
<ul><li><p>$\dot W = \sum_i \dot\alpha_i (1 - y_i f(x_i))$ and (eq\eq-eco-kkt)</p></li></ul>
<p>see {{numref}}`fig-x`</p></div>
<div class="cell_output"><div class="output text_markdown"><p>| a | b | |---|---| | 1 | 2 |</p></div></div>
<div class="cell_output"><div class="output"><pre>{wide_line}</pre></div></div>
<div class="cell_output"><div class="output"><pre>{long_lines}</pre></div></div>
<div class="tbl"><table><tr>{cells}</tr></table></div>
<div class="cell_input"><div class="highlight"><pre>{wide_code}</pre></div></div>
<div class="cell_output"><img alt="../_images/0123456789abcdef0123.png" src="{wide_png}"></div>
<figure id="fig-missing"><img alt="A figure whose file is missing" src="missing.png">
<figcaption><p>Figure 2: never drawn.</p></figcaption></figure>
<div class="cell_output"><div class="output traceback highlight-ipythontb"><pre>Traceback
NameError: name 'toys' is not defined</pre></div></div>
<div class="cell_output"><div class="output stderr highlight-myst-ansi"><pre>UserWarning: x</pre></div></div>
<script>const DUPLICATE = 1;</script><script>const DUPLICATE = 2;</script>
"""

_DEFECT_MATH = r"""
<div class="math notranslate nohighlight" id="equation-eq-wide"><span class="eqno">(1)</span>
\[ {long_sum} \]</div>
<p>An undefined macro <span class="math notranslate nohighlight">\(\undefinedmacro x\)</span>
and a TeX error <span class="math notranslate nohighlight">\(\frac{{1}}{{2}}}}\)</span>.</p>
"""

_CLEAN = r"""
<p>Plain text with <code>$HOME</code> and <code>\alpha</code> in code is fine.</p>
<div class="cell_output"><div class="output"><pre>short output</pre></div></div>
<div class="cell_input"><div class="highlight"><pre>x = 1  # a short line of code</pre></div></div>
<figure id="fig-test-ok"><img alt="Two clouds of points separated by a line" src="{small_png}">
<figcaption><p>Figure 1: what to see.</p></figcaption></figure>
"""

_CLEAN_MATH = r"""
<p>Inline <span class="math notranslate nohighlight">\(\alpha_i \in \R\)</span>.</p>
<div class="math notranslate nohighlight" id="equation-eq-ok"><span class="eqno">(2)</span>
\[ 0 \le \alpha_i \le C \]</div>
"""


def _png(path: Path, width: int, height: int) -> str:
    """A plain PNG of the given size (no third-party package needed)."""
    import struct
    import zlib

    raw = b"".join(b"\x00" + b"\xff\xff\xff" * width for _ in range(height))

    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    return path.name


def write_selftest_pages(folder: Path, with_math: bool) -> tuple[Path, Path]:
    """A page with one of each defect, and a clean page; math only with MathJax vendored."""
    wide_png = _png(folder / "wide.png", 1400, 300)
    small_png = _png(folder / "small.png", 600, 300)
    mathjax = (f'<script defer src="{VENDOR_MATHJAX.as_uri()}"></script>' if with_math else "")
    bad = _SELFTEST_HEAD.format(
        network='<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/x@1/x.css">',
        mathjax=mathjax)
    bad += _DEFECTS.format(wide_line="w" * 400, wide_code="x = 1  # " + "c" * 120,
                           long_lines="\n".join(f"row {i}" for i in range(60)),
                           cells="".join(f"<td>column_{i}</td>" for i in range(40)),
                           wide_png=wide_png)
    if with_math:
        bad += _DEFECT_MATH.format(long_sum=" + ".join(f"\\alpha_{{{i}}} y_{{{i}}}"
                                                         for i in range(60)))
    bad += "</section></article></body></html>"
    good = _SELFTEST_HEAD.format(network="", mathjax=mathjax) + _CLEAN.format(
        small_png=small_png)
    if with_math:
        good += _CLEAN_MATH
    good += "</section></article></body></html>"
    (folder / "defects.html").write_text(bad, encoding="utf-8")
    (folder / "clean.html").write_text(good, encoding="utf-8")
    return folder / "defects.html", folder / "clean.html"


def expected_defects(with_math: bool) -> list[str]:
    cats = ["text", "out-wide", "code-wide", "out-long", "cell-error", "stderr", "img-load",
            "fig-caption", "fig-alt",
            "fig-label", "fig-small", "console", "network"]
    return cats + (["math-err", "eq-wide"] if with_math else [])


def self_test(out: Path | None = None, budget_ms: int = 20000, size: str = "1280,1600",
              verbose: bool = True) -> bool:
    with_math = VENDOR_MATHJAX.is_file()
    with tempfile.TemporaryDirectory(prefix="svmtext-pagecheck-") as tmp:
        bad, good = write_selftest_pages(Path(tmp), with_math)
        rb = check_page(bad, out, budget_ms, size)
        rg = check_page(good, out, budget_ms, size)
    if verbose:
        print(format_result(rb, max_items=3))
        print(format_result(rg, max_items=3))
    missed = [c for c in expected_defects(with_math) if not rb["counts"][c]]
    false = {c: n for c, n in rg["counts"].items() if n}
    ok = not missed and not false
    print("self-test  " + ("ok: every defect caught, the clean page passes"
                           if ok else f"FAIL: missed {missed}, false alarms {false}")
          + ("" if with_math else " (no _vendor/mathjax: math defects not tested)"))
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="*", type=Path)
    ap.add_argument("--all", action="store_true",
                    help="every page under HTML/book and HTML/index.html")
    ap.add_argument("--html", type=Path, default=HTML, help="built site (default _build/html)")
    ap.add_argument("--report", type=Path, help="also write the report to this file")
    ap.add_argument("--max", type=int, default=8, help="offending snippets shown per kind")
    ap.add_argument("--out", type=Path, help="keep the net logs and dumped DOMs here")
    ap.add_argument("--budget", type=int, default=20000, help="virtual time budget in ms")
    ap.add_argument("--window-size", default="1280,1600")
    ap.add_argument("--self-test", action="store_true",
                    help="check that synthetic pages with each defect fail")
    args = ap.parse_args(argv)
    os.environ.setdefault("DBUS_SESSION_BUS_ADDRESS", "disabled:")

    ok = True
    if args.self_test:
        ok = self_test(args.out, args.budget, args.window_size)
        if not args.pages and not args.all:
            return 0 if ok else 1
    pages = list(args.pages)
    if args.all:
        pages += all_pages(args.html)
    if not pages:
        pages = [args.html / "book" / "intro.html"]
    missing = [p for p in pages if not p.is_file()]
    if missing:
        print(f"not found: {', '.join(map(str, missing))} (build the book first)",
              file=sys.stderr)
        return 2
    results, text = [], []
    for p in pages:
        r = check_page(p, args.out, args.budget, args.window_size)
        results.append(r)
        block = format_result(r, args.max, args.html.resolve())
        print(block, flush=True)
        text.append(block)
    table = summary_table(results, args.html.resolve())
    n_bad = sum(1 for r in results if any(r["counts"].values()))
    verdict = (f"{len(results) - n_bad} of {len(results)} pages OK, {n_bad} with defects")
    print("\n" + table + "\n" + verdict)
    if args.report:
        args.report.write_text("\n".join(text) + "\n\n" + table + "\n" + verdict + "\n",
                               encoding="utf-8")
    return 0 if ok and n_bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
