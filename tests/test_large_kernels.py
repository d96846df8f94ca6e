"""The blocked kernels of large softmax-family tensors and cross_entropy's fused backward
compute what the whole-array formulas compute (see ``ops/softmax_family.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import autograd_lab as al
from autograd_lab.nn import functional as F
from autograd_lab.ops import softmax_family as R


def _ce_grad(z0: np.ndarray, y0: np.ndarray, scale: float, fused: bool) -> np.ndarray:
    z = al.tensor(z0, requires_grad=True)
    loss = F.cross_entropy(z, al.tensor(y0))
    if not fused:
        loss.grad_fn.fused_with = None
    (loss * scale).backward()
    return z.grad.numpy()


@pytest.mark.parametrize("shape,dt", [((512, 1000), np.float32), ((300, 200), np.float64),
                                      ((40, 5000), np.float32)])
@pytest.mark.parametrize("scale", [1.0, -2.0, 0.0])
def test_cross_entropy_fused_backward_is_the_dense_one(shape: tuple, dt: type,
                                                        scale: float) -> None:
    rng = np.random.default_rng(0)
    z0 = (rng.standard_normal(shape) * 40).astype(dt)  # exp underflows: zeros and their signs
    y0 = rng.integers(0, shape[1], shape[0])
    a, b = _ce_grad(z0, y0, scale, True), _ce_grad(z0, y0, scale, False)
    assert a.dtype == b.dtype
    assert np.array_equal(a, b)
    assert np.array_equal(np.signbit(a), np.signbit(b))


def _double_in_place(grads: tuple) -> None:
    grads[0].mul_(2)


def test_cross_entropy_fused_backward_sees_a_hook_changing_the_gradient() -> None:
    rng = np.random.default_rng(1)
    z0 = rng.standard_normal((64, 1000)).astype(np.float32)
    y0 = rng.integers(0, 1000, 64)
    grads = []
    for hooked in (False, True):
        z = al.tensor(z0, requires_grad=True)
        loss = F.cross_entropy(z, al.tensor(y0))
        if hooked:
            loss.grad_fn.next_functions[0][0].register_prehook(_double_in_place)
        loss.backward()
        grads.append(z.grad.numpy())
    np.testing.assert_allclose(grads[1], 2 * grads[0], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("shape", [(512, 1000), (3, 40, 1000), (7, 9000), (40000,)])
def test_large_log_softmax_matches_the_formula(shape: tuple) -> None:
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    x.flat[3] = -np.inf
    want = x.astype(np.float64) - np.log(np.exp(x.astype(np.float64)).sum(-1, keepdims=True))
    got = R._log_softmax_data(x, x.ndim - 1)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    g = rng.standard_normal(shape).astype(np.float32)
    gx = R._log_softmax_backward_rows(got, g)
    want_g = g - np.exp(want) * g.astype(np.float64).sum(-1, keepdims=True)
    np.testing.assert_allclose(gx, want_g, rtol=1e-4, atol=1e-5)


def test_linear_weight_grad_is_kept_without_a_copy_and_contiguous() -> None:
    lin = al.nn.Linear(20, 5)
    F.cross_entropy(lin(al.randn(8, 20)), al.tensor([0, 1, 2, 3, 4, 0, 1, 2])).backward()
    assert lin.weight.grad.stride() == (20, 1)
    assert lin.weight.grad.is_contiguous()


def test_cross_entropy_backward_twice_with_retain_graph() -> None:
    # the fused backward writes over nll_loss's gradient buffer: a second run must not see it
    rng = np.random.default_rng(1)
    z = al.tensor((rng.standard_normal((512, 1000)) * 3).astype(np.float32), requires_grad=True)
    loss = F.cross_entropy(z, al.tensor(rng.integers(0, 1000, 512)))
    loss.backward(retain_graph=True)
    first = z.grad.numpy().copy()
    loss.backward()
    assert np.array_equal(z.grad.numpy(), first + first)


@pytest.mark.parametrize("n", [1000, 40000])
def test_sgd_update_follows_the_precision_policy(n: int) -> None:
    # below _precision.EXACT_BELOW elements: p + (-lr) * g rounded once (torch's fused
    # multiply-add); from it up: the same with BLAS's axpy where numpy ships OpenBLAS, else
    # numpy's float32 product, then sum (two roundings)
    from autograd_lab._blas import _KERNELS
    from autograd_lab._fma import fma32
    from autograd_lab._precision import exact

    rng = np.random.default_rng(2)
    x0 = rng.standard_normal(n).astype(np.float32)
    g0 = rng.standard_normal(n).astype(np.float32)
    p = al.tensor(x0, requires_grad=True)
    p.grad = al.tensor(g0)
    al.optim.SGD([p], lr=0.1).step()
    lr = np.float32(-0.1)
    want = fma32(lr, g0, x0) if exact(n) or _KERNELS is not None else x0 + lr * g0
    assert np.array_equal(p.detach().numpy(), want)
    assert exact(1000) and not exact(40000)


@pytest.mark.parametrize("n", [0, 1, 15, 16, 67, 1000, 40000])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_blas_axpy_rounds_once_or_declines(n: int, dt: type) -> None:
    # numpy's OpenBLAS axpy, where numpy ships it: y + a * x with one rounding, as fma32/fma64
    from autograd_lab._blas import _KERNELS, axpy
    from autograd_lab._fma import fma32, fma64

    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(dt)
    y = rng.standard_normal(n).astype(dt)
    a = dt(-0.1)
    out = y.copy()
    done = axpy(a, x, out)
    assert done == (_KERNELS is not None)
    want = (fma32 if dt is np.float32 else fma64)(a, x, y) if done else y
    assert np.array_equal(out, want)


def test_blas_axpy_declines_what_it_cannot_do_in_one_pass() -> None:
    # strided, another dtype, shapes that differ, overlapping memory: False, y unchanged
    from autograd_lab._blas import axpy

    rng = np.random.default_rng(0)
    x = rng.standard_normal(100).astype(np.float32)
    y = rng.standard_normal(100).astype(np.float32)
    a = np.float32(-0.1)
    for xs, ys in ((x[::2], y[::2].copy()), (x.astype(np.float16), y.astype(np.float16)),
                   (x[:-1], y), (y[:50], y[25:75]), (x.astype(np.float64), y)):
        before = ys.copy()
        assert not axpy(a, xs, ys)
        assert np.array_equal(ys, before)
