"""The exercise checks give feedback without raising; the student notebooks are generated."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import autograd_lab as torch
from autograd_lab.teaching.exercises import (
    check_close,
    check_equal,
    check_grad,
    check_raises,
    check_true,
    numerical_grad,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts" / "course"))
from make_student_notebooks import strip_solution, student_notebook  # noqa: E402


def test_check_close_right_wrong_missing(capsys):
    assert check_close("a", torch.tensor([1.0, 2.0]), [1.0, 2.0])
    assert capsys.readouterr().out == "✓ a: correct\n"
    assert not check_close("b", torch.tensor([1.0, 2.5]), [1.0, 2.0], hint="look again")
    out = capsys.readouterr().out
    assert out.startswith("✗ b: not yet: expected [1. 2.]") and "Hint: look again" in out
    assert not check_close("c", ..., 1.0)
    assert capsys.readouterr().out.startswith("… c: waiting for your answer: replace the ...")
    assert not check_close("d", torch.ones(3), torch.ones(2))
    assert "expected shape [2], got [3]" in capsys.readouterr().out


def test_feedback_html_and_text():
    from autograd_lab.teaching.exercises import Feedback

    ok = Feedback(True, "a")
    assert repr(ok) == "✓ a: correct" and ok
    bad = Feedback(False, "b <x>", "expected 1", "add the paths")
    assert not bad and repr(bad) == "✗ b <x>: not yet: expected 1\n   Hint: add the paths"
    h = bad._repr_html_()
    assert "✗ b &lt;x&gt;: not yet" in h and "#b71c1c" in h and "Hint: add the paths" in h
    wait = Feedback(False, "c", state="waiting")
    assert repr(wait) == "… c: waiting for your answer" and "#6d4c00" in wait._repr_html_()
    assert "#1b5e20" in ok._repr_html_()
    # no emoji: the symbols are in ordinary text fonts (DejaVu, Liberation, Noto Sans)
    for f in (ok, bad, wait):
        assert not any(ord(ch) >= 0x1F000 or ch in "✅❌⏳" for ch in repr(f) + f._repr_html_())


def test_check_equal_true_raises(capsys):
    assert check_equal("name", "MulBackward0", "MulBackward0")
    assert not check_equal("name", "AddBackward0", "MulBackward0")
    assert check_true("cond", 1 + 1 == 2)
    assert check_raises("err", lambda: torch.ones(2, 2).item(), RuntimeError, match="4 elements")
    assert not check_raises("err2", lambda: None, RuntimeError)
    out = capsys.readouterr().out
    assert "expected 'MulBackward0', got 'AddBackward0'" in out
    assert "nothing was raised" in out


def test_check_grad_against_finite_differences(capsys):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x ** 3).sum().backward()
    assert check_grad("cube", lambda t: (t ** 3).sum(), [x.detach()], [x.grad])
    assert not check_grad("cube wrong", lambda t: (t ** 3).sum(), [x.detach()], [x.grad * 2])
    g = numerical_grad(lambda t: (t * t).sum(), [torch.tensor([1.0, -2.0])])[0]
    assert abs(g[0] - 2.0) < 1e-6 and abs(g[1] + 4.0) < 1e-6
    assert "differs from finite differences" in capsys.readouterr().out


def test_strip_solution_keeps_targets():
    src = "x = 1\n### BEGIN SOLUTION\nans = x + 1\na, b = 1, 2\nprint(ans)\n### END SOLUTION\ncheck(ans)"
    assert strip_solution(src) == (
        "x = 1\nans = ...  # your code here\na, b = ..., ...  # your code here\ncheck(ans)"
    )


def test_student_notebook_clears_outputs():
    nb = {"cells": [{"cell_type": "code", "source": "### BEGIN SOLUTION\ny = 2\n### END SOLUTION",
                     "outputs": [{"output_type": "stream", "text": "x"}], "execution_count": 3,
                     "metadata": {}}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    out = student_notebook(nb)
    assert out["cells"][0]["source"] == "y = ...  # your code here"
    assert out["cells"][0]["outputs"] == [] and out["cells"][0]["execution_count"] is None
    assert nb["cells"][0]["outputs"], "the reference notebook is not modified"


def test_generator_runs_on_the_series(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "course" / "make_student_notebooks.py"),
                        "--out", str(tmp_path)], capture_output=True, text=True, check=True)
    assert f"{len(list(tmp_path.glob('*.ipynb')))} created" in r.stdout
    for path in tmp_path.glob("*.ipynb"):
        nb = json.loads(path.read_text())
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert all("### BEGIN SOLUTION" not in "".join(c["source"]) for c in code)
        assert all(c["outputs"] == [] for c in code)
