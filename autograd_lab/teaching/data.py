"""Small 2-D classification data sets for the notebooks, made on the spot (no downloads).

Each function takes a ``seed`` (numpy ``Generator``), so the same call always gives the
same points, and returns ``(X, y)``: float32 features of shape (n, 2) and int64 labels.
"""

from __future__ import annotations

import numpy as np

from .._dtype import float32, int64
from ..tensor import Tensor, _make

__all__ = ["make_blobs", "make_moons", "make_spirals"]


def _check_n(n_samples: int) -> None:
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}")


def _tensors(X: np.ndarray, y: np.ndarray) -> tuple[Tensor, Tensor]:
    return (_make(np.ascontiguousarray(X, dtype=np.float32), float32, None),
            _make(np.ascontiguousarray(y, dtype=np.int64), int64, None))


def make_moons(n_samples: int = 200, noise: float = 0.1, seed: int = 0) -> tuple[Tensor, Tensor]:
    """Two interleaving half circles (class 0 on top, class 1 below), plus Gaussian noise."""
    _check_n(n_samples)
    rng = np.random.default_rng(seed)
    n0 = n_samples // 2
    n1 = n_samples - n0
    t0 = np.linspace(0, np.pi, n0)
    t1 = np.linspace(0, np.pi, n1)
    X = np.concatenate([np.stack([np.cos(t0), np.sin(t0)], 1),
                        np.stack([1 - np.cos(t1), 0.5 - np.sin(t1)], 1)])
    y = np.concatenate([np.zeros(n0), np.ones(n1)])
    X = X + rng.normal(0.0, noise, X.shape)
    order = rng.permutation(n_samples)
    return _tensors(X[order], y[order])


def make_spirals(n_samples: int = 300, n_classes: int = 3, noise: float = 0.2,
                 turns: float = 1.0, seed: int = 0) -> tuple[Tensor, Tensor]:
    """``n_classes`` spiral arms around the origin (radius 0 to 1), one class per arm."""
    _check_n(n_samples)
    if n_classes < 1:
        raise ValueError(f"n_classes must be at least 1, got {n_classes}")
    rng = np.random.default_rng(seed)
    sizes = [n_samples // n_classes + (1 if k < n_samples % n_classes else 0)
             for k in range(n_classes)]
    Xs, ys = [], []
    for k, m in enumerate(sizes):
        r = np.linspace(0.0, 1.0, m)
        t = 2 * np.pi * (turns * r + k / n_classes) + rng.normal(0.0, noise, m)
        Xs.append(np.stack([r * np.sin(t), r * np.cos(t)], 1))
        ys.append(np.full(m, k))
    X, y = np.concatenate(Xs), np.concatenate(ys)
    order = rng.permutation(n_samples)
    return _tensors(X[order], y[order])


def make_blobs(n_samples: int = 200, centers: int | list = 3, std: float = 0.5,
               seed: int = 0) -> tuple[Tensor, Tensor]:
    """Gaussian clusters; ``centers`` is a count (placed on a circle of radius 2) or a list
    of (x, y) points."""
    _check_n(n_samples)
    if isinstance(centers, (int, np.integer)):
        if centers < 1:
            raise ValueError(f"centers must be at least 1, got {centers}")
        angles = 2 * np.pi * np.arange(centers) / centers
        c = 2.0 * np.stack([np.cos(angles), np.sin(angles)], 1)
    else:
        c = np.asarray(centers, dtype=np.float64)
        if c.ndim != 2 or c.shape[1] != 2:
            raise ValueError(f"centers must be a count or a list of (x, y) points, got shape "
                             f"{c.shape}")
    k = len(c)
    y = np.arange(n_samples) % k
    rng = np.random.default_rng(seed)
    X = c[y] + rng.normal(0.0, std, (n_samples, 2))
    order = rng.permutation(n_samples)
    return _tensors(X[order], y[order])
