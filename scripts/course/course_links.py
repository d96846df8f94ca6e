"""Where the course lives online, in one place, and the links built from it.

Change the three settings below and everything that names the repository follows: the Colab
cell's pip install (``colab_cell.py``), the website's launch links (``build_site.py``), and the
README's and instructor guide's links (``course_map.py``).

- ``REPOSITORY``: the GitHub repository, ``owner/name``.
- ``REF``: the branch every link opens. A class that keeps to one release for a semester uses
  that release's branch (``release/0.2``), not a tag: nbgitpuller merges the branch again on
  each later visit, which a tag cannot do.
- ``HUB_URL``: the JupyterHub a class uses, for nbgitpuller links (a placeholder until an
  instructor sets it).

Students open the copies in ``notebooks/student/`` (answers removed); the reference notebooks
in ``notebooks/`` (answers and outputs) stay one link away, for instructors.

    python scripts/course/course_links.py 03_backward_and_the_chain_rule   # print its links
"""

# No ``from __future__ import annotations``: the dataclass below then needs no entry in
# sys.modules, so tests can load this file as a script (importlib, spec_from_file_location).
import re
import sys
from dataclasses import dataclass
from urllib.parse import quote

REPOSITORY = "autograd-lab/autograd_lab"
REF = "main"
HUB_URL = "https://hub.example.edu"

STUDENT_DIR = "notebooks/student"
REFERENCE_DIR = "notebooks"
NOTEBOOK_NAME = re.compile(r"^\d\d[a-z]?_[A-Za-z0-9_]+$")  # NN_name or NNb_name (frozen names)


def notebook_stem(name: str) -> str:
    """``03_x`` from ``03_x``, ``03_x.ipynb`` or ``notebooks/03_x.ipynb`` (else ValueError)."""
    stem = name.rsplit("/", 1)[-1].removesuffix(".ipynb")
    if not NOTEBOOK_NAME.match(stem):
        raise ValueError(f"{name!r} is not a course notebook name (NN_name or NN_name.ipynb)")
    return stem


@dataclass(frozen=True)
class CourseLinks:
    """Launch and source links for one repository, branch and hub."""

    repository: str = REPOSITORY
    ref: str = REF
    hub_url: str = HUB_URL

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", self.repository) \
                or self.repository.endswith(".git"):
            raise ValueError(f"repository {self.repository!r}: expected owner/name on GitHub "
                             "(no .git, no URL)")
        if not self.ref or any(c in self.ref for c in " ?#&\\") or self.ref.startswith("/"):
            raise ValueError(f"ref {self.ref!r}: expected a branch name such as main or "
                             "release/0.2")
        if not re.fullmatch(r"https?://[^\s?#]+", self.hub_url):
            raise ValueError(f"hub URL {self.hub_url!r}: expected http(s)://host[/path], "
                             "without a query")

    @property
    def owner(self) -> str:
        return self.repository.split("/")[0]

    @property
    def name(self) -> str:
        """The repository's name: also the folder nbgitpuller clones it into on a hub."""
        return self.repository.split("/")[1]

    @property
    def repository_url(self) -> str:
        return f"https://github.com/{self.repository}"

    def _ref(self) -> str:
        """The branch in a GitHub-style path, where its slashes stay (``blob/release/0.2/...``)."""
        return quote(self.ref, safe="/")

    def reference_url(self, name: str) -> str:
        """The reference notebook (answers, saved outputs) on GitHub."""
        path = f"{REFERENCE_DIR}/{notebook_stem(name)}.ipynb"
        return f"{self.repository_url}/blob/{self._ref()}/{path}"

    def student_url(self, name: str) -> str:
        """The student copy on GitHub."""
        return f"{self.repository_url}/blob/{self._ref()}/{STUDENT_DIR}/{notebook_stem(name)}.ipynb"

    def colab_url(self, name: str) -> str:
        """Colab opening the student copy straight from GitHub."""
        return ("https://colab.research.google.com/github/"
                f"{self.repository}/blob/{self._ref()}/{STUDENT_DIR}/{notebook_stem(name)}.ipynb")

    def binder_url(self, name: str) -> str:
        """mybinder.org building the repository at ``ref`` and opening the student copy in
        JupyterLab (Binder starts in the repository's root). The branch is one path segment
        here, so its slashes are encoded (``release%2F0.2``), as Binder's own form does."""
        return (f"https://mybinder.org/v2/gh/{self.repository}/{quote(self.ref, safe='')}"
                f"?urlpath=lab/tree/{STUDENT_DIR}/{notebook_stem(name)}.ipynb")

    def hub_link(self, name: str | None = None) -> str:
        """An nbgitpuller link: the hub clones the repository at ``ref`` into ``~/NAME`` on the
        first visit (merging later changes, students' edits winning, on each later one), then
        opens the student copy in JupyterLab; without a notebook, the student folder."""
        target = (f"{STUDENT_DIR}/{notebook_stem(name)}.ipynb" if name is not None
                  else STUDENT_DIR)
        # The repository URL and branch fully encoded, as nbgitpuller's link generator does;
        # the path keeps its slashes, for a reader.
        return (f"{self.hub_url.rstrip('/')}/hub/user-redirect/git-pull"
                f"?repo={quote(self.repository_url, safe='')}&branch={quote(self.ref, safe='')}"
                f"&urlpath={quote(f'lab/tree/{self.name}/{target}', safe='/')}")

    def launch_links(self, name: str) -> dict[str, str]:
        """Every link a notebook's page offers, by kind."""
        return {"colab": self.colab_url(name), "binder": self.binder_url(name),
                "hub": self.hub_link(name), "reference": self.reference_url(name),
                "student": self.student_url(name)}


LINKS = CourseLinks()
REPOSITORY_URL = LINKS.repository_url


def main(argv: list[str] | None = None) -> int:
    """Print the links of the notebooks named on the command line."""
    names = sys.argv[1:] if argv is None else argv
    if not names:
        print(__doc__)
        return 2
    for name in names:
        for kind, url in LINKS.launch_links(name).items():
            print(f"{kind:9} {url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
