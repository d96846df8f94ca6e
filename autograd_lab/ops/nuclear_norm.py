"""The nuclear norm (the sum of a matrix's singular values), as torch builds it:
``linalg_svdvals`` of the matrix dims moved to the end, then ``sum(-1)``. The singular values
are output 1 of a ``LinalgSvdBackward0`` node (U and Vh, outputs 0 and 2, are saved), whose
gradient for S alone is ``U diag(gS) Vh``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._messages import scalar_name
from .arithmetic import mul
from .common import Node, Tensor, norm_dim
from .linalg import matmul
from .record import make, node_for
from .reductions import sum as _sum
from .views import permute, unsqueeze


class LinalgSvdBackward0(Node):
    """(U, S, Vh) = svd(A, full_matrices=False);  for S alone: dA = U diag(gS) Vh"""

    saved_names = ("S", "S_sym_argsize_minus_1", "U", "Vh", "full_matrices")

    def backward(self, gU: Any, gS: Any, gVh: Any) -> Any:
        if gU is not None or gVh is not None:  # (reached by differentiating dA again)
            if any(isinstance(g, Tensor) for g in (gU, gS, gVh)):
                raise NotImplementedError("autograd_lab differentiates the singular value "
                                          "decomposition at most twice")
            return _svd_backward(gU, gS, gVh, self.saved("U"), self.saved("S"),
                                 self.saved("Vh"))
        if gS is None:
            return None
        U, Vh = self.saved("U"), self.saved("Vh")
        if isinstance(gS, Tensor):  # create_graph: U and Vh are this node's outputs 0 and 2
            if U.shape[-2] >= Vh.shape[-1]:
                return matmul(U, mul(unsqueeze(gS, -1), Vh))
            return matmul(mul(U, unsqueeze(gS, -2)), Vh)
        if U.shape[-2] >= Vh.shape[-1]:  # torch's order of the products
            return np.matmul(U, gS[..., None] * Vh)
        return np.matmul(U * gS[..., None, :], Vh)


def _svd_backward(gU: Any, gS: Any, gVh: Any, U: np.ndarray, S: np.ndarray,
                  Vh: np.ndarray) -> np.ndarray:
    """torch's svd_backward (real, full_matrices=False) when U or Vh has a gradient."""
    m, n = U.shape[-2], Vh.shape[-1]
    V, gV = np.swapaxes(Vh, -1, -2), None if gVh is None else np.swapaxes(gVh, -1, -2)

    def skew(a: np.ndarray) -> np.ndarray:
        return a - np.swapaxes(a, -1, -2)

    S2 = S * S
    E = S2[..., None, :] - S2[..., :, None]
    idx = np.arange(S.shape[-1])
    E[..., idx, idx] = 1
    if gU is not None and gV is not None:
        gA = (skew(np.swapaxes(U, -1, -2) @ gU) * S[..., None, :]
              + S[..., :, None] * skew(np.swapaxes(V, -1, -2) @ gV)) / E
    elif gU is not None:
        gA = skew(np.swapaxes(U, -1, -2) @ gU) * (S[..., None, :] / E)
    else:
        gA = skew(np.swapaxes(V, -1, -2) @ gV) * (S[..., :, None] / E)
    if gS is not None:
        gA = gA + gS[..., :, None] * np.eye(S.shape[-1], dtype=S.dtype)
    if m > n and gU is not None:
        gA = U @ gA
        gUSinv = gU / S[..., None, :]
        gA = gA + gUSinv - U @ (np.swapaxes(U, -1, -2) @ gUSinv)
        return gA @ Vh
    if m < n and gV is not None:
        gA = gA @ Vh
        SinvgVh = gVh / S[..., :, None]
        gA = gA + SinvgVh - (SinvgVh @ V) @ Vh
        return U @ gA
    return U @ (gA @ Vh) if m >= n else (U @ gA) @ Vh


def svdvals(a: Tensor) -> Tensor:
    """The singular values of the matrices in the last two dims (descending)."""
    u, s, vh = np.linalg.svd(a._data, full_matrices=False)
    node = node_for(LinalgSvdBackward0, a)
    out = make(s.astype(a.dtype.np, copy=False), a.dtype, node)
    if node is not None:
        node._n_outputs = 3
        for i, (name, t) in enumerate((("U", u), ("S", out), ("Vh", vh))):
            if name != "S":  # U and Vh: outputs nobody holds, read by create_graph backward
                t = make(t.astype(a.dtype.np, copy=False), a.dtype, node)
            t._output_nr = i
            node.save_output(name, t)
        node._saved.update(full_matrices=False, S_sym_argsize_minus_1=s.shape[-1])
    return out


def nuclear_norm(x: Tensor, dim: Any = (-2, -1), keepdim: bool = False) -> Tensor:
    """The sum of the singular values of the matrices spanning ``dim`` (a pair of dims)."""
    nd = x._data.ndim
    if nd < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if not x.dtype.is_floating_point:
        raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor "
                           f"as input. Got {scalar_name(x.dtype)}")
    dims = [dim] if isinstance(dim, int) else list(dim)
    if len(dims) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                           + " ".join(str(d) for d in dims))
    d0, d1 = (norm_dim(d, nd) for d in dims)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, "
                           f"{dims[1]})")
    perm = [d for d in range(nd) if d not in (d0, d1)] + [d0, d1]
    result = _sum(svdvals(permute(x, perm)), -1, keepdim)
    if keepdim:
        back = [perm.index(d) for d in range(nd)]
        result = permute(unsqueeze(result, -1), back)
    return result
