"""Import time of autograd_lab (and, for scale, torch and numpy) in a fresh interpreter.

Each sample starts a new ``python`` and times only the ``import`` statement inside it,
so interpreter start-up is not counted. Bytecode caching is on (as for a user), and the
first call writes the cache, so compiling the sources is not counted either.
"""

from __future__ import annotations

import os
import subprocess
import sys

from .harness import Row, Target, Workload

_CODE = "import time; t = time.perf_counter(); import {m}; print(time.perf_counter() - t)"


class ImportTime:
    rewarm = False  # each run is a fresh interpreter already

    def __init__(self, module: str) -> None:
        self.module = module

    def run(self) -> dict[str, float]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        out = subprocess.run([sys.executable, "-c", _CODE.format(m=self.module)],
                             capture_output=True, text=True, check=True, env=env)
        return {"import": float(out.stdout.strip().splitlines()[-1])}


def import_workload(with_torch: bool) -> Workload:
    setups = {"autograd_lab": lambda: ImportTime("autograd_lab"),
              "numpy": lambda: ImportTime("numpy")}
    if with_torch:
        setups["torch"] = lambda: ImportTime("torch")
    return Workload(
        "import",
        "import  `import <package>` in a fresh interpreter (autograd_lab's includes numpy's)",
        setups,
        [Row("import time, s", "import", "s", target=Target("max", 0.15, text="<= 0.15 s"))],
        max_rounds=7,  # each torch import takes a second or two
    )
