"""End-to-end training: nn + optim + data learn something, reproducibly, as in torch.

``test_seeded_linear_sgd_prints_torchs_losses``: torch's reference run is
``torch.manual_seed(0); x = torch.randn(8, 3); y = torch.randint(0, 2, (8,));
model = nn.Linear(3, 2)``, then SGD(lr=0.5) on cross-entropy, printing 0.785, 0.5326,
0.3954. The data and initial weights torch's ``manual_seed(0)`` produces are loaded from
the ``seeded_linear`` golden (``tests/golden_cases/optim.py``, recorded by
``scripts/oracle/record_goldens.py optim``) and set explicitly, so this test does not depend
on the generator (``test_optim.py`` checks the draws too); everything after that is
autograd_lab's own computation.
"""

from __future__ import annotations

import golden_cases as G
import numpy as np

import autograd_lab as torch
from autograd_lab import nn
from autograd_lab.nn import functional as F
from autograd_lab.teaching.data import make_blobs, make_moons, make_spirals

SEEDED = G.goldens("optim")["cases"]["seeded_linear"]["outcome"]


def _floats(values: list[str], shape: tuple) -> torch.Tensor:
    return torch.tensor(np.array([float.fromhex(v) for v in values], dtype=np.float32).reshape(shape))


def test_seeded_linear_sgd_prints_torchs_losses(capsys: object) -> None:
    x = _floats(SEEDED["x"], (8, 3))
    y = torch.tensor(SEEDED["y"])
    model = nn.Linear(3, 2)
    with torch.no_grad():
        model.weight.copy_(_floats(SEEDED["weight"], (2, 3)))
        model.bias.copy_(_floats(SEEDED["bias"], (2,)))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        print(round(loss.item(), 4))
    assert capsys.readouterr().out.split() == ["0.785", "0.5326", "0.3954"]  # type: ignore[attr-defined]
    assert [round(v, 4) for v in losses] == SEEDED["printed"]
    np.testing.assert_allclose(losses, [float.fromhex(v) for v in SEEDED["losses"]], rtol=1e-6)
    np.testing.assert_allclose(model.weight.detach().numpy().reshape(-1),
                               [float.fromhex(v) for v in SEEDED["final_weight"]], rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(model.bias.detach().numpy(),
                               [float.fromhex(v) for v in SEEDED["final_bias"]], rtol=1e-5,
                               atol=1e-6)


def _train_moons(seed: int) -> tuple[float, float]:
    torch.manual_seed(seed)
    X, y = make_moons(200, noise=0.1, seed=0)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(),
                          nn.Linear(16, 2))
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(300):
        opt.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        accuracy = (model(X).argmax(1) == y).float().mean().item()
    return loss.item(), accuracy


def test_mlp_on_moons_reaches_97_percent() -> None:
    loss, accuracy = _train_moons(0)
    assert accuracy >= 0.97
    assert loss < 0.05


def test_mlp_training_is_deterministic() -> None:
    assert _train_moons(3) == _train_moons(3)


def test_sgd_momentum_mlp_on_blobs() -> None:
    torch.manual_seed(1)
    X, y = make_blobs(150, centers=3, std=0.4, seed=2)
    model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(100):
        opt.zero_grad()
        F.cross_entropy(model(X), y).backward()
        opt.step()
    with torch.no_grad():
        assert (model(X).argmax(1) == y).float().mean().item() >= 0.97


def test_datasets_are_seeded_and_typed() -> None:
    for make in (make_moons, make_spirals, make_blobs):
        X1, y1 = make(seed=5)
        X2, y2 = make(seed=5)
        X3, _ = make(seed=6)
        assert X1.dtype is torch.float32 and y1.dtype is torch.int64
        assert X1.shape[1] == 2 and X1.shape[0] == y1.shape[0]
        assert torch.equal(X1, X2) and torch.equal(y1, y2) and not torch.equal(X1, X3)
        assert not X1.requires_grad
    _, y = make_spirals(301, n_classes=3)
    assert sorted(np.bincount(y.numpy()).tolist()) == [100, 100, 101]
    _, y = make_moons(7)
    assert np.bincount(y.numpy()).tolist() == [3, 4]


def test_dataset_argument_errors() -> None:
    import pytest

    with pytest.raises(ValueError, match="n_samples must be a positive integer"):
        make_moons(0)
    with pytest.raises(ValueError, match="centers must be a count or a list"):
        make_blobs(10, centers=[1.0, 2.0])
    with pytest.raises(ValueError, match="n_classes must be at least 1"):
        make_spirals(10, n_classes=0)
