"""Trust and first open: a committed notebook shows its graphs before anything is re-run.

JupyterLab renders SVG (and HTML) outputs of a notebook only when it is trusted, i.e. its
signature is in the user's signature database. ``jupyter nbconvert --execute`` does not
sign, so a freshly cloned course opened as it is shows no Graphviz drawing (only the words
of its sanitized HTML form, or its text repr) and each widget as its
text repr (``BackwardStepper(19 frames, 1 backward run)``) until the cell is run again.
``scripts/lab.sh`` therefore runs ``jupyter trust`` on the shipped notebooks first; after
that the drawings show on first open, and widgets whose state was saved with the notebook
render from it (greyed "disconnected" views until the kernel runs them again).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request

import nbformat
import pytest
from e2e_support import (
    REPO,
    TOKEN,
    artifact,
    course_notebooks,
    free_port,
    jupyter_env,
    open_notebook,
    read_notebook,
    shutdown_kernels,
    trust,
)
from nbformat.sign import NotebookNotary

SHOWN_JS = """() => {
  const cells = [...document.querySelectorAll('.jp-NotebookPanel .jp-Notebook .jp-Cell')];
  return cells.map(c => ({
    svg: [...c.querySelectorAll('.jp-RenderedSVG img')]
      .filter(i => i.complete && i.naturalWidth > 0).length,
    inline: [...c.querySelectorAll('.jp-OutputArea-output svg[role="img"]')]
      .filter(s => s.querySelector('g.node')).length,
    text: [...c.querySelectorAll('.jp-OutputArea-output[data-mime-type="text/plain"]')]
      .map(t => t.textContent.trim()),
    prompt: (c.querySelector('.jp-InputPrompt:not(.jp-Placeholder-prompt)')
             || {textContent: ''}).textContent.trim(),
  }));
}"""


def svg_cells(nb: dict) -> list[int]:
    """Cells with a saved Graphviz drawing (an SVG output, with its HTML form, not a widget)."""
    return [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
            and any("image/svg+xml" in o.get("data", {})
                    and "application/vnd.jupyter.widget-view+json" not in o["data"]
                    for o in c.get("outputs", []))]


def drawn(nb: dict, i: int) -> int:
    """How many drawings cell ``i`` shows once trusted: its SVG outputs, each shown through
    its HTML form (an inline SVG named by its text alternative) when it has one."""
    return sum("image/svg+xml" in o.get("data", {}) for o in nb["cells"][i]["outputs"])


def first_graph_notebook():
    return next((p for p in course_notebooks() if svg_cells(read_notebook(p))), None)


@pytest.mark.browser
def test_graphs_show_on_first_open_once_trusted(course, lab, lab_env, page):
    notebook = first_graph_notebook()
    assert notebook is not None, "no course notebook has a saved make_dot drawing"
    nb = read_notebook(notebook)
    cells = svg_cells(nb)
    rel = notebook.name
    # a cell whose source is hidden (the folded set-up cell) shows no number
    prompts = [f"[{c['execution_count']}]:" if c["cell_type"] == "code"
               and not c["metadata"].get("jupyter", {}).get("source_hidden") else ""
               for c in nb["cells"]]

    # untrusted (as cloned): no drawing is shown (JupyterLab sanitizes the HTML form, which
    # leaves its words, or falls back to the text repr)
    open_notebook(page, lab, rel)
    shown = page.evaluate(SHOWN_JS)
    for i in cells:
        assert shown[i]["svg"] == 0 and shown[i]["inline"] == 0, shown[i]
    page.locator(".jp-Notebook .jp-Cell").nth(cells[0]).scroll_into_view_if_needed()
    page.screenshot(path=str(artifact(f"untrusted_{notebook.stem}.png")))
    page.close()
    shutdown_kernels(lab)

    # trusted the way scripts/lab.sh does it: the drawings show, nothing has run
    trust([course / rel], lab_env)
    page2 = page.context.new_page()
    try:
        open_notebook(page2, lab, rel)
        page2.wait_for_function(
            "(n) => [...document.querySelectorAll('.jp-RenderedSVG img')]"
            ".filter(i => i.naturalWidth > 0).length + [...document.querySelectorAll("
            "'.jp-OutputArea-output svg[role=\"img\"]')].filter(s => s.querySelector('g.node'))"
            ".length >= n", arg=len(cells), timeout=30_000)
        shown = page2.evaluate(SHOWN_JS)
        for i in cells:
            assert shown[i]["svg"] + shown[i]["inline"] == drawn(nb, i), (i, shown[i])
        assert [s["prompt"] for s in shown] == prompts  # the saved counts: nothing re-ran
        # the cell's text repr is not shown once the drawing is
        assert not any("AutogradDigraph at 0x" in t for i in cells for t in shown[i]["text"])
        first = page2.locator(".jp-Notebook .jp-Cell").nth(cells[0])
        first.scroll_into_view_if_needed()
        page2.screenshot(path=str(artifact(f"trusted_{notebook.stem}.png")))
    finally:
        page2.close()


def test_lab_sh_trusts_the_shipped_notebooks(tmp_path):
    """``scripts/lab.sh`` signs every ``notebooks/*.ipynb`` before JupyterLab starts."""
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    assert notebooks, "no notebooks to trust"
    env = jupyter_env(tmp_path / "jupyter")
    data_dir = env["JUPYTER_DATA_DIR"]
    port = free_port()
    # the server serves the real notebooks/ folder: no page is opened, so nothing is saved
    proc = subprocess.Popen(
        ["bash", str(REPO / "scripts" / "lab.sh"), "--no-browser", f"--port={port}",
         "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
         f"--IdentityProvider.token={TOKEN}"],
        env=env, cwd=REPO, stdout=open(tmp_path / "lab.log", "w"), stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600  # lab.sh runs setup.sh first (a pip install at most)
        while True:
            assert proc.poll() is None, (tmp_path / "lab.log").read_text()
            try:
                with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/api/status?token={TOKEN}", timeout=5) as r:
                    status = json.loads(r.read())
                break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "lab.log").read_text()
                time.sleep(0.3)
        assert status["kernels"] == 0
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    log = (tmp_path / "lab.log").read_text()
    assert f"lab: trusting {len(notebooks)} notebook(s)" in log
    notary = NotebookNotary(data_dir=data_dir)
    untrusted = [p.name for p in notebooks
                 if not notary.check_signature(nbformat.read(p, as_version=4))]
    assert not untrusted, f"not trusted after lab.sh: {untrusted}"
    # and nothing leaked into the user's own Jupyter folders
    assert os.path.exists(os.path.join(data_dir, "nbsignatures.db"))
