"""``nn``: modules, parameters, state, initialisation and the functional losses' numbers."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

import autograd_lab as torch
import autograd_lab.random as al_random
from autograd_lab import nn
from autograd_lab.nn import functional as F

RNG = np.random.default_rng(5)


def t(a: object, **kw: object) -> torch.Tensor:
    return torch.tensor(np.asarray(a, dtype=np.float32), **kw)


# ---- initialisation -------------------------------------------------------------------------

def test_linear_init_draws_through_random_samplers(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = al_random.uniform_

    def spy(tensor, a=0.0, b=1.0, *, generator=None):
        calls.append((tuple(tensor.shape), a, b, torch.is_grad_enabled()))
        return real(tensor, a, b, generator=generator)

    monkeypatch.setattr(al_random, "uniform_", spy)
    nn.Linear(9, 4)
    bound = 1 / 3  # kaiming_uniform_(a=sqrt(5)) on fan_in 9 is U(-1/sqrt(9), 1/sqrt(9))
    assert [c[0] for c in calls] == [(4, 9), (4,)]
    for _, a, b, grad_mode in calls:
        assert a == pytest.approx(-bound) and b == pytest.approx(bound) and grad_mode is False


def test_same_seed_same_weights() -> None:
    torch.manual_seed(123)
    a = nn.Linear(5, 3)
    torch.manual_seed(123)
    b = nn.Linear(5, 3)
    assert torch.equal(a.weight, b.weight) and torch.equal(a.bias, b.bias)
    assert not torch.equal(a.weight, nn.Linear(5, 3).weight)


def test_init_functions_scale() -> None:
    torch.manual_seed(0)
    w = torch.empty(400, 300)
    nn.init.kaiming_normal_(w, nonlinearity="relu")
    assert w.std().item() == pytest.approx(math.sqrt(2 / 300), rel=0.05)
    nn.init.xavier_uniform_(w)
    bound = math.sqrt(6 / 700)
    assert w.abs().max().item() <= bound and w.abs().max().item() > 0.95 * bound
    nn.init.xavier_normal_(w, gain=nn.init.calculate_gain("tanh"))
    assert w.std().item() == pytest.approx(5 / 3 * math.sqrt(2 / 700), rel=0.05)
    assert nn.init.calculate_gain("leaky_relu", 0) == pytest.approx(math.sqrt(2))


# ---- modules ----------------------------------------------------------------------------------

class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.register_buffer("scale", torch.tensor([2.0]))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x).relu() * self.scale


def test_shared_module_is_counted_once() -> None:
    block = Block()
    model = nn.Sequential(block, nn.Tanh(), block)
    assert len(list(model.parameters())) == 2
    assert [n for n, _ in model.named_modules()] == ["", "0", "0.lin", "1"]
    assert len(list(model.named_modules(remove_duplicate=False))) == 6
    assert list(model.state_dict()) == ["0.scale", "0.lin.weight", "0.lin.bias", "2.scale",
                                        "2.lin.weight", "2.lin.bias"]


def test_state_dict_roundtrip_reproduces_outputs() -> None:
    torch.manual_seed(1)
    a, b = Block(), Block()
    x = t(RNG.standard_normal((4, 3)))
    assert not torch.equal(a(x), b(x))
    keys = b.load_state_dict(a.state_dict())
    assert keys.missing_keys == [] and keys.unexpected_keys == [] and repr(keys) == "<All keys matched successfully>"
    assert torch.equal(a(x), b(x))
    assert b.lin.weight is not a.lin.weight and isinstance(b.lin.weight, nn.Parameter)
    assert "tmp" not in a.state_dict()


def test_load_state_dict_assign_replaces_parameters() -> None:
    block = Block()
    new_w = t(np.eye(3))
    sd = {**block.state_dict(), "lin.weight": new_w}
    block.load_state_dict(sd, assign=True)
    assert isinstance(block.lin.weight, nn.Parameter) and block.lin.weight.requires_grad
    assert torch.equal(block.lin.weight, new_w)


def test_deepcopy_is_independent() -> None:
    block = Block()
    clone = copy.deepcopy(block)
    with torch.no_grad():
        clone.lin.weight.add_(1)
    assert not torch.equal(clone.lin.weight, block.lin.weight)
    assert isinstance(clone.lin.weight, nn.Parameter) and clone.lin.weight.requires_grad


def test_zero_grad_and_gradients_flow_to_parameters() -> None:
    block = Block()
    block(t(np.ones((2, 3)))).sum().backward()
    assert all(p.grad is not None for p in block.parameters())
    block.zero_grad(set_to_none=False)
    assert all(torch.equal(p.grad, torch.zeros_like(p)) for p in block.parameters())
    block.zero_grad()
    assert all(p.grad is None for p in block.parameters())


def test_train_eval_propagate_and_apply_visits_all() -> None:
    model = nn.Sequential(Block(), nn.Sequential(nn.ReLU(), Block()))
    model.eval()
    assert not any(m.training for m in model.modules())
    model.train()
    assert all(m.training for m in model.modules())
    seen = []
    model.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "Block", "ReLU", "Linear", "Block", "Sequential", "Sequential"]


def test_to_double_keeps_parameter_objects() -> None:
    block = Block()
    w = block.lin.weight
    opt = torch.optim.SGD(block.parameters(), lr=0.1)
    block.double()
    assert block.lin.weight is w and w.dtype is torch.float64 and block.scale.dtype is torch.float64
    block(torch.ones(1, 3, dtype=torch.float64)).sum().backward()
    opt.step()
    assert w.dtype is torch.float64


def test_forward_hooks_modify_inputs_and_outputs() -> None:
    lin = nn.Linear(2, 2)
    h1 = lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 0,))
    h2 = lin.register_forward_hook(lambda m, inp, out: out + 1)
    y = lin(t([[1.0, 2.0]]))
    assert torch.allclose(y, lin.bias.detach() + 1)
    h1.remove()
    h2.remove()
    assert torch.allclose(lin(t([[0.0, 0.0]])), lin.bias)


def test_containers_index_and_slice() -> None:
    layers = [nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1)]
    seq = nn.Sequential(*layers)
    assert seq[0] is layers[0] and seq[-1] is layers[2] and len(seq) == 3
    assert list(seq[1:]) == layers[1:]
    ml = nn.ModuleList(layers)
    assert ml[1] is layers[1] and list(ml) == layers
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]


def test_module_repr_indents_nested_children() -> None:
    model = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.Linear(3, 1)))
    assert repr(model) == (
        "Sequential(\n"
        "  (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (1): Sequential(\n"
        "    (0): ReLU()\n"
        "    (1): Linear(in_features=3, out_features=1, bias=True)\n"
        "  )\n"
        ")"
    )


def test_loss_module_weight_is_a_buffer() -> None:
    loss = nn.CrossEntropyLoss(weight=t([1.0, 2.0]))
    assert list(loss.state_dict()) == ["weight"]
    assert "weight" not in nn.CrossEntropyLoss().state_dict()


# ---- functional numbers ---------------------------------------------------------------------

def _log_softmax(z: np.ndarray) -> np.ndarray:
    z64 = z.astype(np.float64)
    return z64 - np.log(np.exp(z64 - z64.max(1, keepdims=True)).sum(1, keepdims=True)) \
        - z64.max(1, keepdims=True)


def test_cross_entropy_matches_numpy() -> None:
    z = RNG.standard_normal((6, 5)).astype(np.float32) * 3
    y = RNG.integers(0, 5, 6)
    w = np.array([1.0, 0.5, 2.0, 1.5, 0.25])
    lp = _log_softmax(z)
    picked = lp[np.arange(6), y]
    zt = t(z, requires_grad=True)
    loss = F.cross_entropy(zt, torch.tensor(y), weight=t(w))
    expected = -(picked * w[y]).sum() / w[y].sum()
    assert loss.item() == pytest.approx(expected, rel=1e-5)
    loss.backward()
    p = np.exp(lp)
    onehot = np.eye(5)[y]
    grad = (p - onehot) * w[y][:, None] / w[y].sum()
    np.testing.assert_allclose(zt.grad.numpy(), grad, rtol=1e-4, atol=1e-6)


def test_label_smoothing_formula() -> None:
    z = RNG.standard_normal((4, 3)).astype(np.float32)
    y = np.array([0, 2, 1, 2])
    eps = 0.2
    lp = _log_softmax(z)
    target = np.full((4, 3), eps / 3) + (1 - eps) * np.eye(3)[y]
    expected = -(target * lp).sum(1).mean()
    got = F.cross_entropy(t(z), torch.tensor(y), label_smoothing=eps).item()
    assert got == pytest.approx(expected, rel=1e-5)
    soft = F.cross_entropy(t(z), t(target)).item()
    assert soft == pytest.approx(expected, rel=1e-5)


def test_ignore_index_excluded_from_mean() -> None:
    z = RNG.standard_normal((3, 4)).astype(np.float32)
    lp = _log_softmax(z)
    zt = t(z, requires_grad=True)
    loss = F.cross_entropy(zt, torch.tensor([1, -100, 3]))
    assert loss.item() == pytest.approx(-(lp[0, 1] + lp[2, 3]) / 2, rel=1e-5)
    loss.backward()
    assert np.all(zt.grad.numpy()[1] == 0) and not np.signbit(zt.grad.numpy()[1]).any()


def test_mse_loss_matches_numpy() -> None:
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    b = RNG.standard_normal((3, 4)).astype(np.float32)
    at = t(a, requires_grad=True)
    loss = F.mse_loss(at, t(b))
    assert loss.item() == pytest.approx(((a - b) ** 2).mean(), rel=1e-6)
    loss.backward()
    np.testing.assert_allclose(at.grad.numpy(), 2 * (a - b) / 12, rtol=1e-6)


def test_softmax_family_and_linear_shapes() -> None:
    x = t(RNG.standard_normal((2, 3, 4)))
    assert torch.allclose(F.softmax(x, dim=-1).sum(-1), torch.ones(2, 3))
    assert torch.allclose(F.log_softmax(x, dim=1).exp(), F.softmax(x, dim=1))
    w = t(RNG.standard_normal((5, 4)))
    assert F.linear(x, w).shape == (2, 3, 5)
    assert F.linear(x, w, t(np.zeros(5))).shape == (2, 3, 5)
    assert F.linear(x[0, 0], w).shape == (5,)


def test_large_logits_are_stable() -> None:
    z = t([[1000.0, 0.0, -1000.0], [-500.0, -501.0, -502.0]], requires_grad=True)
    loss = F.cross_entropy(z, torch.tensor([0, 2]))
    assert math.isfinite(loss.item())
    loss.backward()
    assert np.isfinite(z.grad.numpy()).all()
    assert loss.item() == pytest.approx((0 + 2.40760596) / 2, rel=1e-5)
