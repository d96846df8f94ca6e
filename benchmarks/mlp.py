"""W3: one SGD step of a 784-256-10 ReLU MLP with cross-entropy, batch 256, float32.

All three implementations start from the same weights and data (drawn here with
numpy) and keep torch's layout: ``weight`` is (out, in), a layer is ``x @ W.T + b``.
A step is: clear the gradients, forward, loss, backward, ``p -= lr * p.grad``.
The steady-state sample times steps back to back, as a training loop runs them; numpy's
step is written as a plain loop's body (fresh arrays every step, each name holding its
array until the next step assigns it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from .harness import Target, Workload, fed, steady_rows

LR = 0.1
STEPS = 5  # steps per isolated sample (one step is about two milliseconds)
STEADY_STEPS = 20  # back-to-back steps per steady-state sample


@dataclass
class Init:
    X: np.ndarray
    y: np.ndarray
    params: list[np.ndarray]  # W1 (hidden, in), b1, W2 (out, hidden), b2


def make_init(batch: int = 256, n_in: int = 784, hidden: int = 256, n_out: int = 10,
              seed: int = 0) -> Init:
    """Data and weights; weights uniform in +-1/sqrt(fan_in), like torch's nn.Linear."""
    rng = np.random.default_rng(seed)

    def uniform(shape: tuple, fan_in: int) -> np.ndarray:
        bound = 1 / np.sqrt(fan_in)
        return rng.uniform(-bound, bound, shape).astype(np.float32)

    init = Init(
        rng.standard_normal((batch, n_in)).astype(np.float32),
        rng.integers(0, n_out, batch).astype(np.int64),
        [uniform((hidden, n_in), n_in), uniform((hidden,), n_in),
         uniform((n_out, hidden), hidden), uniform((n_out,), hidden)],
    )
    fed(init.X, init.y, init.params)
    return init


def has_nn(al: ModuleType) -> bool:
    """Whether autograd_lab has the nn/optim pieces this step uses."""
    try:
        import importlib

        nn = importlib.import_module(al.__name__ + ".nn")
        functional = importlib.import_module(al.__name__ + ".nn.functional")
        optim = importlib.import_module(al.__name__ + ".optim")
    except ImportError:
        return False
    return (hasattr(nn, "Linear") and hasattr(functional, "cross_entropy")
            and hasattr(optim, "SGD"))


class StepNN:
    """torch, or autograd_lab once it has them: nn.Linear, F.cross_entropy, optim.SGD."""

    repeat = 3  # each run is already STEPS steps
    steady_steps = STEADY_STEPS

    def __init__(self, lib: ModuleType, init: Init) -> None:
        import importlib

        nn = importlib.import_module(lib.__name__ + ".nn")
        self.F = importlib.import_module(lib.__name__ + ".nn.functional")
        optim = importlib.import_module(lib.__name__ + ".optim")
        hidden, n_in = init.params[0].shape
        n_out = init.params[2].shape[0]
        self.l1, self.l2 = nn.Linear(n_in, hidden), nn.Linear(hidden, n_out)
        self.params = [self.l1.weight, self.l1.bias, self.l2.weight, self.l2.bias]
        with lib.no_grad():
            for p, a in zip(self.params, init.params):
                p.copy_(lib.tensor(a))
        self.opt = optim.SGD(self.params, lr=LR)
        self.X, self.y = lib.tensor(init.X), lib.tensor(init.y)

    def step(self) -> object:
        self.opt.zero_grad()
        loss = self.F.cross_entropy(self.l2(self.l1(self.X).relu()), self.y)
        loss.backward()
        self.opt.step()
        return loss

    def run(self) -> dict[str, float]:
        t0 = time.perf_counter()
        for _ in range(STEPS):
            self.step()
        return {"step": (time.perf_counter() - t0) / STEPS}

    def loop_step(self) -> dict[str, float]:
        """One step of a training loop (``loss = step()``: the loop's name keeps the loss)."""
        t0 = time.perf_counter()
        self.last = self.step()
        return {"step": time.perf_counter() - t0}

    def grads(self) -> list[np.ndarray]:
        return [p.grad.numpy() for p in self.params]

    def weights(self) -> list[np.ndarray]:
        return [p.detach().numpy() for p in self.params]


class StepByHand(StepNN):
    """autograd_lab without nn: the same step written with engine ops."""

    def __init__(self, al: ModuleType, init: Init) -> None:
        self.al = al
        self.params = [al.tensor(a, requires_grad=True) for a in init.params]
        self.X, self.y = al.tensor(init.X), al.tensor(init.y)
        self.rows = al.arange(init.X.shape[0])

    def step(self) -> object:
        al = self.al
        w1, b1, w2, b2 = self.params
        for p in self.params:
            p.grad = None
        logits = (self.X @ w1.t() + b1).relu() @ w2.t() + b2
        loss = -al.log_softmax(logits, dim=1)[self.rows, self.y].mean()
        loss.backward()
        with al.no_grad():
            for p in self.params:
                p.sub_(p.grad, alpha=LR)
        return loss


class StepNumpy:
    """Forward and backward by hand, as a plain loop's body (attributes play its names)."""

    repeat = 3
    steady_steps = STEADY_STEPS

    def __init__(self, init: Init) -> None:
        self.X, self.y = init.X, init.y
        self.params = [a.copy() for a in init.params]
        self.rows = np.arange(init.X.shape[0])
        self._grads: list[np.ndarray] = []

    def step(self) -> np.float32:
        X, y, rows = self.X, self.y, self.rows
        w1, b1, w2, b2 = self.params
        self.z1 = X @ w1.T + b1
        self.h = np.maximum(self.z1, 0)
        self.logits = self.h @ w2.T + b2
        self.shifted = self.logits - self.logits.max(axis=1, keepdims=True)
        self.e = np.exp(self.shifted)
        self.s = self.e.sum(axis=1, keepdims=True)
        loss = -(self.shifted[rows, y] - np.log(self.s[:, 0])).mean()
        # d loss / d logits = (softmax - onehot) / batch
        self.d = self.e / self.s
        self.d[rows, y] -= 1
        self.d /= X.shape[0]
        self.dh = self.d @ w2
        self.dz1 = self.dh * (self.z1 > 0)
        self._grads = [self.dz1.T @ X, self.dz1.sum(axis=0), self.d.T @ self.h,
                       self.d.sum(axis=0)]
        for p, g in zip(self.params, self._grads):
            p -= LR * g
        return loss

    def run(self) -> dict[str, float]:
        t0 = time.perf_counter()
        for _ in range(STEPS):
            self.step()
        return {"step": (time.perf_counter() - t0) / STEPS}

    def loop_step(self) -> dict[str, float]:
        t0 = time.perf_counter()
        self.last = self.step()
        return {"step": time.perf_counter() - t0}

    def grads(self) -> list[np.ndarray]:
        return self._grads

    def weights(self) -> list[np.ndarray]:
        return self.params


def engine_step(al: ModuleType, init: Init, by_hand: bool = False) -> StepNN:
    """autograd_lab's step: with nn/optim when they exist (unless ``by_hand``)."""
    if by_hand or not has_nn(al):
        return StepByHand(al, init)
    return StepNN(al, init)


def w3(al: ModuleType, torch: ModuleType | None, by_hand: bool = False, **size: int) -> Workload:
    via = "engine ops by hand" if by_hand or not has_nn(al) else "nn.Linear, F.cross_entropy, optim.SGD"
    setups = {"autograd_lab": lambda: engine_step(al, make_init(**size), by_hand),
              "numpy": lambda: StepNumpy(make_init(**size))}
    if torch is not None:
        setups["torch"] = lambda: StepNN(torch, make_init(**size))
    dims = [size.get(k, d) for k, d in (("n_in", 784), ("hidden", 256), ("n_out", 10))]
    return Workload(
        "W3",
        f"W3  SGD step of a {'-'.join(map(str, dims))} ReLU MLP, batch {size.get('batch', 256)}, "
        f"float32, cross-entropy (autograd_lab: {via})",
        setups,
        steady_rows("one step", "step", "ms", 1e3, "torch",
                    Target("ratio", 1.0, text="<= 1.0x torch"), STEADY_STEPS, also="numpy"),
        kinds=("steady", "isolated"),
    )
