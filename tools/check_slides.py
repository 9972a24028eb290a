#!/usr/bin/env python3
"""Check slide decks (tools/make_slides.py) as an audience sees them: headless Chromium, offline.

    python tools/check_slides.py                         # every _build/slides/*.slides.html
    python tools/check_slides.py _build/slides/margin.slides.html
    python tools/check_slides.py --shots DIR ...         # also a screenshot of every slide

Each deck is opened (a copy with tools/slidecheck.js) in headless Chromium with the network
sealed as in tools/check_offline_math.py, and fails unless: reveal.js starts and shows the
slides the deck was built with; MathJax typesets every formula (no raw ``$``, ``\\command``,
MyST role or label left in the text, no MathJax error); no slide is taller or wider than the
deck (1024 x 768 px before reveal.js scales it) and no code line, output, equation, image or
table overhangs or scrolls sideways; every image loads; no JavaScript error; no request
leaves the machine.
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
from check_pages import ERROR_HOOK  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SLIDES = ROOT / "_build" / "slides"
MEASURE_JS = Path(__file__).resolve().parent / "slidecheck.js"
CATEGORIES = ["reveal", "count", "untypeset", "math-err", "text", "overflow", "wide",
              "img-load", "console", "network"]
MARKER = '<script type="application/json" id="svmtext-slidecheck">'


def expected_slides(html: str) -> int:
    """Slides the deck was built with: the innermost <section> elements."""
    return len(re.findall(r"<section(?:\s[^>]*)?>\s*(?!\s*<section)", html))


def check_deck(deck: Path, budget_ms: int = 30000, size: str = "1280,960",
               shots: Path | None = None) -> dict:
    """Open one deck; returns {"deck", "counts", "items", "measure"}."""
    deck = deck.resolve()
    html = deck.read_text(encoding="utf-8")
    res = {"deck": str(deck), "items": {c: [] for c in CATEGORIES}, "notes": []}
    copy = deck.parent / f".slidecheck-{deck.stem}-{os.getpid()}.html"
    body = html.replace("<head>", "<head>" + ERROR_HOOK, 1)
    i = body.rfind("</body>")
    script = "<script>\n" + MEASURE_JS.read_text(encoding="utf-8") + "\n</script>"
    body = body[:i] + script + body[i:]
    exe = find_chromium()
    tmp = Path(tempfile.mkdtemp(prefix="svmtext-slide-check-"))
    netlog = tmp / "net.json"
    try:
        copy.write_text(body, encoding="utf-8")
        for attempt in range(3):
            dom = run_chromium(exe, copy.as_uri(), netlog, ["--dump-dom"],
                               budget_ms * (attempt + 1), size)
            if MARKER in dom:
                break
            res["notes"].append(f"no report within {budget_ms * (attempt + 1)} ms: retried")
        net = inspect_netlog(netlog)
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)
    finally:
        copy.unlink(missing_ok=True)
    found = re.findall(re.escape(MARKER) + r"(.*?)</script>", dom, re.S)
    rep = json.loads(found[-1]) if found else {"fatal": "the measuring script did not report"}
    items = res["items"]
    for r in net["page"]:
        items["network"].append(f"page requested {r['url'][:120]}")
    for h in net["remote_connects"]:
        items["network"].append(f"connection to {h}")
    if "fatal" in rep:
        items["reveal"].append(rep["fatal"][:300])
    want = expected_slides(html)
    got = rep.get("n_slides", 0)
    if "fatal" not in rep and got != want:
        items["count"].append(f"reveal.js shows {got} slides, the deck has {want} sections")
    if rep.get("n_typeset", 0) and not rep.get("mathjax"):
        items["untypeset"].append("MathJax did not start")
    if "$" in html and not rep.get("n_typeset"):
        items["untypeset"].append("no formula typeset")
    items["math-err"].extend(rep.get("math_errors", []))
    items["text"].extend(f"slide {d['slide']}: {d['kind']} {d['match']!r}: \"{d['excerpt']}\""
                         for d in rep.get("text", []))
    items["overflow"].extend(f"slide {d['slide']}: {d['height_px']} px tall in {d['avail_px']} px"
                             for d in rep.get("overflow", []))
    items["wide"].extend(f"slide {d['slide']}: {d['kind']} overhangs {d['overhang_px']} px: "
                         f"\"{d['excerpt']}\"" for d in rep.get("wide", []))
    items["img-load"].extend(rep.get("broken_images", []))
    items["console"].extend(rep.get("console", []))
    res["counts"] = {c: len(items[c]) for c in CATEGORIES}
    res["measure"] = {"slides": got, "expected": want, "n_typeset": rep.get("n_typeset", 0),
                      "n_images": rep.get("n_images", 0),
                      "heights": [s["height"] for s in rep.get("slides", [])],
                      "names": [s["name"] for s in rep.get("slides", [])]}
    if shots is not None and got:
        for k in range(got):
            shot = shots / f"{deck.name.split('.')[0]}-{k + 1:02d}.png"
            shot.unlink(missing_ok=True)
            run_chromium(exe, f"{deck.as_uri()}#/{_hash_of(rep, k)}", tmp / f"s{k}.json",
                         [f"--screenshot={shot}"], budget_ms, "1024,768")
    shutil.rmtree(tmp, ignore_errors=True)
    return res


def _hash_of(rep: dict, k: int) -> str:
    """reveal.js's URL hash of the k-th slide (h/v indices)."""
    return rep["slides"][k].get("hash", str(k))


def format_result(res: dict, max_items: int = 6) -> str:
    bad = {c: n for c, n in res["counts"].items() if n}
    m = res["measure"]
    head = (f"== {Path(res['deck']).name}: {m['slides']} slides (built {m['expected']}), "
            f"{m['n_typeset']} formulas typeset, {m['n_images']} images, tallest "
            f"{max(m['heights'] or [0])} px: " + ("OK" if not bad else "FAIL " + ", ".join(
                f"{c} {n}" for c, n in bad.items())))
    lines = [head] + [f"   note: {n}" for n in res["notes"]]
    for c in CATEGORIES:
        for it in res["items"][c][:max_items]:
            lines.append(f"   {c}: {it}")
        if len(res["items"][c]) > max_items:
            lines.append(f"   {c}: ... and {len(res['items'][c]) - max_items} more")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("decks", nargs="*", type=Path)
    ap.add_argument("--shots", type=Path, help="a screenshot of every slide into this folder")
    ap.add_argument("--budget", type=int, default=30000, help="virtual time budget (ms)")
    args = ap.parse_args(argv)
    decks = args.decks or sorted(SLIDES.glob("*.slides.html"))
    if not decks:
        print(f"no decks in {SLIDES} (make slides)")
        return 1
    ok = True
    for d in decks:
        res = check_deck(d, args.budget, shots=args.shots)
        print(format_result(res))
        ok &= not any(res["counts"].values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
