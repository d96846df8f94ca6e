"""``optim.RMSprop`` (torch's single-tensor algorithm, same operation order).

For each parameter p with gradient g, at each step:

    g = g + weight_decay * p                       (if weight_decay)
    v = alpha * v + (1 - alpha) * g * g
    m = lerp(m, g, 1 - alpha);  avg = sqrt(v - m * m) + eps    (centered)
    avg = sqrt(v) + eps                                         (otherwise)
    b = momentum * b + g / avg;  p = p - lr * b                 (momentum > 0)
    p = p - lr * g / avg                                        (otherwise)
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .optimizer import (
    Optimizer,
    _closure_loss,
    _fma,
    _fma_into,
    _no_grad_step,
    _step_counter,
    _zeros_like,
)

__all__ = ["RMSprop"]


def _lerp(m: np.ndarray, g: np.ndarray, w: Any) -> None:
    """``m.lerp_(g, w)`` in place, as torch's kernel computes it (one fused step)."""
    f = m.dtype.type
    m[...] = _fma(w, g - m, m) if abs(w) < 0.5 else _fma(w - f(1), g - m, g)


class RMSprop(Optimizer):
    """RMSprop; the update is in the module docstring."""

    _group_fallbacks = {"momentum": 0, "centered": False, "foreach": None, "maximize": False,
                        "differentiable": False, "capturable": False}

    def __init__(self, params: Any, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    @_no_grad_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One RMSprop update of every parameter that has a gradient."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["square_avg"] = _zeros_like(p)
                    if group["momentum"] > 0:
                        state["momentum_buffer"] = _zeros_like(p)
                    if group["centered"]:
                        state["grad_avg"] = _zeros_like(p)
                self._update(p, state, group)
        return loss

    @staticmethod
    def _update(p: Any, state: dict, group: dict) -> None:
        """One parameter's update, in torch's operation order."""
        x = p._data
        f = x.dtype.type  # hyper-parameters enter the kernels in the tensor's dtype
        lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
        wd, momentum = group["weight_decay"], group["momentum"]
        g = -p._grad._data if group["maximize"] else p._grad._data
        step_t = state["step"]
        step_t._data[...] += 1
        step_t._vc[0] += 1
        if wd != 0:
            g = _fma(wd, x, g)
        v = state["square_avg"]._data
        np.multiply(v, f(alpha), out=v)
        v[...] = _fma(f(1 - alpha) * g, g, v)
        bumped = [state["square_avg"], p]
        if group["centered"]:
            m = state["grad_avg"]._data
            _lerp(m, g, f(1 - alpha))
            avg = np.sqrt(_fma(-m, m, v))
            bumped.append(state["grad_avg"])
        else:
            avg = np.sqrt(v)
        avg += f(eps)
        if momentum > 0:
            b = state["momentum_buffer"]._data
            np.multiply(b, f(momentum), out=b)
            b += g / avg
            _fma_into(f(-lr), b, x)
            bumped.append(state["momentum_buffer"])
        else:
            x += (f(-lr) * g) / avg
        for t in bumped:
            t._vc[0] += 1
