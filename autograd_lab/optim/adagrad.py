"""``optim.Adagrad`` (torch's single-tensor algorithm, same operation order).

For each parameter p with gradient g, at step t (the state ``sum`` starts at
``initial_accumulator_value``, made when the optimizer is):

    g = g + weight_decay * p                  (if weight_decay)
    clr = lr / (1 + (t - 1) * lr_decay)
    s = s + g * g
    p = p - clr * g / (sqrt(s) + eps)
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..tensor import _make
from .optimizer import Optimizer, _closure_loss, _fma, _no_grad_step, _step_counter

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad; the update is in the module docstring."""

    _group_fallbacks = {"foreach": None, "maximize": False, "differentiable": False,
                        "fused": None}

    def __init__(self, params: Any, lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError("Invalid initial_accumulator_value value: "
                             f"{initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = _step_counter()
                init = np.full(p._data.shape, initial_accumulator_value, dtype=p.dtype.np)
                state["sum"] = _make(init, p.dtype, None)

    @_no_grad_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Adagrad update of every parameter that has a gradient."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is not None:
                    self._update(p, self.state[p], group)
        return loss

    @staticmethod
    def _update(p: Any, state: dict, group: dict) -> None:
        """One parameter's update, in torch's operation order."""
        x = p._data
        f = x.dtype.type  # hyper-parameters enter the kernels in the tensor's dtype
        step_t = state["step"]
        step_t._data[...] += 1
        step_t._vc[0] += 1
        step = float(step_t._data)
        g = -p._grad._data if group["maximize"] else p._grad._data
        if group["weight_decay"] != 0:
            g = _fma(group["weight_decay"], x, g)
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        s = state["sum"]._data
        s[...] = _fma(g, g, s)
        std = np.sqrt(s)
        std += f(group["eps"])
        x += (f(-clr) * g) / std
        state["sum"]._vc[0] += 1
        p._vc[0] += 1
