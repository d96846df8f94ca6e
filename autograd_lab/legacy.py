"""torch's legacy constructors, still met in old tutorials: ``torch.FloatTensor(2, 3)``,
``torch.LongTensor([1, 2])``, ``torch.Tensor(...)`` and ``x.new(...)``.

Each takes sizes (ints or a ``torch.Size``: an uninitialized tensor), data (a sequence or a
numpy array, converted to the constructor's dtype as ``torch.tensor(data, dtype=...)``
does), a tensor (an alias of it, which must have that dtype), or nothing (an empty tensor).
``torch.FloatTensor`` and its kin are types whose instances are the tensors of their dtype
(``isinstance(t, torch.FloatTensor)``), as in torch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtype as D
from .factories import tensor as _tensor
from .ops.record import record_view
from .ops.views import AliasBackward0
from .tensor import Size, Tensor, _init, _make

_OVERLOADS = ("(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
              "(tuple of ints size, *, torch.device device = None)",
              "(object data, *, torch.device device = None)")
# the C++ type names torch's TensorOptions print
_TYPE_META = {"float32": "float", "float64": "double", "float16": "c10::Half",
              "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


def _type_name(v: Any) -> str:
    return "torch.dtype" if isinstance(v, D.dtype) else type(v).__name__


def _bad_keywords(args: tuple, kwargs: dict) -> TypeError:
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    lines = [f"new() received an invalid combination of arguments - got ({', '.join(got)}), "
             "but expected one of:", f" * {_OVERLOADS[0]}",
             "      didn't match because some of the keywords were incorrect: "
             + ", ".join(k for k in kwargs if k != "device")]
    lines += [f" * {o}" for o in _OVERLOADS[1:]]
    return TypeError("\n".join(lines) + "\n")


def _options(dt: D.dtype) -> str:
    return (f"TensorOptions(dtype={_TYPE_META[dt.name]}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


def legacy_new(dt: D.dtype, args: tuple, kwargs: dict, check_type: bool = True,
               into: Tensor | None = None) -> Tensor:
    """A tensor of dtype ``dt`` from a legacy constructor's arguments (``check_type``: a
    tensor argument must have dtype ``dt``; ``torch.Tensor`` takes any; ``into``: the tensor
    ``torch.Tensor(...)`` is initialising, where an alias is built)."""
    if any(k != "device" for k in kwargs):
        raise _bad_keywords(args, kwargs)
    if not args:
        return _make(np.empty((0,), dtype=dt.np), dt, None)
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if check_type and first.dtype is not dt:
            raise TypeError(f"expected {_options(dt)} (got {_options(first.dtype)})")
        # an alias: the same memory and version counter, recorded as torch's alias op
        return record_view(first, AliasBackward0, first._data[...], lambda a: a[...],
                           into=into)
    sizes = tuple(first) if len(args) == 1 and isinstance(first, Size) else args
    if all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in sizes) and (
            len(args) > 1 or isinstance(first, (int, np.integer, Size))):
        for s in sizes:
            if s < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                                   f"{list(sizes)}")
        return _make(np.empty(tuple(int(s) for s in sizes), dtype=dt.np), dt, None)
    if len(args) > 1:
        pos = next(i for i, s in enumerate(args) if not isinstance(s, (int, np.integer)))
        raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {pos + 1} "
                        f"with error \"type must be tuple of ints,but got "
                        f"{type(args[pos]).__name__}\"")
    if isinstance(first, str):
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(first, (list, tuple, np.ndarray)):
        raise TypeError(f"new(): data must be a sequence (got {type(first).__name__})")
    return _tensor(first, dtype=dt)


def _tensor_init(self: Tensor, *args: Any, **kwargs: Any) -> None:
    """``torch.Tensor(...)``: a legacy constructor of the default dtype (any tensor aliased)."""
    t = legacy_new(D.get_default_dtype(), args, kwargs, check_type=False, into=self)
    if t is not self:
        _init(self, t._data, t.dtype, t._storage, t._vc)


def _new(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``x.new(...)``: a legacy constructor of x's dtype."""
    return legacy_new(self.dtype, args, kwargs)


class _TensorType(type):
    """The type of ``torch.FloatTensor`` and its kin."""

    dtype: D.dtype

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:  # type: ignore[override]
        return legacy_new(cls.dtype, args, kwargs)


def _tensor_type(dt: D.dtype) -> type:
    name = dt._tensor_type
    return _TensorType(name, (), {"dtype": dt, "is_cuda": False, "__module__": "torch",
                                  "__doc__": f"``torch.{name}``: tensors of {dt!r}."})


FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, \
    ByteTensor, BoolTensor = (_tensor_type(d) for d in (
        D.float32, D.float64, D.float16, D.int64, D.int32, D.int16, D.int8, D.uint8, D.bool_))

Tensor.__init__ = _tensor_init  # type: ignore[method-assign]
Tensor.new = _new  # type: ignore[attr-defined]

__all__ = ["BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
           "HalfTensor", "IntTensor", "LongTensor", "ShortTensor", "legacy_new"]
