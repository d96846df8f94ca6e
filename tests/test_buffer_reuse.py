"""Scratch buffers (``autograd_lab._scratch``): kernels reuse their own temporaries from step
to step, and nothing a user, a hook or the graph can see is ever one of them."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import autograd_lab as al
from autograd_lab import _scratch
from autograd_lab.nn import functional as F
from autograd_lab.ops import softmax_family as R


def _scratch_arrays() -> list[np.ndarray]:
    return list(getattr(_scratch._local, "cache", {}).values())


def _aliases_scratch(a: np.ndarray) -> bool:
    return any(np.shares_memory(a, s) for s in _scratch_arrays())


def _logits(seed: int, shape: tuple = (512, 1000)) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return ((rng.standard_normal(shape) * 3).astype(np.float32),
            rng.integers(0, shape[1], shape[0]))


def test_one_buffer_per_site_shape_and_dtype() -> None:
    _scratch.clear()
    a = _scratch.scratch("test.a", (3, 4), np.dtype(np.float32))
    assert a.shape == (3, 4) and a.dtype == np.float32 and a.flags.c_contiguous
    assert _scratch.scratch("test.a", (3, 4), np.dtype(np.float32)) is a
    assert _scratch.scratch("test.b", (3, 4), np.dtype(np.float32)) is not a
    assert _scratch.scratch("test.a", (3, 5), np.dtype(np.float32)) is not a
    assert _scratch.scratch("test.a", (3, 4), np.dtype(np.float64)) is not a
    assert _scratch.held_bytes() == 4 * (12 + 12 + 15) + 8 * 12
    _scratch.clear()
    assert _scratch.held_bytes() == 0
    assert _scratch.scratch("test.a", (3, 4), np.dtype(np.float32)) is not a


def test_the_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    _scratch.clear()
    monkeypatch.setattr(_scratch, "MAX_BYTES", 1000)
    a = _scratch.scratch("test.a", (200,), np.dtype(np.float32))  # 800 bytes: kept
    assert _scratch.scratch("test.a", (200,), np.dtype(np.float32)) is a
    b = _scratch.scratch("test.b", (100,), np.dtype(np.float32))  # past the bound: a new start
    assert _scratch.held_bytes() == b.nbytes
    big = _scratch.scratch("test.c", (1000,), np.dtype(np.float32))  # larger than the bound
    assert big.shape == (1000,) and _scratch.scratch("test.c", (1000,), np.dtype(np.float32)) \
        is not big
    _scratch.clear()


def test_each_thread_has_its_own_buffers() -> None:
    mine = _scratch.scratch("test.t", (8,), np.dtype(np.float32))
    theirs = []
    t = threading.Thread(target=lambda: theirs.append(
        _scratch.scratch("test.t", (8,), np.dtype(np.float32))))
    t.start()
    t.join()
    assert theirs[0] is not mine and not np.shares_memory(theirs[0], mine)
    _scratch.clear()


def test_large_log_softmax_takes_its_temporaries_from_the_scratch_cache() -> None:
    _scratch.clear()
    x, _ = _logits(0)
    y1 = R._log_softmax_data(x, 1)
    held = _scratch.held_bytes()
    assert held > 0  # the shifted block and its exp
    y2 = R._log_softmax_data(x + 1, 1)
    assert _scratch.held_bytes() == held  # reused, not grown
    assert not _aliases_scratch(y1) and not _aliases_scratch(y2)
    assert not np.shares_memory(y1, y2)
    assert np.array_equal(y1, R._log_softmax_data(x, 1))  # y1 untouched by the second call


def test_cross_entropy_results_and_gradients_never_alias_a_scratch_buffer() -> None:
    x0, y0 = _logits(1)
    z = al.tensor(x0, requires_grad=True)
    kept = []
    for step in range(3):  # a loop: each step's loss, log-probabilities and gradient stay valid
        loss = F.cross_entropy(z * (step + 1), al.tensor(y0))
        logp = loss.grad_fn.next_functions[0][0]._saved_result
        loss.backward()
        g = z.grad.numpy()
        for a in (g, logp.detach().numpy(), loss.detach().numpy()):
            assert not _aliases_scratch(a)
        kept.append((float(loss.detach()), g.copy(), g))
        z.grad = None
    for _, copy, g in kept:
        assert np.array_equal(copy, g)  # later steps never wrote into an earlier gradient
    assert len({v for v, _, _ in kept}) == 3


def test_hooks_retain_grad_and_create_graph_get_fresh_arrays() -> None:
    x0, y0 = _logits(2, (256, 1000))
    seen = []
    z = al.tensor(x0, requires_grad=True)
    z.register_hook(lambda g: seen.append(g))
    logp = al.log_softmax(z, 1)
    logp.retain_grad()
    F.nll_loss(logp, al.tensor(y0)).backward()
    for a in (seen[0].numpy(), logp.grad.numpy(), z.grad.numpy(), logp.detach().numpy()):
        assert not _aliases_scratch(a)
    first = seen[0].numpy().copy()
    F.cross_entropy(al.tensor(x0 * 2, requires_grad=True), al.tensor(y0)).backward()
    assert np.array_equal(seen[0].numpy(), first)  # a gradient a hook kept stays as it was

    w = al.tensor(x0, requires_grad=True)
    (g,) = al.autograd.grad(F.cross_entropy(w, al.tensor(y0)), w, create_graph=True)
    assert g.grad_fn is not None and not _aliases_scratch(g.detach().numpy())
    (gg,) = al.autograd.grad((g * g).sum(), w)
    assert np.isfinite(gg.numpy()).all() and not _aliases_scratch(gg.numpy())


def test_sgd_takes_its_product_from_the_scratch_cache_with_the_same_values(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # where numpy ships no OpenBLAS axpy (``_blas``), the large update is numpy's two passes
    from autograd_lab import _blas

    monkeypatch.setattr(_blas, "_KERNELS", None)
    _scratch.clear()
    rng = np.random.default_rng(3)
    x0 = rng.standard_normal((300, 200)).astype(np.float32)  # past EXACT_BELOW: numpy's path
    g0 = rng.standard_normal((300, 200)).astype(np.float32)
    p, q = al.tensor(x0, requires_grad=True), al.tensor(x0 * 2, requires_grad=True)
    p.grad, q.grad = al.tensor(g0), al.tensor(-g0)
    al.optim.SGD([p, q], lr=0.1).step()  # two parameters of one shape share the buffer
    lr = np.float32(-0.1)
    assert np.array_equal(p.detach().numpy(), x0 + lr * g0)
    assert np.array_equal(q.detach().numpy(), x0 * 2 + lr * -g0)
    assert _scratch.held_bytes() == x0.nbytes
    for t in (p, q, p.grad, q.grad):
        assert not _aliases_scratch(t.detach().numpy())


def test_kernels_in_two_threads_at_once() -> None:
    x0, y0 = _logits(4, (300, 2000))
    rows, vals = np.arange(300), np.full(300, -1 / 300, np.float32)

    def kernels(k: int) -> tuple[np.ndarray, np.ndarray]:
        y = R._log_softmax_data(x0 * k, 1)
        g = np.zeros_like(y)
        g[rows, y0] = vals
        return y, R._log_softmax_backward_rows(y, g, y0, vals, out=g)

    want = {k: kernels(k) for k in (1, 2)}
    got: dict[int, list] = {1: [], 2: []}

    def work(k: int) -> None:
        for _ in range(20):
            got[k].append(kernels(k))

    threads = [threading.Thread(target=work, args=(k,)) for k in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in (1, 2):
        assert len(got[k]) == 20
        for y, g in got[k]:
            assert np.array_equal(y, want[k][0]) and np.array_equal(g, want[k][1])


def _linear_backward_peak(hook: object = None) -> tuple[int, al.Tensor]:
    import tracemalloc

    rng = np.random.default_rng(5)
    lin = al.nn.Linear(784, 256)
    if hook is not None:
        lin.weight.register_hook(hook)
    x = al.tensor(rng.standard_normal((256, 784)).astype(np.float32))
    loss = lin(x).relu().sum()
    tracemalloc.start()
    loss.backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, lin.weight


def test_a_linear_weight_gradient_is_kept_without_a_copy() -> None:
    # mm's gradient of the transposed weight is (g.T @ x).T; its transpose back is a view
    # spanning the whole product: .grad keeps it, as torch's AccumulateGrad does
    peak, w = _linear_backward_peak()
    nbytes = w.detach().numpy().nbytes
    assert peak < 1.5 * nbytes  # the product, not the product and a copy of it
    g = w.grad.numpy()
    assert g.flags.c_contiguous and g.shape == (256, 784) and w.grad.stride() == (784, 1)


def test_a_gradient_a_hook_kept_is_copied_into_grad() -> None:
    kept = []
    peak, w = _linear_backward_peak(lambda g: kept.append(g))
    assert not np.shares_memory(kept[0].numpy(), w.grad.numpy())
    before = kept[0].numpy().copy()
    w.grad.mul_(3)
    assert np.array_equal(kept[0].numpy(), before)
    assert np.array_equal(w.grad.numpy(), before * 3)


def test_cross_entropy_backward_reads_the_softmax_its_forward_kept() -> None:
    x0, y0 = _logits(3)
    z = al.tensor(x0, requires_grad=True)
    loss = F.cross_entropy(z, al.tensor(y0))
    node = loss.grad_fn.next_functions[0][0]
    assert node.kept_exp is not None and not any(_aliases_scratch(a) for a in node.kept_exp)
    logp = node._saved_result.detach().numpy()
    loss.backward(retain_graph=True)
    first = z.grad.numpy().copy()
    z.grad = None
    loss.backward()  # the kept softmax is read, never written: the same gradient again
    assert np.array_equal(z.grad.numpy(), first)
    assert node.kept_exp is None  # released with the saved tensors
    # softmax - onehot, over the batch: the gradient exp(y) would give, to float32 rounding
    dense = np.exp(logp.astype(np.float64))
    dense[np.arange(512), y0] -= 1
    dense /= 512
    np.testing.assert_allclose(first, dense, rtol=1e-5, atol=1e-9)


def test_cross_entropy_keeps_no_softmax_where_it_would_hide_it() -> None:
    x0, y0 = _logits(4)
    with al.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        loss = F.cross_entropy(al.tensor(x0, requires_grad=True), al.tensor(y0))
    assert loss.grad_fn.next_functions[0][0].kept_exp is None  # hooks see all that is kept
    small = F.cross_entropy(al.tensor(x0[:8, :10], requires_grad=True), al.tensor(y0[:8] % 10))
    assert small.grad_fn.next_functions[0][0].kept_exp is None  # exact path: torch's exp(y)
    with al.no_grad():
        assert F.cross_entropy(al.tensor(x0), al.tensor(y0)).grad_fn is None
