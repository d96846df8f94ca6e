"""Optimizer trajectories and a seeded training run (checked by ``tests/test_optim.py`` and
``tests/test_training.py``).

Three kinds of case (``run``), floats recorded with ``float.hex`` (exact):

* ``fixed_grads``: an optimizer is stepped with a prescribed gradient sequence (made with
  numpy, :func:`grad_at`), so the parameters depend on the optimizer's arithmetic only;
* ``quadratic``: a full loop (zero_grad, loss, backward, step) on a small least-squares
  problem, from explicit initial values;
* ``seeded_linear``: ``torch.manual_seed(0); x = torch.randn(8, 3);
  y = torch.randint(0, 2, (8,)); model = nn.Linear(3, 2)``, SGD lr 0.5, cross-entropy,
  three steps; the data and initial weights drawn are recorded too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# name -> (class name, keyword arguments)
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "sgd": ("SGD", {"lr": 0.1}),
    "sgd_momentum": ("SGD", {"lr": 0.05, "momentum": 0.9}),
    "sgd_dampening": ("SGD", {"lr": 0.05, "momentum": 0.9, "dampening": 0.25}),
    "sgd_nesterov_wd": ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True,
                                "weight_decay": 0.01}),
    "sgd_maximize": ("SGD", {"lr": 0.05, "maximize": True, "weight_decay": 0.1}),
    "adam": ("Adam", {"lr": 0.01}),
    "adam_wd_amsgrad": ("Adam", {"lr": 0.02, "weight_decay": 0.05, "amsgrad": True}),
    "adam_betas_eps": ("Adam", {"lr": 0.003, "betas": [0.3, 0.6], "eps": 1e-3,
                                "maximize": True}),
    "adamw": ("AdamW", {"lr": 0.01}),
    "adamw_amsgrad": ("AdamW", {"lr": 0.02, "weight_decay": 0.3, "amsgrad": True}),
}
STEPS = 12
QUAD = {"A": [[1.0, -0.5, 0.25], [0.0, 0.5, 1.5], [0.5, 0.5, 0.5]], "y": [1.0, -2.0, 0.5],
        "w0": [1.0, -2.0, 0.5], "b0": [0.3]}

CASES: list[dict[str, Any]] = []
for _dtype in ("float32", "float64"):
    for _name, (_cls, _kw) in CONFIGS.items():
        CASES.append({"name": f"fixed_grads_{_dtype}_{_name}", "run": "fixed_grads",
                      "optimizer": _cls, "options": _kw, "dtype": _dtype, "steps": STEPS})
for _name, (_cls, _kw) in CONFIGS.items():
    if not _kw.get("maximize"):  # maximizing diverges
        CASES.append({"name": f"quadratic_{_name}", "run": "quadratic", "optimizer": _cls,
                      "options": _kw, "steps": STEPS, **QUAD})
CASES.append({"name": "seeded_linear", "run": "seeded_linear", "lr": 0.5, "steps": 3})


def hexes(a: Any) -> list[str]:
    """Values as exact float hex strings."""
    return [float(v).hex() for v in np.asarray(a, dtype=np.float64).reshape(-1)]


def initial_params(dtype: np.dtype) -> list[np.ndarray]:
    """Two parameters: a (5,) vector and a (4, 10) matrix."""
    rng = np.random.default_rng(7)
    return [rng.standard_normal(5).astype(dtype), rng.standard_normal((4, 10)).astype(dtype)]


def grad_at(step: int, shape: tuple, dtype: np.dtype) -> np.ndarray:
    """The prescribed gradient of step ``step``."""
    n = int(np.prod(shape))
    k = np.arange(n, dtype=np.float64)
    g = np.sin(0.7 * k + 1.3 * step + 0.1) * (1.0 + 0.5 * np.cos(0.3 * k * (step + 1)))
    return g.reshape(shape).astype(dtype)


def make_optimizer(torch: Any, case: dict[str, Any], params: list) -> Any:
    """The case's optimizer over ``params``."""
    kwargs = dict(case["options"])
    if "betas" in kwargs:
        kwargs["betas"] = tuple(kwargs["betas"])
    return getattr(torch.optim, case["optimizer"])(params, **kwargs)


def _fixed_grads(torch: Any, case: dict[str, Any]) -> list:
    """The parameters after each step: ``[step][param] -> hexes``."""
    npd = np.dtype(case["dtype"])
    params = [torch.tensor(a, requires_grad=True) for a in initial_params(npd)]
    opt = make_optimizer(torch, case, params)
    traj = []
    for step in range(case["steps"]):
        for p in params:
            p.grad = torch.tensor(grad_at(step, tuple(p.shape), npd))
        opt.step()
        traj.append([hexes(p.detach().numpy()) for p in params])
    return traj


def _quadratic(torch: Any, case: dict[str, Any]) -> dict[str, Any]:
    """loss = sum((A w + b - y)^2) + 0.1 * sum(w^4), float32: losses and [w, b] per step."""
    A, y = torch.tensor(case["A"]), torch.tensor(case["y"])
    w = torch.tensor(case["w0"], requires_grad=True)
    b = torch.tensor(case["b0"], requires_grad=True)
    opt = make_optimizer(torch, case, [w, b])
    losses, ws = [], []
    for _ in range(case["steps"]):
        opt.zero_grad()
        loss = ((A @ w + b - y) ** 2).sum() + 0.1 * (w ** 4).sum()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        ws.append(hexes(w.detach().numpy()) + hexes(b.detach().numpy()))
    return {"losses": [float(v).hex() for v in losses], "params": ws}


def _seeded_linear(torch: Any, case: dict[str, Any]) -> dict[str, Any]:
    """A few SGD steps of a seeded nn.Linear on cross-entropy, with the data it drew."""
    torch.manual_seed(0)
    x = torch.randn(8, 3)
    y = torch.randint(0, 2, (8,))
    model = torch.nn.Linear(3, 2)
    init = {"x": hexes(x.numpy()), "y": y.tolist(),
            "weight": hexes(model.weight.detach().numpy()),
            "bias": hexes(model.bias.detach().numpy())}
    opt = torch.optim.SGD(model.parameters(), lr=case["lr"])
    losses = []
    for _ in range(case["steps"]):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return {**init, "losses": [float(v).hex() for v in losses],
            "printed": [round(v, 4) for v in losses],
            "final_weight": hexes(model.weight.detach().numpy()),
            "final_bias": hexes(model.bias.detach().numpy())}


RUNS = {"fixed_grads": _fixed_grads, "quadratic": _quadratic, "seeded_linear": _seeded_linear}


def replay(torch: Any, case: dict[str, Any]) -> Any:
    """Run ``case`` with ``torch`` (PyTorch or autograd_lab); its JSON-ready outcome."""
    return RUNS[case["run"]](torch, case)
