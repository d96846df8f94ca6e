"""Tensors: factories, dtype inference and promotion, attributes, conversions, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import autograd_lab as torch
from autograd_lab.tensor import Tensor

# ---- factories and dtype inference --------------------------------------------------------------


@pytest.mark.parametrize("data, dtype, shape", [
    (1.5, torch.float32, ()), (3, torch.int64, ()), (True, torch.bool, ()),
    ([1.0, 2.0], torch.float32, (2,)), ([1, 2, 3], torch.int64, (3,)),
    ([1, 2.5], torch.float32, (2,)), ([True, False], torch.bool, (2,)),
    ([[1, 2], [3, 4]], torch.int64, (2, 2)), ([[1.0], [2.0], [3.0]], torch.float32, (3, 1)),
    ([], torch.float32, (0,)),
])
def test_tensor_infers_dtype_from_python_data(data: object, dtype: object, shape: tuple) -> None:
    t = torch.tensor(data)
    assert t.dtype is dtype
    assert t.shape == shape
    assert t.is_leaf and not t.requires_grad and t.grad_fn is None


@pytest.mark.parametrize("np_dtype, dtype", [
    (np.float64, torch.float64), (np.float32, torch.float32), (np.float16, torch.float16),
    (np.int64, torch.int64), (np.int32, torch.int32), (np.int16, torch.int16),
    (np.int8, torch.int8), (np.uint8, torch.uint8), (np.bool_, torch.bool),
])
def test_tensor_keeps_numpy_dtype(np_dtype: type, dtype: object) -> None:
    assert torch.tensor(np.zeros(3, dtype=np_dtype)).dtype is dtype
    assert torch.from_numpy(np.zeros(3, dtype=np_dtype)).dtype is dtype


def test_tensor_dtype_argument_and_values() -> None:
    t = torch.tensor([1, 2], dtype=torch.float64)
    assert t.dtype is torch.float64 and t.tolist() == [1.0, 2.0]
    assert torch.tensor([1.7, -1.7], dtype=torch.int64).tolist() == [1, -1]  # truncation
    assert torch.tensor([0, 2], dtype=torch.bool).tolist() == [False, True]


def test_default_dtype_controls_python_floats() -> None:
    assert torch.get_default_dtype() is torch.float32
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.tensor([1.0]).dtype is torch.float64
        assert torch.zeros(2).dtype is torch.float64
        assert (torch.tensor([1, 2]) * 0.5).dtype is torch.float64
        assert torch.tensor([1, 2]).dtype is torch.int64
    finally:
        torch.set_default_dtype(torch.float32)
    assert torch.tensor([1.0]).dtype is torch.float32
    with pytest.raises(TypeError):
        torch.set_default_dtype(torch.int64)


def test_filled_factories() -> None:
    z = torch.zeros(2, 3)
    assert z.shape == (2, 3) and z.dtype is torch.float32 and z.sum().item() == 0
    assert torch.zeros((2, 3)).shape == (2, 3)
    assert torch.zeros([4]).shape == (4,)
    assert torch.zeros(()).shape == ()
    assert torch.ones(3, dtype=torch.int64).tolist() == [1, 1, 1]
    assert torch.empty(2, 2).shape == (2, 2)
    assert torch.full((2,), 7).dtype is torch.int64
    assert torch.full((2,), 7.0).dtype is torch.float32
    assert torch.full((2,), True).dtype is torch.bool
    assert torch.full((2, 2), 1.5).tolist() == [[1.5, 1.5], [1.5, 1.5]]
    x = torch.tensor([[1, 2]], dtype=torch.int32)
    for like in (torch.zeros_like(x), torch.ones_like(x), torch.empty_like(x),
                 torch.full_like(x, 3)):
        assert like.shape == (1, 2) and like.dtype is torch.int32
    assert torch.ones_like(x, dtype=torch.float64).dtype is torch.float64
    assert torch.full_like(x, 3).tolist() == [[3, 3]]


def test_ranges_and_eye() -> None:
    assert torch.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert torch.arange(5).dtype is torch.int64
    assert torch.arange(1, 4).tolist() == [1, 2, 3]
    assert torch.arange(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert torch.arange(0, 1, 0.25).dtype is torch.float32
    assert torch.arange(5, 0, -2).tolist() == [5, 3, 1]
    assert torch.arange(3.0).dtype is torch.float32
    assert torch.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert torch.linspace(0, 1, 1).tolist() == [0.0]
    assert torch.eye(2).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert torch.eye(2, 3).shape == (2, 3)
    with pytest.raises(RuntimeError):
        torch.arange(0, 5, 0)


def test_requires_grad_on_factories() -> None:
    for t in (torch.tensor([1.0], requires_grad=True), torch.zeros(2, requires_grad=True),
              torch.ones(1, requires_grad=True), torch.full((1,), 2.0, requires_grad=True),
              torch.randn(3, requires_grad=True)):
        assert t.requires_grad and t.is_leaf and t.grad is None and t.grad_fn is None
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype "
                                           "can require gradients$"):
        torch.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype "
                                           "can require gradients$"):
        torch.zeros(2, dtype=torch.int64, requires_grad=True)


def test_negative_size_and_bad_data_errors() -> None:
    with pytest.raises(RuntimeError, match=r"^Trying to create tensor with negative dimension -1: "
                                           r"\[-1\]$"):
        torch.ones(-1)
    with pytest.raises(RuntimeError, match=r"negative dimension -2: \[-2\]$"):
        torch.empty(-2)
    with pytest.raises(TypeError, match=r"^new\(\): invalid data type 'str'$"):
        torch.tensor("abc")
    with pytest.raises(TypeError):
        torch.zeros(2.5)


# ---- type promotion ---------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, want", [
    # a Python scalar never widens a tensor within its category
    (torch.tensor([1], dtype=torch.int32), 2, torch.int32),
    (torch.tensor([1], dtype=torch.uint8), 300, torch.uint8),
    (torch.tensor([1.0], dtype=torch.float16), 2.5, torch.float16),
    (torch.tensor([1.0]), 2.5, torch.float32),
    (torch.tensor([1.0], dtype=torch.float64), 2, torch.float64),
    # ... but a higher category wins: ints with a float scalar give the default dtype
    (torch.tensor([1]), 2.5, torch.float32),
    (torch.tensor([1], dtype=torch.int8), 0.5, torch.float32),
    (torch.tensor([True]), 2, torch.int64),
    (torch.tensor([True]), 2.0, torch.float32),
    (torch.tensor([True]), True, torch.bool),
    # dimensioned tensors promote normally
    (torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64), torch.float64),
    (torch.tensor([1], dtype=torch.uint8), torch.tensor([1], dtype=torch.int8), torch.int16),
    (torch.tensor([1], dtype=torch.int32), torch.tensor([1]), torch.int64),
    (torch.tensor([1]), torch.tensor([1.0], dtype=torch.float16), torch.float16),
    # zero-dim tensors rank below dimensioned ones within a category
    (torch.tensor([1.0]), torch.tensor(1.0, dtype=torch.float64), torch.float32),
    (torch.tensor([1], dtype=torch.int32), torch.tensor(1), torch.int32),
    (torch.tensor([1], dtype=torch.int32), torch.tensor(1.0, dtype=torch.float64), torch.float64),
    (torch.tensor(1.0, dtype=torch.float64), torch.tensor(1.0), torch.float64),
])
def test_promotion(a: object, b: object, want: object) -> None:
    assert (a + b).dtype is want
    assert (b + a).dtype is want
    assert (a * b).dtype is want
    assert torch.result_type(a, b) is want


def test_promote_types_and_division() -> None:
    assert torch.promote_types(torch.int32, torch.float16) is torch.float16
    assert torch.promote_types(torch.uint8, torch.int8) is torch.int16
    assert torch.promote_types(torch.bool, torch.int8) is torch.int8
    assert (torch.tensor([3]) / torch.tensor([2])).dtype is torch.float32
    assert (torch.tensor([3]) / 2).tolist() == [1.5]
    assert (torch.tensor([3]) // 2).dtype is torch.int64
    assert (torch.tensor([-3]) // 2).tolist() == [-2]
    assert (torch.tensor([7]) % 3).tolist() == [1]
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        torch.tensor([2]) ** -1
    assert (torch.tensor([2]) ** 2).dtype is torch.int64
    assert (torch.tensor([2]) ** 0.5).dtype is torch.float32
    assert (2 ** torch.tensor([2])).tolist() == [4]
    assert (2.0 ** torch.tensor([2])).dtype is torch.float32


def test_comparisons_give_bool() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for r in (x > 1, x >= 2, x < 2, x <= 1, x == 2, x != 2):
        assert r.dtype is torch.bool and not r.requires_grad and r.grad_fn is None
    assert (x > 1.5).tolist() == [False, True, True]
    assert torch.equal(x.detach(), torch.tensor([1.0, 2.0, 3.0]))


# ---- attributes --------------------------------------------------------------------------------

def test_shape_attributes() -> None:
    x = torch.zeros(2, 3, 4)
    assert x.shape == (2, 3, 4) and isinstance(x.shape, torch.Size)
    assert repr(x.shape) == "torch.Size([2, 3, 4])"
    assert x.size() == (2, 3, 4) and x.size(1) == 3 and x.size(-1) == 4
    assert x.dim() == 3 and x.ndim == 3 and x.ndimension() == 3
    assert x.numel() == 24 and x.nelement() == 24 and x.shape.numel() == 24
    assert x.element_size() == 4 and x.itemsize == 4 and x.nbytes == 96
    assert x.stride() == (12, 4, 1) and x.stride(0) == 12
    assert x.is_contiguous()
    y = x.transpose(0, 2)
    assert y.stride() == (1, 4, 12) and not y.is_contiguous()
    assert y.contiguous().is_contiguous()
    assert len(x) == 2
    assert [t.shape for t in x] == [(3, 4), (3, 4)]
    assert x.is_floating_point() and torch.is_floating_point(x) and torch.is_tensor(x)
    assert not torch.is_tensor(np.zeros(1))
    assert torch.numel(x) == 24
    assert x.device.type == "cpu" and str(x.device) == "cpu"
    assert not x.is_cuda
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of "
                                         r"\[-3, 2\], but got 3\)"):
        x.size(3)


def test_zero_dim_tensor() -> None:
    s = torch.tensor(3.5)
    assert s.shape == () and s.dim() == 0 and s.numel() == 1
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(s)
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(s)
    assert f"{s:.2f}" == "3.50"


def test_dtype_objects() -> None:
    assert repr(torch.float32) == "torch.float32"
    assert torch.float is torch.float32 and torch.double is torch.float64
    assert torch.long is torch.int64 and torch.int is torch.int32 and torch.half is torch.float16
    assert torch.float32.is_floating_point and not torch.int64.is_floating_point
    assert torch.float32.itemsize == 4 and torch.int64.itemsize == 8
    assert torch.tensor([1.0]).type() == "torch.FloatTensor"
    assert torch.tensor([1]).type() == "torch.LongTensor"


# ---- conversions ------------------------------------------------------------------------------

def test_numpy_shares_memory() -> None:
    x = torch.tensor([1.0, 2.0])
    a = x.numpy()
    assert a.dtype == np.float32
    a[0] = 10.0
    assert x.tolist() == [10.0, 2.0]
    x.add_(1)
    assert a.tolist() == [11.0, 3.0]


def test_numpy_of_requires_grad_errors() -> None:
    w = torch.tensor([1.0], requires_grad=True)
    msg = ("^Can't call numpy\\(\\) on Tensor that requires grad. Use tensor.detach\\(\\)."
           "numpy\\(\\) instead.$")
    with pytest.raises(RuntimeError, match=msg):
        w.numpy()
    with pytest.raises(RuntimeError, match=msg):
        np.asarray(w)
    with pytest.raises(RuntimeError, match=msg):
        (w * 2).numpy()
    assert w.detach().numpy().tolist() == [1.0]
    assert w.numpy(force=True).tolist() == [1.0]


def test_array_protocol() -> None:
    x = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
    a = np.asarray(x)
    assert a.dtype == np.int32 and a.tolist() == [[1, 2], [3, 4]]
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    assert (np.ones(2) + np.asarray(torch.tensor([1.0, 2.0]))).tolist() == [2.0, 3.0]


def test_item_tolist_float_int_bool() -> None:
    assert torch.tensor(2.5).item() == 2.5 and isinstance(torch.tensor(2.5).item(), float)
    assert isinstance(torch.tensor(3).item(), int) and torch.tensor([3]).item() == 3
    assert torch.tensor([[True]]).item() is True
    assert float(torch.tensor([1.5])) == 1.5
    assert int(torch.tensor(2.9)) == 2
    assert bool(torch.tensor(0.0)) is False and bool(torch.tensor([1])) is True
    assert torch.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert torch.tensor(1.5).tolist() == 1.5
    assert isinstance(torch.tensor([1.0]).tolist()[0], float)
    t = torch.tensor([1.0, 2.0, 3.0, 4.0])
    with pytest.raises(RuntimeError, match="^a Tensor with 4 elements cannot be converted to "
                                           "Scalar$"):
        t.item()
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value "
                                           "is ambiguous"):
        bool(t)
    with pytest.raises(RuntimeError, match="^Boolean value of Tensor with no values is ambiguous$"):
        bool(torch.tensor([]))
    assert torch.tensor(0.1, dtype=torch.float32).item() == pytest.approx(0.1, abs=1e-8)
    assert torch.tensor(0.1, dtype=torch.float32).item() != 0.1  # float32 rounding shows
    assert math.isnan(torch.tensor(float("nan")).item())


def test_index_conversion() -> None:
    assert [10, 20, 30][torch.tensor(1)] == 20
    msg = "^only integer tensors of a single element can be converted to an index$"
    with pytest.raises(TypeError, match=msg):
        [10, 20][torch.tensor(1.0)]
    with pytest.raises(TypeError, match=msg):
        [10, 20][torch.tensor([0, 1])]


def test_data_ptr_detach_clone_views() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert x.detach().data_ptr() == x.data_ptr()
    assert x.data.data_ptr() == x.data_ptr()
    assert x[:].data_ptr() == x.data_ptr()
    assert x.view(3, 1).data_ptr() == x.data_ptr()
    assert x[1:].data_ptr() == x.data_ptr() + 4
    assert x.clone().data_ptr() != x.data_ptr()
    d = x.detach()
    assert d.is_leaf and not d.requires_grad
    d[0] = 5.0
    assert x.tolist() == [5.0, 2.0, 3.0]


def test_from_numpy_shares_memory_both_ways() -> None:
    a = np.array([1.0, 2.0, 3.0])
    t = torch.from_numpy(a)
    assert t.dtype is torch.float64
    a[1] = 20.0
    assert t.tolist() == [1.0, 20.0, 3.0]
    t.mul_(2)
    assert a.tolist() == [2.0, 40.0, 6.0]
    assert t.data_ptr() == a.__array_interface__["data"][0]
    c = torch.tensor(a)  # tensor() copies
    a[0] = -1.0
    assert c.tolist()[0] == 2.0
    s = torch.as_tensor(a)  # as_tensor shares when it can
    a[2] = 0.5
    assert s.tolist()[2] == 0.5
    with pytest.raises(TypeError, match="expected np.ndarray"):
        torch.from_numpy([1.0, 2.0])
    with pytest.raises(TypeError, match="^can't convert np.ndarray of type numpy.object_"):
        torch.from_numpy(np.zeros(2, dtype=object))


def test_to_and_casts() -> None:
    x = torch.tensor([1.5, -2.5])
    assert x.to(torch.float32) is x
    assert x.to(torch.float64).dtype is torch.float64
    assert x.to(torch.int64).tolist() == [1, -2]
    assert x.long().dtype is torch.int64 and x.int().dtype is torch.int32
    assert x.double().dtype is torch.float64 and x.half().dtype is torch.float16
    assert x.bool().tolist() == [True, True]
    assert x.to("cpu") is x and x.cpu() is x
    assert x.float() is x
    assert x.to(torch.float32, copy=True) is not x
    assert x.type(torch.float64).dtype is torch.float64
    assert x.type_as(torch.tensor([1])).dtype is torch.int64
    w = torch.tensor([1.5], requires_grad=True)
    assert w.to(torch.float64).requires_grad
    assert not w.to(torch.int64).requires_grad  # integer results never require grad


# ---- autograd flags --------------------------------------------------------------------------

def test_requires_grad_flags_and_errors() -> None:
    x = torch.tensor([1.0, 2.0])
    x.requires_grad_()
    assert x.requires_grad
    x.requires_grad = False
    assert not x.requires_grad
    i = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require "
                                           "gradients$"):
        i.requires_grad_()
    with pytest.raises(RuntimeError, match="^only Tensors of floating point and complex dtype can "
                                           "require gradients$"):
        i.requires_grad = True
    y = torch.tensor([1.0], requires_grad=True) * 2
    assert not y.is_leaf and y.requires_grad
    y.requires_grad_(True)  # allowed: it already requires grad
    with pytest.raises(RuntimeError, match="^you can only change requires_grad flags of leaf "
                                           "variables. If you want to use a computed variable "
                                           "in a subgraph that doesn't require differentiation "
                                           "use var_no_grad = var.detach\\(\\).$"):
        y.requires_grad = False
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf "
                                           "variables."):
        y.requires_grad_(False)
    with pytest.raises(RuntimeError, match="^you can only change requires_grad flags of leaf "
                                           "variables.$"):
        y.requires_grad = True


def test_leaf_status() -> None:
    a = torch.tensor(1.0) * 2
    assert a.is_leaf and not a.requires_grad  # nothing required grad: a leaf
    w = torch.tensor(1.0, requires_grad=True)
    assert (w * 2).grad_fn.name() == "MulBackward0"
    assert w.detach().is_leaf
    assert (w.detach() * 2).is_leaf


def test_grad_setter_checks() -> None:
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    w.grad = torch.tensor([0.5, 0.5])
    assert w.grad.tolist() == [0.5, 0.5]
    with pytest.raises(RuntimeError, match=r"^attempting to assign a gradient of size '\[1\]' to "
                                           r"a tensor of size '\[2\]'. Please ensure that the "
                                           r"gradient and the tensor are the same size$"):
        w.grad = torch.tensor([1.0])
    for dt, cpp in ((torch.int64, "long int"), (torch.float64, "double"),
                    (torch.float16, "c10::Half")):
        with pytest.raises(RuntimeError, match=f"^attempting to assign a gradient with dtype "
                                               f"'{cpp}' to a tensor with grad_dtype 'Float'. "
                                               f"The gradient must match"):
            w.grad = torch.zeros(2, dtype=dt)
    with pytest.raises(TypeError, match="^assigned grad expected to be a Tensor or None but got "
                                        "grad of type list$"):
        w.grad = [1.0, 2.0]
    w.grad = None
    assert w.grad is None


def test_non_leaf_grad_access_warns() -> None:
    w = torch.tensor([1.0], requires_grad=True)
    y = w * 2
    with pytest.warns(UserWarning, match="The .grad attribute of a Tensor that is not a leaf "
                                         "Tensor is being accessed"):
        assert y.grad is None


def test_version_counter_basics() -> None:
    x = torch.tensor([1.0, 2.0])
    assert x._version == 0
    x.add_(1)
    assert x._version == 1
    x[0] = 5.0
    assert x._version == 2
    x.data.add_(1)
    assert x._version == 2


@pytest.mark.parametrize("make", [
    lambda: torch.ones(2) + 1j,
    lambda: 2j * torch.ones(2),
    lambda: torch.mul(torch.ones(2), 1j),
    lambda: torch.where(torch.tensor([True, False]), 2j, 1.0),
    lambda: torch.where(torch.tensor([True, False]), torch.ones(2), 1j),
])
def test_complex_numbers_are_refused(make: object) -> None:
    """There are no complex dtypes here: a complex Python number is an error, never a result
    with its imaginary part dropped."""
    with pytest.raises(TypeError, match="^complex numbers are not supported by autograd_lab$"):
        make()


def test_tensor_attribute_stores_stay_plain_slot_stores() -> None:
    """A ``__setattr__`` or ``__delattr__`` on Tensor would route every attribute store
    (six per op's output) through Python; torch's refusals of ``del x.grad_fn`` and the
    like are property deleters instead, and ``grad_fn``/``dtype`` stay settable."""
    assert "__setattr__" not in vars(Tensor) and "__delattr__" not in vars(Tensor)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    for name in ("grad_fn", "dtype", "is_leaf", "shape", "_version", "T"):
        with pytest.raises(AttributeError, match=f"attribute '{name}' of 'torch._C.TensorBase'"
                                                 " objects is not writable"):
            delattr(y, name)
    with pytest.raises(RuntimeError, match="requires_grad must be a bool"):
        del y.requires_grad
    assert type(y.grad_fn).__name__ == "MulBackward0" and y.dtype is torch.float32
