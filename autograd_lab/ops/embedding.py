"""``embedding``: a lookup of rows, whose gradient adds ``g``'s rows into the rows of the
weight they came from (``EmbeddingBackward0``; under create_graph one recorded node,
torch's ``EmbeddingDenseBackwardBackward0``)."""

from __future__ import annotations

from typing import Any

from .._dtype import bool_, int64
from .common import Node, Tensor
from .grad_scatter import embed
from .record import make, record

# ---- embedding ----------------------------------------------------------------------------------

class EmbeddingBackward0(Node):
    """y = weight[indices];  dweight = zeros with g's rows added at the used rows
    (rows at padding_idx get none)"""

    saved_names = ("indices", "padding_idx", "scale_grad_by_freq", "sparse",
                   "weight_sym_argsize_0")

    def backward(self, g: Any) -> Any:
        idx = self.saved("indices")
        idx = idx._data if isinstance(idx, Tensor) else idx
        if isinstance(g, Tensor):  # create_graph: one node, torch's embedding_dense_backward
            data = self.backward(g._data)
            out, node = record(EmbeddingDenseBackwardBackward0, data, g.dtype, g)
            if node is not None:
                node.idx, node.grad_shape = idx, g._data.shape
                node._saved.update(indices=idx, padding_idx=self._saved["padding_idx"])
            return out
        n = self._saved["weight_sym_argsize_0"]
        shape = (n,) + tuple(g.shape[idx.ndim:])
        flat = idx.reshape(-1)
        gi = g.reshape((flat.shape[0],) + shape[1:])
        pad = self._saved["padding_idx"]
        if 0 <= pad < n:
            keep = flat != pad
            flat = flat[keep]
            gi = gi[make(keep, bool_, None)] if isinstance(gi, Tensor) else gi[keep]
        return embed(gi, shape, (flat,))


class EmbeddingDenseBackwardBackward0(Node):
    """y = embedding_dense_backward(g, indices): zeros with g's rows added at the indices;
    dg = the rows of gy at the indices (none at padding_idx)"""

    saved_names = ("indices", "padding_idx")

    def backward(self, gy: Any) -> Any:
        flat = self.idx.reshape(-1)
        rows = gy[make(flat, int64, None)] if isinstance(gy, Tensor) else gy[flat]
        pad = self._saved["padding_idx"]
        if 0 <= pad:
            keep = (flat != pad).astype(rows.dtype.np if isinstance(rows, Tensor) else rows.dtype)
            keep = keep.reshape((-1,) + (1,) * (rows.ndim - 1))
            rows = rows * (make(keep, rows.dtype, None) if isinstance(rows, Tensor) else keep)
        return rows.reshape(self.grad_shape)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
    """The rows of ``weight`` at the indices in ``input``."""
    if weight._data.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input.dtype.name not in ("int64", "int32"):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{input.dtype._tensor_type} instead (while "
            "checking arguments for embedding)")
    idx = input._data
    n = weight._data.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise IndexError("index out of range in self")
    out, node = record(EmbeddingBackward0, weight._data[idx], weight.dtype, weight)
    if node is not None:
        node._saved.update(padding_idx=-1 if padding_idx is None else padding_idx % n,
                           scale_grad_by_freq=False, sparse=False, weight_sym_argsize_0=n)
        node.save("indices", input)
    return out
