"""Hypothesis strategies shared by the tests: shapes, well-conditioned arrays, dims, indices.

Values are float64 and bounded, and kept away from the points where an op is not
differentiable (0 for abs/relu/sqrt/log, ties for max/min/maximum/clamp bounds), so a
central difference with eps = 1e-6 never straddles a kink.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autograd_lab as torch

MAX_SIDE = 4
MAX_NUMEL = 24
GAP = 0.1  # minimum distance between distinct values / from a kink


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def shapes(min_dims: int = 0, max_dims: int = 4, min_side: int = 1, max_side: int = MAX_SIDE,
           max_numel: int = MAX_NUMEL) -> st.SearchStrategy[tuple[int, ...]]:
    """Shapes including 0-d and size-1 dims, with at most ``max_numel`` elements."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side).filter(lambda s: _numel(s) <= max_numel)


def broadcastable_shapes(num: int = 2, max_dims: int = 3,
                         max_side: int = 3) -> st.SearchStrategy[tuple[tuple[int, ...], ...]]:
    """``num`` shapes that broadcast together (leading dims missing, size-1 dims)."""
    return hnp.mutually_broadcastable_shapes(
        num_shapes=num, min_dims=0, max_dims=max_dims, min_side=1, max_side=max_side,
    ).map(lambda b: b.input_shapes)


def _values(shape: tuple[int, ...], lo: float, hi: float) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(np.float64, shape, elements=st.floats(lo, hi, allow_nan=False,
                                                             allow_infinity=False, width=64),
                      fill=st.nothing())


def arrays(shape: tuple[int, ...], lo: float = -2.0, hi: float = 2.0,
           avoid: tuple[float, ...] = ()) -> st.SearchStrategy[np.ndarray]:
    """float64 values in [lo, hi]; a value within GAP of a point in ``avoid`` (kinks and
    bounds, at least 4 GAP apart) is moved to 2 GAP from it."""
    if not avoid:
        return _values(shape, lo, hi)

    def push(a: np.ndarray) -> np.ndarray:
        for c in avoid:
            d = a - c
            a = np.where(np.abs(d) < GAP, c + np.where(d >= 0, 2 * GAP, -2 * GAP), a)
        return a

    return _values(shape, lo, hi).map(push)


def nonzero(shape: tuple[int, ...], lo: float = -2.0, hi: float = 2.0
            ) -> st.SearchStrategy[np.ndarray]:
    """Values at least GAP away from 0 (abs, relu, sign, reciprocal)."""
    return arrays(shape, lo, hi, avoid=(0.0,))


def positive(shape: tuple[int, ...], lo: float = 0.5, hi: float = 2.0
             ) -> st.SearchStrategy[np.ndarray]:
    """Strictly positive values (log, sqrt, fractional powers)."""
    return _values(shape, lo, hi)


@st.composite
def distinct(draw: Any, shape: tuple[int, ...], scale: float = 0.3,
             avoid: tuple[float, ...] = ()) -> np.ndarray:
    """Values at least ~GAP apart from each other and from each point in ``avoid`` (no ties)."""
    n = _numel(shape)
    perm = draw(st.permutations(range(n)))
    jitter = draw(_values((n,), -0.01, 0.01))
    offset = draw(st.floats(-0.5, 0.5))
    vals = (np.array(perm, dtype=np.float64) - (n - 1) / 2) * scale + jitter + offset
    for a in avoid:
        near = np.abs(vals - a) < GAP
        vals = np.where(near, a + np.where(vals >= a, GAP, -GAP) + jitter, vals)
    return vals.reshape(shape)


def seeds() -> st.SearchStrategy[int]:
    """A seed for the random upstream gradients of a test case."""
    return st.integers(0, 2**32 - 1)


@st.composite
def dims(draw: Any, shape: tuple[int, ...], allow_none: bool = True,
         allow_tuple: bool = True) -> Any:
    """A valid ``dim`` for a reduction over ``shape``: None, an int (maybe negative) or a tuple."""
    nd = len(shape)
    n = max(nd, 1)  # a 0-d tensor accepts dim 0 / -1
    kinds = ["int"] + (["none"] if allow_none else []) + (["tuple"] if allow_tuple else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-n, n - 1))
    axes = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    return tuple(draw(st.sampled_from([a, a - n])) for a in axes)


@st.composite
def dim_keepdim(draw: Any, shape: tuple[int, ...], allow_none: bool = True,
                allow_tuple: bool = True) -> tuple[Any, bool]:
    return draw(dims(shape, allow_none, allow_tuple)), draw(st.booleans())


def permutations(ndim: int) -> st.SearchStrategy[list[int]]:
    return st.permutations(list(range(ndim)))


# ---- index expressions ------------------------------------------------------------------------

@st.composite
def _slice(draw: Any, n: int) -> slice:
    start = draw(st.none() | st.integers(-n - 1, n + 1))
    stop = draw(st.none() | st.integers(-n - 1, n + 1))
    step = draw(st.sampled_from([None, 1, 2, 3]))
    return slice(start, stop, step)


def _as_kind(draw: Any, arr: np.ndarray) -> Any:
    kind = draw(st.sampled_from(["list", "tensor", "numpy"]))
    if kind == "list":
        return arr.tolist()
    if kind == "tensor":
        return torch.tensor(arr.tolist(), dtype=torch.bool if arr.dtype == bool else torch.int64)
    return arr


@st.composite
def index_expressions(draw: Any, shape: tuple[int, ...]) -> Any:
    """A key for ``x[key]``: ints, slices with steps, None, Ellipsis, int arrays, a bool mask.

    Integer arrays in one key share a length (so they broadcast); a bool mask is the only
    advanced index when it appears. A whole-tensor mask is drawn separately.
    """
    nd = len(shape)
    if nd and draw(st.integers(0, 9)) == 0:  # x[mask] with a mask of x's shape
        mask = np.array(draw(st.lists(st.booleans(), min_size=_numel(shape),
                                      max_size=_numel(shape)))).reshape(shape)
        return _as_kind(draw, mask) if draw(st.booleans()) else torch.tensor(mask.tolist())
    n_used = draw(st.integers(0, nd))
    adv = draw(st.sampled_from(["none", "int", "bool"])) if n_used else "none"
    adv_len = draw(st.integers(1, 3))
    adv_dims = set(draw(st.lists(st.integers(0, n_used - 1), min_size=1, max_size=2,
                                 unique=True))) if adv != "none" else set()
    if adv == "bool":
        adv_dims = {min(adv_dims)}
    parts: list[Any] = []
    for d in range(n_used):
        n = shape[d]
        if n == 0:  # no index lies in an empty dimension (a bool mask may leave one)
            parts.append(draw(_slice(n)))
            continue
        if d in adv_dims:
            if adv == "int":
                idx = np.array(draw(st.lists(st.integers(-n, n - 1), min_size=adv_len,
                                             max_size=adv_len)), dtype=np.int64)
            else:
                idx = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
            parts.append(_as_kind(draw, idx))
        else:
            kind = draw(st.sampled_from(["int", "slice", "slice"]))
            if kind == "int":
                i = draw(st.integers(-n, n - 1))
                parts.append(torch.tensor(i) if draw(st.integers(0, 5)) == 0 else i)
            else:
                parts.append(draw(_slice(n)))
    if n_used < nd and draw(st.booleans()):
        parts.append(Ellipsis)
    elif n_used == nd and draw(st.integers(0, 3)) == 0:
        parts.insert(draw(st.integers(0, len(parts))), Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        parts.insert(draw(st.integers(0, len(parts))), None)
    if len(parts) == 1 and draw(st.booleans()):
        return parts[0]
    return tuple(parts)


@st.composite
def grid(draw: Any, shape: tuple[int, ...], offset: float = 0.0, kmin: int = -4,
         kmax: int = 3) -> np.ndarray:
    """Values 0.5 k + offset (kmin <= k <= kmax), each jittered by at most 0.05."""
    k = draw(hnp.arrays(np.int64, shape, elements=st.integers(kmin, kmax), fill=st.nothing()))
    return 0.5 * k + offset + draw(_values(shape, -0.05, 0.05))


@st.composite
def untied_pair(draw: Any, shape_a: tuple[int, ...], shape_b: tuple[int, ...]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays whose elements never tie: ``a`` on the grid 0.5 k, ``b`` on 0.5 k + 0.25
    (so |a - b| >= 0.15 everywhere after broadcasting)."""
    return draw(grid(shape_a)), draw(grid(shape_b, 0.25))


@st.composite
def shape_with_numel(draw: Any, n: int, max_dims: int = 4, allow_infer: bool = True) -> tuple:
    """A random shape with ``n`` elements (size-1 dims included), maybe with one -1."""
    factors: list[int] = []
    m, p = n, 2
    while m > 1:
        while m % p == 0:
            factors.append(p)
            m //= p
        p += 1
    nd = draw(st.integers(max(1, min(len(factors), 1)), max_dims))
    dims = [1] * nd
    for f in factors:
        dims[draw(st.integers(0, nd - 1))] *= f
    if n and draw(st.booleans()) and allow_infer:
        dims[draw(st.integers(0, nd - 1))] = -1
    if n == 1 and draw(st.integers(0, 3)) == 0:
        return ()
    return tuple(dims)
