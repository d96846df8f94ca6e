"""Checks for notebook 13 · The training loop."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...nn import Linear, Sequential, Tanh
from ...nn import functional as F
from ...optim import SGD
from ...random import get_rng_state, manual_seed, set_rng_state
from ._common import (
    Feedback,
    as_array,
    check_value,
    close,
    is_tensor,
    missing,
    right,
    shares_memory,
    wrong,
)


def replay_losses(X: Any, y: Any, steps: int = 5, seed: int = 0) -> list[float]:
    """The losses of exercise 2's loop, replayed on a fresh, identically seeded network."""
    state = get_rng_state()
    try:
        manual_seed(seed)
        net = Sequential(Linear(2, 16), Tanh(), Linear(16, 2))
        opt = SGD(net.parameters(), lr=0.1)
        out = []
        for _ in range(steps):
            opt.zero_grad()
            loss = F.cross_entropy(net(X), y)
            loss.backward()
            opt.step()
            out.append(loss.item())
        return out
    finally:
        set_rng_state(state)


def ex1_loop(ex_model: Any, loss: Any) -> Feedback:
    """The trained linear model recovers w = (3, -2), b = 1 (``loss``: the loop's last loss)."""
    name = "learned weight and bias"
    hint = "zero_grad(), loss = F.mse_loss(ex_model(X), y), loss.backward(), ex_opt.step()"
    if loss is Ellipsis and missing(name, loss):
        return Feedback(False)
    w, b = as_array(ex_model.weight), as_array(ex_model.bias)
    if np.allclose(w, [[3.0, -2.0]], atol=0.05) and np.allclose(b, [1.0], atol=0.05):
        return right(name)
    if not np.all(np.isfinite(w)):
        return wrong(name, "the weights are not finite: training diverged.", hint)
    return wrong(name, f"the model learned w = {np.array2string(w, precision=3)}, "
                 f"b = {np.array2string(b, precision=3)}; it should get close to (3, -2) and 1.",
                 hint)


def ex2_history(history: list, mem: list, reference: list[float]) -> Feedback:
    """``history`` holds the losses as Python floats and memory stays flat."""
    name = "history holds the losses, as floats"
    hint = "loss.item() turns a 0-d tensor into a Python float, with no graph attached"
    if not history or missing(name, history[0]):
        return Feedback(False)
    if any(is_tensor(v) for v in history):
        kind = "with their graphs" if any(getattr(v, "grad_fn", None) for v in history) else \
            "tensors, not floats"
        return wrong(name, f"history holds tensors ({kind}); memory grew by "
                     f"{mem[-1] - mem[0]:,} bytes over {len(mem)} iterations.", hint)
    if not all(type(v) is float for v in history):
        return wrong(name, f"history holds {type(history[0]).__name__} values, not floats.", hint)
    if len(set(mem)) != 1:
        return wrong(name, f"memory grew by {mem[-1] - mem[0]:,} bytes.", hint)
    if not np.allclose(history, reference, rtol=1e-5):
        return wrong(name, "the stored numbers are not the losses of the iterations.", hint)
    return right(name)


def _ex3_known(before: Any, grad: Any, lr: float = 0.05) -> list[tuple[Any, str]]:
    """Named wrong answers of exercise 3, from the values before the step."""
    b, g = as_array(before), as_array(grad)
    return [(b, "that is the weight before the step."),
            (b + lr * g, "the sign is wrong: SGD moves against the gradient."),
            (b - g, "the learning rate is missing."),
            (g, "that is the gradient.")]


def ex3_step(predicted: Any, weight: Any, before: Any, grad: Any,
                   lr: float = 0.05) -> Feedback:
    """Exercise 3 with the weight and gradient captured before ``step()``."""
    name = "weight after one SGD step"
    hint = "plain SGD: new = old - lr * grad, with lr = 0.05"
    if missing(name, predicted):
        return Feedback(False)
    if predicted is weight or shares_memory(predicted, weight):
        return wrong(name, "predicted shares memory with p_model.weight, so step() changed it "
                     "too: it shows the result instead of your prediction. Compute it from "
                     "values of its own.", hint)
    if not is_tensor(predicted):
        return wrong(name, f"expected a tensor, got {type(predicted).__name__}.", hint)
    expected = as_array(before) - lr * as_array(grad)
    if not close(weight, expected):
        return wrong(name, "p_model.weight is not before - lr * grad: was the model changed?",
                     hint)
    return check_value(name, predicted, expected, _ex3_known(before, grad, lr), hint=hint)


def ex4_freeze(net: Any, opt: Any, first_before: Any, last_before: Any) -> Feedback:
    """Layer 0 frozen (unchanged, no .grad), only trainable parameters in the optimizer."""
    name = "the first layer frozen, the rest trained"
    hint = ("requires_grad_(False) on ft_net[0]'s parameters, then give the optimizer "
            "[p for p in ft_net.parameters() if p.requires_grad]")
    if missing(name, opt):
        return Feedback(False)
    first = list(net[0].parameters())
    last = list(net[2].parameters())
    if any(p.requires_grad for p in first):
        return wrong(name, "ft_net[0]'s parameters still require grad: the layer is not frozen.",
                     hint)
    if not all(p.requires_grad for p in last):
        return wrong(name, "ft_net[2] is frozen too; only the first layer should be.", hint)
    if any(p.grad is not None for p in first):
        return wrong(name, "a frozen parameter has a .grad: it was computed before freezing.",
                     hint)
    if not all(close(p, b) for p, b in zip(first, first_before)):
        return wrong(name, "the first layer's weights changed during training.", hint)
    if all(close(p, b) for p, b in zip(last, last_before)):
        return wrong(name, "the last layer did not change: nothing was trained.", hint)
    groups = getattr(opt, "param_groups", None)
    if groups is None:
        return wrong(name, f"ft_opt should be an optimizer, got {type(opt).__name__}.", hint)
    held = [p for g in groups for p in g["params"]]
    frozen = [p for p in held if any(p is q for q in first)]
    if frozen:
        return wrong(name, f"the optimizer still holds {len(frozen)} frozen parameter(s); hand "
                     "it only those that require grad.", hint)
    if len(held) != len(last) or not all(any(p is q for q in held) for p in last):
        return wrong(name, "the optimizer should hold exactly the trainable parameters.", hint)
    return right(name)
