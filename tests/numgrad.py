"""Central-difference gradients, and checks of the engine's gradients against them.

``f`` maps leaf Tensors to a Tensor or a sequence of Tensors. With a random upstream
gradient ``u`` per output, the scalar ``L(x) = sum_i <f_i(x), u_i>`` has gradient
``J^T u`` (a vector-Jacobian product), which is what backward computes:

    dL/dx[k] ~ (L(x + eps e_k) - L(x - eps e_k)) / (2 eps)

(``numerical_grad`` is the package's, ``autograd_lab.autograd.numerical``.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import autograd_lab as torch
from autograd_lab import autograd
from autograd_lab.autograd.numerical import numerical_grad

EPS = 1e-6
RTOL = 1e-5
ATOL = 1e-6

Fn = Callable[..., Any]


def _outputs(out: Any) -> list:
    """Differentiable (floating-point) outputs of ``f`` as a list of Tensors."""
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    return [o for o in outs if isinstance(o, torch.Tensor) and o.dtype.is_floating_point]


def _leaves(arrays: Sequence[np.ndarray], requires_grad: bool = True) -> list:
    return [torch.tensor(a, dtype=torch.float64, requires_grad=requires_grad) for a in arrays]


def _scalar(f: Fn, arrays: Sequence[np.ndarray], us: Sequence[np.ndarray]) -> float:
    with torch.no_grad():
        outs = _outputs(f(*_leaves(arrays, False)))
    return float(sum(np.sum(np.asarray(o.numpy(), dtype=np.float64) * u)
                     for o, u in zip(outs, us)))


def upstream(f: Fn, arrays: Sequence[np.ndarray], seed: int) -> list[np.ndarray]:
    """A random gradient for each differentiable output of ``f``."""
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        outs = _outputs(f(*_leaves(arrays, False)))
    return [rng.standard_normal(o.shape) for o in outs]


def engine_vjp(f: Fn, arrays: Sequence[np.ndarray], us: Sequence[np.ndarray]) -> list:
    """``J^T u`` from ``backward`` (accumulated into the leaves' ``.grad``; zeros if unused)."""
    xs = _leaves(arrays)
    outs = _outputs(f(*xs))
    pairs = [(o, u) for o, u in zip(outs, us) if o.requires_grad]
    if pairs:
        autograd.backward([o for o, _ in pairs],
                          [torch.tensor(u, dtype=o.dtype) for o, u in pairs])
    res = []
    for x in xs:
        if x.grad is None:
            res.append(np.zeros(x.shape))
        else:
            assert x.grad.dtype is torch.float64 and tuple(x.grad.shape) == tuple(x.shape)
            assert not x.grad.requires_grad
            res.append(x.grad.numpy(force=True))  # force: sgn's gradient is a ZeroTensor
    return res


def assert_vjp(f: Fn, *arrays: np.ndarray, seed: int = 0, rtol: float = RTOL,
               atol: float = ATOL) -> None:
    """The engine's VJP of ``f`` equals the central-difference one."""
    us = upstream(f, arrays, seed)
    got = engine_vjp(f, arrays, us)
    want = numerical_grad(lambda xs: _scalar(f, xs, us), arrays, EPS)
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol,
                                   err_msg=f"gradient of input {i}")


def _first_grad(f: Fn, xs: list, us: Sequence[np.ndarray], create_graph: bool) -> list:
    outs = _outputs(f(*xs))
    pairs = [(o, u) for o, u in zip(outs, us) if o.requires_grad]
    if not pairs:
        return [None] * len(xs)
    return list(autograd.grad([o for o, _ in pairs],
                              xs, [torch.tensor(u, dtype=o.dtype) for o, u in pairs],
                              create_graph=create_graph, allow_unused=True))


def assert_gradgrad(f: Fn, *arrays: np.ndarray, seed: int = 0, rtol: float = RTOL,
                    atol: float = ATOL) -> None:
    """Second derivative: ``autograd.grad(create_graph=True)`` differentiated again, against
    central differences of the (plain) first gradient ``G(x) = J^T u`` along random ``v``."""
    us = upstream(f, arrays, seed)
    rng = np.random.default_rng(seed + 1)
    vs = [rng.standard_normal(np.shape(a)) for a in arrays]

    xs = _leaves(arrays)
    gs = _first_grad(f, xs, us, create_graph=True)
    plain = _first_grad(f, _leaves(arrays), us, create_graph=False)
    for g, p in zip(gs, plain):  # the create_graph pass computes the same first gradient
        if g is not None:
            np.testing.assert_allclose(g.detach().numpy(), p.numpy(), rtol=1e-12, atol=1e-12)
    pairs = [(g, v) for g, v in zip(gs, vs) if g is not None and g.requires_grad]
    got = [np.zeros(np.shape(a)) for a in arrays]
    if pairs:
        second = autograd.grad([g for g, _ in pairs], xs,
                               [torch.tensor(v) for _, v in pairs], allow_unused=True)
        got = [np.zeros(np.shape(a)) if s is None else s.numpy(force=True)
               for s, a in zip(second, arrays)]

    def h(vals: list[np.ndarray]) -> float:
        g1 = _first_grad(f, _leaves(vals), us, create_graph=False)
        return float(sum(np.sum(g.numpy() * v) for g, v in zip(g1, vs) if g is not None))

    want = numerical_grad(h, arrays, EPS)
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol,
                                   err_msg=f"second derivative w.r.t. input {i}")
