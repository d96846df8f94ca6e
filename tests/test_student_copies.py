"""The tracked student copies: current, answer-free, and never overwritten once a student edits.

``notebooks/student/`` is what Binder, Colab, a hub and the site open. The copies are made from the
reference notebooks by ``scripts/course/make_student_notebooks.py``, which ``lab.sh`` and ``make
student`` run; a student works in them, so a relaunch must never lose an edit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "course"))

from make_student_notebooks import BEGIN, END, sources_hash, student_notebook, sync  # noqa: E402

REFERENCES = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
STUDENT = ROOT / "notebooks" / "student"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _save(path: Path, nb: dict) -> None:
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def test_tracked_copies_match_the_reference_notebooks():
    """A reference notebook changed without `make student` fails here."""
    result = subprocess.run([sys.executable, "scripts/course/make_student_notebooks.py", "--check"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(p.name for p in STUDENT.glob("*.ipynb")) == [p.name for p in REFERENCES]


def test_copies_hold_no_answers_and_no_outputs():
    for ref in REFERENCES:
        copy = _load(STUDENT / ref.name)
        text = "".join("".join(c["source"]) for c in copy["cells"] if c["cell_type"] == "code")
        assert BEGIN not in text and END not in text, ref.name
        assert all(not c.get("outputs") for c in copy["cells"] if c["cell_type"] == "code")
        solved = [c for c in _load(ref)["cells"] if BEGIN in "".join(c["source"])]
        if solved:
            assert "# your code here" in text, ref.name


def _lab(student_dir: Path, tmp: Path) -> str:
    """Run lab.sh as a student would, up to the point where JupyterLab starts (--version)."""
    env = dict(os.environ, AUTOGRAD_LAB_STUDENT_DIR=str(student_dir),
               JUPYTER_DATA_DIR=str(tmp / "data"), JUPYTER_CONFIG_DIR=str(tmp / "config"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"))
    result = subprocess.run(["bash", "scripts/lab.sh", "--version"], cwd=ROOT, env=env,
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def _answer_cell(nb: dict) -> dict:
    return next(c for c in nb["cells"] if "# your code here" in "".join(c["source"]))


def test_an_edited_copy_survives_a_relaunch_of_lab_sh(tmp_path):
    work = tmp_path / "student"
    out = _lab(work, tmp_path)
    assert "17 created" in out or f"{len(REFERENCES)} created" in out
    path = work / "05_retain_graph_and_accumulation.ipynb"
    nb = _load(path)
    _answer_cell(nb)["source"] = "grads = [2.0, 4.0]  # my answer, typed yesterday\n"
    _save(path, nb)
    edited = path.read_text(encoding="utf-8")

    out = _lab(work, tmp_path)
    assert path.read_text(encoding="utf-8") == edited
    assert "my answer, typed yesterday" in path.read_text(encoding="utf-8")
    assert not list(work.glob("*.updated*.ipynb"))  # the course did not change: nothing beside it
    assert "kept" in out


def _as_if_made_from_an_older_course(path: Path) -> dict:
    """Rewrite a fresh copy as the previous release would have made it (different prose)."""
    nb = _load(path)
    first = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
    first["source"] = "# An older title\n"
    nb["metadata"]["autograd_lab"]["student_copy"]["sources_sha256"] = sources_hash(nb)
    _save(path, nb)
    return nb


def test_a_course_update_replaces_only_copies_nobody_edited(tmp_path):
    work = tmp_path / "student"
    _lab(work, tmp_path)
    untouched = work / "03_backward_and_the_chain_rule.ipynb"
    edited = work / "05_retain_graph_and_accumulation.ipynb"
    _as_if_made_from_an_older_course(untouched)
    nb = _as_if_made_from_an_older_course(edited)
    _answer_cell(nb)["source"] = "grads = 'mine'  # the student's work\n"
    _save(edited, nb)
    mine = edited.read_text(encoding="utf-8")

    out = _lab(work, tmp_path)
    # The copy nobody edited now has the course's current text.
    ref = student_notebook(_load(ROOT / "notebooks" / untouched.name))
    assert sources_hash(_load(untouched)) == sources_hash(ref)
    # The edited one is byte for byte what the student left; the new version sits beside it.
    assert edited.read_text(encoding="utf-8") == mine
    beside = work / "05_retain_graph_and_accumulation.updated.ipynb"
    assert beside.exists()
    assert str(beside) in out and "has your edits" in out
    new = _load(beside)
    assert edited.name in "".join(new["cells"][0]["source"])
    ref5 = student_notebook(_load(ROOT / "notebooks" / edited.name))
    assert ["".join(c["source"]) for c in new["cells"][1:]] == \
        ["".join(c["source"]) for c in ref5["cells"]]

    # A third launch changes nothing more.
    snapshot = {p.name: p.read_text(encoding="utf-8") for p in work.glob("*.ipynb")}
    _lab(work, tmp_path)
    assert {p.name: p.read_text(encoding="utf-8") for p in work.glob("*.ipynb")} == snapshot


def test_an_unreadable_copy_is_kept_and_the_course_version_goes_beside_it(tmp_path):
    ref = ROOT / "notebooks" / "04_multiple_paths.ipynb"
    target = tmp_path / ref.name
    target.write_text('{"cells": [ half a notebook', encoding="utf-8")
    what, beside = sync(ref, target)
    assert "kept" in what and beside is not None and beside.exists()
    assert target.read_text(encoding="utf-8") == '{"cells": [ half a notebook'


def test_an_edited_updated_copy_is_not_overwritten_either(tmp_path):
    ref = ROOT / "notebooks" / "04_multiple_paths.ipynb"
    target = tmp_path / ref.name
    target.write_text("{}", encoding="utf-8")
    _, first = sync(ref, target)
    nb = _load(first)
    nb["cells"].append({"cell_type": "code", "metadata": {}, "source": "mine = 1",
                        "outputs": [], "execution_count": None})
    _save(first, nb)
    _, second = sync(ref, target)
    assert second != first and second.name.endswith(".updated-2.ipynb")
    assert "mine = 1" in first.read_text(encoding="utf-8")


def test_running_a_copy_is_not_an_edit_and_keeps_its_outputs(tmp_path):
    ref = ROOT / "notebooks" / "04_multiple_paths.ipynb"
    target = tmp_path / ref.name
    assert sync(ref, target) == ("created", None)
    nb = _load(target)
    code = next(c for c in nb["cells"] if c["cell_type"] == "code")
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "ran it\n"}]
    code["execution_count"] = 1
    _save(target, nb)
    assert sync(ref, target) == ("up to date", None)
    assert "ran it" in target.read_text(encoding="utf-8")


def test_a_pristine_copy_gets_new_notebook_metadata(tmp_path):
    ref = ROOT / "notebooks" / "04_multiple_paths.ipynb"
    target = tmp_path / ref.name
    sync(ref, target)
    nb = _load(target)
    nb["metadata"]["autograd_lab"]["title"] = "an older title"
    _save(target, nb)
    assert sync(ref, target) == ("updated", None)
    assert _load(target)["metadata"] == student_notebook(_load(ref))["metadata"]
