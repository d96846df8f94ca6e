"""In-place operations: version counters, the errors that protect saved values and leaves,
history rewriting, and CopySlices gradients (checked against central differences)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from numgrad import assert_vjp
from strategies import arrays, index_expressions, nonzero, positive, seeds, shapes

import autograd_lab as torch

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place operation."
HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def _exact(text: str) -> str:
    return "^" + re.escape(text) + "$"


# ---- version counters --------------------------------------------------------------------------

def test_version_counter_shared_by_views_and_detach_not_data() -> None:
    x = torch.tensor([1.0, 2.0, 3.0])
    v, d, t, s = x[1:], x.detach(), x.view(3, 1), x[0]
    data = x.data
    assert x._version == 0
    x.add_(1)
    assert (x._version, v._version, d._version, t._version, s._version) == (1, 1, 1, 1, 1)
    v.mul_(2)
    d.zero_()
    assert x._version == 3 and v._version == 3
    data.add_(1)  # .data has a version counter of its own
    assert x._version == 3 and data._version == 1
    assert x.tolist() == [1.0, 1.0, 1.0]
    x[0] = 5.0
    assert x._version == 4 and s.item() == 5.0
    x.clone().add_(1)
    assert x._version == 4


def test_out_of_place_ops_do_not_bump_versions() -> None:
    x = torch.tensor([1.0, 2.0])
    _ = x + 1, x.exp(), x[0], x.view(2)
    assert x._version == 0


# ---- errors -------------------------------------------------------------------------------------

def test_leaf_in_place_errors() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for f in (lambda: x.add_(1), lambda: x.mul_(2), lambda: x.exp_(), lambda: x.zero_(),
              lambda: x.fill_(1.0), lambda: x.copy_(torch.ones(3)), lambda: x.clamp_(0, 1)):
        with pytest.raises(RuntimeError, match=_exact(LEAF)):
            f()
    with pytest.raises(RuntimeError, match=_exact(LEAF)):
        x += 1
    for f in (lambda: x[1:].add_(1), lambda: x.view(3).mul_(2), lambda: x[0].zero_()):
        with pytest.raises(RuntimeError, match=_exact(VIEW_OF_LEAF)):
            f()
    with pytest.raises(RuntimeError, match=_exact(VIEW_OF_LEAF)):
        x[0] = 5.0
    assert x.tolist() == [1.0, 2.0, 3.0] and x._version == 0


def test_no_grad_allows_in_place_on_leaves() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        x.add_(1)
        x[0] = 10.0
        x.mul_(2)
        x[1:].sub_(1)
    assert x.tolist() == [20.0, 5.0, 7.0]
    assert x.is_leaf and x.requires_grad and x.grad_fn is None and x._version == 4


def test_modified_saved_output_error() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    y.add_(1)
    with pytest.raises(RuntimeError, match=_exact(
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: [torch.FloatTensor [3]], which is output 0 of Sigmoid, is at "
            "version 1; expected version 0 instead. " + HINT)):
        y.sum().backward()


def test_modified_saved_input_error() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    y = h * h  # saves h
    h.mul_(3)
    with pytest.raises(RuntimeError, match=_exact(
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: [torch.FloatTensor [3]], which is output 0 of Mul, is "
            "at version 1; expected version 0 instead. " + HINT)):
        y.sum().backward()


def test_modified_leaf_error() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    with torch.no_grad():
        x.add_(1)
    with pytest.raises(RuntimeError, match=_exact(
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: [torch.FloatTensor [3]] is at version 1; expected version 0 "
            "instead. " + HINT)):
        y.backward()


def test_modifying_through_data_is_silent_and_wrong() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    x.data.zero_()
    y.backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]  # d(x.x)/dx = 2x, read from the zeroed memory


def test_in_place_that_saves_nothing_is_fine() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    y = h + 1  # AddBackward0 saves nothing
    h.add_(5)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


# ---- history rewriting -------------------------------------------------------------------------

def test_in_place_on_non_leaf_rewrites_grad_fn() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    mul = y.grad_fn
    y.add_(1)
    assert y.grad_fn.name() == "AddBackward0"
    assert y.grad_fn.next_functions[0] == (mul, 0)
    assert y._version == 1 and not y.is_leaf
    y.exp_()
    assert y.grad_fn.name() == "ExpBackward0"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(2 * np.array([1.0, 2.0]) + 1),
                               rtol=1e-6)


def test_item_assignment_gives_copy_slices() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.clone()
    clone = y.grad_fn
    y[0] = 5.0
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert y.grad_fn.next_functions[0] == (clone, 0)
    assert repr(y) == "tensor([5., 2., 3.], grad_fn=<CopySlices>)"
    (y * y).sum().backward()
    assert x.grad.tolist() == [0.0, 4.0, 6.0]


def test_setitem_value_with_leading_ones() -> None:
    """torch drops a value's leading size-1 dims (``x[0] = t`` with ``t`` of shape [1, 1])."""
    x = torch.zeros(3)
    x[0] = torch.tensor([[5.0]])
    x[1:] = torch.ones(1, 1, 2)
    assert x.tolist() == [5.0, 1.0, 1.0]
    w = torch.zeros(3, requires_grad=True)
    y = w * 1
    v = torch.tensor([[5.0]], requires_grad=True)
    y[0] = v
    y.sum().backward()
    assert v.grad.tolist() == [[1.0]] and w.grad.tolist() == [0.0, 1.0, 1.0]
    y = w * 1
    u = torch.ones(1, 1, requires_grad=True)
    y[[0, 2]] = u
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert u.grad.tolist() == [[4.0]]


# ---- gradients through in-place code, numerically --------------------------------------------

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

IN_PLACE: dict[str, tuple[Callable, list[tuple]]] = {
    # name: (f, input shapes)
    "setitem_slice": (lambda x, z: _set(x, (slice(1, None),), z.exp()), [(4,), (3,)]),
    "setitem_int_row": (lambda x, z: _set(x, (0,), z * 3), [(2, 3), (3,)]),
    "setitem_broadcast": (lambda x, z: _set(x, (slice(None), 1), z), [(3, 2), (1,)]),
    "setitem_scalar": (lambda x: _set(x, (1,), 7.0), [(3, 2)]),
    "setitem_step": (lambda x, z: _set(x, (slice(None, None, 2),), z.sin()), [(5,), (3,)]),
    "setitem_index_array": (lambda x, z: _set(x, ([0, 2],), z), [(3, 2), (2, 2)]),
    "setitem_mask": (lambda x, z: _set(x, (np.array([True, False, True]),), z),
                     [(3,), (2,)]),
    "view_mul_": (lambda x, w: _via_view(x, lambda v: v.mul_(w)), [(3, 2), (2,)]),
    "view_add_alpha": (lambda x, w: _via_view(x, lambda v: v.add_(w, alpha=2)), [(3, 2), (2,)]),
    "view_exp_": (lambda x: _via_view(x, lambda v: v.exp_()), [(3, 2)]),
    "view_copy_": (lambda x, w: _via_view(x, lambda v: v.copy_(w)), [(3, 2), (2,)]),
    "view_zero_": (lambda x: _via_view(x, lambda v: v.zero_()), [(3, 2)]),
    "transpose_view_add_": (lambda x, w: _transposed(x, w), [(2, 3), (3, 2)]),
    "chain_in_place": (lambda x: (x * 2).sin_().mul_(3).cos_().add_(1).sigmoid_(), [(2, 3)]),
    "iadd_isub_imul": (lambda x, z: _augmented(x, z), [(3,), (3,)]),
    "setitem_twice": (lambda x, z: _set(_set(x, (0,), z * 2), (slice(1, 3),), z[0] * x[0]),
                      [(3,), (1,)]),
    "copy_broadcast": (lambda x, z: (x * 1).copy_(z) * x, [(2, 3), (3,)]),
    "fill_": (lambda x: (x * 2).fill_(3.0) * x, [(3,)]),
    # backward formulas that need the value from before the change (torch's original_self)
    "sin_cos_": (lambda x: (x * 2).sin_().cos_(), [(2, 3)]),
    "pow_scalar_": (lambda x: (x * 1.0).pow_(3), [(3,)]),
    "div_tensor_": (lambda x, z: (x * 1.0).div_(z.exp()), [(2, 3), (3,)]),
    "mul_tensor_": (lambda x, z: (x + 1.0).mul_(z), [(2, 3), (2, 1)]),
    "pow_tensor_": (lambda x, z: (x.exp() + 0.0).pow_(z), [(3,), (3,)]),
    "view_sin_": (lambda x: _via_view(x, lambda v: v.sin_()), [(3, 2)]),
    "view_div_": (lambda x, w: _via_view(x, lambda v: v.div_(w.exp())), [(3, 2), (2,)]),
}


def _set(x: Any, key: tuple, value: Any) -> Any:
    y = x * 1.0  # a non-leaf copy we may write into
    y[key] = value
    return y * x


def _via_view(x: Any, op: Callable) -> Any:
    y = x.sin() + x  # nothing saved refers to y, so y may change
    op(y[1])
    return y * 2


def _transposed(x: Any, w: Any) -> Any:
    y = x.clone()
    y.t().add_(w)
    return y.sin()


def _augmented(x: Any, z: Any) -> Any:
    y = x * 1.0
    y += z
    y *= x
    y -= z * z
    y /= 2.0
    return y


# every in-place method on a non-leaf: (method call, domain of the input)
METHODS: dict[str, tuple[Callable, Callable]] = {
    "abs_": (lambda y: y.abs_(), nonzero), "neg_": (lambda y: y.neg_(), arrays),
    "exp_": (lambda y: y.exp_(), arrays), "log_": (lambda y: y.log_(), positive),
    "sin_": (lambda y: y.sin_(), arrays), "cos_": (lambda y: y.cos_(), arrays),
    "tanh_": (lambda y: y.tanh_(), arrays), "sigmoid_": (lambda y: y.sigmoid_(), arrays),
    "relu_": (lambda y: y.relu_(), nonzero), "sqrt_": (lambda y: y.sqrt_(), positive),
    "clamp_": (lambda y: y.clamp_(-0.5, 0.5), lambda s: arrays(s, avoid=(-0.5, 0.5))),
    "clip_": (lambda y: y.clip_(max=0.5), lambda s: arrays(s, avoid=(0.5,))),
    "clamp_min_": (lambda y: y.clamp_min_(-0.5), lambda s: arrays(s, avoid=(-0.5,))),
    "clamp_max_": (lambda y: y.clamp_max_(0.5), lambda s: arrays(s, avoid=(0.5,))),
    "add_": (lambda y: y.add_(1.5, alpha=2), arrays),
    "sub_": (lambda y: y.sub_(3.0), arrays), "mul_": (lambda y: y.mul_(-2.5), arrays),
    "div_": (lambda y: y.div_(4.0), arrays), "pow_": (lambda y: y.pow_(3), arrays),
    "zero_": (lambda y: y.zero_(), arrays), "fill_": (lambda y: y.fill_(2.0), arrays),
    "iadd": (lambda y: _iop(y, "__iadd__", 2.0), arrays),
    "isub": (lambda y: _iop(y, "__isub__", 2.0), arrays),
    "imul": (lambda y: _iop(y, "__imul__", 2.0), arrays),
    "itruediv": (lambda y: _iop(y, "__itruediv__", 2.0), arrays),
    "ipow": (lambda y: _iop(y, "__ipow__", 2), arrays),
}


def _iop(y: Any, name: str, other: Any) -> Any:
    return getattr(y, name)(other)


@pytest.mark.parametrize("name", list(IN_PLACE))
@given(data=st.data())
@SETTINGS
def test_in_place_gradients_match_central_differences(name: str, data: Any) -> None:
    fn, in_shapes = IN_PLACE[name]
    arrs = [data.draw(arrays(s)) for s in in_shapes]
    assert_vjp(fn, *arrs, seed=data.draw(seeds()))


@pytest.mark.parametrize("name", list(METHODS))
@given(data=st.data())
@settings(SETTINGS, max_examples=8)
def test_every_in_place_method_gradient(name: str, data: Any) -> None:
    method, domain = METHODS[name]

    def f(x: Any) -> Any:
        y = x * 1.0  # a non-leaf that nothing else saved
        out = method(y)
        assert out is y and y._version == 1
        return y * x

    assert_vjp(f, data.draw(domain(data.draw(shapes(max_dims=3)))), seed=data.draw(seeds()))


@given(data=st.data())
@settings(SETTINGS, max_examples=60)
def test_setitem_with_any_index_matches_central_differences(data: Any) -> None:
    shape = data.draw(shapes(min_dims=1, max_dims=3))
    key = data.draw(index_expressions(shape))
    x0 = torch.zeros(shape)
    try:
        target = x0[key].shape
    except IndexError:
        target = None
    assume(target is not None)
    # a value that broadcasts to the target: its trailing dims, some set to 1
    vshape = tuple(1 if data.draw(st.booleans()) else n
                   for n in target[len(target) - data.draw(st.integers(0, len(target))):])
    adv = isinstance(key, (list, np.ndarray, torch.Tensor)) or any(
        isinstance(k, (list, np.ndarray, torch.Tensor)) and not (
            isinstance(k, torch.Tensor) and k.dim() == 0) for k in (
            key if isinstance(key, tuple) else (key,)))
    # duplicate destinations: the last write wins, in an unspecified order
    assume(not (adv and _repeats(key, shape)))

    def f(x: Any, v: Any) -> Any:
        y = x * 1.0
        y[key] = v * 2
        return y * y

    assert_vjp(f, data.draw(arrays(shape)), data.draw(arrays(vshape)),
               seed=data.draw(seeds()))


def _repeats(key: Any, shape: tuple) -> bool:
    """Whether an advanced key writes some element twice."""
    idx = np.arange(int(np.prod(shape))).reshape(shape)
    k = key if isinstance(key, tuple) else (key,)
    k = tuple(np.asarray(i.tolist()) if isinstance(i, torch.Tensor) else i for i in k)
    hit = torch.tensor(idx)[tuple(torch.tensor(i) if isinstance(i, np.ndarray) else i
                                  for i in k)].tolist()
    flat = np.ravel(hit).tolist()
    return len(flat) != len(set(flat))
