"""Matrix products: mm, mv, dot, bmm, matmul (which picks one of them), trace, outer, and
``addmm``/``linear`` (the fused ``bias + x @ W^T`` of ``nn.Linear``). Products of two
matrices go through ``_gemm.gemm`` (numpy's ``@``, or faster kernels for large float32 ones)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _messages as msg
from .._gemm import gemm
from .._messages import cpp_name, scalar_name
from ..tensor import torch_strides
from . import common as c
from .arithmetic import mul
from .common import Node, Tensor
from .record import make, node_for, record
from .reductions import _sum_dtype
from .views import (
    SqueezeBackward4,
    expand,
    mT,
    reshape,
    squeeze,
    t,
    unsafe_view,
    unsqueeze,
    view,
)

_KERNELS = {"mm": "addmm_impl_cpu_", "mv": "addmv_impl_cpu", "bmm": "bmm", "dot": "dot"}


def _float_check(a: Tensor, b: Tensor, name: str) -> None:
    """torch's dtype-mismatch message of each product (they differ); bool has no kernel."""
    if a.dtype is b.dtype:
        if a.dtype._cat == 0:
            raise msg.not_implemented_for(_KERNELS[name], a.dtype)
        return
    if name == "mm":
        text = (f"expected m1 and m2 to have the same dtype, but got: {cpp_name(a.dtype)} "
                f"!= {cpp_name(b.dtype)}")
    elif name == "mv":
        v, m = scalar_name(b.dtype), scalar_name(a.dtype)
        text = f"addmv input tensors must have the same dtype, but got {v}, {m}, and {v}"
    else:
        text = f"expected scalar type {scalar_name(a.dtype)} but found {scalar_name(b.dtype)}"
    raise RuntimeError(text)


_strides = torch_strides  # in elements (torch's unit), as torch has them for an empty one


def _save_factors(node: Node, a: Tensor, b: Tensor, a_name: str, b_name: str) -> None:
    """Save each factor of ``a @ b`` only when the other one needs a gradient, as torch."""
    node._saved[a_name] = node._saved[b_name] = None
    if node._fns[1] is not None:
        node.save(a_name, a)
    if node._fns[0] is not None:
        node.save(b_name, b)


class MmBackward0(Node):
    """C = A @ B;  dA = g @ B^T,  dB = A^T @ g"""

    saved_names = ("self", "mat2", "self_sym_sizes", "self_sym_strides", "mat2_sym_sizes",
                   "mat2_sym_strides")

    def backward(self, g: Any) -> tuple:
        """torch's mm_mat1/mat2_backward: for a column-major factor the product is taken
        transposed, so its gradient comes out column-major too."""
        nf = self._fns
        ga = gb = None
        s = self._saved
        if nf[0] is not None:
            b = self.saved("mat2")
            if _column_major(s["self_sym_sizes"], s["self_sym_strides"]):
                ga = _t(gemm(b, _t(g)))
            else:
                ga = gemm(g, _t(b))
        if nf[1] is not None:
            a = self.saved("self")
            if _column_major(s["mat2_sym_sizes"], s["mat2_sym_strides"]):
                gb = _t(gemm(_t(g), a))
            else:
                gb = gemm(_t(a), g)
        return ga, gb


def _t(x: Any) -> Any:
    """A matrix transposed, as torch's formulas write it (``t()``: ``TBackward0``)."""
    return x.t() if isinstance(x, Tensor) else x.T


def _column_major(sizes: tuple, strides: tuple) -> bool:
    """Whether a matrix was laid out column by column (as ``x.t()`` of a contiguous one)."""
    return strides[0] == 1 and strides[1] == sizes[0]


def mm(a: Tensor, b: Tensor) -> Tensor:
    """The matrix product of two 2-D tensors."""
    c.tensor_args("mm", a, b, "mat2")
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
    # one inner element: each entry a single product, signed zeros kept (as torch's gemm;
    # numpy's matmul adds it to +0)
    data = gemm(a._data, b._data) if k != 1 else a._data * b._data
    out, node = record(MmBackward0, data, a.dtype, a, b)
    if node is not None:
        _save_factors(node, a, b, "self", "mat2")
        s = node._saved
        s["self_sym_sizes"], s["mat2_sym_sizes"] = a._data.shape, b._data.shape
        s["self_sym_strides"], s["mat2_sym_strides"] = _strides(a._data), _strides(b._data)
    return out


class MvBackward0(Node):
    """y = A @ v;  dA = outer(g, v),  dv = A^T @ g  (torch's g.ger(v) and A.t().mv(g))"""

    saved_names = ("self", "vec")

    def backward(self, g: Any) -> tuple:
        nf = self._fns
        ga = gv = None
        if nf[0] is not None:
            v = self.saved("vec")
            ga = (reshape(g, (-1, 1)) if isinstance(g, Tensor) else g.reshape(-1, 1)) * v
        if nf[1] is not None:
            a = self.saved("self")
            gv = mv(t(a), g) if isinstance(g, Tensor) or isinstance(a, Tensor) else a.T @ g
        return ga, gv


def mv(a: Tensor, v: Tensor) -> Tensor:
    """Matrix (2-D) times vector (1-D)."""
    c.tensor_args("mv", a, v, "vec")
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
    out, node = record(MvBackward0, a._data @ v._data, a.dtype, a, v)
    if node is not None:
        _save_factors(node, a, v, "self", "vec")
    return out


class DotBackward0(Node):
    """y = x . z;  dx = g * z,  dz = g * x"""

    saved_names = ("self", "tensor")

    def backward(self, g: Any) -> tuple:
        nf = self._fns
        return (g * self.saved("tensor") if nf[0] is not None else None,
                g * self.saved("self") if nf[1] is not None else None)


def dot(a: Tensor, b: Tensor) -> Tensor:
    """The inner product of two 1-D tensors."""
    c.tensor_args("dot", a, b, "tensor")
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {a._data.ndim}D and {b._data.ndim}D tensors"
        )
    if a.dtype is not b.dtype:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {scalar_name(a.dtype)} "
            f"and {scalar_name(b.dtype)}"
        )
    if a._data.shape != b._data.shape:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a._data.shape[0]}] and src "
            f"[{b._data.shape[0]}] to have the same number of elements, but got "
            f"{a._data.shape[0]} and {b._data.shape[0]} elements respectively"
        )
    _float_check(a, b, "dot")
    out, node = record(DotBackward0, np.dot(a._data, b._data), a.dtype, a, b)
    if node is not None:
        _save_factors(node, a, b, "self", "tensor")
    return out


class BmmBackward0(Node):
    """C = A @ B (batched);  dA = g @ B^T,  dB = A^T @ g"""

    saved_names = ("self", "mat2")

    def backward(self, g: Any) -> tuple:
        nf = self._fns
        if not isinstance(g, Tensor):
            ga = g @ c.swap_last(self.saved("mat2")) if nf[0] is not None else None
            gb = c.swap_last(self.saved("self")) @ g if nf[1] is not None else None
            return ga, gb
        # create_graph: torch's bmm formulas, bmm and transpose nodes
        ga = bmm(g, self.saved("mat2").transpose(1, 2)) if nf[0] is not None else None
        gb = bmm(self.saved("self").transpose(1, 2), g) if nf[1] is not None else None
        return ga, gb


def bmm(a: Tensor, b: Tensor) -> Tensor:
    """Batched matrix product of two 3-D tensors."""
    c.tensor_args("bmm", a, b, "mat2")
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
    out, node = record(BmmBackward0, np.matmul(a._data, b._data), a.dtype, a, b)
    if node is not None:
        node.save("self", a)
        node.save("mat2", b)
    return out


def matmul(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002  (torch's argument names)
    """torch.matmul: dispatches to dot, mv, mm or bmm as torch does."""
    a, b = input, other
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
        out = squeeze(mm(unsqueeze(a, 0), b), 0, _cls=SqueezeBackward4)
        out._vc[0] += 1  # torch squeezes in place (``squeeze_``): the result is at version 1
        return out
    if da == 2 and db == 2:
        return mm(a, b)
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    return _batched_matmul(a, b)


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
    """The larger operand's batch folded into the rows of one mm (or mv)."""
    transpose = b._data.ndim > a._data.ndim
    t1 = mT(b) if transpose else a
    t2 = (t(a) if a._data.ndim == 2 else a) if transpose else b
    sizes = t1._data.shape
    out_shape = sizes[:-1]
    rows = int(np.prod(out_shape))
    folded = reshape(t1, (rows, sizes[-1]))
    if t2._data.ndim == 2:
        out = unsafe_view(mm(folded, t2), out_shape + (t2._data.shape[1],))
        return out.mT.contiguous() if transpose else out
    return unsafe_view(mv(folded, t2), out_shape)


def _batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    """Broadcast the batch dims, flatten them, one bmm, then view the result."""
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
        return unsafe_view(squeeze(bmm(ae, be), -1), out_shape)
    be = reshape(expand(b, batch + (m2, p)), (bsz, m2, p))
    return unsafe_view(bmm(ae, be), out_shape)


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
    """The sum of the main diagonal of a matrix."""
    if x._data.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim "
                           f"{x._data.ndim}")
    dt = _sum_dtype(x, None)
    node = node_for(TraceBackward0, x)
    if node is not None:
        node._saved["self_sym_sizes"] = x._data.shape
    return make(np.trace(x._data), dt, node)


def outer(a: Tensor, b: Tensor) -> Tensor:
    """outer(a, b) = a[:, None] * b (a MulBackward0, as torch records it)."""
    c.tensor_args("outer", a, b, "vec2")
    for name, v in (("self", a), ("vec2", b)):
        if v._data.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v._data.ndim}-D")
    return mul(reshape(a, (-1, 1)), b)


# ---- addmm / linear ----------------------------------------------------------------------------

class AddmmBackward0(Node):
    """y = beta * bias + alpha * (mat1 @ mat2);
    dbias = beta * g (summed to bias's shape),  dmat1 = alpha * g @ mat2^T,
    dmat2 = alpha * mat1^T @ g"""

    saved_names = ("alpha", "beta", "mat1", "mat1_sym_sizes", "mat1_sym_strides", "mat2",
                   "mat2_sym_sizes", "mat2_sym_strides")

    def backward(self, g: Any) -> tuple:
        nf = self._fns
        s = self._saved
        alpha, beta = s["alpha"], s["beta"]
        gb = gm1 = gm2 = None
        if nf[0] is not None:
            gb = c.sum_to(g if beta == 1 else g * beta, self.bias_shape)
        if nf[1] is not None:  # torch's mm_mat1/mat2_backward, as in MmBackward0
            m2 = self.saved("mat2")
            if _column_major(s["mat1_sym_sizes"], s["mat1_sym_strides"]):
                gm1 = _t(gemm(m2, _t(g)))
            else:
                gm1 = gemm(g, _t(m2))
            if alpha != 1:
                gm1 = gm1 * alpha
        if nf[2] is not None:
            m1 = self.saved("mat1")
            if _column_major(s["mat2_sym_sizes"], s["mat2_sym_strides"]):  # W^T of Linear
                gm2 = _t(gemm(_t(g), m1))
            else:
                gm2 = gemm(_t(m1), g)
            if alpha != 1:
                gm2 = gm2 * alpha
        return gb, gm1, gm2


def _addmm_checks(m1: Tensor, m2: Tensor) -> None:
    """torch's errors for the two matrices of ``addmm`` (worded unlike ``mm``'s)."""
    if m1._data.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {m1._data.ndim}-D tensor")
    if m2._data.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {m2._data.ndim}-D tensor")
    (n, k), (k2, m) = m1._data.shape, m2._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    if m1.dtype is not m2.dtype:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {scalar_name(m1.dtype)} and "
            f"{scalar_name(m2.dtype)}"
        )


def addmm(bias: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1,
          alpha: float = 1) -> Tensor:
    """``beta * bias + alpha * mat1 @ mat2`` in one node (``AddmmBackward0``)."""
    _addmm_checks(mat1, mat2)
    a, b = mat1._data, mat2._data
    out = gemm(a, b)
    if alpha != 1:
        out *= alpha
    bd = bias._data
    try:
        if beta == 1:
            out += bd
        elif beta != 0:
            out += beta * bd
    except ValueError:
        raise c.broadcast_error(bd.shape, out.shape) from None
    node = node_for(AddmmBackward0, bias, mat1, mat2)
    res = make(out, mat1.dtype, node)
    if node is not None:
        nf = node._fns
        s = node._saved
        s["alpha"], s["beta"] = alpha, beta
        s["mat1"] = s["mat2"] = None
        s["mat1_sym_sizes"], s["mat2_sym_sizes"] = a.shape, b.shape
        s["mat1_sym_strides"] = _strides(a) if nf[1] is not None else ()
        s["mat2_sym_strides"] = _strides(b) if nf[2] is not None else ()
        if nf[2] is not None:
            node.save("mat1", mat1)
        if nf[1] is not None:
            node.save("mat2", mat2)
        node.bias_shape = bd.shape
    return res


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y = x W^T + b``, recorded as torch's ``at::linear`` does."""
    if not isinstance(input, Tensor):
        raise TypeError(f"linear(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    nd = input._data.ndim
    if nd == 0 or weight._data.ndim == 0:
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are {nd}D and "
            f"{weight._data.ndim}D"
        )
    if bias is not None:
        if nd == 2:
            return addmm(bias, input, t(weight))
        if input._data.flags.c_contiguous and bias._data.ndim == 1:
            # flatten to 2-D, one addmm, then view back (torch's _flatten_nd_linear)
            shp = input._data.shape
            rows = int(np.prod(shp[:-1], dtype=np.int64))
            out = addmm(bias, reshape(input, (rows, shp[-1])), t(weight))
            return view(out, shp[:-1] + (out._data.shape[1],))
    out = matmul(input, t(weight))
    if bias is not None:
        out.add_(bias)
    return out
