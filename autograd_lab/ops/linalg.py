"""Matrix products: mm, mv, dot, bmm, matmul (which picks one of them), trace, outer."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import common as c
from .common import Node, Tensor, make, node_for
from .movement import SqueezeBackward4, UnsafeViewBackward0, reshape, squeeze, unsqueeze


def _float_check(a: Tensor, b: Tensor, name: str) -> None:
    """torch's dtype-mismatch message of each product (they differ)."""
    if a.dtype is b.dtype:
        return
    from .._messages import _CPP_TYPE
    from .reduce import _scalar_name

    if name == "mm":
        text = (f"expected m1 and m2 to have the same dtype, but got: {_CPP_TYPE[a.dtype.name]} "
                f"!= {_CPP_TYPE[b.dtype.name]}")
    elif name == "mv":
        v, m = _scalar_name(b.dtype), _scalar_name(a.dtype)
        text = f"addmv input tensors must have the same dtype, but got {v}, {m}, and {v}"
    else:
        text = (f"expected scalar type {_scalar_name(a.dtype)} but found "
                f"{_scalar_name(b.dtype)}")
    raise RuntimeError(text)


def _strides(a: np.ndarray) -> tuple:
    return tuple(s // a.itemsize for s in a.strides)


class MmBackward0(Node):
    """C = A @ B;  dA = g @ B^T,  dB = A^T @ g"""

    saved_names = ("self", "mat2", "self_sym_sizes", "self_sym_strides", "mat2_sym_sizes",
                   "mat2_sym_strides")

    def backward(self, g: Any) -> tuple:
        nf = self.next_functions
        ga = g @ c.swap_last(self.saved("mat2")) if nf[0][0] is not None else None
        gb = c.swap_last(self.saved("self")) @ g if nf[1][0] is not None else None
        return ga, gb


def mm(a: Tensor, b: Tensor) -> Tensor:
    if a._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    (n, k), (k2, m) = a._data.shape, b._data.shape
    if k != k2:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})"
        )
    _float_check(a, b, "mm")
    node = node_for(MmBackward0, a, b)
    out = make(a._data @ b._data, a.dtype, node)
    if node is not None:
        s = node._saved
        s["self"] = s["mat2"] = None
        if node.next_functions[1][0] is not None:
            node.save("self", a)
        if node.next_functions[0][0] is not None:
            node.save("mat2", b)
        s["self_sym_sizes"], s["mat2_sym_sizes"] = a._data.shape, b._data.shape
        s["self_sym_strides"], s["mat2_sym_strides"] = _strides(a._data), _strides(b._data)
    return out



class MvBackward0(Node):
    """y = A @ v;  dA = outer(g, v),  dv = A^T @ g"""

    saved_names = ("self", "vec")

    def backward(self, g: Any) -> tuple:
        nf = self.next_functions
        ga = gv = None
        if nf[0][0] is not None:
            v = self.saved("vec")
            ga = c.unsqueeze(g, 1) * c.unsqueeze(v, 0)
        if nf[1][0] is not None:
            gv = c.swap_last(self.saved("self")) @ g
        return ga, gv


def mv(a: Tensor, v: Tensor) -> Tensor:
    if a._data.ndim != 2 or v._data.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got 1, {a._data.ndim}, {v._data.ndim}"
        )
    if a._data.shape[1] != v._data.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a._data.shape[0]}), mat ({a._data.shape[0]}x"
            f"{a._data.shape[1]}), vec ({v._data.shape[0]})"
        )
    _float_check(a, v, "mv")
    node = node_for(MvBackward0, a, v)
    out = make(a._data @ v._data, a.dtype, node)
    if node is not None:
        node._saved["self"] = None
        node._saved["vec"] = None
        if node.next_functions[1][0] is not None:
            node.save("self", a)
        if node.next_functions[0][0] is not None:
            node.save("vec", v)
    return out


class DotBackward0(Node):
    """y = x . z;  dx = g * z,  dz = g * x"""

    saved_names = ("self", "tensor")

    def backward(self, g: Any) -> tuple:
        nf = self.next_functions
        return (g * self.saved("tensor") if nf[0][0] is not None else None,
                g * self.saved("self") if nf[1][0] is not None else None)


def dot(a: Tensor, b: Tensor) -> Tensor:
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {a._data.ndim}D and {b._data.ndim}D tensors"
        )
    if a._data.shape != b._data.shape:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a._data.shape[0]}] and src "
            f"[{b._data.shape[0]}] to have the same number of elements, but got "
            f"{a._data.shape[0]} and {b._data.shape[0]} elements respectively"
        )
    if a.dtype is not b.dtype:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {_cap(a)} and {_cap(b)}"
        )
    node = node_for(DotBackward0, a, b)
    out = make(np.dot(a._data, b._data), a.dtype, node)
    if node is not None:
        node._saved["self"] = None
        node._saved["tensor"] = None
        if node.next_functions[1][0] is not None:
            node.save("self", a)
        if node.next_functions[0][0] is not None:
            node.save("tensor", b)
    return out


def _cap(t: Tensor) -> str:
    from .reduce import _scalar_name

    return _scalar_name(t.dtype)


class BmmBackward0(Node):
    """C = A @ B (batched);  dA = g @ B^T,  dB = A^T @ g"""

    saved_names = ("self", "mat2")

    def backward(self, g: Any) -> tuple:
        nf = self.next_functions
        ga = g @ c.swap_last(self.saved("mat2")) if nf[0][0] is not None else None
        gb = c.swap_last(self.saved("self")) @ g if nf[1][0] is not None else None
        return ga, gb


def bmm(a: Tensor, b: Tensor) -> Tensor:
    if a._data.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b._data.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    (ba, _, k), (bb, k2, _) = a._data.shape, b._data.shape
    if ba != bb or k != k2:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{ba}, {k}] but "
            f"got: [{bb}, {k2}]."
        )
    _float_check(a, b, "bmm")
    node = node_for(BmmBackward0, a, b)
    out = make(np.matmul(a._data, b._data), a.dtype, node)
    if node is not None:
        node.save("self", a)
        node.save("mat2", b)
    return out


def matmul(a: Tensor, b: Tensor) -> Tensor:
    """torch.matmul: dispatches to dot, mv, mm or bmm as torch does."""
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        raise c.operand_error("matmul", b if isinstance(a, Tensor) else a)

    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 1 and db == 2:
        return squeeze(mm(unsqueeze(a, 0), b), 0, _cls=SqueezeBackward4)
    if da == 2 and db == 2:
        return mm(a, b)
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    return _batched_matmul(a, b)


def _unsafe_view(x: Tensor, shape: tuple) -> Tensor:
    """A reshape of a fresh result (``UnsafeViewBackward0``), as torch's ``_unsafe_view``."""
    node = node_for(UnsafeViewBackward0, x)
    out = make(x._data.reshape(shape), x.dtype, node)
    if node is not None:
        node._saved["self_sym_sizes"] = x._data.shape
    return out


def _should_fold(a: Tensor, b: Tensor) -> bool:
    """torch's choice: fold the batch of the larger operand into one mm/mv (no bmm) when the
    other has at most 2 dims, and either it requires grad or folding needs no copy."""
    a_larger = a._data.ndim >= b._data.ndim
    big, small = (a, b) if a_larger else (b, a)
    if not (big._data.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small._rg:
        return True
    if a._data.ndim == 2:
        return False
    t1 = big._data if a_larger else np.swapaxes(big._data, -1, -2)
    if t1.size == 0:
        return True
    st = _strides(t1)
    return all(st[i] == st[i + 1] * t1.shape[i + 1] for i in range(t1.ndim - 1))


def _folded_matmul(a: Tensor, b: Tensor) -> Tensor:
    from .movement import mT, t

    transpose = b._data.ndim > a._data.ndim
    t1 = mT(b) if transpose else a
    t2 = (t(a) if a._data.ndim == 2 else a) if transpose else b
    sizes = t1._data.shape
    out_shape = sizes[:-1]
    rows = int(np.prod(out_shape))
    folded = reshape(t1, (rows, sizes[-1]))
    if t2._data.ndim == 2:
        out = _unsafe_view(mm(folded, t2), out_shape + (t2._data.shape[1],))
        return out.mT.contiguous() if transpose else out
    return _unsafe_view(mv(folded, t2), out_shape)


def _batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    """Broadcast the batch dims, flatten them, one bmm, then view the result."""
    from .movement import expand

    da, db = a._data.ndim, b._data.ndim
    sa, sb = a._data.shape, b._data.shape
    n = sa[-2] if da > 1 else 1
    m1 = sa[-1]
    m2 = sb[-2] if db > 1 else sb[0]
    p = sb[-1] if db > 1 else 1
    batch_a, batch_b = sa[:-2] if da > 1 else (), sb[:-2] if db > 1 else ()
    try:
        batch = tuple(np.broadcast_shapes(batch_a, batch_b))
    except ValueError:
        raise c.broadcast_error(batch_a, batch_b) from None
    out_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    bsz = int(np.prod(batch))
    ae = reshape(expand(a, batch + (n, m1)), (bsz, n, m1))
    if db == 1:
        be = unsqueeze(reshape(expand(b, batch + (m2,)), (bsz, m2)), 2)
        return _unsafe_view(squeeze(bmm(ae, be), -1), out_shape)
    be = reshape(expand(b, batch + (m2, p)), (bsz, m2, p))
    return _unsafe_view(bmm(ae, be), out_shape)


class TraceBackward0(Node):
    """y = trace(X);  dX = g * I"""

    saved_names = ("self_sym_sizes",)

    def backward(self, g: Any) -> Any:
        n, m = self._saved["self_sym_sizes"]
        eye = np.eye(n, m, dtype=np.result_type(g) if not isinstance(g, Tensor) else g.dtype.np)
        if isinstance(g, Tensor):
            eye = make(eye, g.dtype, None)
        return g * eye


def trace(x: Tensor) -> Tensor:
    if x._data.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim "
                           f"{x._data.ndim}")
    from .reduce import _sum_dtype

    dt = _sum_dtype(x, None)
    node = node_for(TraceBackward0, x)
    if node is not None:
        node._saved["self_sym_sizes"] = x._data.shape
    return make(np.trace(x._data), dt, node)


def outer(a: Tensor, b: Tensor) -> Tensor:
    """outer(a, b) = a[:, None] * b (a MulBackward0, as torch records it)."""
    from .binary import mul

    for name, v in (("self", a), ("vec2", b)):
        if v._data.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v._data.ndim}-D")
    return mul(reshape(a, (-1, 1)), b)

