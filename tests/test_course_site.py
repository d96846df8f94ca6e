"""The course website's build (``scripts/course/build_site.py``), without a browser.

The staging rules are checked on small notebooks made here; one real Sphinx build of a
two-notebook repository checks that pages, images, solutions, navigation and launch links come
out; one build of the repository's own course checks every page's launch links against
``course_links.py``.
"""

from __future__ import annotations

import base64
import html
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "course"))

import build_site  # noqa: E402
import site_assets  # noqa: E402
from course_links import LINKS, CourseLinks  # noqa: E402

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
    readme = ("# proj\n\nIntro.\n\n## Quick start\n\nsetup-steps\n\n## Course map\n\n| a |\n| - |\n\n"
              "See [the engine](#engine).\n\n## Engine\n")
    page = build_site.landing_page(readme, [Path("00_a.ipynb"), Path("01_b.ipynb")])
    assert "Intro." in page and "| a |" in page and "setup-steps" not in page and "Engine" not in page
    assert "[the engine](README.md#engine)" in page  # a README section, on the README's page
    with_guide = build_site.landing_page(readme, [Path("00_a.ipynb")], guide=True,
                                         pages=["CHANGELOG"])
    toc = with_guide.split(":caption: The project", 1)[1]
    assert toc.index("<README>") < toc.index("<notebooks/README>") < toc.index("CHANGELOG\n")
    assert page.index("notebooks/00_a") < page.index("notebooks/01_b")


def test_missing_npm_packs_are_reported_with_the_command_to_fetch_them(tmp_path):
    with pytest.raises(FileNotFoundError, match="site_assets.py"):
        site_assets.unpack(tmp_path / "static", cache=tmp_path / "empty")


class Anchors(HTMLParser):
    """Every ``<a>`` of a page: (its attributes, its text, the classes of its enclosing tags)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[dict, str, list[str]]] = []
        self._open: list[tuple[str, str]] = []
        self._a: tuple[dict, list[str]] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a":
            self._a, self._text = (attrs, [c for _, c in self._open]), []
        elif tag not in ("br", "img", "meta", "link", "input", "hr"):
            self._open.append((tag, attrs.get("class") or ""))

    def handle_endtag(self, tag):
        if tag == "a" and self._a is not None:
            self.found.append((self._a[0], "".join(self._text).strip(), self._a[1]))
            self._a = None
        elif self._open and tag == self._open[-1][0]:
            self._open.pop()

    def handle_data(self, data):
        if self._a is not None:
            self._text.append(data)


def launch_links(page: str) -> dict[str, dict]:
    """The launch links of a built page, by kind (colab, binder, hub, download, reference)."""
    parser = Anchors()
    parser.feed(page)
    out = {}
    for attrs, text, parents in parser.found:
        if not any("launch-links" in c for c in parents):
            continue
        kind = next(c.removeprefix("launch-") for c in (attrs.get("class") or "").split()
                    if c.startswith("launch-") and c != "launch-link")
        assert kind not in out, f"two {kind} links"
        out[kind] = {**attrs, "text": text}
    return out


def check_launch_links(out: Path, stem: str, links: CourseLinks) -> dict[str, dict]:
    """The page of ``stem`` has the four launch links (and the reference), built by ``links``;
    its download is a student copy served by the site itself."""
    page = (out / "notebooks" / f"{stem}.html").read_text(encoding="utf-8")
    found = launch_links(page)
    assert set(found) >= {"colab", "binder", "hub", "download", "reference"}, sorted(found)
    assert found["colab"]["href"] == links.colab_url(stem)
    assert found["binder"]["href"] == links.binder_url(stem)
    assert found["hub"]["href"] == links.hub_link(stem)
    assert found["reference"]["href"] == links.reference_url(stem)
    assert found["download"]["href"] == f"student/{stem}.ipynb"
    assert found["download"]["download"] == f"{stem}.ipynb"
    assert [found[k]["text"] for k in ("colab", "binder", "hub", "download")] == [
        "Colab", "Binder", "JupyterHub", "Download .ipynb"]
    student = json.loads((out / "notebooks" / "student" / f"{stem}.ipynb").read_text("utf-8"))
    sources = "".join(build_site.cell_source(c) for c in student["cells"] if c["cell_type"] == "code")
    assert "### BEGIN SOLUTION" not in sources
    assert all(c.get("outputs", []) == [] for c in student["cells"])
    return found


def test_launch_links_go_just_below_the_title():
    links = CourseLinks("someone/course", "release/0.2", "https://hub.school.edu/jh")
    nb = notebook(md("# 03 · Three\n\n**You will learn**\n- x"), code("1"))
    text = build_site.cell_source(build_site.with_launch_links(nb, "03_three", links)["cells"][0])
    title, bar, rest = text.split("\n\n", 2)
    assert title == "# 03 · Three" and rest == "**You will learn**\n- x"
    assert bar.startswith('<nav class="launch-links"') and bar.endswith("</nav>")
    assert "\n\n" not in bar  # one HTML block for Markdown
    assert html.escape(links.hub_link("03_three")) in bar
    assert 'href="student/03_three.ipynb" download="03_three.ipynb"' in bar
    assert 'href="README.html"' in bar  # the instructor guide
    no_guide = build_site.launch_bar("03_three", links, guide=False)
    assert "README.html" not in no_guide


def test_guide_links_to_student_copies_become_downloads():
    text = "[00 · A](00_a.ipynb) | [student copy](student/00_a.ipynb) | [x](../README.md)"
    out = build_site.student_downloads(text)
    assert '<a class="student-copy" href="student/00_a.ipynb" download="00_a.ipynb">' in out
    assert "[00 · A](00_a.ipynb)" in out and "[x](../README.md)" in out


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


def test_build_with_launch_links_and_the_instructor_guide(tmp_path):
    """Another branch and hub given to the build reach every link; the guide is a page whose
    student-copy links download the files the site serves."""
    src = tmp_path / "repo"
    (src / "notebooks").mkdir(parents=True)
    (src / "README.md").write_text(
        "# proj\n\nIntro.\n\n## Course map\n\n[first](notebooks/00_a.ipynb); "
        "[the guide](notebooks/README.md); [changes](CHANGELOG.md)\n", encoding="utf-8")
    (src / "CHANGELOG.md").write_text("# Changelog\n\n## 0.1.0\n", encoding="utf-8")
    (src / "notebooks" / "README.md").write_text(
        "# Teaching\n\n| notebook | copy |\n| --- | --- |\n"
        "| [00 · A](00_a.ipynb) | [student copy](student/00_a.ipynb) |\n", encoding="utf-8")
    (src / "notebooks" / "00_a.ipynb").write_text(
        json.dumps(notebook(md("# 00 · A\n\nText."), SOLUTION)), encoding="utf-8")
    out = tmp_path / "site"
    code = build_site.main(["--src", str(src), "--out", str(out), "-q",
                            "--ref", "release/0.2", "--hub", "https://hub.school.edu"])
    assert code == 0
    links = CourseLinks(LINKS.repository, "release/0.2", "https://hub.school.edu")
    found = check_launch_links(out, "00_a", links)
    assert "release%2F0.2" in found["hub"]["href"] and "hub.school.edu" in found["hub"]["href"]
    guide = (out / "notebooks" / "README.html").read_text(encoding="utf-8")
    assert 'href="00_a.html"' in guide
    assert 'href="student/00_a.ipynb" download="00_a.ipynb"' in guide
    assert (out / "notebooks" / "student" / "00_a.ipynb").is_file()
    assert 'href="notebooks/README.html"' in (out / "index.html").read_text(encoding="utf-8")
    assert not (out / "notebooks" / "student" / "00_a.html").exists()  # a file, not a page
    assert 'href="CHANGELOG.html"' in (out / "index.html").read_text(encoding="utf-8")


def test_build_refuses_a_bad_hub(tmp_path, capsys):
    with pytest.raises(SystemExit):
        build_site.main(["--out", str(tmp_path / "site"), "--hub", "hub.example.edu"])
    assert "expected http(s)://" in capsys.readouterr().err


@pytest.fixture(scope="module")
def course_site(tmp_path_factory) -> Path:
    """The repository's own course, built once for the checks below."""
    out = tmp_path_factory.mktemp("course") / "site"
    assert build_site.build(ROOT, out, quiet=True) == 0
    return out


COURSE = sorted((ROOT / "notebooks").glob(build_site.NOTEBOOK_GLOB))


@pytest.mark.parametrize("stem", [p.stem for p in COURSE])
def test_every_course_page_has_its_launch_links(course_site, stem):
    check_launch_links(course_site, stem, LINKS)


def test_the_course_guide_page_links_every_notebook(course_site):
    guide = (course_site / "notebooks" / "README.html").read_text(encoding="utf-8")
    parser = Anchors()
    parser.feed(guide)
    hrefs = {attrs.get("href") for attrs, _, _ in parser.found}
    for path in COURSE:
        assert f"{path.stem}.html" in hrefs  # the reference notebook's page
        assert f"student/{path.name}" in hrefs  # the student copy, a download
        assert (course_site / "notebooks" / "student" / path.name).is_file()
        assert LINKS.colab_url(path.stem) in hrefs and LINKS.hub_link(path.stem) in hrefs
    assert "../README.html" in hrefs
