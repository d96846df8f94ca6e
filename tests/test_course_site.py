"""The course website's build (``scripts/course/build_site.py``), without a browser.

The staging rules are checked on small notebooks made here; one real Sphinx build of a
two-notebook repository checks that pages, images, solutions and navigation come out.
"""

from __future__ import annotations

import base64
import html
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "course"))

import build_site  # noqa: E402
import site_assets  # noqa: E402

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>'
PNG = base64.b64decode(  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def md(text: str, **extra) -> dict:
    return {"cell_type": "markdown", "id": f"m{abs(hash(text)) % 10**8}", "metadata": {},
            "source": text, **extra}


def code(text: str, outputs: list | None = None, tags: list[str] | None = None) -> dict:
    return {"cell_type": "code", "id": f"c{abs(hash(text)) % 10**8}", "execution_count": 1,
            "metadata": {"tags": tags or []}, "outputs": outputs or [], "source": text}


def notebook(*cells: dict) -> dict:
    return {"nbformat": 4, "nbformat_minor": 5, "cells": list(cells),
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}}}


SOLUTION = code("x = 1\n### BEGIN SOLUTION\nanswer = x + 1\n### END SOLUTION\ncheck(answer)",
                outputs=[{"output_type": "stream", "name": "stdout", "text": "correct!\n"}])


def test_exercise_shows_the_student_cell_then_the_answer_collapsed(tmp_path):
    nb = build_site.site_notebook(notebook(SOLUTION), tmp_path)
    exercise, reference = nb["cells"]
    assert build_site.cell_source(exercise) == "x = 1\nanswer = ...  # your code here\ncheck(answer)"
    assert exercise["outputs"] == [] and exercise["metadata"]["tags"] == ["exercise"]
    assert exercise["id"] != reference["id"]
    assert "hide-cell" in reference["metadata"]["tags"]
    assert reference["metadata"]["mystnb"]["code_prompt_show"] == "Show solution"
    assert reference["outputs"] == SOLUTION["outputs"]  # the check's answer, collapsed with it


def test_colab_cell_is_left_out_and_other_cells_kept(tmp_path):
    cells = [code("install()", tags=["colab"]), md("# Title"), code("1 + 1")]
    nb = build_site.site_notebook(notebook(*cells), tmp_path)
    assert [build_site.cell_source(c) for c in nb["cells"]] == ["# Title", "1 + 1"]


def test_embedded_images_are_written_out(tmp_path):
    url = "data:image/svg+xml;base64," + base64.b64encode(SVG).decode()
    cell = md(f'![a figure: [1.] + [2.] = [3.]]({url} "title")\n\n![a shot](attachment:shot.png)',
              attachments={"shot.png": {"image/png": base64.b64encode(PNG).decode()}})
    nb = build_site.site_notebook(notebook(cell), tmp_path)
    text = build_site.cell_source(nb["cells"][0])
    links = [part.split(")")[0].split(" ")[0] for part in text.split("](")[1:]]
    assert len(links) == 2 and all(link.startswith("../figures/_embedded/") for link in links)
    written = [(tmp_path / "notebooks" / link).resolve().read_bytes() for link in links]
    assert written == [SVG, PNG]
    assert '"title")' in text and "attachments" not in nb["cells"][0]


def test_landing_page_has_the_course_map_and_every_notebook_in_order():
    readme = "# proj\n\nIntro.\n\n## Quick start\n\nsetup-steps\n\n## Course map\n\n| a |\n| - |\n\n## Engine\n"
    page = build_site.landing_page(readme, [Path("00_a.ipynb"), Path("01_b.ipynb")])
    assert "Intro." in page and "| a |" in page and "setup-steps" not in page and "Engine" not in page
    assert page.index("notebooks/00_a") < page.index("notebooks/01_b")


def test_missing_npm_packs_are_reported_with_the_command_to_fetch_them(tmp_path):
    with pytest.raises(FileNotFoundError, match="site_assets.py"):
        site_assets.unpack(tmp_path / "static", cache=tmp_path / "empty")


def test_build_of_a_small_course(tmp_path):
    src = tmp_path / "repo"
    (src / "notebooks").mkdir(parents=True)
    (src / "figures").mkdir()
    (src / "figures" / "f.svg").write_bytes(SVG)
    (src / "README.md").write_text(
        "# proj\n\nIntro.\n\n## Course map\n\n[first](notebooks/00_a.ipynb)\n", encoding="utf-8")
    first = notebook(md("# 00 · First\n\n![fig](../figures/f.svg)\n\nMath $x^2$."), SOLUTION)
    second = notebook(md("# 01 · Second\n\nBack to [the first](00_a.ipynb)."), code("2"))
    for name, nb in (("00_a", first), ("01_b", second)):
        (src / "notebooks" / f"{name}.ipynb").write_text(json.dumps(nb), encoding="utf-8")

    out = tmp_path / "site"
    assert build_site.build(src, out, quiet=True) == 0
    page = (out / "notebooks" / "00_a.html").read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "Show solution" in text and "answer = ...  # your code here" in text
    assert 'href="01_b.html"' in page  # next page
    assert (out / "_static" / "mathjax" / "tex-mml-chtml.js").is_file()
    assert "https://" not in "".join(line for line in page.splitlines() if "<script" in line)
    imgs = [part.split('"')[0] for part in page.split('<img alt="fig" src="')[1:]]
    assert imgs and all((out / "notebooks" / i).resolve().is_file() for i in imgs)
    assert 'href="notebooks/00_a.html"' in (out / "index.html").read_text(encoding="utf-8")
