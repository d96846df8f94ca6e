"""The saved outputs of the notebooks show nothing of the machine they were made on.

Every output of every course notebook (streams, results, errors with their tracebacks, and the
widget state saved in the notebook's metadata) is searched as it is stored in the ``.ipynb``
file: no nbval sanitizer is applied. An absolute path, a cell's temporary file or a frame of
the package's own code fails the test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
ANSI = re.compile(r"\x1b\[[0-9;]*m")

FORBIDDEN = [
    (re.compile(r"(?<![\w.])/(?:work|home|tmp|root|Users|opt|usr|var|srv|mnt|private)/"),
     "an absolute path"),
    (re.compile(r"\b[A-Za-z]:\\\\?[\w$]"), "a Windows path"),
    (re.compile(r"site-packages|dist-packages"), "an installed package's path"),
    (re.compile(r"ipykernel_\d+"), "a cell's temporary file"),
    (re.compile(r"autograd_lab[/\\][\w/\\]+\.py"), "a frame of the package"),
    (re.compile(r"skipping hidden \d+ frame"), "hidden package frames"),
]


def output_texts(nb: dict) -> list[tuple[str, str]]:
    """(where, text) of every saved output, and of the saved widget state."""
    out = []
    for i, cell in enumerate(nb["cells"]):
        for k, o in enumerate(cell.get("outputs", [])):
            where = f"cell {i} output {k} ({o['output_type']})"
            if o["output_type"] == "stream":
                out.append((where, "".join(o["text"])))
            elif o["output_type"] == "error":
                out.append((where, "\n".join([o["ename"], o["evalue"], *o["traceback"]])))
            else:
                for mime, data in o.get("data", {}).items():
                    if mime.startswith("image/") and mime != "image/svg+xml":
                        continue  # base64 raster data
                    text = data if isinstance(data, str) else (
                        "".join(data) if isinstance(data, list) else json.dumps(data))
                    out.append((f"{where} {mime}", text))
    state = nb.get("metadata", {}).get("widgets", {})
    if state:
        out.append(("saved widget state", json.dumps(state, ensure_ascii=False)))
    return out


# base64 payloads (an SVG or PNG carried as a data URL) could spell "/tmp/" by chance
DATA_URL = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=\s\\n]+")


def problems(nb: dict) -> list[str]:
    found = []
    for where, text in output_texts(nb):
        plain = DATA_URL.sub("data:...", ANSI.sub("", text))
        for pattern, what in FORBIDDEN:
            for m in pattern.finditer(plain):
                found.append(f"{where}: {what}: ...{plain[max(0, m.start() - 50):m.end() + 30]!r}")
    return found


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_saved_outputs_hold_no_path_nor_package_frame(notebook):
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    found = problems(nb)
    assert not found, f"{notebook.name}:\n" + "\n".join(found[:20])


def test_the_check_finds_what_it_looks_for():
    """Each pattern catches what a traceback or warning of another machine would hold."""
    tb = ("\x1b[36mFile \x1b[39m\x1b[32m/work/main/autograd_lab/ops/methods.py:89\x1b[39m, in "
          "\x1b[36m_operator\x1b[39m")
    cases = [tb, "/home/ann/x.py", "/Users/bob/course/nb.py", "C:\\Users\\carl\\nb.py",
             "lib/python3.11/site-packages/numpy/core.py", "ipykernel_14185/101.py:1:",
             "File autograd_lab/node.py:106, in SavedTensor", "[... skipping hidden 4 frame]",
             "/tmp/ipykernel_1/2.py"]
    for text in cases:
        nb = {"cells": [{"cell_type": "code", "outputs": [
            {"output_type": "stream", "name": "stderr", "text": [text]}]}], "metadata": {}}
        assert problems(nb), text
    clean = ("Cell In[6], line 4\n----> 4 y.sum().backward()\nRuntimeError: one of the variables "
             "... [torch.FloatTensor [3]] ... See github.com/pytorch/pytorch/pull/30531 and "
             "https://pytorch.org/docs/stable/notes/autograd.html, 1/2 = 0.5, 'a/b'")
    nb = {"cells": [{"cell_type": "code", "outputs": [
        {"output_type": "stream", "name": "stdout", "text": clean}]}], "metadata": {}}
    assert problems(nb) == []
    # a data URL's payload is not a path, but the text around it is still searched
    payload = "data:image/svg+xml;base64,AB/tmp/CD/home/EF=="
    nb["cells"][0]["outputs"][0]["text"] = f'<img src="{payload}"> File /home/x.py'
    assert [p.split(": ")[1] for p in problems(nb)] == ["an absolute path"]
