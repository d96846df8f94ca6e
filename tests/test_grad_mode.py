"""Grad mode: no_grad / enable_grad / set_grad_enabled / inference_mode, and how
requires_grad propagates through operations."""

from __future__ import annotations

import pytest

import autograd_lab as torch


@pytest.fixture(autouse=True)
def _grad_mode_restored() -> None:
    yield
    assert torch.is_grad_enabled()


def _w() -> torch.Tensor:
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_requires_grad_propagates() -> None:
    w, c = _w(), torch.tensor([3.0, 4.0])
    assert (w * c).requires_grad and not (c * c).requires_grad
    assert (c + w).requires_grad and (w.sum() * 2).requires_grad
    assert not (c * 2).requires_grad and (c * 2).grad_fn is None
    assert (w[0] + c[1]).requires_grad
    assert torch.cat([c, w]).requires_grad and torch.stack([c, c]).grad_fn is None
    assert not w.detach().requires_grad
    assert not (w > 1).requires_grad  # comparisons are not differentiable
    assert not w.argmax().requires_grad
    v, i = w.max(0)
    assert v.requires_grad and not i.requires_grad


def test_no_grad_context() -> None:
    w = _w()
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        y = w * 2
        assert not y.requires_grad and y.grad_fn is None and y.is_leaf
    assert torch.is_grad_enabled()
    assert (w * 2).requires_grad


def test_views_made_under_no_grad() -> None:
    """As in torch: such a view still requires grad, but no gradient flows back through it."""
    w = _w()
    with torch.no_grad():
        z, v = w[0], w.view(2, 1)
        assert z.requires_grad and z.is_leaf and z.grad_fn is None
        assert repr(z) == "tensor(1., requires_grad=True)"
        assert v.requires_grad and v.T.requires_grad and w.unbind(0)[1].requires_grad
        assert not w[[0]].requires_grad and not w.clone().requires_grad  # copies, not views
    y = z * 2
    assert y.grad_fn.next_functions == ((None, 0), (None, 0))
    y.backward()
    assert z.grad is None and w.grad is None
    assert v.view(2).grad_fn.next_functions == ((None, 0),)
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad"):
        z.backward()
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode and is being "
                                           "modified inplace with grad mode enabled."):
        z.add_(1)
    with torch.no_grad():
        z.add_(1)
    assert w.tolist() == [2.0, 2.0] and w._version == 1


def test_no_grad_restores_on_exception() -> None:
    with pytest.raises(ValueError):
        with torch.no_grad():
            raise ValueError
    assert torch.is_grad_enabled()


def test_enable_grad_inside_no_grad_and_nesting() -> None:
    w = _w()
    with torch.no_grad():
        with torch.enable_grad():
            assert torch.is_grad_enabled()
            assert (w * 2).requires_grad
            with torch.no_grad():
                assert not (w * 2).requires_grad
            assert torch.is_grad_enabled()
        assert not torch.is_grad_enabled()
        assert not (w * 2).requires_grad


def test_set_grad_enabled_as_function_and_context() -> None:
    w = _w()
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
        assert not (w * 2).requires_grad
    assert torch.is_grad_enabled()
    with torch.no_grad():
        with torch.set_grad_enabled(True):
            assert (w * 2).requires_grad
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    torch.set_grad_enabled(False)  # takes effect at once, like a plain call
    try:
        assert not torch.is_grad_enabled()
        assert not (w * 2).requires_grad
    finally:
        torch.set_grad_enabled(True)
    assert torch.is_grad_enabled()


def test_decorators() -> None:
    w = _w()

    @torch.no_grad()
    def f(x: torch.Tensor) -> torch.Tensor:
        """doc"""
        assert not torch.is_grad_enabled()
        return x * 2

    @torch.enable_grad()
    def g(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    @torch.set_grad_enabled(False)
    def h(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    assert torch.is_grad_enabled()  # as a decorator, set_grad_enabled(False) changes nothing now
    assert not f(w).requires_grad and f.__name__ == "f" and f.__doc__ == "doc"
    assert not h(w).requires_grad and not h(w).requires_grad
    assert torch.is_grad_enabled()
    with torch.no_grad():
        assert g(w).requires_grad
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()

    @torch.no_grad()
    def recursive(n: int) -> bool:
        return torch.is_grad_enabled() if n == 0 else recursive(n - 1)

    assert recursive(3) is False and torch.is_grad_enabled()

    @torch.no_grad
    def bare(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    assert not bare(w).requires_grad and torch.is_grad_enabled()


def test_inference_mode() -> None:
    w = _w()
    with torch.inference_mode():
        assert not torch.is_grad_enabled()
        assert not (w * 2).requires_grad
    with torch.inference_mode(False):
        assert (w * 2).requires_grad

    @torch.inference_mode()
    def f(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    @torch.inference_mode
    def g(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    @torch.inference_mode(False)
    def h(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    assert not f(w).requires_grad and not g(w).requires_grad
    with torch.no_grad():
        assert h(w).requires_grad


def test_autograd_namespace_aliases() -> None:
    assert torch.autograd.no_grad is torch.no_grad
    assert torch.autograd.enable_grad is torch.enable_grad
    assert torch.autograd.set_grad_enabled is torch.set_grad_enabled


def test_update_outside_no_grad_builds_graph() -> None:
    w = _w()
    loss = (w * w).sum()
    loss.backward()
    w2 = w - 0.1 * w.grad  # outside no_grad: a new non-leaf
    assert not w2.is_leaf and w2.grad_fn.name() == "SubBackward0"
    with torch.no_grad():
        w -= 0.1 * w.grad  # in place on a leaf: allowed under no_grad
    assert w.is_leaf and w.requires_grad
    assert w.tolist() == pytest.approx([0.8, 1.6])


def test_in_place_on_leaf_needs_no_grad() -> None:
    w = _w()
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used in "
                                           "an in-place operation.$"):
        w.add_(1)
    with torch.no_grad():
        w.add_(1)
        w[0] = 10.0
    assert w.tolist() == [10.0, 3.0]
