"""A chapter in JupyterLab, as a reader opens it (``make test-lab``).

Starts JupyterLab (requirements-lab.txt) on a free local port, in a copy of ``book/``
under git in a temporary folder, and drives headless Chromium (Playwright): a double
click on the chapter in the file browser must open it as a notebook (jupytext's
viewer, not the text editor), every cell runs (Run -> Run All Cells), the formulas are
typeset and no cell raises; then the notebook is saved (Ctrl+S) and ``git diff`` in
the copy must be empty: opening and saving a chapter changes nothing (jupytext.toml).

Needs ``make lab``'s packages, Chromium and Playwright; skipped otherwise, and unless
``SVMTEXT_LAB=1`` (it takes a minute or two).

    SVMTEXT_LAB=1 .venv/bin/python -m pytest -n 0 -q tests/test_lab_browser.py
    .venv/bin/python tests/test_lab_browser.py [chapter]     # prints the counts
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = os.environ.get("SVMTEXT_LAB_CHAPTER", "margin")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
JUPYTER = Path(sys.executable).parent / "jupyter"


def _have(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout


def _workdir() -> Path:
    """A copy of book/ and jupytext.toml, committed in a fresh git repository."""
    tmp = Path(tempfile.mkdtemp(prefix="svmtext-lab-"))
    (tmp / ".gitignore").write_text(".workspaces/\n.settings/\n.ipynb_checkpoints/\n")
    shutil.copytree(ROOT / "book", tmp / "book",
                    ignore=shutil.ignore_patterns("_build", ".ipynb_checkpoints"))
    for f in ("jupytext.toml", "_config.yml"):
        if (ROOT / f).is_file():
            shutil.copy(ROOT / f, tmp / f)
    _git(tmp, "init", "-q")
    _git(tmp, "add", ".")
    _git(tmp, "-c", "user.name=lab", "-c", "user.email=lab@localhost", "commit", "-q", "-m", "copy")
    return tmp


def _start_lab(root: Path, port: int, token: str) -> subprocess.Popen:
    env = dict(os.environ, MPLBACKEND="module://matplotlib_inline.backend_inline")
    proc = subprocess.Popen(
        [str(JUPYTER), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
         f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}",
         "--ServerApp.open_browser=False", "--allow-root",
         f"--LabApp.workspaces_dir={root / '.workspaces'}",
         f"--LabApp.user_settings_dir={root / '.settings'}", "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    url = f"http://127.0.0.1:{port}/api/status?token={token}"
    for _ in range(120):
        try:
            with urllib.request.urlopen(url, timeout=2):
                return proc
        except OSError as exc:
            if proc.poll() is not None:
                raise RuntimeError("jupyter lab exited:\n" + proc.stdout.read()[-3000:]) from exc
            time.sleep(1)
    proc.kill()
    raise RuntimeError("jupyter lab did not start in 120 s")


COUNT_JS = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  if (!panel) return null;
  const cells = panel.querySelectorAll('.jp-Cell');
  const code = panel.querySelectorAll('.jp-CodeCell');
  const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim());
  const errors = [...panel.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
      .filter(o => /Traceback|Error:/.test(o.textContent)).map(o => o.textContent.slice(0, 300));
  const md = [...panel.querySelectorAll('.jp-MarkdownCell .jp-RenderedMarkdown, .jp-MarkdownCell .myst')]
      .filter(m => !m.innerText.includes('\\\\newcommand'));   // the hidden macro cell
  const raw = md.filter(m => /\\$\\$|\\\\begin\\{|\\\\frac|\\\\mathbf/.test(m.innerText)).length;
  return {cells: cells.length, code_cells: code.length,
          running: prompts.filter(p => p.includes('*')).length,
          executed: prompts.filter(p => /\\[\\d+\\]/.test(p)).length,
          formulas: panel.querySelectorAll('mjx-container').length
                    + panel.querySelectorAll('.katex:not(.katex .katex)').length,
          raw_tex_cells: raw, errors: errors,
          raw_tex_sample: md.filter(m => /\\$\\$|\\begin\\{|\\frac|\\mathbf/.test(m.innerText)).map(m => m.innerText.slice(0, 200))};
}"""  # noqa: E501 (JavaScript run in the page)


# Cell metadata JupyterLab keeps for its display only (not part of the chapter's content).
LAB_DISPLAY_KEYS = {"jupyter", "collapsed", "scrolled", "trusted", "execution", "editable"}


def same_notebook(before: str, after: str) -> list[str]:
    """How two versions of a chapter differ as notebooks: cell types, sources and
    metadata (JupyterLab's display-only keys aside) and the kernel's name. Empty when
    they are the same notebook (the YAML layout of the text may still differ)."""
    import jupytext

    a, b = jupytext.reads(before, fmt="md:myst"), jupytext.reads(after, fmt="md:myst")
    diffs = []
    if len(a.cells) != len(b.cells):
        diffs.append(f"{len(a.cells)} cells became {len(b.cells)}")
    for k, (x, y) in enumerate(zip(a.cells, b.cells)):
        if x.cell_type != y.cell_type or x.source != y.source:
            diffs.append(f"cell {k}: content changed")
        mx = {key: v for key, v in x.metadata.items() if key not in LAB_DISPLAY_KEYS}
        my = {key: v for key, v in y.metadata.items() if key not in LAB_DISPLAY_KEYS}
        if mx != my:
            diffs.append(f"cell {k}: metadata {mx} became {my}")
    if a.metadata.get("kernelspec", {}).get("name") != b.metadata.get("kernelspec", {}).get("name"):
        diffs.append("kernel changed")
    return diffs


def _log(msg: str) -> None:
    print(f"[lab {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _dismiss_dialogs(page) -> list[str]:
    """Text of any modal dialog, accepted (e.g. a kernel choice); none is expected."""
    seen = []
    for _ in range(5):
        dialog = page.locator(".jp-Dialog")
        if dialog.count() == 0:
            break
        seen.append(dialog.first.inner_text()[:300])
        page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept").first.click()
        time.sleep(1)
    return seen


def run_lab_check(chapter: str = CHAPTER, timeout: float = 600) -> dict:
    """Open ``book/<chapter>.md`` by double click, run all, count, save, diff."""
    from playwright.sync_api import sync_playwright

    root, port, token = _workdir(), _free_port(), secrets.token_hex(16)
    lab = _start_lab(root, port, token)
    report: dict = {"chapter": chapter}
    t0 = time.perf_counter()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            console = []
            page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
            page.goto(f"http://127.0.0.1:{port}/lab/tree/book?token={token}")
            item = page.locator(".jp-DirListing-item", has_text=f"{chapter}.md").first
            item.wait_for(timeout=120_000)
            _log("double click")
            item.dblclick()
            page.wait_for_selector(".jp-NotebookPanel .jp-Cell", state="attached",
                                   timeout=120_000)
            report["opened_as"] = "notebook"
            report["dialogs"] = _dismiss_dialogs(page)
            report["text_editor_tabs"] = page.locator(".jp-FileEditor").count()
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']",
                                   timeout=120_000)
            _log(f"opened; dialogs {report['dialogs']}; run all")
            started = False
            for attempt in range(6):                   # until the kernel takes the cells
                time.sleep(5)
                report["dialogs"] += _dismiss_dialogs(page)
                page.keyboard.press("Escape")
                page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
                page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
                for _ in range(10):
                    time.sleep(2)
                    c = page.evaluate(COUNT_JS)
                    if c and (c["running"] or c["executed"]):
                        started = True
                        break
                if started:
                    break
                _log(f"run all not started (attempt {attempt + 1})")
            deadline = time.time() + timeout
            counts = None
            while time.time() < deadline:
                time.sleep(2)
                if page.locator(".jp-Dialog").count():
                    report["dialogs"] += _dismiss_dialogs(page)
                counts = page.evaluate(COUNT_JS)
                if counts and counts["running"] == 0 and counts["executed"] >= counts["code_cells"]:
                    break
            _log(f"ran: {counts and {k: v for k, v in counts.items() if k != 'raw_tex_sample'}}")
            time.sleep(3)                              # the last typesetting
            counts = page.evaluate(COUNT_JS)
            report.update(counts or {})
            report["run_seconds"] = round(time.perf_counter() - t0, 1)
            report["dialogs"] += _dismiss_dialogs(page)
            page.locator(".jp-NotebookPanel .jp-Cell:visible").first.click()
            page.keyboard.press("Control+s")
            time.sleep(2)
            report["dialogs"] += _dismiss_dialogs(page)
            time.sleep(3)
            _log(f"saved; dialogs {report['dialogs']}")
            report["console_errors"] = [c for c in console if "jupytext" in c.lower()
                                        or "Failed to create module" in c]
            browser.close()
        report["git_diff"] = _git(root, "diff", "--stat").strip()
        report["diff_lines"] = len(_git(root, "diff").splitlines())
        report["same_notebook"] = same_notebook(_git(root, "show", f"HEAD:book/{chapter}.md"),
                                                (root / "book" / f"{chapter}.md").read_text())
        if os.environ.get("SVMTEXT_LAB_SHOW_DIFF"):
            report["diff"] = _git(root, "diff").splitlines()[:200]
        report["checkpoint_dirs"] = [str(p.relative_to(root))
                                     for p in root.rglob(".ipynb_checkpoints")]
    finally:
        os.killpg(lab.pid, 15)
        try:
            lab.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, 9)
        shutil.rmtree(root, ignore_errors=True)
    return report


@pytest.mark.skipif(not os.environ.get("SVMTEXT_LAB"), reason="SVMTEXT_LAB=1 (make test-lab)")
@pytest.mark.skipif(not (CHROMIUM and _have("playwright") and _have("jupyterlab")),
                    reason="needs chromium, playwright and jupyterlab (make lab)")
def test_chapter_opens_runs_and_saves_unchanged():
    rep = run_lab_check()
    print(json.dumps(rep, indent=1))
    assert rep["opened_as"] == "notebook" and rep["text_editor_tabs"] == 0
    assert rep["executed"] == rep["code_cells"] > 0, rep
    assert not rep["errors"], rep["errors"]
    assert rep["formulas"] >= 50 and rep["raw_tex_cells"] == 0, rep
    assert not rep["console_errors"], rep["console_errors"]
    assert rep["same_notebook"] == [], rep["same_notebook"]
    # the text too: saving from Lab rewrites nothing (tests/test_chapter_layout.py keeps the
    # chapters in jupytext's layout; the kernelspec and macro cell are written as Lab does)
    assert rep["diff_lines"] == 0, rep["git_diff"]


if __name__ == "__main__":
    print(json.dumps(run_lab_check(sys.argv[1] if len(sys.argv) > 1 else CHAPTER), indent=1))
