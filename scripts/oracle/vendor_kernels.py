"""How often torch's CPU results come from kernels no numpy formula reproduces.

    PYTHONPATH=$PWD $TORCH_PYTHON scripts/oracle/vendor_kernels.py [--n 200000] [--seed 0]

The OpInfo gradient samples that still differ (``opinfo_conformance.py``) differ in the last
bits of values torch computes with Intel MKL: ``torch.tanh`` calls MKL's vector math library
(VML), and the SVD family (``linalg.svdvals``, the nuclear and spectral norms) calls MKL's
LAPACK ``gesdd``. This script measures, on random inputs, how far each candidate formula is
from torch's results:

- tanh in float32 and float64: numpy's own ``tanh``, ``tanh`` in a wider type rounded once
  (float64 for float32; numpy's ``longdouble``, x87 80-bit, for float64), and the share of
  OpInfo-sized samples (400 and 16384 elements) that would match torch in every element;
- singular values of random 5x5 float32/float64 matrices: numpy's ``svd`` (its LAPACK) and
  ``svd`` in float64 rounded once, element by element.

A formula that differs on a share ``p`` of single inputs matches a whole sample of ``k``
elements with probability about ``(1 - p) ** k``: the last column of the table.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

torch.set_num_threads(1)


def _share(ours: np.ndarray, theirs: np.ndarray) -> float:
    return float(np.mean(ours != theirs))


def _row(name: str, p: float) -> str:
    whole = "  ".join(f"{(1 - p) ** k:7.1%}" for k in (400, 16384))
    return f"  {name:44s} {p:9.4%}   {whole}"


def tanh_rows(n: int, rng: np.random.Generator) -> list[str]:
    rows = []
    for dt, wide in ((np.float32, np.float64), (np.float64, np.longdouble)):
        x = (rng.standard_normal(n) * 2).astype(dt)
        t = torch.tanh(torch.from_numpy(x)).numpy()
        rows.append(_row(f"tanh {dt.__name__}: numpy's tanh", _share(np.tanh(x), t)))
        rows.append(_row(f"tanh {dt.__name__}: {np.dtype(wide).name} tanh rounded once",
                         _share(np.tanh(x.astype(wide)).astype(dt), t)))
    return rows


def svd_rows(n: int, rng: np.random.Generator) -> list[str]:
    rows = []
    for dt in (np.float32, np.float64):
        a = rng.standard_normal((max(1, n // 25), 5, 5)).astype(dt)
        t = torch.linalg.svdvals(torch.from_numpy(a)).numpy()
        ours = np.linalg.svd(a, compute_uv=False)
        wide = np.linalg.svd(a.astype(np.float64), compute_uv=False).astype(dt)
        rows.append(_row(f"svdvals {dt.__name__} 5x5: numpy's svd", _share(ours, t)))
        if dt is np.float32:
            rows.append(_row("svdvals float32 5x5: float64 svd rounded once", _share(wide, t)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200_000, help="inputs per row (default 200000)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"torch {torch.__version__}, numpy {np.__version__}; {args.n} inputs per row")
    print(f"  {'candidate formula':44s} {'differs':>9s}   whole sample of 400 / 16384 elements")
    for line in tanh_rows(args.n, rng) + svd_rows(args.n, rng):
        print(line)


if __name__ == "__main__":
    main()
