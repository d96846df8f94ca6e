"""torch's CPU ``topk`` order, where ties make it depend on the algorithm: libstdc++'s
``std::nth_element`` (then ``std::sort`` of the first k - 1), or ``std::partial_sort`` when
``k * 64 <= n``, over (value, index) pairs compared by value, nan counted as the largest.

Only rows with repeated values (or an unsorted request) need it: distinct values have one
sorted order. Those rows are replayed here step by step, as the C++ library runs them (below
the precision policy's size; above it, ties keep their original order).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Pair = tuple[float, int]
Less = Callable[[Pair, Pair], bool]
_THRESHOLD = 16  # libstdc++'s _S_threshold


def _largest_first(a: Pair, b: Pair) -> bool:
    x, y = a[0], b[0]
    return (x != x and y == y) or x > y


def _smallest_first(a: Pair, b: Pair) -> bool:
    x, y = a[0], b[0]
    return (x == x and y != y) or x < y


def topk_row(values: list, k: int, largest: bool, sorted_: bool) -> list[int]:
    """The indices torch's topk picks from one row ``values``, in its order."""
    q: list[Pair] = [(v, i) for i, v in enumerate(values)]
    n = len(q)
    less = _largest_first if largest else _smallest_first
    if k * 64 <= n:
        _partial_sort(q, 0, k, n, less)
    else:
        _nth_element(q, 0, k - 1, n, less)
        if sorted_:
            _sort(q, 0, k - 1, less)
    return [i for _, i in q[:k]]


def has_ties(row: np.ndarray) -> bool:
    """Whether ``row`` repeats a value (two nans count as a tie)."""
    s = np.sort(row)
    if s.dtype.kind == "f":
        nan = np.isnan(s)
        if nan.sum() > 1:
            return True
        s = s[~nan]
    return bool((s[1:] == s[:-1]).any())


# ---- libstdc++'s algorithms on q[first:last] ----------------------------------------------------

def _lg(n: int) -> int:
    return n.bit_length() - 1


def _nth_element(q: list, first: int, nth: int, last: int, less: Less) -> None:
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(q, first, nth + 1, last, less)
            q[first], q[nth] = q[nth], q[first]
            return
        depth -= 1
        cut = _partition_pivot(q, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(q, first, last, less)


def _sort(q: list, first: int, last: int, less: Less) -> None:
    if first == last:
        return
    _introsort_loop(q, first, last, _lg(last - first) * 2, less)
    if last - first > _THRESHOLD:
        _insertion_sort(q, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(q, i, less)
    else:
        _insertion_sort(q, first, last, less)


def _introsort_loop(q: list, first: int, last: int, depth: int, less: Less) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _partial_sort(q, first, last, last, less)
            return
        depth -= 1
        cut = _partition_pivot(q, first, last, less)
        _introsort_loop(q, cut, last, depth, less)
        last = cut


def _insertion_sort(q: list, first: int, last: int, less: Less) -> None:
    if first == last:
        return
    for i in range(first + 1, last):
        val = q[i]
        if less(val, q[first]):
            q[first + 1:i + 1] = q[first:i]
            q[first] = val
        else:
            _unguarded_linear_insert(q, i, less)


def _unguarded_linear_insert(q: list, last: int, less: Less) -> None:
    val, nxt = q[last], last - 1
    while less(val, q[nxt]):
        q[last] = q[nxt]
        last, nxt = nxt, nxt - 1
    q[last] = val


def _partition_pivot(q: list, first: int, last: int, less: Less) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(q, first, first + 1, mid, last - 1, less)
    lo, hi, pivot = first + 1, last, q[first]
    while True:
        while less(q[lo], pivot):
            lo += 1
        hi -= 1
        while less(pivot, q[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        q[lo], q[hi] = q[hi], q[lo]
        lo += 1


def _move_median_to_first(q: list, result: int, a: int, b: int, c: int, less: Less) -> None:
    if less(q[a], q[b]):
        pick = b if less(q[b], q[c]) else c if less(q[a], q[c]) else a
    else:
        pick = a if less(q[a], q[c]) else c if less(q[b], q[c]) else b
    q[result], q[pick] = q[pick], q[result]


def _partial_sort(q: list, first: int, middle: int, last: int, less: Less) -> None:
    _heap_select(q, first, middle, last, less)
    while middle - first > 1:  # __sort_heap
        middle -= 1
        _pop_heap(q, first, middle, middle, less)


def _heap_select(q: list, first: int, middle: int, last: int, less: Less) -> None:
    n = middle - first
    if n >= 2:  # __make_heap
        parent = (n - 2) // 2
        while True:
            _adjust_heap(q, first, parent, n, q[first + parent], less)
            if parent == 0:
                break
            parent -= 1
    for i in range(middle, last):
        if less(q[i], q[first]):
            _pop_heap(q, first, middle, i, less)


def _pop_heap(q: list, first: int, last: int, result: int, less: Less) -> None:
    value = q[result]
    q[result] = q[first]
    _adjust_heap(q, first, 0, last - first, value, less)


def _adjust_heap(q: list, first: int, hole: int, n: int, value: Pair, less: Less) -> None:
    top, child = hole, hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if less(q[first + child], q[first + child - 1]):
            child -= 1
        q[first + hole] = q[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        q[first + hole] = q[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2  # __push_heap
    while hole > top and less(q[first + parent], value):
        q[first + hole] = q[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    q[first + hole] = value

