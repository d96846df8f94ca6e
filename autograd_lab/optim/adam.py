"""``optim.Adam`` and ``optim.AdamW`` (torch's single-tensor algorithm, same operation order).

For each parameter p with gradient g, at step t:

    g = g + weight_decay * p            (Adam)   |   p = p * (1 - lr * weight_decay)   (AdamW)
    m = lerp(m, g, 1 - beta1)           = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    v_max = max(v_max, v)               (amsgrad; then used instead of v)
    denom = sqrt(v) / sqrt(1 - beta2^t) + eps
    p = p - lr / (1 - beta1^t) * m / denom
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .optimizer import Optimizer, _closure_loss, _fma, _no_grad_step, _step_counter, _zeros_like

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam (AdamW with ``decoupled_weight_decay``); the update is in the module docstring."""

    _group_fallbacks = {"amsgrad": False, "maximize": False, "decoupled_weight_decay": False}

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    @_no_grad_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Adam update of every parameter that has a gradient."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2) = group["lr"], group["betas"]
            eps, wd = group["eps"], group["weight_decay"]
            amsgrad, maximize = group["amsgrad"], group["maximize"]
            decoupled = group["decoupled_weight_decay"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["exp_avg"] = _zeros_like(p)
                    state["exp_avg_sq"] = _zeros_like(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = _zeros_like(p)
                self._update(p, state, lr, beta1, beta2, eps, wd, amsgrad, maximize, decoupled)
        return loss

    @staticmethod
    def _update(p: Any, state: dict, lr: float, beta1: float, beta2: float, eps: float,
                wd: float, amsgrad: bool, maximize: bool, decoupled: bool) -> None:
        """One parameter's update, in torch's operation order."""
        x = p._data
        f = x.dtype.type  # hyper-parameters enter the kernels in the tensor's dtype
        g = -p._grad._data if maximize else p._grad._data
        step_t = state["step"]
        step_t._data[...] += 1
        step_t._vc[0] += 1
        if wd != 0:
            if decoupled:
                np.multiply(x, f(1 - lr * wd), out=x)
            else:
                g = _fma(wd, x, g)
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        w = f(1 - beta1)  # m.lerp_(g, w), as torch's kernel computes it (one fused step)
        if abs(w) < 0.5:
            m[...] = _fma(w, g - m, m)
        else:
            m[...] = _fma(w - f(1), g - m, g)
        np.multiply(v, f(beta2), out=v)
        v[...] = _fma(f(1 - beta2) * g, g, v)
        step = float(step_t._data)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2**0.5
        if amsgrad:
            vmax = state["max_exp_avg_sq"]._data
            np.maximum(vmax, v, out=vmax)
            state["max_exp_avg_sq"]._vc[0] += 1
            denom = np.sqrt(vmax) / f(bias_correction2_sqrt)
        else:
            denom = np.sqrt(v) / f(bias_correction2_sqrt)
        denom += f(eps)
        x += (f(-step_size) * m) / denom
        for t in (state["exp_avg"], state["exp_avg_sq"], p):
            t._vc[0] += 1


class AdamW(Adam):
    """Adam with decoupled weight decay (default ``weight_decay=1e-2``)."""

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable, differentiable=differentiable,
                         fused=fused, decoupled_weight_decay=True)
