"""``optim.SGD``: stochastic gradient descent with momentum, Nesterov and weight decay.

For each parameter p with gradient g (torch's algorithm and operation order):

    g = g + weight_decay * p                      (if weight_decay)
    b = g                     on the first step   (if momentum)
    b = momentum * b + (1 - dampening) * g        afterwards
    g = g + momentum * b  (nesterov)  or  g = b
    p = p - lr * g                                (p + lr * g with maximize)

Each line is computed in the parameter's dtype, in torch's order, and ``a + alpha * b``
rounded once, as the fused multiply-add of torch's CPU kernels (``add_(b, alpha=...)``):
a seeded training loop prints torch's losses. Parameters of ``_precision.EXACT_BELOW``
elements or more take numpy's two roundings (the precision policy).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..tensor import Tensor, _make
from .optimizer import Optimizer, _closure_loss, _fma, _fma_into, _no_grad_step

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (the update is in the module docstring)."""

    _group_fallbacks = {"nesterov": False, "maximize": False}

    def __init__(self, params: Any, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        foreach=foreach, differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    @_no_grad_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a gradient."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            lr, momentum = group["lr"], group["momentum"]
            wd, dampening = group["weight_decay"], group["dampening"]
            nesterov, maximize = group["nesterov"], group["maximize"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                x = p._data
                f = x.dtype.type  # hyper-parameters enter the kernels in the tensor's dtype
                g = p._grad._data
                if maximize:
                    g = -g
                if wd != 0:
                    g = _fma(f(wd), x, g)
                if momentum != 0:
                    state = self.state[p]
                    buf: Tensor | None = state.get("momentum_buffer")
                    if buf is None:
                        buf = _make(np.array(g, copy=True), p.dtype, None)
                        state["momentum_buffer"] = buf
                    else:
                        b = buf._data
                        np.multiply(b, f(momentum), out=b)
                        b[...] = _fma(f(1 - dampening), g, b)
                        buf._vc[0] += 1
                    g = _fma(f(momentum), buf._data, g) if nesterov else buf._data
                if isinstance(lr, Tensor):
                    x -= lr._data * g
                else:
                    _fma_into(f(-lr), g, x)
                p._vc[0] += 1
        return loss
