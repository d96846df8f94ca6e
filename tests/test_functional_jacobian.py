"""``autograd.functional``: Jacobians, Hessians and their products against closed forms."""

from __future__ import annotations

import numpy as np
import pytest

import autograd_lab as torch
from autograd_lab.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

RNG = np.random.default_rng(11)
W = RNG.standard_normal((2, 3))
A = RNG.standard_normal((3, 3))
X0 = RNG.standard_normal(3)


def t(a: np.ndarray, **kw: object) -> torch.Tensor:
    return torch.tensor(a, dtype=torch.float64, **kw)


def f_lin_sin(x: torch.Tensor) -> torch.Tensor:
    return t(W) @ x.sin()


def jac_lin_sin(x: np.ndarray) -> np.ndarray:
    return W * np.cos(x)[None, :]


def quad(x: torch.Tensor) -> torch.Tensor:
    return x @ t(A) @ x + (x**3).sum()


def hess_quad(x: np.ndarray) -> np.ndarray:
    return A + A.T + np.diag(6 * x)


def test_jacobian_closed_form() -> None:
    J = jacobian(f_lin_sin, t(X0))
    assert J.shape == (2, 3) and not J.requires_grad and J.grad_fn is None
    np.testing.assert_allclose(J.numpy(), jac_lin_sin(X0), rtol=1e-12)


def test_jacobian_shape_is_output_then_input() -> None:
    x = t(RNG.standard_normal((2, 3)))
    J = jacobian(lambda a: a.exp().t(), x)
    assert J.shape == (3, 2, 2, 3)
    expected = np.zeros((3, 2, 2, 3))
    for i in range(3):
        for j in range(2):
            expected[i, j, j, i] = np.exp(x.numpy()[j, i])
    np.testing.assert_allclose(J.numpy(), expected, rtol=1e-12)


def test_jacobian_tuple_nesting() -> None:
    a, b = t(X0), t(X0[::-1].copy())
    J = jacobian(lambda p, q: (p * q, (p * q).sum()), (a, b))
    assert isinstance(J, tuple) and len(J) == 2 and all(len(row) == 2 for row in J)
    np.testing.assert_allclose(J[0][0].numpy(), np.diag(b.numpy()))
    np.testing.assert_allclose(J[0][1].numpy(), np.diag(a.numpy()))
    np.testing.assert_allclose(J[1][0].numpy(), b.numpy())
    J2 = jacobian(lambda p, q: p * q, (a, b))
    assert isinstance(J2, tuple) and len(J2) == 2 and J2[0].shape == (3, 3)


def test_jacobian_create_graph_is_differentiable() -> None:
    x = t(X0, requires_grad=True)
    J = jacobian(f_lin_sin, x, create_graph=True)
    assert J.requires_grad
    J.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), -(W * np.sin(X0)).sum(0), rtol=1e-12)


def test_jacobian_does_not_touch_input_grad() -> None:
    x = t(X0, requires_grad=True)
    jacobian(f_lin_sin, x)
    assert x.grad is None


def test_hessian_closed_form_and_symmetry() -> None:
    H = hessian(quad, t(X0))
    np.testing.assert_allclose(H.numpy(), hess_quad(X0), rtol=1e-12)
    np.testing.assert_allclose(H.numpy(), H.numpy().T, rtol=1e-12)


def test_vector_products_agree_with_full_matrices() -> None:
    v_out, v_in = RNG.standard_normal(2), RNG.standard_normal(3)
    J, H = jac_lin_sin(X0), hess_quad(X0)
    out, g = vjp(f_lin_sin, t(X0), t(v_out))
    np.testing.assert_allclose(out.numpy(), W @ np.sin(X0), rtol=1e-12)
    np.testing.assert_allclose(g.numpy(), v_out @ J, rtol=1e-12)
    _, jv = jvp(f_lin_sin, t(X0), t(v_in))
    np.testing.assert_allclose(jv.numpy(), J @ v_in, rtol=1e-12)
    value, hv = hvp(quad, t(X0), t(v_in))
    np.testing.assert_allclose(hv.numpy(), H @ v_in, rtol=1e-12)
    assert value.item() == pytest.approx(X0 @ A @ X0 + (X0**3).sum())
    _, vh = vhp(quad, t(X0), t(v_in))
    np.testing.assert_allclose(vh.numpy(), v_in @ H, rtol=1e-12)


def test_products_with_create_graph_keep_graph() -> None:
    x = t(X0, requires_grad=True)
    _, hv = hvp(quad, x, t(np.ones(3)), create_graph=True)
    assert hv.requires_grad
    hv.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(3, 6.0), rtol=1e-12)


def test_unused_input_gives_zeros_or_strict_error() -> None:
    a, b = t(X0), t(X0)
    J = jacobian(lambda p, q: p * 2, (a, b))
    np.testing.assert_array_equal(J[1].numpy(), np.zeros((3, 3)))
    with pytest.raises(RuntimeError, match="Output 0 of the user-provided function is independent "
                                           "of input 1. This is not allowed in strict mode."):
        jacobian(lambda p, q: p * 2, (a, b), strict=True)


def test_argument_errors() -> None:
    with pytest.raises(TypeError, match="The inputs given to jacobian must be either a Tensor or a "
                                        "tuple of Tensors"):
        jacobian(f_lin_sin, [t(X0)])
    with pytest.raises(RuntimeError, match="The vector v can only be None if the user-provided "
                                           "function returns a single Tensor with a single element"):
        vjp(f_lin_sin, t(X0))
    with pytest.raises(RuntimeError, match=r"v has invalid size: should be torch.Size\(\[2\]\) but "
                                           r"got torch.Size\(\[3\]\)"):
        vjp(f_lin_sin, t(X0), t(np.ones(3)))
    with pytest.raises(RuntimeError, match="The function given to hessian should return a single "
                                           "Tensor"):
        hessian(lambda x: (x, x), t(X0))
    with pytest.raises(NotImplementedError, match="forward-mode"):
        jacobian(f_lin_sin, t(X0), vectorize=True, strategy="forward-mode")


def test_vectorize_flag_gives_same_result() -> None:
    np.testing.assert_allclose(jacobian(f_lin_sin, t(X0), vectorize=True).numpy(),
                               jacobian(f_lin_sin, t(X0)).numpy())
