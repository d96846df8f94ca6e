"""What every op shares: argument handling (operand types, torch's result dtype, dims), the
base of two-input nodes (``BinaryNode``), and the helpers backward formulas use.

Backward formulas run on numpy arrays in a plain backward and on Tensors under
``create_graph=True``; the helpers below (``sum_to``, ``expand`` ...) accept both.
Recording an op's output and node is ``record.py``'s job.
"""

from __future__ import annotations

import functools
from numbers import Number
from typing import Any

import numpy as np

from .. import _dtype
from .._dtype import dtype, get_default_dtype, int64
from .._messages import (
    NUMBER_TENSOR,
    TENSOR_NUMBER,
    TENSOR_TENSOR,
    broadcast_error,
    invalid_arguments,
    must_be_tensor,
    scalar_name,
)
from .._saved_display import show_saved, shown_dim, shown_dims  # noqa: F401  (for the ops)
from .._torch_names import as_builtin_error
from ..grad_mode import STATE
from ..node import Node
from ..tensor import Tensor
from .summation import column_sums, torch_sum

__all__ = [
    "Node", "Tensor", "STATE", "BinaryNode", "binary_args", "broadcast_error", "expand",
    "broadcast_shapes", "broadcasting", "tensor_pair",
    "norm_dim", "norm_dims", "reshape", "sum_to", "to_array", "unary_data",
]
ndarray = np.ndarray


def result_type(*operands: object) -> dtype:
    """torch.result_type: dim tensors > zero-dim tensors > Python scalars.

    A lower-priority operand only matters when it belongs to a higher category
    (bool < integer < floating point); then the result is its dtype (for a Python
    float, the default dtype).
    """
    groups: list[dtype | None] = [None, None, None]  # dim tensors, 0-dim tensors, scalars
    for op in operands:
        if isinstance(op, Tensor):
            d, g = op.dtype, (0 if op._data.ndim else 1)
        elif isinstance(op, (bool, int, float, np.number, np.bool_)):
            v = op.item() if isinstance(op, (np.number, np.bool_)) else op
            d, g = _dtype.scalar_dtype(v), 2
        else:
            continue
        groups[g] = d if groups[g] is None else _dtype.promote(groups[g], d)
    result = None
    for d in groups:
        if d is not None and (result is None or d._cat > result._cat):
            result = d
    return result if result is not None else get_default_dtype()


def to_array(x: Any) -> Any:
    """A Tensor's array; anything else as it is."""
    return x._data if isinstance(x, Tensor) else x


class OperandTypeError(TypeError):
    """An operand that is neither a Tensor nor a number. Operator methods turn it into
    ``NotImplemented`` (so Python raises its own "unsupported operand" error, as for torch)."""

as_builtin_error(OperandTypeError, "TypeError")  # as torch names it


_SIGNATURES = {  # ops whose bad operand torch reports as a failed overload resolution
    "remainder": (TENSOR_TENSOR, NUMBER_TENSOR, TENSOR_NUMBER),
    "floor_divide": (TENSOR_TENSOR, "(Tensor input, Number other)"),
}


def operand_error(op: str, x: Any, first: Any = None) -> OperandTypeError:
    """torch's error for an operand ``x`` of ``op`` (after ``first``) that is neither a
    Tensor nor a number."""
    if op in _SIGNATURES and first is not None:
        return OperandTypeError(str(invalid_arguments(op, (first, x), *_SIGNATURES[op])))
    if op == "pow":
        return OperandTypeError(
            f"pow() received an invalid combination of arguments - got (Tensor, "
            f"{type(x).__name__}), but expected one of:\n"
            " * (Tensor input, Tensor exponent, *, Tensor out = None)\n"
            " * (Number self, Tensor exponent, *, Tensor out = None)\n"
            " * (Tensor input, Number exponent, *, Tensor out = None)\n"
        )
    return OperandTypeError(
        f"{op}(): argument 'other' (position 2) must be Tensor, not {type(x).__name__}"
    )


_NUMBER_FIRST = {  # ops with a (Number self, Tensor other) overload: torch lists them all
    "remainder": (TENSOR_TENSOR, NUMBER_TENSOR, TENSOR_NUMBER),
    "bitwise_and": (TENSOR_TENSOR, NUMBER_TENSOR, TENSOR_NUMBER),
    "bitwise_or": (TENSOR_TENSOR, NUMBER_TENSOR, TENSOR_NUMBER),
    "bitwise_xor": (TENSOR_TENSOR, NUMBER_TENSOR, TENSOR_NUMBER),
    "pow": ("(Tensor input, Tensor exponent, *, Tensor out = None)",
            "(Number self, Tensor exponent, *, Tensor out = None)",
            "(Tensor input, Number exponent, *, Tensor out = None)"),
}


def no_tensor_error(op: str, x: Any, y: Any) -> TypeError:
    """torch's error for a binary op given no Tensor at all (``torch.pow(2, 3)``)."""
    if op in _NUMBER_FIRST:
        return invalid_arguments(op, (x, y), *_NUMBER_FIRST[op])
    return must_be_tensor(op, x, 1)


def is_number(x: Any) -> bool:
    """A Python or numpy number (what torch's ``Number`` arguments accept)."""
    return isinstance(x, (Number, np.bool_, np.number)) and not isinstance(x, Tensor)


def _check_scalar(x: Any, op: str, first: Any = None) -> None:
    if type(x) is not float and not isinstance(x, (Number, np.bool_, np.number)):
        raise operand_error(op, x, first)
    if isinstance(x, (complex, np.complexfloating)):  # torch would give a complex result
        raise TypeError("complex numbers are not supported by autograd_lab")


def binary_args(x: Any, y: Any, op: str = "binary op") -> tuple[Any, Any, dtype]:
    """The two operands as arrays (or Python numbers) and torch's result dtype."""
    if isinstance(x, Tensor):
        if isinstance(y, Tensor):
            if x.dtype is y.dtype:
                return x._data, y._data, x.dtype
            # torch computes in the common dtype: a wider 0-d operand (a float64 divisor of a
            # float32 tensor) is cast to it first, not the result after
            dt = result_type(x, y)
            a, b = x._data, y._data
            return (a if a.dtype == dt.np or a.ndim else a.astype(dt.np),
                    b if b.dtype == dt.np or b.ndim else b.astype(dt.np), dt)
        _check_scalar(y, op, x)
        dt = _with_scalar(x.dtype, y)
        return x._data, _wrap_int(y, dt) if type(y) is int else y, dt
    if not isinstance(y, Tensor):
        raise no_tensor_error(op, x, y)
    _check_scalar(x, op)
    dt = _with_scalar(y.dtype, x)
    return _wrap_int(x, dt) if type(x) is int else x, y._data, dt

_INT_BOUNDS = {np.dtype(t): (np.iinfo(t).min, np.iinfo(t).max)
               for t in (np.uint8, np.int8, np.int16, np.int32, np.int64)}


def _wrap_int(s: int, dt: dtype) -> Any:
    """A Python int as the integer dtype it meets: torch casts it, so out of range it wraps
    (``uint8_tensor == 257`` compares with 1)."""
    bounds = _INT_BOUNDS.get(dt.np)
    if bounds is None or bounds[0] <= s <= bounds[1]:
        return s
    return int(np.array(s).astype(dt.np))


def _with_scalar(d: dtype, s: Any) -> dtype:
    """A tensor's dtype combined with a Python number (which never widens its category)."""
    if type(s) is float:
        return d if d._cat == 2 else get_default_dtype()
    if isinstance(s, (bool, np.bool_)):
        return d
    if isinstance(s, (int, np.integer)):
        return d if d._cat >= 1 else int64
    return d if d._cat == 2 else get_default_dtype()


def broadcast_shapes(*shapes: tuple) -> tuple:
    """The shape operands of ``shapes`` broadcast to, with torch's error: shapes are folded
    left to right, so "tensor a" is the shape of the operands before "tensor b"."""
    out = tuple(shapes[0])
    for s in shapes[1:]:
        if tuple(s) != out:
            try:
                out = np.broadcast_shapes(out, s)
            except ValueError:
                raise broadcast_error(out, s) from None
    return out


def broadcasting(fn: Any, a: Any, b: Any) -> Any:
    """``fn(a, b)`` for numpy operands, with torch's error when their shapes don't broadcast."""
    try:
        return fn(a, b)
    except ValueError:
        broadcast_shapes(np.shape(a), np.shape(b))
        raise


def tensor_pair(x: Any, y: Any, op: str) -> None:
    """Both operands of ``op`` must be Tensors (``torch.maximum(t, 2)`` is refused)."""
    if not isinstance(x, Tensor):
        raise must_be_tensor(op, x, 1)
    if not isinstance(y, Tensor):
        raise must_be_tensor(op, y, 2)


def tensor_args(op: str, x: Any, y: Any, second: str) -> None:
    """Both arguments of a two-tensor op (``mm``, ``dot``...) must be Tensors; ``second``
    is the name torch gives the second one."""
    if not isinstance(x, Tensor):
        raise must_be_tensor(op, x, 1, "input")
    if not isinstance(y, Tensor):
        raise must_be_tensor(op, y, 2, second)


def check_inplace_operands(t: Tensor, other: Any, float_result: bool = False) -> None:
    """An in-place binary op writes into ``t``: torch first checks that the broadcast shape
    is ``t``'s and that the result dtype (``float_result``: at least floating point) casts
    to ``t``'s, before running the op."""
    shape = t._data.shape
    if isinstance(other, Tensor) and other._data.shape != shape:
        full = broadcast_shapes(shape, other._data.shape)
        if full != shape:
            raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast "
                               f"shape {list(full)}")
    if not (isinstance(other, Tensor) or is_number(other)):
        return  # the op itself gives the type error
    rt = result_type(t, other)
    if float_result and rt._cat < 2:
        rt = get_default_dtype()
    if rt._cat > t.dtype._cat:
        raise RuntimeError(f"result type {scalar_name(rt)} can't be cast to the desired output "
                           f"type {scalar_name(t.dtype)}")


def unary_data(x: Any, op: str) -> np.ndarray:
    """The array of ``op``'s tensor argument, with torch's error for anything else."""
    if not isinstance(x, Tensor):
        raise must_be_tensor(op, x, 1)
    return x._data


def float_dtype(x: Tensor) -> dtype:
    """Result dtype of a floating-point function (ints and bools become the default)."""
    return x.dtype if x.dtype._cat == 2 else get_default_dtype()


# ---- backward helpers: arrays or Tensors ---------------------------------------------------

def sum_to(g: Any, shape: tuple) -> Any:
    """Undo broadcasting: sum ``g`` down to ``shape`` ("sum in reverse")."""
    gshape = g.shape
    if gshape == shape:
        return g
    if (type(g) is np.ndarray and len(gshape) == 2 and len(shape) == 1 and gshape[0] > 1
            and shape[0] == gshape[1] > 1 and g.dtype.kind == "f" and g.dtype.itemsize >= 4
            and g.flags.c_contiguous):  # a bias's gradient: torch_sum's own path, directly
        return column_sums(g)
    lead = len(gshape) - len(shape)
    if lead < 0:  # a value with extra leading 1s (``x[i] = v``): give g those dims first
        gshape = (1,) * -lead + tuple(gshape)
        g, lead = g.reshape(gshape), 0
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and gshape[i + lead] != 1
    )
    if isinstance(g, Tensor):
        if not shape:  # torch's sum_to: a plain sum down to a 0-d tensor (SumBackward0)
            return g.sum()
        if axes:
            g = g.sum(dim=axes, keepdim=True)
        return g.reshape(shape) if g.shape != shape else g
    if axes:  # float gradients add up in torch's order (so they round as torch's do)
        g = torch_sum(g, axes, True) if g.dtype.kind == "f" and g.dtype.itemsize >= 4 else \
            g.sum(axis=axes, keepdims=True)
        # a new array, not a view of one: torch's sum is, and AccumulateGrad keeps it
        return g.reshape(shape).copy()
    return g.reshape(shape)


def expand(g: Any, shape: tuple) -> Any:
    """Broadcast ``g`` to ``shape`` (a view)."""
    if isinstance(g, Tensor):
        return g.expand(shape)
    return np.broadcast_to(g, shape)


def reshape(g: Any, shape: tuple) -> Any:
    """``g`` with ``shape``."""
    return g.reshape(shape)


def cast(g: Any, dt: dtype) -> Any:
    """Give a gradient its input's dtype (mixed-dtype ops)."""
    if isinstance(g, Tensor):
        return g if g.dtype is dt else g.to(dt)
    if g.dtype == dt.np:
        return g
    if g.size == 0 and not g.flags.writeable:  # torch's .to keeps an expanded empty one's
        return expanded_empty(g.shape, dt.np)  # zero strides
    return np.asarray(g, dtype=dt.np)


def _rounded(fn: Any, x: Any) -> Any:
    """``fn`` on an array; float32 in double rounded once, as the elementwise ops compute it
    (torch's float32 kernels are accurate to about an ulp, numpy's float32 loops less so)."""
    a = np.asarray(x)
    if a.dtype == np.float32:
        return fn(a.astype(np.float64)).astype(np.float32)
    return fn(x)


def exp(x: Any) -> Any:
    """Elementwise exp."""
    return x.exp() if isinstance(x, Tensor) else _rounded(np.exp, x)


def log(x: Any) -> Any:
    """Elementwise log."""
    return x.log() if isinstance(x, Tensor) else _rounded(np.log, x)


def sin(x: Any) -> Any:
    """Elementwise sin."""
    return x.sin() if isinstance(x, Tensor) else _rounded(np.sin, x)


def cos(x: Any) -> Any:
    """Elementwise cos."""
    return x.cos() if isinstance(x, Tensor) else _rounded(np.cos, x)


def tanh(x: Any) -> Any:
    """Elementwise tanh."""
    return x.tanh() if isinstance(x, Tensor) else _rounded(np.tanh, x)


def sigmoid(x: Any) -> Any:
    """Elementwise 1 / (1 + exp(-x))."""
    if isinstance(x, Tensor):
        return x.sigmoid()
    one = x.dtype.type(1)
    if x.dtype == np.float32:  # exp in double rounded once, as the sigmoid op (torch's ulp)
        return one / (one + np.exp(-x.astype(np.float64)).astype(np.float32))
    return one / (one + np.exp(-x))


def sign(x: Any) -> Any:
    """torch's sign: like numpy's, but sign(nan) = 0."""
    if isinstance(x, Tensor):
        return x.sign()
    s = np.sign(x)
    return np.where(s != s, s.dtype.type(0), s) if s.dtype.kind == "f" else s


def absolute(x: Any) -> Any:
    """Elementwise absolute value."""
    return x.abs() if isinstance(x, Tensor) else np.abs(x)


def swap_last(x: Any) -> Any:
    """Matrix transpose of the last two dims."""
    if isinstance(x, Tensor):
        return x.transpose(-1, -2)
    return np.swapaxes(x, -1, -2)


def unsqueeze(x: Any, dim: int) -> Any:
    """``x`` with a size-1 dim inserted at ``dim``."""
    if isinstance(x, Tensor):
        return x.unsqueeze(dim)
    return np.expand_dims(x, dim)


def zeros_like_data(x: Any) -> Any:
    """Zeros of ``x``'s shape and dtype (a constant: no graph): torch's ``zeros_like(grad)``,
    which keeps the layout of an empty gradient -- one expanded from a sum (read-only here)
    stays expanded."""
    if isinstance(x, Tensor):
        return x.new_zeros(x.shape)
    if x.size == 0 and not x.flags.writeable:
        return expanded_empty(x.shape, x.dtype)
    return np.zeros(x.shape, dtype=x.dtype)


def expanded_empty(shape: tuple, dt: Any) -> np.ndarray:
    """A new empty array standing for a torch tensor with zero strides (``empty_like`` of an
    expanded empty gradient): numpy gives an empty array zero strides, read-only marks them
    as torch's (``tensor.torch_strides``)."""
    out = np.zeros(shape, dt)
    out.flags.writeable = False
    return out


def sum_keep(x: Any, axes: tuple) -> Any:
    """Sum over ``axes`` keeping them as size-1 dims."""
    if isinstance(x, Tensor):
        return x.sum(dim=axes, keepdim=True)
    return x.sum(axis=axes, keepdims=True) if x.ndim else x  # a 0-d "dim 0" sums nothing


def norm_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` (int, tuple, list or None) as sorted non-negative axes; torch's range error."""
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    n = max(ndim, 1)
    out = []
    for d in dims:
        if not -n <= d < n:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
            )
        d = d % n if ndim else 0
        if d in out:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        out.append(d)
    return tuple(sorted(out))


def norm_dim(dim: int, ndim: int) -> int:
    """One ``dim`` as a non-negative axis (a 0-d tensor has the single dim 0)."""
    (d,) = norm_dims(dim, ndim)
    return d


def numpy_aliases(fn: Any) -> Any:
    """``fn`` also accepting numpy's keyword names, as torch does: ``axis`` for ``dim``,
    ``keepdims`` for ``keepdim`` (``A.sum(axis=1, keepdims=True)``)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kw: Any) -> Any:
        if "axis" in kw:
            kw["dim"] = kw.pop("axis")
        if "keepdims" in kw:
            kw["keepdim"] = kw.pop("keepdims")
        return fn(*args, **kw)

    return wrapper


class BinaryNode(Node):
    """A two-input node: ``reduce(i, g)`` gives input i's gradient its shape and dtype back."""

    shapes: tuple | None = None  # input shapes, kept only when the forward broadcast
    casts: tuple | None = None  # input dtypes, kept only when the forward promoted

    def reduce(self, i: int, g: Any) -> Any:
        """Input ``i``'s gradient: ``g`` summed back to its shape, in its dtype."""
        if self.shapes is not None:
            g = sum_to(g, self.shapes[i])
        return g if self.casts is None else cast(g, self.casts[i])

    def needs(self, i: int) -> bool:
        """Whether input ``i`` wants a gradient (it has an edge)."""
        return self._fns[i] is not None
