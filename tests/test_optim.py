"""Optimizers against trajectories recorded from PyTorch (``scripts/oracle/record_optim_goldens.py``).

With prescribed gradients the parameters depend only on the optimizer's arithmetic:
Adam/AdamW reproduce torch's fused multiply-adds and must match bit for bit; SGD uses
plain float arithmetic (no fused multiply-add) and must agree to a float32 ulp or two.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import autograd_lab as torch

GOLDEN = json.loads((Path(__file__).parent / "goldens" / "optim.json").read_text())
CONFIGS = {k: (c, kw) for k, (c, kw) in GOLDEN["configs"].items()}
STEPS = GOLDEN["steps"]


def unhex(values: list[str], dtype: np.dtype = np.float64) -> np.ndarray:
    return np.array([float.fromhex(v) for v in values], dtype=dtype)


def initial_params(dtype: np.dtype) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    return [rng.standard_normal(5).astype(dtype), rng.standard_normal((4, 10)).astype(dtype)]


def grad_at(step: int, shape: tuple, dtype: np.dtype) -> np.ndarray:
    n = int(np.prod(shape))
    k = np.arange(n, dtype=np.float64)
    g = np.sin(0.7 * k + 1.3 * step + 0.1) * (1.0 + 0.5 * np.cos(0.3 * k * (step + 1)))
    return g.reshape(shape).astype(dtype)


def make_optimizer(name: str, params: list) -> torch.optim.Optimizer:
    cls, kwargs = CONFIGS[name]
    if "betas" in kwargs:
        kwargs = {**kwargs, "betas": tuple(kwargs["betas"])}
    return getattr(torch.optim, cls)(params, **kwargs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_fixed_gradient_trajectory(name: str, dtype: str) -> None:
    npd = np.dtype(dtype)
    params = [torch.tensor(a, requires_grad=True) for a in initial_params(npd)]
    opt = make_optimizer(name, params)
    exact = CONFIGS[name][0] != "SGD"
    for step, golden in enumerate(GOLDEN["fixed_grads"][dtype][name]):
        for p in params:
            p.grad = torch.tensor(grad_at(step, tuple(p.shape), npd))
        opt.step()
        for p, want in zip(params, golden):
            got = p.detach().numpy().reshape(-1)
            want = unhex(want, npd)
            if exact:
                np.testing.assert_array_equal(got, want, err_msg=f"{name} step {step}")
            else:  # a last-bit difference per step, at most
                tol = (step + 1) * np.finfo(npd).eps * 4
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)


@pytest.mark.parametrize("name", GOLDEN["quadratic"]["configs"])
def test_training_loop_matches_torch(name: str) -> None:
    q = GOLDEN["quadratic"]
    A, y = torch.tensor(q["A"]), torch.tensor(q["y"])
    w = torch.tensor(q["w0"], requires_grad=True)
    b = torch.tensor(q["b0"], requires_grad=True)
    opt = make_optimizer(name, [w, b])
    run = q["runs"][name]
    for step in range(STEPS):
        opt.zero_grad()
        loss = ((A @ w + b - y) ** 2).sum() + 0.1 * (w**4).sum()
        loss.backward()
        opt.step()
        assert loss.item() == pytest.approx(float.fromhex(run["losses"][step]), rel=1e-5)
        got = np.concatenate([w.detach().numpy(), b.detach().numpy()])
        np.testing.assert_allclose(got, unhex(run["params"][step], np.float32), rtol=2e-5,
                                   atol=1e-6)


def test_step_runs_without_recording_and_bumps_versions() -> None:
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    v0 = w._version
    opt.step()
    assert w.is_leaf and w.grad_fn is None and w.requires_grad
    assert w._version == v0 + 1
    assert torch.equal(w.detach(), torch.tensor([0.8, 1.6]))
    buf = opt.state[w]["momentum_buffer"]
    assert torch.equal(buf, torch.tensor([2.0, 4.0])) and not buf.requires_grad


def test_parameters_without_grad_are_skipped() -> None:
    w = torch.tensor([1.0], requires_grad=True)
    v = torch.tensor([5.0], requires_grad=True)
    opt = torch.optim.Adam([w, v], lr=0.1)
    (w * 3).sum().backward()
    opt.step()
    assert v.item() == 5.0 and len(opt.state) == 1
    assert opt.state[w]["step"].item() == 1.0 and opt.state[w]["step"].dtype is torch.float32


def test_state_dict_roundtrip_shares_state_like_torch() -> None:
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.1, betas=(0.8, 0.9))
    (w**2).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert sd["param_groups"][0]["params"] == [0] and sd["param_groups"][0]["betas"] == (0.8, 0.9)
    assert sd["state"][0]["exp_avg"] is opt.state[w]["exp_avg"]
    w2 = torch.tensor([1.0, -1.0], requires_grad=True)
    opt2 = torch.optim.Adam([w2], lr=0.5)
    opt2.load_state_dict(sd)
    assert opt2.param_groups[0]["lr"] == 0.1 and opt2.param_groups[0]["params"][0] is w2
    assert opt2.state[w2]["exp_avg"] is opt.state[w]["exp_avg"]


def test_zero_grad_modes() -> None:
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    (w * 2).sum().backward()
    g = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is g and torch.equal(g, torch.zeros(2))
    opt.zero_grad()
    assert w.grad is None


def test_add_param_group_defaults_and_errors() -> None:
    w = torch.tensor([1.0], requires_grad=True)
    b = torch.tensor([2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.5)
    opt.add_param_group({"params": b, "lr": 0.2})
    assert opt.param_groups[1]["momentum"] == 0.5 and opt.param_groups[1]["lr"] == 0.2
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [w]})
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        torch.optim.SGD([w * 2], lr=0.1)


def test_repr_lists_sorted_hyperparameters() -> None:
    w = torch.tensor([1.0], requires_grad=True)
    text = repr(torch.optim.SGD([w], lr=0.1))
    assert text.splitlines() == [
        "SGD (", "Parameter Group 0", "    dampening: 0", "    differentiable: False",
        "    foreach: None", "    fused: None", "    lr: 0.1", "    maximize: False",
        "    momentum: 0", "    nesterov: False", "    weight_decay: 0", ")",
    ]
