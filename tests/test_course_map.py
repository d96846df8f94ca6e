"""The course map and the instructor guide, written from the notebooks' metadata
(``scripts/course/course_map.py``), so that titles, times and links cannot disagree."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "course"))

import course_map  # noqa: E402
from course_links import LINKS  # noqa: E402

COURSE = sorted((ROOT / "notebooks").glob(course_map.NOTEBOOK_GLOB))


def run(*args: str, root: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts/course/course_map.py"), *args,
                           "--root", str(root)], capture_output=True, text=True)


def test_the_repository_is_up_to_date():
    """A notebook's metadata changed without `course_map.py --write` fails here."""
    result = run("--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_notebook_has_its_entry():
    entries = course_map.entries(ROOT)
    assert [e.stem for e in entries] == [p.stem for p in COURSE]
    for e in entries:
        assert course_map.MINUTES.match(e.minutes) and e.title and e.summary


def test_readme_and_guide_list_every_notebook_with_its_metadata():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    guide = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    for e in course_map.entries(ROOT):
        assert f"| [{e.label}](notebooks/{e.stem}.ipynb) | {e.summary} | {e.time} |" in readme
        assert f"| [{e.label}]({e.stem}.ipynb) | {e.summary} | {e.time} |" in guide
        assert f"(student/{e.stem}.ipynb)" in guide
        assert LINKS.colab_url(e.stem) in guide and LINKS.hub_link(e.stem) in guide
    assert LINKS.hub_link() in guide
    assert "](notebooks/README.md)" in readme  # the README points to the guide
    assert re.search(r"^## Grading$", guide, flags=re.M)


def small_repo(tmp_path: Path) -> Path:
    """A repository with two notebooks, a README and a guide, blocks not yet written."""
    root = tmp_path / "repo"
    (root / "notebooks").mkdir(parents=True)
    for stem, title, minutes in (("00_a", "First", "10"), ("01_b", "Second", "60–90")):
        nb = {"cells": [{"cell_type": "markdown", "id": "t", "metadata": {},
                         "source": f"# {title}\n\n**Time:** {minutes} min · more"}],
              "metadata": {"kernelspec": {"name": "python3"},
                           "autograd_lab": {"title": title, "minutes": minutes,
                                            "summary": f"all about {title.lower()}"}},
              "nbformat": 4, "nbformat_minor": 5}
        course_map.write_notebook(root / "notebooks" / f"{stem}.ipynb", nb)
    block = "<!-- BEGIN generated {0} -->\n<!-- END generated {0} -->"
    (root / "README.md").write_text(f"# R\n\n{block.format('course-map')}\n\nafter\n",
                                    encoding="utf-8")
    (root / "notebooks" / "README.md").write_text(
        "# Guide\n\n" + "\n\nhand-written\n\n".join(
            block.format(n) for n in ("notebooks", "hub", "launch")) + "\n", encoding="utf-8")
    return root


def test_write_then_check_then_a_metadata_change(tmp_path):
    root = small_repo(tmp_path)
    assert run("--check", root=root).returncode == 1
    assert run("--write", root=root).returncode == 0
    assert run("--check", root=root).returncode == 0
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "| [01 · Second](notebooks/01_b.ipynb) | all about second | 60–90\u00a0min |" in readme
    assert readme.startswith("# R\n\n<!-- BEGIN") and readme.endswith("-->\n\nafter\n")
    assert "hand-written" in (root / "notebooks" / "README.md").read_text(encoding="utf-8")

    before = (root / "notebooks" / "00_a.ipynb").read_text(encoding="utf-8")
    result = run("--set", "00_a", "title=Renamed", root=root)
    assert result.returncode == 0, result.stderr
    after = (root / "notebooks" / "00_a.ipynb").read_text(encoding="utf-8")
    assert json.loads(after)["cells"] == json.loads(before)["cells"]
    assert "[00 · Renamed](00_a.ipynb)" in (root / "notebooks" / "README.md").read_text("utf-8")
    assert run("--check", root=root).returncode == 0

    guide = root / "notebooks" / "README.md"
    guide.write_text(guide.read_text(encoding="utf-8").replace("Renamed", "Old"), "utf-8")
    result = run("--check", root=root)
    assert result.returncode == 1 and "notebooks/README.md" in result.stderr


def test_a_time_line_that_disagrees_with_the_metadata(tmp_path):
    root = small_repo(tmp_path)
    run("--write", root=root)
    result = run("--set", "00_a", "minutes=15", root=root)
    assert result.returncode == 1
    assert "00_a.ipynb: its first cell says **Time:** 10 min, its metadata 15 min" in result.stderr
    assert run("--check", root=root).returncode == 1


@pytest.mark.parametrize("meta, message", [
    (None, "no metadata.autograd_lab"),
    ({"title": "T", "summary": "S"}, "lacks minutes"),
    ({"title": "T", "minutes": "20 min", "summary": "S"}, "expected a number of minutes"),
    ({"title": "T", "minutes": "60-90", "summary": "S"}, "expected a number of minutes"),
    ({"title": "T | U", "minutes": "20", "summary": "S"}, "without '|'"),
])
def test_bad_metadata_is_reported(tmp_path, meta, message):
    root = small_repo(tmp_path)
    path = root / "notebooks" / "00_a.ipynb"
    nb = course_map.read_notebook(path)
    if meta is None:
        del nb["metadata"]["autograd_lab"]
    else:
        nb["metadata"]["autograd_lab"] = meta
    course_map.write_notebook(path, nb)
    result = run("--check", root=root)
    assert result.returncode == 1 and message in result.stderr


def test_a_missing_block_is_reported(tmp_path):
    root = small_repo(tmp_path)
    guide = root / "notebooks" / "README.md"
    guide.write_text(guide.read_text(encoding="utf-8").replace("generated hub", "hub"), "utf-8")
    result = run("--write", root=root)
    assert result.returncode == 1 and "expected one generated block 'hub'" in result.stderr


def test_set_refuses_unknown_fields(tmp_path):
    root = small_repo(tmp_path)
    result = run("--set", "00_a", "colour=red", root=root)
    assert result.returncode == 1 and "unknown field(s) colour" in result.stderr


def test_rewriting_metadata_keeps_the_notebook_byte_for_byte(tmp_path):
    """Notebooks are saved as Jupyter saves them: an unchanged entry rewrites the same bytes."""
    path = tmp_path / COURSE[0].name
    shutil.copy(COURSE[0], path)
    e = course_map.entry(path)
    course_map.set_metadata(path, title=e.title, minutes=e.minutes, summary=e.summary)
    assert path.read_bytes() == COURSE[0].read_bytes()
