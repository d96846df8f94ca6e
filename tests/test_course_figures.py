"""The figures shown in the notebooks' Markdown are the files in ``figures/``, embedded.

``figures/`` is the source of truth; ``scripts/course/embed_figures.py`` (run by ``make
figures``) copies each linked figure into the notebook as a ``data:`` URL, so that it loads
wherever the notebook is opened. These tests fail when a notebook still links a file or holds
a copy that differs from it.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "course" / "embed_figures.py"
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]*_*.ipynb"))

spec = importlib.util.spec_from_file_location("embed_figures", SCRIPT)
embed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(embed)


def payload(src: str) -> bytes:
    assert src.startswith("data:image/") and ";base64," in src, src[:60]
    return base64.b64decode(src.split(",", 1)[1], validate=True)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_markdown_figures_are_the_files_in_figures(notebook):
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    for name, src in embed.figures_of(nb):
        assert not src.startswith(("../", "figures/")), \
            f"{notebook.name} links {src}: run scripts/course/embed_figures.py"
        assert payload(src) == (REPO / "figures" / name).read_bytes(), \
            f"{notebook.name}: its copy of figures/{name} is stale: run `make figures`"
    # any other image in Markdown would not load everywhere the course is opened
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for m in embed.IMAGE.finditer("".join(cell["source"])):
                assert m.group("src").startswith("data:"), f"{notebook.name}: {m.group(0)[:80]}"


def test_the_course_shows_figures():
    shown = {name for p in NOTEBOOKS
             for name, _ in embed.figures_of(json.loads(p.read_text(encoding="utf-8")))}
    assert shown and shown <= {p.name for p in (REPO / "figures").iterdir()}


def test_check_passes_on_the_course():
    r = subprocess.run([sys.executable, str(SCRIPT), "--check", *map(str, NOTEBOOKS)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def notebook_with(text: str) -> dict:
    return {"cells": [{"cell_type": "markdown", "id": "m", "metadata": {}, "source": [text]},
                      {"cell_type": "code", "id": "c", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": ["x = '![a](../figures/a.svg)'"]}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_embed_links_then_refreshes_from_the_file(tmp_path):
    figures = tmp_path / "figures"
    figures.mkdir()
    (figures / "a.svg").write_text("<svg>1</svg>")
    (figures / "b.png").write_bytes(b"\x89PNG\r\n")
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook_with(
        "See ![a [1, 2] graph](../figures/a.svg) and ![b](figures/b.png), "
        "not ![c](https://example.org/c.svg).\n")))

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(SCRIPT), "--figures", str(figures), *args,
                               str(path)], capture_output=True, text=True)

    assert run("--check").returncode == 1
    assert run().returncode == 0
    nb = json.loads(path.read_text())
    text = "".join(nb["cells"][0]["source"])
    assert [(n, payload(s)) for n, s in embed.figures_of(nb)] == [
        ("a.svg", b"<svg>1</svg>"), ("b.png", b"\x89PNG\r\n")]
    assert '![a [1, 2] graph](data:image/svg+xml;base64,' in text
    assert '"figures/a.svg")' in text and "![c](https://example.org/c.svg)" in text
    assert nb["cells"][1]["source"] == ["x = '![a](../figures/a.svg)'"]  # code is left alone
    # idempotent: a second run writes nothing
    before = path.read_bytes()
    assert run().stdout == "" and path.read_bytes() == before
    assert run("--check").returncode == 0
    # the file changes: --check fails until the notebook is refreshed from it
    (figures / "a.svg").write_text("<svg>2</svg>")
    assert run("--check").returncode == 1
    assert run().returncode == 0
    assert payload(embed.figures_of(json.loads(path.read_text()))[0][1]) == b"<svg>2</svg>"


def test_a_missing_figure_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.svg is missing"):
        embed.embed_text("![x](../figures/missing.svg)", tmp_path)
