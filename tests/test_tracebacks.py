"""Errors and warnings in a real IPython kernel: the package's own frames and paths are hidden.

A notebook runs in a fresh kernel (nbclient). An error raised inside the package must show the
user's cells and PyTorch's message as the last line, with no frame or path of the package;
errors of the user's own code must look exactly as in a kernel where the package was never
imported; warnings the package emits at a cell name the cell, not its temporary file.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;]*m")

USER_CELLS = [
    "def f(x):\n    return 1 / x\n\ndef g():\n    return f(0)",
    "g()",
    "import warnings\nwarnings.warn('a warning of my own')",
    "try:\n    g()\nexcept ZeroDivisionError as e:\n    raise ValueError('again') from e",
]

PACKAGE_CELLS = {
    "broadcast": "a = torch.ones(2)\nb = torch.ones(3)\na + b",
    "backward": ("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\n"
                 "y.backward()\ny.backward()"),
    "callback": ("class Bad(torch.autograd.Function):\n    @staticmethod\n"
                 "    def forward(ctx, x):\n        return x.view(5)\n\n"
                 "    @staticmethod\n    def backward(ctx, g):\n        return g\n\n"
                 "Bad.apply(torch.ones(2, requires_grad=True))"),
    "chained": ("try:\n    torch.ones(2) + torch.ones(3)\nexcept RuntimeError as e:\n"
                "    raise ValueError('while adding') from e"),
    "warning": ("x = torch.tensor([1.0], requires_grad=True)\nu = x * 2\n"
                "print(u.grad)"),
}


def run(cells: list[str], tmp_path: Path, monkeypatch) -> nbformat.NotebookNode:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # this checkout's package in the kernel
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True).execute()
    return nb


def error(cell) -> dict:
    (e,) = [o for o in cell.outputs if o.output_type == "error"]
    return e


def text(tb: list[str]) -> str:
    return ANSI.sub("", "\n".join(tb))


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    try:
        base = tmp_path_factory.mktemp("tracebacks")
        with_pkg = run(["import autograd_lab as torch", *USER_CELLS, *PACKAGE_CELLS.values()],
                       base, mp)
        without = run(["import json as torch", *USER_CELLS], base, mp)
    finally:
        mp.undo()
    return with_pkg.cells, without.cells


def package_cell(cells, name: str):
    return cells[1 + len(USER_CELLS) + list(PACKAGE_CELLS).index(name)]


def test_user_errors_and_warnings_look_as_usual(kernels):
    with_pkg, without = kernels

    def outputs(cell) -> str:  # the kernels' process ids differ (in the cell's file name)
        return re.sub(r"ipykernel_\d+", "ipykernel_PID", repr(cell.outputs))

    for i in range(1, 1 + len(USER_CELLS)):
        assert outputs(with_pkg[i]) == outputs(without[i]), USER_CELLS[i - 1]
    assert "ZeroDivisionError" in text(error(with_pkg[2]).traceback)
    # the usual warning location: the cell's temporary file
    assert re.search(r"ipykernel_\d+[/\\]\d+\.py:2: UserWarning: a warning of my own",
                     with_pkg[3].outputs[0].text)


def check_clean(tb: str) -> None:
    assert "autograd_lab" not in tb.replace("import autograd_lab as torch", ""), tb
    for root in ("/work/", "/home/", "/tmp/", "/root/", "site-packages", str(REPO)):
        assert root not in tb, tb


@pytest.mark.parametrize("name, message", [
    ("broadcast", "RuntimeError: The size of tensor a (2) must match the size of tensor b (3) "
                  "at non-singleton dimension 0"),
    ("backward", "RuntimeError: Trying to backward through the graph a second time"),
])
def test_package_errors_end_at_the_users_line(kernels, name, message):
    cell = package_cell(kernels[0], name)
    e = error(cell)
    tb = text(e.traceback)
    check_clean(tb)
    last_line = cell.source.splitlines()[-1]
    frames = [ln for ln in tb.splitlines() if ln.startswith("Cell In[")]
    assert len(frames) == 1, tb  # only the user's cell
    assert re.search(rf"----> {len(cell.source.splitlines())} {re.escape(last_line)}\n", tb), tb
    assert tb.splitlines()[-1] == f"{e.ename}: {e.evalue}"
    assert tb.splitlines()[-1].startswith(message)


def test_user_code_called_by_the_package_keeps_its_frame(kernels):
    tb = text(error(package_cell(kernels[0], "callback")).traceback)
    check_clean(tb)
    frames = [ln for ln in tb.splitlines() if ln.startswith("Cell In[")]
    assert len(frames) == 2 and "in Bad.forward(ctx, x)" in frames[1], tb
    assert tb.splitlines()[-1].startswith("RuntimeError: shape '[5]' is invalid for input of size 2")


def test_chained_errors_are_cleaned_too(kernels):
    tb = text(error(package_cell(kernels[0], "chained")).traceback)
    check_clean(tb)
    assert "The above exception was the direct cause of the following exception" in tb
    assert tb.splitlines()[-1] == "ValueError: while adding"


def test_package_warnings_name_the_cell(kernels):
    cell = package_cell(kernels[0], "warning")
    (err,) = [o for o in cell.outputs if o.get("name") == "stderr"]
    assert err.text.startswith("<cell>:3: UserWarning: The .grad attribute of a "
                               "Tensor that is not a leaf Tensor is being accessed."), err.text
    assert err.text.endswith("\n  print(u.grad)\n")
    check_clean(err.text)


def test_nothing_changes_outside_ipython():
    import sys
    import traceback
    import warnings

    import autograd_lab as torch

    hook = warnings.showwarning
    try:
        torch.ones(2) + torch.ones(3)
    except RuntimeError as e:
        frames = traceback.extract_tb(e.__traceback__)
    assert any("autograd_lab" in f.filename for f in frames)  # the raised exception is intact
    assert warnings.showwarning is hook
    assert "IPython" not in sys.modules or sys.modules["IPython"].get_ipython() is None
