"""Execute the course notebooks and save them in a canonical form, so a re-run diffs cleanly.

A notebook executed twice should differ only where the run itself differs (object addresses
in reprs, which nbval masks). Left alone, nbclient also writes four timestamps per code cell,
fresh random ids for every saved widget, widget state in the order the models happened to be
created, and stream output split wherever the kernel flushed. This script removes all four:

- no timing metadata (``record_timing=False``, and old ``execution`` entries are dropped);
- consecutive outputs of the same stream are joined into one;
- saved widget ids are renamed in the order the notebook shows them (ids derived from the
  notebook's name and that position), their references rewritten, and the state sorted.

    python scripts/course/run_notebooks.py notebooks/03_*.ipynb      # execute, then normalise
    python scripts/course/run_notebooks.py --normalize-only NB...    # normalise saved outputs
    python scripts/course/run_notebooks.py --check NB...             # exit 1 unless canonical
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parents[2]
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def execute(nb: Any, path: Path, timeout: int = 600) -> Any:
    """Run every cell in a fresh kernel started in the notebook's folder (no timing recorded)."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    return nb


def _coalesce_streams(outputs: list) -> list:
    """Join each run of outputs of one stream (stdout or stderr) into a single output."""
    merged: list = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and prev is not None
                and prev.get("output_type") == "stream" and prev.get("name") == out.get("name")):
            prev["text"] = "".join(prev["text"]) + "".join(out["text"])
        else:
            merged.append(out)
    return merged


def _references(value: Any) -> list[str]:
    """Model ids referenced (``IPY_MODEL_<id>``) inside a widget's state, in a stable order."""
    text = json.dumps(value, sort_keys=True)
    return list(dict.fromkeys(REF.findall(text)))


def _rename_widgets(nb: Any, name: str) -> None:
    """Give saved widgets ids fixed by the notebook's name and the order it shows them."""
    widgets = nb.metadata.get("widgets", {}).get(WIDGET_STATE)
    if not widgets:
        return
    state = widgets["state"]
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in order or model_id not in state:
            return
        order.append(model_id)
        for ref in _references(state[model_id]):
            visit(ref)

    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view:
                visit(view["model_id"])
    # Models no view reaches (a closed widget's layout, say): ordered by their content.
    rest = [m for m in state if m not in order]
    rest.sort(key=lambda m: REF.sub("IPY_MODEL_", json.dumps(state[m], sort_keys=True)))
    for model_id in rest:
        visit(model_id)
    new_ids = {old: hashlib.sha256(f"{name}:{i}".encode()).hexdigest()[:32]
               for i, old in enumerate(order)}

    def rename(value: Any) -> Any:
        if isinstance(value, str):
            if value in new_ids:
                return new_ids[value]
            return REF.sub(lambda m: "IPY_MODEL_" + new_ids.get(m.group(1), m.group(1)), value)
        if isinstance(value, list):
            return [rename(v) for v in value]
        if isinstance(value, dict):
            return {k: rename(v) for k, v in value.items()}
        return value

    widgets["state"] = {new_ids[old]: rename(state[old]) for old in order}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view and view["model_id"] in new_ids:
                view["model_id"] = new_ids[view["model_id"]]


def normalize(nb: Any, name: str) -> Any:
    """The canonical form of an executed notebook (see the module docstring)."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
    _rename_widgets(nb, name)
    return nb


def _text(nb: Any) -> str:
    """The file's text, as ``nbformat.write`` (and so JupyterLab and nbconvert) writes it."""
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="*", type=Path)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--normalize-only", action="store_true", help="do not execute")
    mode.add_argument("--check", action="store_true", help="report notebooks not in canonical form")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    args = ap.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
    stale = []
    for path in paths:
        if not path.exists():
            print(f"run_notebooks: no such notebook: {path}", file=sys.stderr)
            return 2
        nb = nbformat.read(path, as_version=4)
        before = _text(nb)
        if not (args.check or args.normalize_only):
            print(f"run_notebooks: executing {path.name}", flush=True)
            nb = execute(nb, path, args.timeout)
        after = _text(normalize(nb, path.stem))
        if args.check:
            if after != before:
                stale.append(path)
            continue
        if after != path.read_text(encoding="utf-8"):
            path.write_text(after, encoding="utf-8")
    if stale:
        print("run_notebooks: not in canonical form (run "
              "`python scripts/course/run_notebooks.py --normalize-only` on them):")
        for path in stale:
            print(f"  {path}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
