"""Matrix products: mm, mv, dot, bmm, matmul (which picks one of them), trace, outer."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import common as c
from .common import Node, Tensor, make, node_for
from .movement import SqueezeBackward4, UnsafeViewBackward0, reshape, squeeze, unsqueeze


def _float_check(a: Tensor, b: Tensor, name: str) -> None:
    if a.dtype is not b.dtype:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {a.dtype.name} != {b.dtype.name}"
            if name == "mm" else
            f"{name}: expected both tensors to have the same dtype, but got: "
            f"{a.dtype.name} != {b.dtype.name}"
        )


class MmBackward0(Node):
    """C = A @ B;  dA = g @ B^T,  dB = A^T @ g"""

    saved_names = ("self", "mat2")

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
        node._saved["self"] = None
        node._saved["mat2"] = None
        if node.next_functions[1][0] is not None:
            node.save("self", a)
        if node.next_functions[0][0] is not None:
            node.save("mat2", b)
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
        raise TypeError(f"matmul(): argument 'other' (position 1) must be Tensor, not "
                        f"{type(b).__name__ if isinstance(a, Tensor) else type(a).__name__}")
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
        if a._data.shape[0] != b._data.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied (1x{a._data.shape[0]} and "
                f"{b._data.shape[0]}x{b._data.shape[1]})"
            )
        return squeeze(mm(unsqueeze(a, 0), b), (0,), _cls=SqueezeBackward4)
    if da == 2 and db == 2:
        return mm(a, b)
    if da >= 3 and db <= 2:
        # fold the batch into the rows: (..., n, k) -> (B*n, k), one mm, then unfold
        shp = a._data.shape
        bm = b if db == 2 else unsqueeze(b, 1)
        if shp[-1] != bm._data.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({int(np.prod(shp[:-1]))}x{shp[-1]}"
                f" and {bm._data.shape[0]}x{bm._data.shape[1]})"
            )
        folded = reshape(a, (-1, shp[-1]))
        out = mm(folded, bm)
        node = node_for(UnsafeViewBackward0, out)
        new_shape = shp[:-1] + (bm._data.shape[1],)
        res = make(out._data.reshape(new_shape), out.dtype, node)
        if node is not None:
            node._saved["self_sym_sizes"] = out._data.shape
        return squeeze(res, (-1,), _cls=SqueezeBackward4) if db == 1 else res
    return _batched_matmul(a, b)


def _batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    from .movement import expand

    a2 = unsqueeze(a, 0) if a._data.ndim == 1 else a
    b2 = unsqueeze(b, -1) if b._data.ndim == 1 else b
    (n, k), (k2, m) = a2._data.shape[-2:], b2._data.shape[-2:]
    if k != k2:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{int(np.prod(b2._data.shape[:-2]))}, {k}] but got: "
                           f"[{int(np.prod(b2._data.shape[:-2]))}, {k2}].")
    try:
        batch = np.broadcast_shapes(a2._data.shape[:-2], b2._data.shape[:-2])
    except ValueError:
        raise c.broadcast_error(a2._data.shape[:-2], b2._data.shape[:-2]) from None
    bsz = int(np.prod(batch)) if batch else 1
    ae = reshape(expand(a2, batch + (n, k)), (bsz, n, k))
    be = reshape(expand(b2, batch + (k, m)), (bsz, k, m))
    out = bmm(ae, be)
    res = reshape(out, batch + (n, m))
    if a._data.ndim == 1:
        res = squeeze(res, (-2,), _cls=SqueezeBackward4)
    if b._data.ndim == 1:
        res = squeeze(res, (-1,), _cls=SqueezeBackward4)
    return res


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
    from .binary import mul

    return mul(reshape(a, (-1, 1)), b)
