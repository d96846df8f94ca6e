"""The course map, written from the notebooks' own metadata so that no two lists disagree.

Each numbered notebook carries its entry in its top-level metadata:

    "autograd_lab": {"title": "Backward and the chain rule", "minutes": "30",
                     "summary": "`.backward()` and `.grad`; ..."}

(``minutes`` is a number or a range such as ``60–90``). From those, this script writes the
generated blocks of the README (the course map table) and of the instructor guide,
``notebooks/README.md`` (its notebook table, the hub link and every notebook's launch links,
built by ``course_links.py``). A block sits between two comment lines,
``<!-- BEGIN generated NAME ... -->`` and ``<!-- END generated NAME -->``; the text around it is
written by hand. ``--check`` also compares the ``**Time:**`` line of each notebook's first cell
with its metadata.

    python scripts/course/course_map.py --write   # rewrite the generated blocks
    python scripts/course/course_map.py --check   # exit 1 if a block or a Time line is stale
    python scripts/course/course_map.py --set 13_training_loop minutes=45   # edit metadata
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from course_links import LINKS, CourseLinks  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_GLOB = "[0-9][0-9]*_*.ipynb"
KEY = "autograd_lab"
FIELDS = ("title", "minutes", "summary")
MINUTES = re.compile(r"^\d+(–\d+)?$")  # 20, or a range with an en dash: 60–90
TIME_LINE = re.compile(r"\*\*Time:\*\*\s*(\S+)\s*min")
BLOCK = re.compile(r"(<!-- BEGIN generated (?P<name>[\w-]+)[^\n]*-->\n)(?P<body>.*?)"
                   r"(<!-- END generated (?P=name) -->)", re.S)


@dataclass(frozen=True)
class Entry:
    """One notebook's place in the course map."""

    stem: str
    title: str
    minutes: str
    summary: str

    @property
    def number(self) -> str:
        return self.stem.split("_", 1)[0]

    @property
    def label(self) -> str:
        """``03 · Backward and the chain rule``."""
        return f"{self.number} · {self.title}"

    @property
    def time(self) -> str:
        """``30 min``, with a no-break space: a narrow table column never splits it."""
        return f"{self.minutes}\u00a0min"


def read_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def write_notebook(path: Path, nb: dict) -> None:
    """Save as Jupyter does (sorted keys, one-space indent): a rewrite changes only what changed."""
    path.write_text(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                    encoding="utf-8")


def entry(path: Path, nb: dict | None = None) -> Entry:
    """The notebook's metadata entry; a clear error when it is missing or malformed."""
    nb = read_notebook(path) if nb is None else nb
    meta = nb.get("metadata", {}).get(KEY)
    if not isinstance(meta, dict):
        raise ValueError(f"{path.name}: no metadata.{KEY} (set it with "
                         f"`course_map.py --set {path.stem} title=... minutes=... summary=...`)")
    missing = [f for f in FIELDS if not isinstance(meta.get(f), str) or not meta[f].strip()]
    if missing:
        raise ValueError(f"{path.name}: metadata.{KEY} lacks {', '.join(missing)}")
    if not MINUTES.match(meta["minutes"]):
        raise ValueError(f"{path.name}: metadata.{KEY}.minutes is {meta['minutes']!r}; "
                         "expected a number of minutes such as '30' or a range such as '60–90'")
    if "|" in meta["title"] + meta["summary"] or "\n" in meta["title"] + meta["summary"]:
        raise ValueError(f"{path.name}: title and summary must be one line without '|' "
                         "(they go into Markdown tables)")
    return Entry(path.stem, meta["title"], meta["minutes"], meta["summary"])


def entries(root: Path = ROOT) -> list[Entry]:
    paths = sorted((root / "notebooks").glob(NOTEBOOK_GLOB))
    if not paths:
        raise FileNotFoundError(f"no notebooks {NOTEBOOK_GLOB} in {root / 'notebooks'}")
    return [entry(p) for p in paths]


def set_metadata(path: Path, **fields: str) -> None:
    """Set some of the notebook's entry fields; only the notebook-level metadata changes."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))}; expected {FIELDS}")
    nb = read_notebook(path)
    meta = nb.setdefault("metadata", {}).setdefault(KEY, {})
    meta.update(fields)
    entry(path, nb)  # refuse to write a malformed entry
    write_notebook(path, nb)


# ---- the generated blocks --------------------------------------------------------------------

def readme_course_map(course: list[Entry], links: CourseLinks) -> str:
    rows = [f"| [{e.label}](notebooks/{e.stem}.ipynb) | {e.summary} | {e.time} |" for e in course]
    return "\n".join(["| notebook | what you learn | time |", "| --- | --- | --- |", *rows])


def guide_notebooks(course: list[Entry], links: CourseLinks) -> str:
    rows = [f"| [{e.label}]({e.stem}.ipynb) | {e.summary} | {e.time} "
            f"| [student copy](student/{e.stem}.ipynb) |" for e in course]
    return "\n".join(["| notebook (reference, with answers) | what students learn | on their own "
                      "| student copy |", "| --- | --- | --- | --- |", *rows])


def guide_hub(course: list[Entry], links: CourseLinks) -> str:
    package = f"autograd_lab[notebooks] @ git+{links.repository_url}@{links.ref}"
    pip = f'pip install nbgitpuller "{package}"'
    return (f"Repository <{links.repository_url}>, branch `{links.ref}`, hub <{links.hub_url}>. "
            "Besides Graphviz (the `dot` program), the hub's user image needs the course package "
            "with its notebook tools, and nbgitpuller:\n\n"
            f"```bash\n{pip}\n```\n\n"
            f"This link clones the branch into `~/{links.name}/` on the hub and opens the student "
            "folder (each notebook's own link is in the table at the end of this section):\n\n"
            f"```text\n{links.hub_link()}\n```")


def guide_launch(course: list[Entry], links: CourseLinks) -> str:
    rows = [f"| {e.label} | [Colab]({links.colab_url(e.stem)}) "
            f"| [Binder]({links.binder_url(e.stem)}) | [hub]({links.hub_link(e.stem)}) |"
            for e in course]
    return "\n".join(["| notebook | Colab | Binder | JupyterHub |", "| --- | --- | --- | --- |",
                      *rows])


Render = Callable[[list[Entry], CourseLinks], str]
BLOCKS: dict[str, dict[str, Render]] = {
    "README.md": {"course-map": readme_course_map},
    "notebooks/README.md": {"notebooks": guide_notebooks, "hub": guide_hub,
                            "launch": guide_launch},
}


def render(text: str, blocks: dict[str, Render], course: list[Entry], links: CourseLinks,
           where: str = "") -> str:
    """``text`` with every generated block rewritten; each expected block must be there once."""
    found = [m.group("name") for m in BLOCK.finditer(text)]
    for name in blocks:
        if found.count(name) != 1:
            raise ValueError(f"{where}: expected one generated block {name!r} "
                             f"(<!-- BEGIN generated {name} --> ... <!-- END generated {name} -->),"
                             f" found {found.count(name)}")
    unknown = sorted(set(found) - set(blocks))
    if unknown:
        raise ValueError(f"{where}: unknown generated block(s) {', '.join(unknown)}")

    def body(m: re.Match) -> str:
        return f"{m.group(1)}{blocks[m.group('name')](course, links)}\n{m.group(4)}"

    return BLOCK.sub(body, text)


def stale_time_lines(root: Path = ROOT) -> list[str]:
    """Notebooks whose first cell's ``**Time:** N min`` disagrees with their metadata."""
    out = []
    for path in sorted((root / "notebooks").glob(NOTEBOOK_GLOB)):
        nb = read_notebook(path)
        e = entry(path, nb)
        first = next((c for c in nb["cells"] if c["cell_type"] == "markdown"), None)
        src = "".join(first["source"]) if first else ""
        m = TIME_LINE.search(src)
        if m and m.group(1) != e.minutes:
            out.append(f"{path.name}: its first cell says **Time:** {m.group(1)} min, "
                       f"its metadata {e.minutes} min")
    return out


def sync(root: Path = ROOT, write: bool = False, links: CourseLinks = LINKS) -> list[str]:
    """The files whose generated blocks are stale (rewritten when ``write``)."""
    course = entries(root)
    stale = []
    for rel, blocks in BLOCKS.items():
        path = root / rel
        text = path.read_text(encoding="utf-8")
        new = render(text, blocks, course, links, where=rel)
        if new != text:
            stale.append(rel)
            if write:
                path.write_text(new, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the generated blocks")
    mode.add_argument("--check", action="store_true", help="exit 1 if any is stale")
    mode.add_argument("--set", nargs="+", metavar=("NOTEBOOK", "FIELD=VALUE"),
                      help="set metadata fields of one notebook, then rewrite the blocks")
    ap.add_argument("--root", type=Path, default=ROOT, help="repository to work on")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    try:
        if args.set:
            name, *pairs = args.set
            if not pairs or any("=" not in p for p in pairs):
                ap.error("--set NOTEBOOK FIELD=VALUE [FIELD=VALUE ...]")
            path = root / "notebooks" / f"{name.removesuffix('.ipynb')}.ipynb"
            if not path.is_file():
                ap.error(f"no notebook {path}")
            set_metadata(path, **dict(p.split("=", 1) for p in pairs))
        stale = sync(root, write=not args.check)
        times = stale_time_lines(root)
    except (ValueError, FileNotFoundError) as exc:
        print(f"course_map: {exc}", file=sys.stderr)
        return 1
    for line in times:
        print(f"course_map: {line}", file=sys.stderr)
    if args.check:
        for rel in stale:
            print(f"course_map: {rel}: generated blocks differ from the notebooks' metadata "
                  "(run scripts/course/course_map.py --write)", file=sys.stderr)
        return 1 if stale or times else 0
    for rel in stale:
        print(f"course_map: wrote {rel}")
    return 1 if times else 0


if __name__ == "__main__":
    sys.exit(main())
