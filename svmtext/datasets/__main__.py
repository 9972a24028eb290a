"""Command line: list the data sets, or fetch them into the data home ahead of time.

    python -m svmtext.datasets list
    python -m svmtext.datasets fetch --all
    python -m svmtext.datasets fetch mnist raetsch/banana

``fetch --all`` downloads (and assembles) every file the loaders read, so the book
then runs without a network: for an offline classroom, run it once while online (set
``SVMTEXT_DATA`` first to fill a shared folder instead of the per-user cache).
"""
from __future__ import annotations

import argparse
import sys

from ._fetch import ChecksumError, DataNotFoundError, data_home, fetch
from ._registry import DATASETS


def _size(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def _list() -> int:
    home = data_home()
    print(f"data home: {home}")
    for name, files in DATASETS.items():
        present = [home / f for f in files if (home / f).is_file()]
        size = sum(p.stat().st_size for p in present)
        state = "present" if len(present) == len(files) else "missing"
        if 0 < len(present) < len(files):
            state = f"{len(present)} of {len(files)} files"
        print(f"  {name:24s} {state:14s} {_size(size) if present else '':>9s}")
    return 0


def _fetch(names: list[str]) -> int:
    from tqdm import tqdm

    files = [f for name in names for f in DATASETS[name]]
    home = data_home()
    before = {f for f in files if (home / f).is_file()}
    failed = []
    with tqdm(files, unit="file", desc="fetching", file=sys.stderr) as bar:
        for f in bar:
            bar.set_postfix_str(f)
            try:
                fetch(f)
            except (DataNotFoundError, ChecksumError) as exc:
                failed.append((f, exc))
    fetched = [f for f in files if f not in before and (home / f).is_file()]
    size = sum((home / f).stat().st_size for f in files if (home / f).is_file())
    print(f"{len(fetched)} fetched, {len(before)} already present, {len(failed)} failed; "
          f"{_size(size)} in {home}")
    for f, exc in failed:
        print(f"FAILED {f}: {exc}", file=sys.stderr)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m svmtext.datasets", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="each data set, its files and whether they are in the data home")
    p = sub.add_parser("fetch", help="download (and assemble) data sets into the data home")
    p.add_argument("names", nargs="*", metavar="NAME", help=f"data sets: {', '.join(DATASETS)}")
    p.add_argument("--all", action="store_true", help="every data set")
    args = parser.parse_args(argv)
    if args.command == "list":
        return _list()
    unknown = [n for n in args.names if n not in DATASETS]
    if unknown or not (args.names or args.all):
        parser.error(f"unknown data set(s) {', '.join(unknown)}" if unknown else
                     "name data sets or use --all")
    return _fetch(list(DATASETS) if args.all else args.names)


if __name__ == "__main__":
    sys.exit(main())
