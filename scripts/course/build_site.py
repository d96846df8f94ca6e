"""Build the course website: one page per notebook, in course order, from the saved outputs.

Sphinx with myst-nb and sphinx-book-theme renders the notebooks (nothing is executed). The
sources are first staged into a folder beside the output:

- the notebooks ``notebooks/NN_*.ipynb`` in file order, with each exercise shown as the student
  copy has it (answers replaced by ``...``) followed by the reference cell collapsed behind
  "Show solution", and the Colab install cell left out;
- ``figures/`` and any other repository file the notebooks link to (``.md`` files become pages,
  others downloads); images embedded in the notebooks (cell attachments, data URLs) as files;
- at the top of each notebook page, its launch links (``course_links.py``): the student copy
  on Colab, on Binder and on a JupyterHub (nbgitpuller), a download of the student copy, and the
  reference notebook for instructors; the student copies, made from the reference notebooks
  as ``make_student_notebooks.py`` makes them, are served beside the pages
  (``notebooks/student/NAME.ipynb``), so the download works offline;
- a landing page made from the README: its introduction and its course map; the instructor
  guide ``notebooks/README.md``;
- MathJax and the widget manager unpacked from the npm tarballs cached by ``site_assets.py``.

    python scripts/course/build_site.py [--out build/site] [--ref BRANCH] [--hub URL]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import html
import json
import re
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import site_a11y  # noqa: E402
import site_assets  # noqa: E402
from course_links import LINKS, STUDENT_DIR, CourseLinks  # noqa: E402
from make_student_notebooks import BEGIN, strip_solution, student_notebook  # noqa: E402

CONF = HERE / "site"
NOTEBOOK_GLOB = "[0-9][0-9]*_*.ipynb"
GUIDE = "notebooks/README.md"  # the instructor guide
EXTRA = "_extra"  # copied as it is into the site's root (conf.py's html_extra_path)
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# ![alt](data:image/TYPE;base64,DATA "title"); the alt text may hold balanced brackets.
DATA_IMAGE = re.compile(r"(!\[(?:[^\[\]]|\[[^\[\]]*\])*\]\()data:image/([\w.+-]+);base64,"
                        r"([A-Za-z0-9+/=]+)((?:\s+\"[^\"]*\")?\))")
DATA_SUFFIX = {"svg+xml": ".svg", "png": ".png", "jpeg": ".jpg", "gif": ".gif", "webp": ".webp"}
EMBEDDED = "figures/_embedded"  # where images embedded as data URLs are written out
SOLUTION_PROMPTS = {"code_prompt_show": "Show solution", "code_prompt_hide": "Hide solution"}


def cell_source(cell: dict) -> str:
    src = cell.get("source", "")
    return src if isinstance(src, str) else "".join(src)


def site_notebook(nb: dict, site_root: Path) -> dict:
    """The notebook as the site shows it: exercises first, answers collapsed, no Colab cell.

    ``site_root`` is the staged source folder (images embedded as data URLs go there).
    """
    nb = json.loads(json.dumps(nb))
    cells: list[dict] = []
    for cell in nb["cells"]:
        meta = cell.setdefault("metadata", {})
        tags = meta.setdefault("tags", [])
        if cell["cell_type"] == "markdown":
            cell["source"] = extract_attachments(cell, site_root)
            cell["source"] = extract_data_images(cell["source"], site_root)
        if cell["cell_type"] == "code" and "colab" in tags:
            continue  # installs the package on Colab; nothing to read on a web page
        if cell["cell_type"] == "code" and BEGIN in cell_source(cell):
            exercise = {
                "cell_type": "code", "execution_count": None, "outputs": [],
                "metadata": {"tags": ["exercise"]},
                "source": strip_solution(cell_source(cell)),
            }
            if "id" in cell:
                exercise["id"] = f"{cell['id'][:50]}-exercise"
            cells.append(exercise)
            tags.append("hide-cell")
            tags.append("solution")
            meta["mystnb"] = {**meta.get("mystnb", {}), **SOLUTION_PROMPTS}
        cells.append(cell)
    nb["cells"] = cells
    return nb


def launch_bar(stem: str, links: CourseLinks, guide: bool = True) -> str:
    """The launch links of a notebook's page, as one HTML block (hrefs from its page's folder).

    All of them open or download the student copy; the reference notebook (answers) is the
    last link, marked for instructors, beside the instructor guide when there is one.
    """
    def a(cls: str, href: str, text: str, title: str = "", new_tab: bool = True) -> str:
        extra = ' target="_blank" rel="noopener"' if new_tab else ""
        extra += f' title="{html.escape(title)}"' if title else ""
        return f'<a class="{cls}" href="{html.escape(href)}"{extra}>{text}</a>'

    launch = [
        a("launch-link launch-colab", links.colab_url(stem), "Colab",
          "Open the student copy in Google Colab"),
        a("launch-link launch-binder", links.binder_url(stem), "Binder",
          "Open the student copy on mybinder.org (a temporary session)"),
        a("launch-link launch-hub", links.hub_link(stem), "JupyterHub",
          "Open the student copy on your class's JupyterHub (nbgitpuller)"),
        f'<a class="launch-link launch-download" href="student/{stem}.ipynb" '
        f'download="{stem}.ipynb" title="Download the student copy">Download .ipynb</a>',
    ]
    for_instructors = [a("launch-reference", links.reference_url(stem),
                         "the reference notebook, with answers")]
    if guide:
        for_instructors.append(a("launch-guide", "README.html", "the instructor guide",
                                 new_tab=False))
    return "\n".join([
        '<nav class="launch-links" aria-label="Open this notebook">',
        '<span class="launch-heading">Work on the exercises in the student copy '
        "(answers removed):</span>",
        *launch,
        '<span class="launch-instructors">For instructors: '
        f'{" and ".join(for_instructors)}.</span>',
        "</nav>",
    ])


def with_launch_links(nb: dict, stem: str, links: CourseLinks, guide: bool = True) -> dict:
    """The site notebook with its launch links just below its title (the first ``#`` line)."""
    bar = launch_bar(stem, links, guide)
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = cell_source(cell)
        m = re.match(r"# [^\n]*\n?", text)
        head, rest = (m.group(0), text[m.end():]) if m else ("", text)
        cell["source"] = f"{head.rstrip()}\n\n{bar}\n\n{rest.lstrip()}".lstrip()
        return nb
    nb["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "source": bar,
                           "id": "launch-links"})
    return nb


# [text](student/NAME.ipynb), from the guide: the student copy, served as a file, not a page.
STUDENT_LINK = re.compile(r"\[([^\]]+)\]\((student/[\w.-]+\.ipynb)\)")


def student_downloads(markdown: str) -> str:
    """The guide's links to student copies as download links (Sphinx would look for a page)."""
    return STUDENT_LINK.sub(
        lambda m: f'<a class="student-copy" href="{m.group(2)}" '
                  f'download="{m.group(2).rsplit("/", 1)[1]}">{html.escape(m.group(1))}</a>',
        markdown)


def write_embedded(data: bytes, suffix: str, site_root: Path) -> str:
    """Write an embedded image into the staged site; its path from a notebook page."""
    name = hashlib.sha256(data).hexdigest()[:20] + suffix
    (site_root / EMBEDDED).mkdir(parents=True, exist_ok=True)
    (site_root / EMBEDDED / name).write_bytes(data)
    return f"../{EMBEDDED}/{name}"


def extract_data_images(text: str, site_root: Path) -> str:
    """Write markdown images given as data URLs to files and link those instead.

    Markdown parsers refuse ``data:image/svg+xml`` links (a script could hide in them), so a
    figure embedded that way in a notebook would show as its source text on the page.
    """
    def write(m: re.Match) -> str:
        mime, payload = m.group(2), m.group(3)
        if mime not in DATA_SUFFIX:
            return m.group(0)
        path = write_embedded(base64.b64decode(payload), DATA_SUFFIX[mime], site_root)
        return f"{m.group(1)}{path}{m.group(4)}"

    return DATA_IMAGE.sub(write, text)


def extract_attachments(cell: dict, site_root: Path) -> str:
    """The markdown cell's source with each ``attachment:NAME`` image written out as a file
    (myst-nb leaves attachment links as they are, which no browser can load)."""
    text = cell_source(cell)
    for name, bundle in cell.pop("attachments", {}).items():
        mime = next((m for m in bundle if m.removeprefix("image/") in DATA_SUFFIX), None)
        if mime is None:
            continue
        payload = bundle[mime]
        payload = payload if isinstance(payload, str) else "".join(payload)
        data = (payload.encode() if mime == "image/svg+xml" and payload.lstrip().startswith("<")
                else base64.b64decode(payload))
        path = write_embedded(data, DATA_SUFFIX[mime.removeprefix("image/")], site_root)
        text = text.replace(f"attachment:{name}", path)
    return text


def local_links(text: str, base: Path, root: Path) -> set[Path]:
    """Repository files (not notebooks, not folders) that ``text``'s markdown links point to."""
    found = set()
    for target in LINK.findall(text):
        target = target.split("#", 1)[0]
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue
        path = (base / target).resolve()
        if path.is_file() and path.suffix != ".ipynb" and path.is_relative_to(root):
            found.add(path)
    return found


def readme_section(readme: str, heading: str) -> str:
    """The body of the ``## heading`` section of the README ('' when there is none)."""
    m = re.search(rf"^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", readme, flags=re.M | re.S)
    return m.group(1).strip() if m else ""


def landing_page(readme: str, notebooks: list[Path], guide: bool = False,
                 pages: list[str] = ()) -> str:
    """The front page: the README's course map first, then its introduction; the navigation.

    Links to other sections of the README (``](#students-work)``) point to the README's page.
    """
    def to_readme(text: str) -> str:
        return re.sub(r"\]\(#([^)\s]+)\)", r"](README.md#\1)", text)

    intro = to_readme(readme.split("\n## ", 1)[0].split("\n", 1)[1].strip())  # no "# title"
    course_map = to_readme(readme_section(readme, "Course map"))
    toc = "\n".join(f"notebooks/{p.stem}" for p in notebooks)
    return (
        "# How PyTorch builds and uses graphs\n\n"
        "## Course map\n\n"
        f"{course_map}\n\n"
        "Each page is a notebook as it was last run, outputs included. To work through its "
        "exercises, open the student copy from the links at the top of the page: on Colab, on "
        "Binder, on your class's JupyterHub, or downloaded; or clone the repository and run "
        "`bash scripts/lab.sh`."
        + (" Teaching the course? See the [instructor guide](notebooks/README.md)." if guide
           else "") + "\n\n"
        "## About autograd_lab\n\n"
        f"{intro}\n\n"
        f"```{{toctree}}\n:hidden:\n:caption: Course\n:maxdepth: 1\n\n{toc}\n```\n\n"
        "```{toctree}\n:hidden:\n:caption: The project\n\nThe README <README>\n"
        + ("Instructor guide <notebooks/README>\n" if guide else "")
        + "".join(f"{page}\n" for page in pages) + "```\n"
    )


def stage(src: Path, dest: Path, links: CourseLinks = LINKS) -> list[Path]:
    """Write the Sphinx source folder ``dest`` from the repository at ``src``."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(CONF, dest)
    site_assets.unpack(dest / "_static")
    if (src / "figures").is_dir():
        shutil.copytree(src / "figures", dest / "figures")

    notebooks = sorted((src / "notebooks").glob(NOTEBOOK_GLOB))
    guide = (src / GUIDE).is_file()
    linked: set[Path] = set()
    (dest / "notebooks").mkdir()
    students = dest / EXTRA / STUDENT_DIR
    students.mkdir(parents=True)
    for path in notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                linked |= local_links(cell_source(cell), path.parent, src)
        page = with_launch_links(site_a11y.stage_notebook(site_notebook(nb, dest)), path.stem,
                                 links, guide)
        (dest / "notebooks" / path.name).write_text(
            json.dumps(page, ensure_ascii=False, indent=1), encoding="utf-8")
        # The student copy as make_student_notebooks.py writes it (what notebooks/student/ tracks).
        (students / path.name).write_text(
            json.dumps(student_notebook(nb), indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8")
    if guide:
        text = (src / GUIDE).read_text(encoding="utf-8")
        linked |= local_links(text, (src / GUIDE).parent, src)
        (dest / GUIDE).write_text(student_downloads(text), encoding="utf-8")

    readme = (src / "README.md").read_text(encoding="utf-8")
    linked |= local_links(readme, src, src)
    linked.add(src / "README.md")
    pages = []  # other Markdown files linked (CHANGELOG.md, ...): pages in the navigation
    for path in sorted(linked):
        rel = path.relative_to(src)
        if rel.parts[0] in ("figures", "notebooks"):
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dest / rel)
        if rel.suffix == ".md" and rel != Path("README.md"):
            pages.append(rel.with_suffix("").as_posix())
    (dest / "index.md").write_text(landing_page(readme, notebooks, guide, pages),
                                   encoding="utf-8")
    course_map = readme_section(readme, "Course map")
    for path in notebooks:
        if f"notebooks/{path.name}" not in course_map:
            print(f"site: warning: the README's course map does not link {path.name} "
                  "(the page is in the navigation all the same)", file=sys.stderr)
    return notebooks


def build(src: Path = ROOT, out: Path = ROOT / "build" / "site", quiet: bool = False,
          links: CourseLinks = LINKS) -> int:
    """Stage the sources and run Sphinx into ``out``; returns Sphinx's exit code."""
    from sphinx.cmd.build import build_main

    t0 = time.perf_counter()
    out = out.resolve()
    work = out.parent / f"{out.name}-src"
    notebooks = stage(src, work, links)
    if out.exists():
        shutil.rmtree(out)
    args = ["-b", "html", "-E", "-d", str(work / "_doctrees"), "-j", "auto"]
    if quiet:
        args.append("-q")
    code = build_main([*args, str(work), str(out)])
    if code == 0:
        site_a11y.postprocess(out)
        print(f"site: {len(notebooks)} notebooks -> {out / 'index.html'} "
              f"in {time.perf_counter() - t0:.1f} s")
    return code


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "site")
    ap.add_argument("--src", type=Path, default=ROOT, help="repository to build from")
    ap.add_argument("-q", "--quiet", action="store_true", help="only warnings and errors")
    ap.add_argument("--ref", default=LINKS.ref,
                    help=f"branch the launch links open (default: {LINKS.ref}, course_links.py)")
    ap.add_argument("--hub", default=LINKS.hub_url,
                    help=f"JupyterHub of the nbgitpuller links (default: {LINKS.hub_url})")
    args = ap.parse_args(argv)
    try:
        links = CourseLinks(LINKS.repository, args.ref, args.hub)
    except ValueError as exc:
        ap.error(str(exc))
    return build(args.src.resolve(), args.out, args.quiet, links)


if __name__ == "__main__":
    sys.exit(main())
