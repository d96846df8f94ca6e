"""torch's order of additions for float sums, so ``x.sum()`` rounds as torch's does.

Floating-point addition is not associative: numpy's pairwise sum and torch's CPU kernel
give results that differ in the last bit most of the time, and printed values
(``tensor(0.3000)`` or ``0.30000001192092896``) show it. This module replays torch's
``cascade_sum`` (aten/src/ATen/native/cpu/SumKernel.cpp) with numpy: the same
TensorIterator dimension order and coalescing, the same split into SIMD lanes and
4-way partial sums, and the same multi-level cascade, in float32 (float64) arithmetic.
Fewer than 32768 elements (torch's GRAIN_SIZE) are summed by one thread whatever torch's
thread count. A larger sum to one value is split by torch into one contiguous chunk per
thread, each chunk summed as above into a per-thread buffer, then the buffer summed
(``two_pass_reduction``); that is modelled here for torch's default thread count
(``OMP_NUM_THREADS`` or ``MKL_NUM_THREADS``, else the number of physical cores;
``set_num_threads`` changes it). A larger sum to several values keeps each value in one
thread: the order above.
"""

from __future__ import annotations

import os
from math import prod
from typing import Any

import numpy as np

# Width of torch's ``Vectorized`` type in its sum kernel: 32 bytes (8 floats). torch
# registers this kernel for AVX2 only, so AVX512 machines run the AVX2 code too.
_VEC_BYTES = 32
GRAIN_SIZE = 32768  # torch reduces larger tensors in parallel chunks


def _physical_cores() -> int:
    """The number of physical cores (torch's default thread count, through MKL/OpenMP)."""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return os.cpu_count() or 1
    cores, phys = set(), "0"
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "physical id":
            phys = value.strip()
        elif key.strip() == "core id":
            cores.add((phys, value.strip()))
    return len(cores) or os.cpu_count() or 1


def _default_threads() -> int:
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        value = os.environ.get(var, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    return _physical_cores()


_THREADS = [_default_threads()]


def get_num_threads() -> int:
    """The number of threads whose split of large sums is modelled (``torch.get_num_threads``)."""
    return _THREADS[0]


def set_num_threads(n: int) -> None:
    """Model ``n`` threads from now on (``torch.set_num_threads``)."""
    if int(n) <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _THREADS[0] = int(n)


def _has_avx512() -> bool:
    """Whether this CPU has the AVX512 flags torch's softmax kernels look for."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "").split()
    except OSError:
        return False
    return {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= set(flags)


# The softmax kernels are also built for AVX512 and use it where the CPU has it.
SOFTMAX_VEC_BYTES = 64 if _has_avx512() else 32


def vec_sum_rows(a: np.ndarray, vec_bytes: int = SOFTMAX_VEC_BYTES) -> np.ndarray:
    """Each row's sum as torch's ``vec::reduce_all`` adds it: whole vectors added in turn (a
    short tail into the first lanes), then the lanes halved pairwise; rows shorter than a
    vector: sequentially."""
    lanes = vec_bytes // a.itemsize
    n = a.shape[1]
    if n < lanes:  # in order along each row: one accumulate instead of a call per column
        return _seq_inner(a) if n > 4 else _seq(a.T)
    full = (n // lanes) * lanes
    acc = a[:, :lanes].copy()
    for k in range(lanes, full, lanes):
        np.add(acc, a[:, k:k + lanes], out=acc)
    if full < n:
        np.add(acc[:, :n - full], a[:, full:], out=acc[:, :n - full])
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = acc[:, :h] + acc[:, h:]
    return acc[:, 0]


_MANY_ROWS = 16  # from here on, short rows are summed or compared column by column
_SHORT_ROW = 64  # elements: rows this short are compared column by column (row_max)


def row_max(rows: np.ndarray) -> np.ndarray:
    """Each row's maximum, as an (n, 1) column. Many short rows are compared column by
    column: numpy's reduction along a short contiguous axis costs a call per row."""
    if rows.shape[0] >= _MANY_ROWS and rows.shape[1] <= _SHORT_ROW:
        return np.maximum.reduce(np.ascontiguousarray(rows.T), axis=0)[:, None]
    return rows.max(axis=1, keepdims=True)


def _seq(x: np.ndarray, norm: bool = True) -> np.ndarray:
    """Sequential sum along axis 0 starting from +0 (``acc += x[i]``, in x's dtype).

    ``norm=False`` (inside a cascade that adds +0 once at its end): the first row may stand
    for +0 + itself, so a sum of -0s may stay -0. Only the sign of a zero can differ: adding
    +0 changes no other value, nan and inf included.
    """
    if x.ndim == 1 and x.shape[0] > 8:  # in order along the array; + 0: from +0 (-0 -> +0)
        return np.add.accumulate(x)[-1] + x.dtype.type(0)
    if x.ndim == 1:  # a few scalars: no array call per element
        acc = x.dtype.type(0)
        for v in x:
            acc = acc + v
        return acc
    zero = x.dtype.type(0)
    if x.shape[0] == 1:
        return x[0] + zero if norm else x[0]
    if x.shape[0] and prod(x.shape[1:]) > 1 and x.strides[0] > max(map(abs, x.strides[1:])):
        # rows further apart than the elements of one: numpy then adds the rows in order, the
        # other axes innermost (as _seq_inner's middle axis)
        out = np.add.reduce(x, axis=0)
        return out + zero if norm else out
    acc = np.zeros(x.shape[1:], dtype=x.dtype)
    if x.shape[0] > 64:  # long runs (rare: the cascade keeps them short)
        return np.add.accumulate(x, axis=0)[-1] + acc
    for v in x:
        np.add(acc, v, out=acc)
    return acc


def _seq_inner(x: np.ndarray, norm: bool = True) -> np.ndarray:
    """``_seq`` along axis 1 (runs of one cascade level, for many of them at once)."""
    zero = x.dtype.type(0)  # + 0 at the end: torch's accumulator starts from +0 (-0 -> +0)
    if x.ndim == 2:
        if x.shape[1] > 4 and x.shape[0] >= _MANY_ROWS:  # rows as columns: numpy then adds
            # them in order, whole vectors at a time (a call per row made this 4x slower)
            out = np.add.reduce(np.ascontiguousarray(x.T), axis=0)
        elif x.shape[1] > 4:  # accumulate adds in order along the contiguous axis
            out = np.add.accumulate(x, axis=1)[:, -1]
        else:
            out = None
    elif prod(x.shape[2:]) > 1:  # numpy reduces a middle axis in order, lanes innermost
        out = np.add.reduce(x, axis=1)
    else:
        out = None
    if out is not None:
        return out + zero if norm else out
    acc = x[:, 0] + zero
    for i in range(1, x.shape[1]):
        np.add(acc, x[:, i], out=acc)
    return acc


def _ceil_log2(n: int) -> int:
    """The smallest k with 2^k >= n."""
    return 0 if n <= 1 else (n - 1).bit_length()


def _multi_row_sum(x: np.ndarray, norm: bool = True) -> np.ndarray:
    """``multi_row_sum``: sum over axis 0 with the 4-level cascade (other axes: lanes).

    Runs of ``step`` rows are summed in order; every ``step`` such sums go up a level, up to
    four levels; the levels are added together at the end. Adding the (+0) levels that were
    never used changes nothing, so short inputs skip them. The accumulators' +0 start is
    added once, at the end (``norm``; see ``_seq``).
    """
    n = x.shape[0]
    step = 1 << max(4, _ceil_log2(n) // 4)
    chunks = n // step
    if not chunks or not x.size:
        return _seq(x)
    full = chunks * step
    lanes = x.shape[1:]
    # the levels in the order they are added at the end; a level no row reached holds +0,
    # and adding it changes nothing but a zero's sign, so it is left out
    levels = [_seq(x[full:], False)] if full < n else []  # the rows after the last full run
    cs = _seq_inner(x[:full].reshape((chunks, step) + lanes), False)  # each run's sum
    groups = chunks // step
    if groups * step < chunks:
        levels.append(_seq(cs[groups * step:], False))
    if groups:
        gs = _seq_inner(cs[:groups * step].reshape((groups, step) + lanes), False)
        supers = groups // step
        if supers * step < groups:
            levels.append(_seq(gs[supers * step:], False))
        if supers:
            top = gs[:supers * step].reshape((supers, step) + lanes)
            levels.append(_seq(_seq_inner(top, False), False))
    total = levels[0]
    for level in levels[1:]:
        total = total + level
    return total + x.dtype.type(0) if norm else total


def _row_sum(x: np.ndarray) -> np.ndarray:
    """``row_sum``: 4 interleaved partial sums (``x[4i + k]``), the rest added to the first."""
    n = x.shape[0]
    m = n // 4
    parts = _multi_row_sum(x[:m * 4].reshape((m, 4) + x.shape[1:]), False)
    zero = x.dtype.type(0)
    if m * 4 == n:  # ((p0 + p1) + p2) + p3: _seq's order (its +0 start changes only a zero)
        return _seq(parts, False) + zero
    p0 = parts[0]
    for i in range(m * 4, n):
        p0 = p0 + x[i]
    return (((p0 + parts[1]) + parts[2]) + parts[3]) + zero


def _inner_vectorized(x: np.ndarray, lanes: int) -> np.ndarray:
    """``vectorized_inner_sum`` over axis 0 (contiguous), one row per other index."""
    n = x.shape[0]
    nvec = n // lanes
    vec = _row_sum(x[:nvec * lanes].reshape((nvec, lanes) + x.shape[1:]))
    acc = _seq(x[nvec * lanes:])
    for k in range(lanes):
        acc = acc + vec[k]
    return acc


def _outer(x: np.ndarray, block: int) -> np.ndarray:
    """``vectorized_outer_sum`` (block = 4 lanes) / ``scalar_outer_sum`` (block = 4): sum over
    axis 0; the first whole blocks of columns by the plain cascade, the rest by row_sum."""
    cols = x.shape[1]
    nb = (cols // block) * block
    if nb == cols:
        return _multi_row_sum(x)
    if nb == 0:
        return _row_sum(x)
    return np.concatenate([_multi_row_sum(x[:, :nb]), _row_sum(x[:, nb:])], axis=0)


def column_sums(a: np.ndarray) -> np.ndarray:
    """``a.sum(0)`` as torch adds it, for a C-contiguous 2-D float array of more than one row
    and column (a bias's gradient): a fresh array."""
    lanes = _VEC_BYTES // a.itemsize
    return _outer(a, 4 * lanes if a.shape[1] >= lanes else 4)


def _reduce_slab(x: np.ndarray, s_in: list, lanes: int, itemsize: int) -> np.ndarray:
    """One call of torch's 2-d reduction loop: ``x`` has dims (d0, d1), d0 reduced; the sum
    for each d1 index, as that kernel adds it up."""
    size0, size1 = x.shape
    if s_in[0] == itemsize and size0 >= lanes:
        return _inner_vectorized(x, lanes)
    if s_in[1] == itemsize and size1 >= lanes:
        return _outer(x, 4 * lanes)
    if s_in[0] < s_in[1]:
        return _row_sum(x)
    return _outer(x, 4)


def _iteration_order(shape: tuple, s_in: list, s_out: list) -> list[int]:
    """TensorIterator's ``reorder_dimensions`` for a reduction (output first, then input)."""
    nd = len(shape)
    perm = list(range(nd - 1, -1, -1))

    def should_swap(d0: int, d1: int) -> int:
        for strides, is_out in ((s_out, True), (s_in, False)):
            a, b = strides[d0], strides[d1]
            if is_out and (a == 0) != (b == 0):
                return 1 if b == 0 else -1
            if a == 0 or b == 0:
                continue
            if a != b:
                return -1 if a < b else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    return sort_dims(perm, should_swap)


def sort_dims(perm: list[int], should_swap: Any) -> list[int]:
    """TensorIterator's insertion sort of dims: ``should_swap(d0, d1)`` is 1 (swap), -1
    (in order: stop) or 0 (undecided: compare with the dims further back)."""
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            cmp = should_swap(perm[d0], perm[d1])
            if cmp > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif cmp < 0:
                break
    return perm


def _coalesce(shape: list, s_in: list, s_out: list) -> tuple[list, list, list]:
    """TensorIterator's ``coalesce_dimensions``: merge neighbouring dims that can be one."""
    prev = 0
    shape, s_in, s_out = list(shape), list(s_in), list(s_out)
    for d in range(1, len(shape)):
        s0, s1 = shape[prev], shape[d]
        ok = s0 == 1 or s1 == 1 or all(s0 * st[prev] == st[d] for st in (s_in, s_out))
        if ok:
            if shape[prev] == 1:
                s_in[prev], s_out[prev] = s_in[d], s_out[d]
            shape[prev] *= shape[d]
        else:
            prev += 1
            if prev != d:
                s_in[prev], s_out[prev], shape[prev] = s_in[d], s_out[d], shape[d]
    n = prev + 1
    return shape[:n], s_in[:n], s_out[:n]


def _small_1d(x: np.ndarray) -> Any:
    """``row_sum`` of fewer than 8 elements, on scalars: x4.. into x0, then x1, x2, x3."""
    n = x.shape[0]
    acc = x.dtype.type(0)
    if n < 4:
        for v in x:
            acc = acc + v
        return acc
    acc = acc + x[0]
    for i in range(4, n):
        acc = acc + x[i]
    return ((acc + x[1]) + x[2]) + x[3]


def torch_sum(a: np.ndarray, axes: tuple, keepdims: bool = False) -> Any:
    """``a.sum(axes)`` adding in torch's order (float32/float64 ``a``; ``axes`` normalised)."""
    if a.size >= GRAIN_SIZE and _THREADS[0] > 1 and all(
            a.shape[d] == 1 for d in range(a.ndim) if d not in axes):
        # one value from many elements: torch splits them among its threads
        total = _two_pass(a)
        if total is None:  # (a layout not dense: numpy's sum)
            return a.sum(axis=axes, keepdims=keepdims)
        out_shape = tuple(a.shape[d] for d in range(a.ndim) if d not in axes)
        return _keep(np.asarray(total, dtype=a.dtype).reshape(out_shape), a.shape, axes,
                     keepdims)
    itemsize = a.dtype.itemsize
    lanes = _VEC_BYTES // itemsize
    shape = a.shape
    kept = [d for d in range(a.ndim) if d not in axes]
    out_shape = tuple(shape[d] for d in kept)
    if a.size == 0 or not axes:
        out = a + a.dtype.type(0) if axes == () else np.zeros(out_shape, dtype=a.dtype)
        return _keep(out, shape, axes, keepdims)
    nred = 1
    for d in axes:
        nred *= shape[d]
    if nred == 1:  # only size-1 dims reduced: a copy
        return _keep((a + a.dtype.type(0)).reshape(out_shape), shape, axes, keepdims)
    if 1 in shape:  # size-1 dims change nothing in torch's iteration (they are coalesced)
        keep = [d for d in range(a.ndim) if shape[d] != 1]
        sq = a.reshape(tuple(shape[d] for d in keep))  # a view: the strides stay
        sub = tuple(i for i, d in enumerate(keep) if d in axes)
        return _keep(torch_sum(sq, sub).reshape(out_shape), shape, axes, keepdims)
    if a.flags.c_contiguous:  # the common layouts, without the general iteration below
        nd = a.ndim
        if axes == tuple(range(nd - len(axes), nd)):  # trailing dims: one sum per row
            rows = a.reshape(-1, nred)
            if rows.shape[0] == 1 and nred < lanes:
                out = np.asarray(_small_1d(rows[0]), dtype=a.dtype)
            elif nred >= lanes:
                out = _inner_vectorized(rows.T, lanes)
            else:
                out = _row_sum(rows.T)
            return _keep(out.reshape(out_shape), shape, axes, keepdims)
        if axes == tuple(range(len(axes))):  # leading dims: one sum per column
            out = column_sums(a.reshape(nred, -1))
            return _keep(out.reshape(out_shape), shape, axes, keepdims)
    return _keep(_iterated_sum(a, kept, out_shape, lanes), shape, axes, keepdims)


def _two_pass(a: np.ndarray) -> Any:
    """torch's ``two_pass_reduction`` of all of ``a`` (dense in some order of its dims): a
    contiguous chunk per thread summed serially into a buffer of one slot per thread (unused
    slots hold +0), then the buffer summed; None for other layouts."""
    if a.flags.c_contiguous:
        flat = a.reshape(-1)
    elif a.flags.f_contiguous:
        flat = a.T.reshape(-1)
    else:
        return None
    n, threads = flat.shape[0], _THREADS[0]
    used = min(threads, -(-n // GRAIN_SIZE))
    chunk = -(-n // used)
    buffer = np.zeros(threads, dtype=a.dtype)
    for i in range(used):
        part = flat[i * chunk:(i + 1) * chunk]
        if part.size:
            buffer[i] = _serial_1d(part)
    return _serial_1d(buffer)


def _serial_1d(x: np.ndarray) -> Any:
    """The one-thread sum of a contiguous vector (torch's inner reduction)."""
    lanes = _VEC_BYTES // x.dtype.itemsize
    if x.shape[0] < lanes:
        return _small_1d(x)
    return _inner_vectorized(x.reshape(-1, 1), lanes)[0]


def _iterated_sum(a: np.ndarray, kept: list[int], out_shape: tuple, lanes: int) -> np.ndarray:
    """Any layout: TensorIterator's dimension order and coalescing, then the 2-d kernel on
    each slab of the two innermost iteration dims."""
    shape, itemsize = a.shape, a.dtype.itemsize
    result = np.zeros(out_shape, dtype=a.dtype)
    # output strides (bytes): contiguous over the kept dims, 0 on the reduced ones
    out_strides, acc = {}, itemsize
    for d in reversed(kept):
        out_strides[d] = acc
        acc *= shape[d]
    s_out = [out_strides.get(d, 0) for d in range(a.ndim)]
    s_in = [abs(st) for st in a.strides]  # (a negative stride: a flipped view, read forwards)
    perm = _iteration_order(shape, s_in, s_out)
    view = np.transpose(a, perm[::-1])  # last axis = iteration dim 0
    it_shape, it_in, it_out = _coalesce([shape[p] for p in perm], [s_in[p] for p in perm],
                                        [s_out[p] for p in perm])
    view = view.reshape(tuple(reversed(it_shape)))
    if len(it_shape) == 1:
        it_shape, it_in, it_out = it_shape + [1], it_in + [0], it_out + [0]
        view = view.reshape((1,) + view.shape)
    out_flat = result.reshape(-1)
    out_index = _out_index(it_shape, it_out, itemsize)
    outer = it_shape[2:]
    for pos in np.ndindex(*reversed(outer)) if outer else [()]:
        x = view[pos].T if pos else view.T  # dims (d0, d1)
        idx = out_index[pos].T if pos else out_index.T
        si, so = it_in[:2], it_out[:2]
        if so[0] != 0 and so[1] == 0:  # torch moves the reduction to the first dim
            x, idx, si, so = x.T, idx.T, si[::-1], so[::-1]
        if so[0] != 0 and so[1] != 0:  # nothing reduced in this slab: added elementwise
            np.add.at(out_flat, idx, x)
        else:
            np.add.at(out_flat, idx[0], _reduce_slab(x, si, lanes, itemsize))
    return result


def _out_index(it_shape: list, it_out: list, itemsize: int) -> np.ndarray:
    """For each iteration position (reversed dims), the flat index into the output."""
    idx = np.zeros(tuple(reversed(it_shape)), dtype=np.int64)
    for k, (n, s) in enumerate(zip(it_shape, it_out)):
        shape = [1] * len(it_shape)
        shape[len(it_shape) - 1 - k] = n
        idx = idx + (np.arange(n) * (s // itemsize)).reshape(shape)
    return idx


def _keep(out: np.ndarray, shape: tuple, axes: tuple, keepdims: bool) -> np.ndarray:
    """``out`` with the reduced ``axes`` as size-1 dims when ``keepdims``."""
    if keepdims:
        return out.reshape(tuple(1 if d in axes else s for d, s in enumerate(shape)))
    return out


# ---- nll_loss: its own cascade (aten/src/ATen/native/LossNLL.cpp) ------------------------------

_NLL_LEVELS = 8


def nll_sum(vals: np.ndarray, keep: np.ndarray | None = None) -> Any:
    """The sum of ``vals`` (one per batch row) as ``nll_loss`` adds it: eight levels; row b is
    added to level 0, then level j moves up to j + 1 whenever b is a multiple of step^(j+1)
    (so row 0 goes straight to the top). Rows where ``keep`` is False are skipped."""
    n = vals.shape[0]
    step = 1 << max(4, _ceil_log2(n) // _NLL_LEVELS)
    zero = vals.dtype.type(0)
    if keep is not None and not keep.all():  # ignored rows: the loop itself
        acc = [zero] * _NLL_LEVELS
        mask = step - 1
        power = step.bit_length() - 1
        for b in range(n):
            if not keep[b]:
                continue
            acc[0] = acc[0] + vals[b]
            for j in range(_NLL_LEVELS - 1):
                if b & (mask << (j * power)):
                    break
                acc[j + 1] = acc[j + 1] + acc[j]
                acc[j] = zero
        total = zero
        for a in acc:
            total = total + a
        return total
    if n == 0:
        return zero
    levels = []
    cur = vals[1:]  # row 0 reaches the top level first
    while cur.shape[0] and len(levels) < _NLL_LEVELS - 1:
        full = (cur.shape[0] // step) * step
        levels.append(_seq(cur[full:]))  # what stays at this level
        # the runs moved up (none: the loop ends)
        cur = _seq_inner(cur[:full].reshape(-1, step)) if full else cur[:0]
    top = _seq(np.concatenate([vals[:1], cur])) if cur.shape[0] else zero + vals[0]
    total = zero
    for a in levels:  # levels never reached hold +0: adding them changes nothing
        total = total + a
    return total + top
