"""The course's links, all built from one place (``scripts/course/course_links.py``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "course"))

import course_links  # noqa: E402
from course_links import LINKS, CourseLinks, notebook_stem  # noqa: E402

NB = "03_backward_and_the_chain_rule"


def test_default_links_open_the_student_copy():
    owner, name = course_links.REPOSITORY.split("/")
    ref = course_links.REF
    assert LINKS.repository_url == f"https://github.com/{owner}/{name}"
    assert LINKS.colab_url(NB) == ("https://colab.research.google.com/github/"
                                   f"{owner}/{name}/blob/{ref}/notebooks/student/{NB}.ipynb")
    assert LINKS.binder_url(NB) == (f"https://mybinder.org/v2/gh/{owner}/{name}/{ref}"
                                    f"?urlpath=lab/tree/notebooks/student/{NB}.ipynb")
    assert LINKS.reference_url(NB) == (f"https://github.com/{owner}/{name}/blob/{ref}"
                                       f"/notebooks/{NB}.ipynb")
    assert LINKS.student_url(NB) == (f"https://github.com/{owner}/{name}/blob/{ref}"
                                     f"/notebooks/student/{NB}.ipynb")


def test_nbgitpuller_link():
    """nbgitpuller's parameters (repo, branch, urlpath); it clones into a folder named after
    the repository, under the server's root, which urlpath must include."""
    url = LINKS.hub_link(f"{NB}.ipynb")
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}" == course_links.HUB_URL
    assert parts.path == "/hub/user-redirect/git-pull"
    query = parse_qs(parts.query)
    assert query == {"repo": [LINKS.repository_url], "branch": [course_links.REF],
                     "urlpath": [f"lab/tree/{LINKS.name}/notebooks/student/{NB}.ipynb"]}
    assert "repo=https%3A%2F%2Fgithub.com%2F" in url  # the URL encoded, as the link generator does
    folder = parse_qs(urlsplit(LINKS.hub_link()).query)["urlpath"]
    assert folder == [f"lab/tree/{LINKS.name}/notebooks/student"]


def test_a_release_branch_and_another_hub():
    links = CourseLinks("school/ml-course", "release/0.2", "https://hub.school.edu/jupyter/")
    assert links.colab_url(NB).endswith(f"/school/ml-course/blob/release/0.2/notebooks/student/{NB}.ipynb")
    assert links.binder_url(NB).startswith("https://mybinder.org/v2/gh/school/ml-course/release%2F0.2?")
    url = links.hub_link(NB)
    assert url.startswith("https://hub.school.edu/jupyter/hub/user-redirect/git-pull?")
    query = parse_qs(urlsplit(url).query)
    assert query["branch"] == ["release/0.2"]
    assert query["urlpath"] == [f"lab/tree/ml-course/notebooks/student/{NB}.ipynb"]


@pytest.mark.parametrize("kwargs, message", [
    ({"repository": "https://github.com/a/b"}, "owner/name"),
    ({"repository": "a/b.git"}, "owner/name"),
    ({"repository": "just-a-name"}, "owner/name"),
    ({"ref": ""}, "branch name"),
    ({"ref": "main?x"}, "branch name"),
    ({"hub_url": "hub.example.edu"}, "http"),
    ({"hub_url": "https://hub.example.edu/?next=x"}, "without a query"),
])
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        CourseLinks(**kwargs)


@pytest.mark.parametrize("name", ["03_backward", "03_backward.ipynb", "notebooks/03_backward.ipynb",
                                  "04b_more"])
def test_notebook_names(name):
    assert notebook_stem(name) in ("03_backward", "04b_more")


@pytest.mark.parametrize("name", ["README", "backward.ipynb", "3_x", "03 x", ""])
def test_bad_notebook_names(name):
    with pytest.raises(ValueError, match="not a course notebook name"):
        LINKS.colab_url(name)


def test_the_colab_cell_installs_from_the_configured_repository():
    spec = importlib.util.spec_from_file_location(
        "colab_cell_file", ROOT / "scripts" / "course" / "colab_cell.py")
    colab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(colab)  # loaded as a file, as the classroom tests load it
    assert colab.AUTOGRAD_LAB_SOURCE == LINKS.repository_url
    assert f"autograd_lab @ git+{LINKS.repository_url}" in colab.CELL


def test_command_line_prints_a_notebooks_links():
    out = subprocess.run([sys.executable, "scripts/course/course_links.py", NB], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    for url in LINKS.launch_links(NB).values():
        assert url in out
