"""Executing a notebook again changes nothing but object addresses.

`make notebooks` runs `scripts/course/run_notebooks.py`: no timestamps, streams joined, saved
widgets with stable ids in a stable order. So after an instructor edits one cell and runs it, the
diff shows that cell and nothing else.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def test_committed_notebooks_are_in_canonical_form():
    result = subprocess.run([sys.executable, "scripts/course/run_notebooks.py", "--check"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_rerun_changes_nothing_but_addresses(tmp_path):
    """Notebook 03 has steppers (saved widget state), graphs, and reprs with addresses."""
    name = "03_backward_and_the_chain_rule.ipynb"
    committed = (ROOT / "notebooks" / name).read_text(encoding="utf-8")
    assert "widget-state+json" in committed and "<svg" in committed
    assert ADDRESS.search(committed)
    (tmp_path / "notebooks").mkdir()
    shutil.copy(ROOT / "notebooks" / name, tmp_path / "notebooks" / name)
    result = subprocess.run([sys.executable, str(ROOT / "scripts/course/run_notebooks.py"),
                             str(tmp_path / "notebooks" / name)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    rerun = (tmp_path / "notebooks" / name).read_text(encoding="utf-8")
    before, after = ADDRESS.sub("0xADDRESS", committed), ADDRESS.sub("0xADDRESS", rerun)
    if before != after:
        diff = [f"- {a}\n+ {b}" for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
        raise AssertionError("re-running changed more than addresses:\n" + "\n".join(diff[:10]))


def test_normalising_is_idempotent_and_keeps_widgets_linked():
    sys.path.insert(0, str(ROOT / "scripts" / "course"))
    import nbformat
    from run_notebooks import WIDGET_STATE, WIDGET_VIEW, normalize

    nb = nbformat.read(ROOT / "notebooks" / "05_retain_graph_and_accumulation.ipynb", 4)
    once = normalize(nb, "05")
    twice = normalize(once, "05")
    assert nbformat.writes(once) == nbformat.writes(twice)
    state = once.metadata["widgets"][WIDGET_STATE]["state"]
    views = [o["data"][WIDGET_VIEW]["model_id"] for c in once.cells for o in c.get("outputs", [])
             if WIDGET_VIEW in o.get("data", {})]
    assert views and all(v in state for v in views)
    for model in state.values():  # every reference points at a saved model
        for ref in re.findall(r"IPY_MODEL_([0-9a-f]{32})", str(model)):
            assert ref in state
    for cell in once.cells:
        assert "execution" not in cell.metadata
        outs = cell.get("outputs", [])
        for a, b in zip(outs, outs[1:]):
            assert not (a["output_type"] == b["output_type"] == "stream" and a["name"] == b["name"])
