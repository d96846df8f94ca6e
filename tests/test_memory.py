"""Memory accounting: bytes of live tensor storage, what backward keeps alive and frees."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

import autograd_lab as torch

N = 1_000_000
MB4 = 4 * N  # one float32 tensor of N values


@pytest.fixture(autouse=True)
def _quiet_gc() -> Iterator[None]:
    """Collect leftovers of earlier tests first, and keep the collector from freeing unrelated
    tensors in the middle of a measurement."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def used() -> int:
    return torch.memory_allocated()


def test_one_tensor() -> None:
    base = used()
    x = torch.randn(N)
    assert x.nbytes == MB4 and x.element_size() * x.numel() == 4_000_000
    assert used() - base == 4_000_000
    d = torch.zeros(N, dtype=torch.float64)
    assert used() - base == 4_000_000 + 8_000_000
    del x, d
    assert used() == base


def test_relu_chain_holds_saved_outputs_until_backward() -> None:
    base = used()
    x = torch.randn(N, requires_grad=True)
    h = x
    for _ in range(100):
        h = h.relu()  # each ReluBackward0 keeps its output alive
    assert used() - base == MB4 + 100 * MB4  # ~400 MB of saved activations (+ the input)
    loss = h.sum()
    loss.backward()
    assert x.grad is not None
    assert used() - base == MB4 + MB4 + MB4 + 4  # x, x.grad, h (still referenced) and loss
    del h, loss
    assert used() - base == 2 * MB4  # input + grad
    del x
    assert used() == base


def test_retain_graph_keeps_saved_outputs() -> None:
    base = used()
    x = torch.randn(N, requires_grad=True)
    h = x
    for _ in range(100):
        h = h.relu()
    loss = h.sum()
    loss.backward(retain_graph=True)
    assert used() - base == MB4 + 100 * MB4 + MB4 + 4  # x, saved outputs, x.grad, loss
    loss.backward()  # the second backward frees them
    del h, loss
    assert used() - base == 2 * MB4


def test_dropping_the_graph_frees_it() -> None:
    base = used()
    x = torch.randn(N, requires_grad=True)
    h = x
    for _ in range(10):
        h = h.exp()
    assert used() - base == 11 * MB4
    del h  # no backward: the graph (and what it saved) goes with its last reference
    assert used() - base == MB4


def test_shared_storage_counted_once() -> None:
    base = used()
    x = torch.zeros(N)
    views = [x.view(1000, 1000), x[10:], x[::2], x.detach(), x.data, x.reshape(N, 1),
             x.unsqueeze(0), x.expand(3, N), x.as_strided((10,), (1,)) if hasattr(x, "as_strided")
             else x[:10]]
    assert used() - base == MB4
    c = x.clone()
    assert used() - base == 2 * MB4
    del views, x
    assert used() - base == MB4  # the clone's own storage
    del c
    assert used() == base


def test_saved_inputs_keep_storage_alive() -> None:
    base = used()
    a = torch.randn(N, requires_grad=True)
    b = a * 2  # MulBackward0 by a number saves nothing of b
    y = b.sin()  # SinBackward0 saves its input b
    del b
    assert used() - base == 3 * MB4  # a, b (kept by the graph), y
    y.sum().backward()
    assert used() - base == 3 * MB4  # y's storage + a + a.grad; b was released
    del y
    assert used() - base == 2 * MB4


def test_peak_stats() -> None:
    torch.reset_peak_memory_stats()
    base = used()
    assert torch.max_memory_allocated() == base
    t = torch.zeros(N)
    del t
    assert torch.max_memory_allocated() == base + MB4
    assert used() == base
    torch.reset_peak_memory_stats()
    assert torch.max_memory_allocated() == base


def test_graphs_are_freed_without_the_cycle_collector() -> None:
    """No op builds a reference cycle: dropping the last reference frees the graph at once."""
    base = used()
    x = torch.randn(1000, requires_grad=True)
    w = torch.randn(1000, 1000, requires_grad=True)
    before = used()
    h = (w @ x).tanh().sigmoid().exp().softmax(0).log_softmax(0) ** 2
    h = h.view(10, 100).t().max(0).values.logsumexp(0) + x.std() * x.var(0).sqrt()
    h = torch.where(x > 0, x.abs().log(), x.relu()).sum() * h + torch.stack([x, x]).amax()
    y = x * 1.0
    y[0] = h  # CopySlices
    y.sin_()  # in place, saving a copy of the old value
    loss = y.sum()
    assert used() > before
    del h, y, loss
    assert used() == before
    del x, w
    assert used() == base
