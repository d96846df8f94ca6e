"""Optimizers against trajectories recorded from PyTorch (cases and their replay:
``tests/golden_cases/optim.py``, recorded by ``scripts/oracle/record_goldens.py optim``).

With prescribed gradients the parameters depend only on the optimizer's arithmetic:
Adam/AdamW reproduce torch's fused multiply-adds and must match bit for bit; SGD uses
plain float arithmetic (no fused multiply-add) and must agree to a float32 ulp or two.
"""

from __future__ import annotations

from typing import Any

import golden_cases as G
import numpy as np
import pytest
from golden_cases.optim import replay

import autograd_lab as torch

CASES = G.cases("optim")
FIXED = [c for c in CASES if c["run"] == "fixed_grads"]
QUADRATIC = [c for c in CASES if c["run"] == "quadratic"]
SEEDED = [c for c in CASES if c["run"] == "seeded_linear"]


def unhex(values: list[str], dtype: np.dtype = np.float64) -> np.ndarray:
    return np.array([float.fromhex(v) for v in values], dtype=dtype)


@pytest.mark.golden
@pytest.mark.parametrize("case", FIXED, ids=[c["name"] for c in FIXED])
def test_fixed_gradient_trajectory(case: dict[str, Any]) -> None:
    golden = G.recorded("optim", case)
    npd = np.dtype(case["dtype"])
    exact = case["optimizer"] != "SGD"
    got_traj = replay(torch, case)
    assert len(got_traj) == len(golden) == case["steps"]
    for step, (got_params, want_params) in enumerate(zip(got_traj, golden)):
        for got, want in zip(got_params, want_params, strict=True):
            got, want = unhex(got, npd), unhex(want, npd)
            if exact:
                np.testing.assert_array_equal(got, want, err_msg=f"{case['name']} step {step}")
            else:  # a last-bit difference per step, at most
                tol = (step + 1) * np.finfo(npd).eps * 4
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=case["name"])


@pytest.mark.golden
@pytest.mark.parametrize("case", QUADRATIC, ids=[c["name"] for c in QUADRATIC])
def test_training_loop_matches_torch(case: dict[str, Any]) -> None:
    golden = G.recorded("optim", case)
    got = replay(torch, case)
    for step in range(case["steps"]):
        assert float.fromhex(got["losses"][step]) == pytest.approx(
            float.fromhex(golden["losses"][step]), rel=1e-5)
        np.testing.assert_allclose(unhex(got["params"][step], np.float32),
                                   unhex(golden["params"][step], np.float32), rtol=2e-5,
                                   atol=1e-6)


@pytest.mark.golden
@pytest.mark.parametrize("case", SEEDED, ids=[c["name"] for c in SEEDED])
def test_seeded_linear_draws_and_trains_like_torch(case: dict[str, Any]) -> None:
    """The whole run from ``manual_seed(0)``: the data and initial weights bit for bit (the
    generator is torch's), then the losses and final weights as in the training test."""
    golden = G.recorded("optim", case)
    got = replay(torch, case)
    for key in ("x", "y", "weight", "bias", "printed"):
        assert got[key] == golden[key], key
    np.testing.assert_allclose(unhex(got["losses"]), unhex(golden["losses"]), rtol=1e-6)
    for key in ("final_weight", "final_bias"):
        np.testing.assert_allclose(unhex(got[key]), unhex(golden[key]), rtol=1e-5, atol=1e-6)


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
