"""The pictures on real PyTorch (``viz.torch_bridge``), run on real torch (marker ``torch``).

``scripts/test.sh`` installs torch==2.13.0 into ``.venv`` first (``setup.sh --torch``). These
few check the bridge itself; the frames of every course stepper and of 520 generated programs
are compared with torch's recorded ones, without torch, in ``test_stepper_goldens.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import torch  # this file runs only where torch is installed (marker torch)

import autograd_lab
from autograd_lab.viz import BackwardStepper, make_dot, record_backward, version_view

pytestmark = pytest.mark.torch


def captions(rec) -> list[str]:
    return [rec.caption_text(i) for i in range(len(rec.frames))]


def both(build) -> tuple[list[str], list[str]]:
    out = []
    for lib in (torch, autograd_lab):
        root, params = build(lib)
        out.append(captions(record_backward(root, params=params)))
    return out[0], out[1]


def test_importing_autograd_lab_never_imports_torch() -> None:
    code = ("import importlib.util, sys\n"
            "assert importlib.util.find_spec('torch') is not None\n"
            "import autograd_lab, autograd_lab.viz\n"
            "from autograd_lab.viz import torch_bridge\n"
            "torch_bridge.is_torch_tensor(autograd_lab.ones(2))\n"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_stack_leaves_accumulate_in_torchs_order() -> None:
    def build(lib):
        xs = [lib.tensor([1.0, 2.0], requires_grad=True) for _ in range(4)]
        return lib.stack(xs).sum(), {f"x{i}": x for i, x in enumerate(xs)}

    ours_torch, ours = both(build)
    assert ours_torch == ours
    order = [c.split(".grad")[0] for c in ours_torch if ".grad =" in c]
    assert order == ["x0", "x2", "x1", "x3"]


def test_every_event_kind_matches_the_engine() -> None:
    def build(lib):
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        w = lib.tensor([0.5, 0.25, 2.0], requires_grad=True)
        h = (x * w).tanh()
        h.retain_grad()
        h.register_hook(lambda g: g * 2)
        y = (h * x).sum() + h.exp().mean()
        return y, {"x": x, "w": w, "h": h}

    t, ours = both(build)
    assert t == ours
    kinds = " ".join(t)
    assert "frees its saved" in kinds and "h.grad (retained)" in kinds and "+" in kinds


def test_second_backward_records_torchs_error() -> None:
    for lib in (torch, autograd_lab):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        s = BackwardStepper((x * x).sum(), params={"x": x})
        s.recording.backward_again()
        last = s.recording.caption_text(len(s.recording.frames) - 1)
        if lib is torch:
            want = last
    assert last == want and "backward through the graph a second time" in last


def test_leaf_grads_and_drawings_match() -> None:
    drawn = []
    for lib in (torch, autograd_lab):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b = lib.tensor([0.5, -0.5], requires_grad=True)
        y = (x @ x + b).relu().sum()
        src = make_dot(y, {"x": x, "b": b}, show_saved=True).source
        drawn.append(sorted(re.findall(r"label=(<.*?>) ", src)))  # saved slots may be numbered
        # in another order: torch lists them alphabetically, the engine as it saved them
        rec = record_backward(y, params={"x": x, "b": b})
        assert rec.grads_at(len(rec.frames) - 1)
    assert drawn[0] == drawn[1]
    assert x.grad is not None


def test_version_view_names_torchs_stale_tensor() -> None:
    views = []
    for lib in (torch, autograd_lab):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        z = x.sigmoid()
        q = z * 3
        z.mul_(2)
        views.append(version_view(q.sum() + z.sum(), {"x": x}))
    assert views[0].error == views[1].error
    assert repr(views[0]) == repr(views[1])


def test_static_export_of_a_torch_model(tmp_path) -> None:
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
    loss = model(torch.ones(4, 3)).pow(2).mean()
    s = BackwardStepper(loss, params=dict(model.named_parameters()))
    page = s.recording.to_html(tmp_path / "b.html")
    text = open(page, encoding="utf-8").read()
    assert "AccumulateGrad(0.weight)" in text and "AddmmBackward0" in text
    assert model[0].weight.grad is not None


def test_clear_errors() -> None:
    x = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match="cannot be mixed"):
        make_dot([x * 2, autograd_lab.ones(1, requires_grad=True) * 2])
    with pytest.raises(ValueError, match="inputs="):
        record_backward((x * 2).sum(), inputs=[x])
