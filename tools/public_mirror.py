#!/usr/bin/env python3
"""Build (and serve) a local copy of the public data sources, in their public layout.

Every source URL ``https://<host>/<path>`` of ``svmtext.datasets`` gets a file
``<out>/<host>/<path>``, made from a copy of the book's data folder:

- registered files are copied (with the header line the public copy carries put back,
  where the registry drops one);
- the Rätsch/IDA ``.asc`` split files of realisations 1-10 are written from the
  ``.npz`` files in the IDA text format (``%16.7e``), which parses back to the same
  float64 values (and reproduces the public files byte for byte).

With ``SVMTEXT_DOWNLOAD_MIRROR=http://127.0.0.1:<port>`` every download of
``svmtext.datasets`` is then served from this folder:

    python tools/public_mirror.py build ../shared/data /tmp/mirror
    python tools/public_mirror.py serve /tmp/mirror --port 8765
    python tools/public_mirror.py build-and-serve ../shared/data /tmp/mirror --port 0
"""
from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import sys
import threading
from pathlib import Path

import numpy as np

from svmtext.datasets import _ida
from svmtext.datasets._fetch import mirror_path
from svmtext.datasets._registry import ASSEMBLED, REGISTRY

#: Leading lines of public copies that the registry drops (``Entry.skip_lines``).
HEADERS = {
    "segment/segment.dat": (
        b"regionCentroidCol regionCentroidRow regionPixelCount shortLineDensity5 "
        b"shortLineDensity2 vedgeMean vedgeSd hedgeMean hedgeSd intensityMean rawRedMean "
        b"rawBlueMean rawGreenMean exRedMean exBlueMean exGreenMean valueMean saturationMean "
        b"hueMean class\n"),
}


def _local(out: Path, url: str) -> Path:
    return out / mirror_path(url)


def build(shared: Path, out: Path) -> dict[str, int]:
    """Write the public layout of every source into ``out``; returns file and byte counts."""
    shared, out = Path(shared), Path(out)
    files = nbytes = 0
    for relpath, entry in REGISTRY.items():
        src = shared / relpath
        if not src.is_file():
            raise FileNotFoundError(f"{src} is missing: the data folder has no copy of {relpath}")
        dst = _local(out, entry.url)
        dst.parent.mkdir(parents=True, exist_ok=True)
        header = HEADERS.get(relpath, b"")
        n_header = header.count(b"\n")
        if n_header != entry.skip_lines:
            raise ValueError(f"{relpath}: the registry drops {entry.skip_lines} line(s), "
                             f"the mirror's header has {n_header}")
        with open(dst, "wb") as fh:
            fh.write(header)
            with open(src, "rb") as fin:
                shutil.copyfileobj(fin, fh)
        files += 1
        nbytes += dst.stat().st_size
    for relpath, entry in ASSEMBLED.items():
        urls = _ida.split_urls(entry)
        if not urls:
            continue
        with np.load(shared / relpath) as d:
            X, y = d["X"], d["y"]
            for (part, kind, r), url in urls.items():
                rows = d[f"{part}_idx"][r - 1]
                dst = _local(out, url)
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(_ida.asc_bytes(X[rows] if kind == "data" else y[rows]))
                files += 1
                nbytes += dst.stat().st_size
    return {"files": files, "bytes": nbytes}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def start_server(folder: Path, port: int = 0) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``folder`` on 127.0.0.1 in a daemon thread; returns (server, base URL)."""
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def _serve(folder: Path, port: int) -> None:
    httpd, base = start_server(folder, port)
    print(f"serving {folder} at {base}", flush=True)
    print(f"export SVMTEXT_DOWNLOAD_MIRROR={base}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        httpd.shutdown()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("build", "build-and-serve"):
        s = sub.add_parser(name)
        s.add_argument("shared", type=Path, help="the book's data folder (e.g. ../shared/data)")
        s.add_argument("out", type=Path, help="folder to write the public layout into")
        if name == "build-and-serve":
            s.add_argument("--port", type=int, default=0, help="0: any free port")
    s = sub.add_parser("serve")
    s.add_argument("out", type=Path)
    s.add_argument("--port", type=int, default=0, help="0: any free port")
    args = p.parse_args(argv)
    if args.command in ("build", "build-and-serve"):
        counts = build(args.shared, args.out)
        print(f"built {args.out}: {counts['files']} files, {counts['bytes']} bytes", flush=True)
    if args.command in ("serve", "build-and-serve"):
        _serve(args.out, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
