"""The API beyond tensors and autograd loads on first use: ``import autograd_lab`` stays fast."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAZY = ["autograd_lab.nn", "autograd_lab.optim", "autograd_lab.utils", "autograd_lab.cuda",
        "autograd_lab.accelerator", "autograd_lab.backends", "autograd_lab.serialization",
        "autograd_lab.functional", "autograd_lab._C", "autograd_lab.autograd.variable"]


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def test_import_loads_none_of_the_lazy_modules() -> None:
    loaded = _run("import sys, autograd_lab\n"
                  f"print(sorted(m for m in {LAZY!r} if m in sys.modules))")
    assert loaded == "[]"


def test_lazy_names_resolve_on_first_use() -> None:
    out = _run("import autograd_lab as torch\n"
               "from autograd_lab.autograd import Variable\n"
               "print(torch.utils.data.DataLoader.__name__, torch.cuda.is_available(),\n"
               "      torch.save.__name__, torch.meshgrid.__name__, Variable.__name__,\n"
               "      torch._C._functions.AccumulateGrad.__name__)")
    assert out == "DataLoader False save meshgrid Variable AccumulateGrad"
