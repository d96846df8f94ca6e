"""dtypes and PyTorch's type-promotion rules.

A ``dtype`` wraps a numpy dtype and carries torch's name (``torch.float32``).
Promotion follows torch, not numpy: Python scalars never widen a tensor's dtype
within their category, and zero-dim tensors rank below tensors with dimensions.
"""

from __future__ import annotations

import numpy as np


class dtype:  # noqa: N801  (torch spells it in lower case)
    """A tensor element type, e.g. ``autograd_lab.float32``."""

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "itemsize", "_cat", "_tensor_type")

    def __init__(self, name: str, np_dtype: type, category: int, tensor_type: str) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = category == 2
        self.is_signed = name not in ("uint8", "bool")
        self.itemsize = self.np.itemsize
        self._cat = category  # 0 bool, 1 integer, 2 floating point
        self._tensor_type = tensor_type

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name

    @property
    def is_complex(self) -> bool:
        """Always False: this engine has no complex dtypes."""
        return False


bool_ = dtype("bool", np.bool_, 0, "BoolTensor")
uint8 = dtype("uint8", np.uint8, 1, "ByteTensor")
int8 = dtype("int8", np.int8, 1, "CharTensor")
int16 = dtype("int16", np.int16, 1, "ShortTensor")
int32 = dtype("int32", np.int32, 1, "IntTensor")
int64 = dtype("int64", np.int64, 1, "LongTensor")
float16 = dtype("float16", np.float16, 2, "HalfTensor")
float32 = dtype("float32", np.float32, 2, "FloatTensor")
float64 = dtype("float64", np.float64, 2, "DoubleTensor")

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)
dtype.__module__ = "torch"  # ``type(torch.float32)`` prints ``<class 'torch.dtype'>``
_FROM_NP = {d.np: d for d in ALL}

_default = [float32]


def get_default_dtype() -> dtype:
    """The dtype of float tensors made from Python floats (float32 unless changed)."""
    return _default[0]


def set_default_dtype(d: dtype) -> None:
    """Change the default floating-point dtype."""
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default[0] = d


def from_numpy_dtype(npd: np.dtype) -> dtype:
    """The dtype of a numpy dtype; torch's error for one it does not support."""
    try:
        return _FROM_NP[np.dtype(npd)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(npd).type.__name__}. The only "
            "supported types are: float64, float32, float16, complex64, complex128, int64, int32, "
            "int16, int8, uint64, uint32, uint16, uint8, and bool."
        ) from None


def promote(a: dtype, b: dtype) -> dtype:
    """Promote two tensor dtypes (same rule as ``torch.promote_types``)."""
    if a is b:
        return a
    if a._cat != b._cat:  # torch: the higher category wins (float32 + int64 -> float32)
        return a if a._cat > b._cat else b
    return _FROM_NP[np.promote_types(a.np, b.np)]


def scalar_dtype(value: object) -> dtype:
    """The dtype torch gives a Python number when it becomes a tensor."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    return _default[0]


# ---- a Python number stored in a dtype: torch's range checks ----------------------------------

_C_TYPE = {"bool": "bool", "uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t",
           "int32": "int", "int64": "int64_t", "float16": "c10::Half", "float32": "float",
           "float64": "double"}


def fits(value: object, d: dtype) -> bool:
    """Whether torch stores the number ``value`` in ``d`` without an overflow error: integers
    must be in range (unsigned types also take negatives down to -max, which wrap), floats
    stored as integers must be finite and in range, floats stored as float32/float16 must be
    in range unless infinite or nan; a complex number must be real."""
    if d._cat == 0 or isinstance(value, (bool, np.bool_)):
        return True
    if isinstance(value, (complex, np.complexfloating)):
        if value.imag:
            return False
        value = value.real
    if d._cat == 1:
        info = np.iinfo(d.np)
        if isinstance(value, (int, np.integer)):
            return -info.max <= value <= info.max if info.min == 0 else \
                info.min <= value <= info.max
        v = float(value)  # type: ignore[arg-type]
        return v == v and info.min <= v <= info.max
    if d.np.itemsize < 8 and isinstance(value, (float, np.floating)):
        v = float(value)
        return not np.isfinite(v) or abs(v) <= float(np.finfo(d.np).max)
    return True


def check_fill(value: object, d: dtype) -> None:
    """torch's error for a fill value (``full``, ``fill_``, ``masked_fill``) that ``d`` cannot
    hold: ``value cannot be converted to type int64_t without overflow``."""
    if not fits(value, d):
        raise RuntimeError(f"value cannot be converted to type {_C_TYPE[d.name]} without "
                           "overflow")
