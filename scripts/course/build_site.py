"""Build the course website: one page per notebook, in course order, from the saved outputs.

Sphinx with myst-nb and sphinx-book-theme renders the notebooks (nothing is executed). The
sources are first staged into a folder beside the output:

- the notebooks ``notebooks/NN_*.ipynb`` in file order, with each exercise shown as the student
  copy has it (answers replaced by ``...``) followed by the reference cell collapsed behind
  "Show solution", and the Colab install cell left out;
- ``figures/`` and any other repository file the notebooks link to (``.md`` files become pages,
  others downloads); images embedded in the notebooks (cell attachments, data URLs) as files;
- a landing page made from the README: its introduction and its course map;
- MathJax and the widget manager unpacked from the npm tarballs cached by ``site_assets.py``.

    python scripts/course/build_site.py [--out build/site]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
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
from make_student_notebooks import BEGIN, strip_solution  # noqa: E402

CONF = HERE / "site"
NOTEBOOK_GLOB = "[0-9][0-9]_*.ipynb"
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


def landing_page(readme: str, notebooks: list[Path]) -> str:
    """The front page: the README's course map first, then its introduction; the navigation."""
    intro = readme.split("\n## ", 1)[0].split("\n", 1)[1].strip()  # drop the "# title" line
    course_map = readme_section(readme, "Course map")
    toc = "\n".join(f"notebooks/{p.stem}" for p in notebooks)
    return (
        "# How PyTorch builds and uses graphs\n\n"
        "## Course map\n\n"
        f"{course_map}\n\n"
        "Each page is a notebook as it was last run, outputs included. To run the code yourself, "
        "clone the repository and run `bash scripts/lab.sh`.\n\n"
        "## About autograd_lab\n\n"
        f"{intro}\n\n"
        f"```{{toctree}}\n:hidden:\n:caption: Course\n:maxdepth: 1\n\n{toc}\n```\n\n"
        "```{toctree}\n:hidden:\n:caption: The project\n\nThe README <README>\n```\n"
    )


def stage(src: Path, dest: Path) -> list[Path]:
    """Write the Sphinx source folder ``dest`` from the repository at ``src``."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(CONF, dest)
    site_assets.unpack(dest / "_static")
    if (src / "figures").is_dir():
        shutil.copytree(src / "figures", dest / "figures")

    notebooks = sorted((src / "notebooks").glob(NOTEBOOK_GLOB))
    linked: set[Path] = set()
    (dest / "notebooks").mkdir()
    for path in notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                linked |= local_links(cell_source(cell), path.parent, src)
        staged = site_a11y.stage_notebook(site_notebook(nb, dest))
        (dest / "notebooks" / path.name).write_text(
            json.dumps(staged, ensure_ascii=False, indent=1), encoding="utf-8")

    readme = (src / "README.md").read_text(encoding="utf-8")
    linked |= local_links(readme, src, src)
    linked.add(src / "README.md")
    for path in linked:
        rel = path.relative_to(src)
        if rel.parts[0] in ("figures", "notebooks"):
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dest / rel)
    (dest / "index.md").write_text(landing_page(readme, notebooks), encoding="utf-8")
    course_map = readme_section(readme, "Course map")
    for path in notebooks:
        if f"notebooks/{path.name}" not in course_map:
            print(f"site: warning: the README's course map does not link {path.name} "
                  "(the page is in the navigation all the same)", file=sys.stderr)
    return notebooks


def build(src: Path = ROOT, out: Path = ROOT / "build" / "site", quiet: bool = False) -> int:
    """Stage the sources and run Sphinx into ``out``; returns Sphinx's exit code."""
    from sphinx.cmd.build import build_main

    t0 = time.perf_counter()
    out = out.resolve()
    work = out.parent / f"{out.name}-src"
    notebooks = stage(src, work)
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
    args = ap.parse_args(argv)
    return build(args.src.resolve(), args.out, args.quiet)


if __name__ == "__main__":
    sys.exit(main())
