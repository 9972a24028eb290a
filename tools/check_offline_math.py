#!/usr/bin/env python3
"""Check that a built page typesets its math with no request leaving the machine.

The full reader's check of every page (raw TeX in the text, wide equations and outputs,
figures, console errors) is tools/check_pages.py, which uses this module's Chromium
and net-log helpers; this script stays as the math-only check with a screenshot.

    python tools/check_offline_math.py                       # _build/html/book/intro.html
    python tools/check_offline_math.py --window-size 1280,7000 --crop 2400,4200
    python tools/check_offline_math.py --self-test           # the check catches a CDN page

Runs Debian's headless Chromium (``apt-get install chromium``) on the page twice, once
dumping the DOM after scripts ran and once taking a screenshot, and fails (exit 1)
unless

* the network was sealed and unused: every host name resolves to nothing
  (``--host-resolver-rules``), every HTTP(S) request goes to a closed local proxy
  port, and Chromium's own net log (``--log-net-log``) shows no connection to any
  non-loopback address and no request *from the page* to a non-local URL (Chromium's
  own background requests, e.g. update checks, are listed but cannot get out either);
* MathJax typeset the page: there are at least as many ``mjx-container`` elements as
  math nodes in the HTML, no MathJax error, no undefined macro, and no raw TeX
  delimiter (``\\[``, ``\\(``, ``$$``, ``\\begin{``) left in the visible text.

The screenshot is written next to the net logs (``--out``, default
``_build/offline-math``); look at it. ``--crop TOP,BOTTOM`` also saves that band of a
tall screenshot (``--window-size 1280,7000``) as ``<page>-crop.png``.
"""
from __future__ import annotations

import argparse
import ipaddress
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PAGE = ROOT / "_build" / "html" / "book" / "intro.html"
DEFAULT_OUT = ROOT / "_build" / "offline-math"

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
    "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-default-apps", "--disable-domain-reliability",
    "--disable-client-side-phishing-detection", "--no-pings", "--no-first-run",
    "--disable-features=OptimizationHints,MediaRouter,Translate,AutofillServerCommunication",
    # Seal the network: no name resolves, and every proxied request hits a closed port.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost",
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
]
RAW_TEX = [r"\[", r"\(", "$$", r"\begin{"]


def find_chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("chromium not found: apt-get update && apt-get install -y chromium")


def run_chromium(exe, url, netlog, extra, budget_ms, size):
    with tempfile.TemporaryDirectory(prefix="svmtext-chromium-") as profile:
        cmd = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
               f"--virtual-time-budget={budget_ms}", f"--window-size={size}",
               f"--log-net-log={netlog}", "--net-log-capture-mode=Default",
               *extra, url]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if res.returncode != 0:
        sys.stderr.write(res.stderr[-3000:])
        raise RuntimeError(f"chromium exited with {res.returncode}")
    return res.stdout


def is_local_host(host: str | None) -> bool:
    if not host:
        return True
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def inspect_netlog(path: Path) -> dict:
    """Requests and connections recorded in a Chromium net log (JSON)."""
    text = path.read_text(encoding="utf-8", errors="replace").rstrip()
    if not text.endswith("}"):  # a log cut short still has every event line
        text = text.rstrip(",") + "]}"
    log = json.loads(text)
    const = log["constants"]
    names = {v: k for k, v in const["logEventTypes"].items()}
    requests = {}   # source id -> {"url", "initiator"}
    connects = set()
    for ev in log.get("events", []):
        p = ev.get("params") or {}
        kind = names.get(ev["type"], "")
        sid = ev["source"]["id"]
        if kind == "URL_REQUEST_START_JOB" and "url" in p:
            requests[sid] = {"url": p["url"], "initiator": p.get("initiator", "")}
        if kind in ("TCP_CONNECT", "TCP_CONNECT_ATTEMPT") and p.get("address"):
            host = p["address"].rsplit(":", 1)[0]
            connects.add(host)
    outside = [r for r in requests.values()
               if urlsplit(r["url"]).scheme not in ("file", "data", "blob", "about")
               and not is_local_host(urlsplit(r["url"]).hostname)]
    page = [r for r in outside if r["initiator"] != "not an origin"]
    browser = [r for r in outside if r["initiator"] == "not an origin"]
    remote = sorted(h for h in connects if not is_local_host(h))
    return {"page": page, "browser": browser, "remote_connects": remote,
            "n_requests": len(requests)}


class _Text(HTMLParser):
    """Visible text outside math containers, code and scripts; MathJax's own output."""

    SKIP = {"script", "style", "pre", "code", "textarea", "mjx-container",
            "mjx-assistive-mml", "math", "noscript", "template"}
    VOID = {"br", "img", "hr", "meta", "link", "input", "source", "wbr", "col", "area"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.text: list[str] = []
        self.math_text: list[str] = []
        self.containers = 0
        self.errors = 0

    def handle_starttag(self, tag, attrs):
        if tag == "mjx-container":
            self.containers += 1
        if tag == "mjx-merror" or any(k == "data-mjx-error" for k, _ in attrs):
            self.errors += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if "mjx-container" in self.stack and "mjx-assistive-mml" not in self.stack:
            self.math_text.append(data)
        elif not self.SKIP.intersection(self.stack):
            self.text.append(data)


def count_math_nodes(html: str) -> int:
    """Math nodes Sphinx wrote into the page (inline and display)."""
    return len(re.findall(r'class="math[ "]', html))


def check_page(page: Path, out: Path, budget_ms: int, size: str,
               screenshot_name: str | None = None, crop=None) -> bool:
    exe = find_chromium()
    out.mkdir(parents=True, exist_ok=True)
    url = page.resolve().as_uri()
    stem = screenshot_name or page.stem
    shot = out / f"{stem}.png"
    ok = True

    dom = run_chromium(exe, url, out / f"{stem}-dom.netlog.json", ["--dump-dom"],
                       budget_ms, size)
    (out / f"{stem}.dom.html").write_text(dom, encoding="utf-8")
    if shot.exists():
        shot.unlink()
    run_chromium(exe, url, out / f"{stem}-shot.netlog.json", [f"--screenshot={shot}"],
                 budget_ms, size)

    print(f"page       {url}")
    for log in ("dom", "shot"):
        net = inspect_netlog(out / f"{stem}-{log}.netlog.json")
        print(f"net log    ({log} run) {net['n_requests']} network requests recorded; "
              f"remote connections: {net['remote_connects'] or 'none'}")
        for r in net["browser"]:
            print(f"  blocked browser-internal request: {r['url'][:90]}")
        for r in net["page"]:
            print(f"  FAIL page requested {r['url']}")
        if net["page"] or net["remote_connects"]:
            ok = False

    parser = _Text()
    parser.feed(dom)
    expected = count_math_nodes(page.read_text(encoding="utf-8"))
    visible = "".join(parser.text)
    raw = [d for d in RAW_TEX if d in visible]
    undefined = sorted(set(re.findall(r"\\[A-Za-z]+", "".join(parser.math_text))))
    print(f"math       {expected} math nodes in the HTML, "
          f"{parser.containers} typeset (mjx-container)")
    if expected == 0:
        print("  (this page has no math to typeset)")
    elif parser.containers < expected:
        print("  FAIL not all math was typeset")
        ok = False
    if parser.errors:
        print(f"  FAIL {parser.errors} MathJax error(s) in the page")
        ok = False
    if undefined:
        print(f"  FAIL undefined macros shown as text: {undefined}")
        ok = False
    if raw:
        for d in raw:
            i = visible.index(d)
            print(f"  FAIL raw TeX {d!r} left in the text: ...{visible[i-40:i+40]!r}...")
        ok = False
    if not shot.is_file() or shot.stat().st_size == 0:
        print("  FAIL no screenshot written")
        ok = False
    print(f"screenshot {shot}")
    if crop and shot.is_file():
        from PIL import Image

        with Image.open(shot) as im:
            top, bottom = crop
            band = out / f"{stem}-crop.png"
            im.crop((0, top, im.width, min(bottom, im.height))).save(band)
        print(f"crop       {band}")
    return ok


def self_test(out: Path, budget_ms: int, size: str) -> bool:
    """A page that loads MathJax from a CDN must fail the check."""
    with tempfile.TemporaryDirectory(prefix="svmtext-selftest-") as tmp:
        page = Path(tmp) / "cdn.html"
        page.write_text(
            '<!DOCTYPE html><html><head><script defer '
            'src="https://cdn.jsdelivr.net/npm/mathjax@3.2.2/es5/tex-mml-chtml.js">'
            '</script></head><body><div class="math notranslate nohighlight">'
            r'\[ W(\alpha) = \sum_i \alpha_i \]</div></body></html>',
            encoding="utf-8")
        caught = not check_page(page, out, budget_ms, size, "selftest-cdn")
    print("self-test  " + ("ok: the CDN page failed the check" if caught
                           else "FAIL: the CDN page passed the check"))
    return caught


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("page", nargs="?", type=Path, default=DEFAULT_PAGE)
    ap.add_argument("--crop", type=lambda s: tuple(int(v) for v in s.split(",")),
                    help="TOP,BOTTOM: also save this band of the screenshot")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--budget", type=int, default=15000,
                    help="virtual time budget in ms (lets MathJax typeset)")
    ap.add_argument("--window-size", default="1280,1600")
    ap.add_argument("--self-test", action="store_true",
                    help="also check that a page loading MathJax from a CDN fails")
    args = ap.parse_args(argv)
    if not args.page.is_file():
        print(f"{args.page} not found: run `make book` first", file=sys.stderr)
        return 2
    os.environ.setdefault("DBUS_SESSION_BUS_ADDRESS", "disabled:")
    ok = check_page(args.page, args.out, args.budget, args.window_size,
                    crop=args.crop)
    if args.self_test:
        ok = self_test(args.out, args.budget, args.window_size) and ok
    print("OK: math typeset offline" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
