"""Embed the course figures into the notebooks' Markdown cells as ``data:`` URLs.

    .venv/bin/python scripts/course/embed_figures.py notebooks/*.ipynb          # write
    .venv/bin/python scripts/course/embed_figures.py --check notebooks/*.ipynb  # exit 1 if stale

``figures/`` stays the source of truth (``make figures`` redraws it, then runs this script). A
notebook links a figure as ``![alt](../figures/NAME)``; this script rewrites the link to
``![alt](data:MIME;base64,... "figures/NAME")``, the title naming the file it came from, and
later runs refresh the data from that file. The notebook then shows its figures wherever it is
opened: JupyterLab whatever its root folder, Voila, nbconvert, Colab and Sphinx/myst-nb.

Why not cell attachments: JupyterLab 4 renders an attachment only for raster MIME types (an
``image/svg+xml`` attachment is refused), and myst-nb ignores attachments.
"""

from __future__ import annotations

import argparse
import base64
import json
import mimetypes
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIGURES = REPO / "figures"

# ![alt](src) or ![alt](src "title"); alt may hold [brackets] one deep; base64 and the figure
# names contain no space nor ")".
IMAGE = re.compile(r'!\[(?P<alt>(?:[^\[\]]|\[[^\[\]]*\])*)\]'
                   r'\((?P<src>[^)\s]+)(?:\s+"(?P<title>[^"]*)")?\)')
LINKED = re.compile(r"(?:\.\./)?figures/(?P<name>[\w.-]+)")


def _source(cell: dict) -> str:
    s = cell.get("source", "")
    return s if isinstance(s, str) else "".join(s)


def figure_name(src: str, title: str | None) -> str | None:
    """The ``figures/`` file an image stands for: a relative link to it, or an embedded copy."""
    if src.startswith("data:"):
        m = LINKED.fullmatch(title or "")
    else:
        m = LINKED.fullmatch(src)
    return m.group("name") if m else None


def data_url(path: Path) -> str:
    mime, _ = mimetypes.guess_type(path.name)
    if mime is None or not mime.startswith("image/"):
        raise ValueError(f"{path}: not an image file")
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def embed_text(text: str, figures: Path = FIGURES) -> str:
    """``text`` with every figure link or embedded figure replaced by the current file's data."""
    def sub(m: re.Match) -> str:
        name = figure_name(m.group("src"), m.group("title"))
        if name is None:
            return m.group(0)
        path = figures / name
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing (linked as {m.group('src')[:60]!r})")
        return f'![{m.group("alt")}]({data_url(path)} "figures/{name}")'

    return IMAGE.sub(sub, text)


def embedded(nb: dict, figures: Path = FIGURES) -> dict:
    """The notebook with the figures of its Markdown cells embedded from ``figures``."""
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = _source(cell)
        new = embed_text(text, figures)
        if new != text:
            cell["source"] = new.splitlines(keepends=True)
    return nb


def figures_of(nb: dict) -> list[tuple[str, str]]:
    """(figure name, src) of every Markdown image of the notebook that stands for a figure."""
    return [(name, m.group("src"))
            for cell in nb["cells"] if cell["cell_type"] == "markdown"
            for m in IMAGE.finditer(_source(cell))
            if (name := figure_name(m.group("src"), m.group("title"))) is not None]


def dumps(nb: dict) -> str:
    """The notebook as ``nbformat`` writes it."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Embed (or with ``--check`` report stale figures) in the notebooks given."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when a notebook's figures differ from figures/")
    ap.add_argument("--figures", type=Path, default=FIGURES)
    ap.add_argument("notebooks", nargs="+", type=Path)
    args = ap.parse_args(argv)
    stale = []
    for path in args.notebooks:
        text = path.read_text(encoding="utf-8")
        nb = json.loads(text)
        before = json.dumps(nb["cells"], sort_keys=True)
        new = embedded(nb, args.figures)
        if json.dumps(new["cells"], sort_keys=True) == before:
            continue
        if args.check:
            stale.append(path)
            print(f"embed_figures: {path}: figures missing or older than {args.figures}/",
                  file=sys.stderr)
        else:
            path.write_text(dumps(new), encoding="utf-8")
            print(f"embed_figures: wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
