"""The central-difference helper shared by gradcheck, the exercise checks and the tests."""

from __future__ import annotations

import numpy as np

from autograd_lab.autograd.numerical import central_differences, numerical_grad, slope


def test_numerical_grad_of_a_known_function() -> None:
    x, w = np.array([[1.0, -2.0], [0.5, 3.0]]), np.array([0.25, -1.5])
    grads = numerical_grad(lambda xs: float(np.sum(np.sin(xs[0]) @ xs[1] ** 2)), [x, w])
    np.testing.assert_allclose(grads[0], np.cos(x) * w ** 2, rtol=1e-8)
    np.testing.assert_allclose(grads[1], 2 * w * np.sin(x).sum(0), rtol=1e-8)
    assert np.array_equal(x, [[1.0, -2.0], [0.5, 3.0]])  # the caller's arrays are untouched


def test_steps_down_then_up_and_restores_each_element() -> None:
    x = np.array([1.0, 2.0, 4.0], dtype=np.float32)
    seen = []
    for idx, lo, hi in central_differences(lambda: x.copy(), x, 0.5):
        assert np.array_equal(x, [1.0, 2.0, 4.0])  # restored before the values are given
        seen.append((idx, lo[idx], hi[idx], lo.dtype))
    assert seen == [((0,), 0.5, 1.5, np.float32), ((1,), 1.5, 2.5, np.float32),
                    ((2,), 3.5, 4.5, np.float32)]


def test_scalar_input_and_slope() -> None:
    (g,) = numerical_grad(lambda xs: float(xs[0] ** 3), [np.float64(2.0)], eps=1e-4)
    assert g.shape == () and abs(g - 12.0) < 1e-6
    assert slope(np.array([1.0, 3.0]), np.array([2.0, 7.0]), 0.25).tolist() == [2.0, 8.0]
