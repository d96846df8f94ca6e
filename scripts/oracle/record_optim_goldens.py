"""Record optimizer trajectories and a seeded training run from PyTorch into
``tests/goldens/optim.json`` (read by ``tests/test_optim.py`` and ``tests/test_training.py``).

Run with an interpreter that has torch 2.13 (e.g. the oracle venv)::

    /tmp/oracle/bin/python scripts/oracle/record_optim_goldens.py

Three kinds of records, floats stored with ``float.hex`` (exact):

* ``fixed_grads``: each optimizer is stepped with a prescribed gradient sequence (made
  with numpy, the same formula in the test), so the parameters depend on the optimizer's
  arithmetic only.
* ``quadratic``: a full loop (zero_grad, loss, backward, step) on a small least-squares
  problem, from explicit initial values.
* ``seeded_linear``: ``torch.manual_seed(0); x = torch.randn(8, 3);
  y = torch.randint(0, 2, (8,)); model = nn.Linear(3, 2)``, SGD lr 0.5, cross-entropy,
  three steps. The data and initial weights drawn by torch's generator are stored too,
  so the test can start from them whatever autograd_lab's generator draws.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import torch

OUTPUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "optim.json"

# name -> (class name, keyword arguments); the tests build the same optimizers
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "sgd": ("SGD", {"lr": 0.1}),
    "sgd_momentum": ("SGD", {"lr": 0.05, "momentum": 0.9}),
    "sgd_dampening": ("SGD", {"lr": 0.05, "momentum": 0.9, "dampening": 0.25}),
    "sgd_nesterov_wd": ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True,
                                "weight_decay": 0.01}),
    "sgd_maximize": ("SGD", {"lr": 0.05, "maximize": True, "weight_decay": 0.1}),
    "adam": ("Adam", {"lr": 0.01}),
    "adam_wd_amsgrad": ("Adam", {"lr": 0.02, "weight_decay": 0.05, "amsgrad": True}),
    "adam_betas_eps": ("Adam", {"lr": 0.003, "betas": (0.3, 0.6), "eps": 1e-3,
                                "maximize": True}),
    "adamw": ("AdamW", {"lr": 0.01}),
    "adamw_amsgrad": ("AdamW", {"lr": 0.02, "weight_decay": 0.3, "amsgrad": True}),
}
STEPS = 12


def hexes(a: Any) -> list[str]:
    """Values as exact float hex strings."""
    return [float(v).hex() for v in np.asarray(a, dtype=np.float64).reshape(-1)]


def initial_params(dtype: np.dtype) -> list[np.ndarray]:
    """Two parameters: a (5,) vector and a (4, 10) matrix."""
    rng = np.random.default_rng(7)
    return [rng.standard_normal(5).astype(dtype), rng.standard_normal((4, 10)).astype(dtype)]


def grad_at(step: int, shape: tuple, dtype: np.dtype) -> np.ndarray:
    """The prescribed gradient of step ``step`` (also computed by the tests)."""
    n = int(np.prod(shape))
    k = np.arange(n, dtype=np.float64)
    g = np.sin(0.7 * k + 1.3 * step + 0.1) * (1.0 + 0.5 * np.cos(0.3 * k * (step + 1)))
    return g.reshape(shape).astype(dtype)


def make_optimizer(name: str, params: list) -> Any:
    """The optimizer of config ``name`` over ``params``."""
    cls, kwargs = CONFIGS[name]
    return getattr(torch.optim, cls)(params, **kwargs)


def record_fixed_grads(dtype: torch.dtype) -> dict[str, Any]:
    """Each config's parameter trajectory under the prescribed gradients."""
    npd = np.float32 if dtype == torch.float32 else np.float64
    out: dict[str, Any] = {}
    for name in CONFIGS:
        params = [torch.tensor(a, requires_grad=True) for a in initial_params(npd)]
        opt = make_optimizer(name, params)
        traj = []
        for step in range(STEPS):
            for p in params:
                p.grad = torch.tensor(grad_at(step, tuple(p.shape), npd))
            opt.step()
            traj.append([hexes(p.detach().numpy()) for p in params])
        out[name] = traj
    return out


QUAD_A = [[1.0, -0.5, 0.25], [0.0, 0.5, 1.5], [0.5, 0.5, 0.5]]
QUAD_Y = [1.0, -2.0, 0.5]
QUAD_W0 = [1.0, -2.0, 0.5]
QUAD_B0 = [0.3]
QUAD_CONFIGS = [k for k, (_, kw) in CONFIGS.items() if not kw.get("maximize")]  # these diverge


def record_quadratic() -> dict[str, Any]:
    """loss = sum((A w + b - y)^2) + 0.1 * sum(w^4), float32, full training loop."""
    out: dict[str, Any] = {}
    A, y = torch.tensor(QUAD_A), torch.tensor(QUAD_Y)
    for name in QUAD_CONFIGS:
        w = torch.tensor(QUAD_W0, requires_grad=True)
        b = torch.tensor(QUAD_B0, requires_grad=True)
        opt = make_optimizer(name, [w, b])
        losses, ws = [], []
        for _ in range(STEPS):
            opt.zero_grad()
            loss = ((A @ w + b - y) ** 2).sum() + 0.1 * (w ** 4).sum()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            ws.append(hexes(w.detach().numpy()) + hexes(b.detach().numpy()))
        out[name] = {"losses": [float(v).hex() for v in losses], "params": ws}
    return out


def record_seeded_linear() -> dict[str, Any]:
    """Three SGD steps of a seeded nn.Linear on cross-entropy."""
    torch.manual_seed(0)
    x = torch.randn(8, 3)
    y = torch.randint(0, 2, (8,))
    model = torch.nn.Linear(3, 2)
    init = {"x": hexes(x.numpy()), "y": y.tolist(),
            "weight": hexes(model.weight.detach().numpy()),
            "bias": hexes(model.bias.detach().numpy())}
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return {**init, "losses": [float(v).hex() for v in losses],
            "printed": [round(v, 4) for v in losses],
            "final_weight": hexes(model.weight.detach().numpy()),
            "final_bias": hexes(model.bias.detach().numpy())}


def main() -> None:
    """Write tests/goldens/optim.json."""
    torch.set_num_threads(1)
    data = {
        "torch": torch.__version__,
        "steps": STEPS,
        "configs": {k: [c, kw] for k, (c, kw) in CONFIGS.items()},
        "fixed_grads": {"float32": record_fixed_grads(torch.float32),
                        "float64": record_fixed_grads(torch.float64)},
        "quadratic": {"A": QUAD_A, "y": QUAD_Y, "w0": QUAD_W0, "b0": QUAD_B0,
                      "configs": QUAD_CONFIGS,
                      "runs": record_quadratic()},
        "seeded_linear": record_seeded_linear(),
    }
    OUTPUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUTPUT} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
