"""The workloads, by key. Building one is cheap: data is made when a runner is set up."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from . import cross_entropy, matmul_chain, mlp, relu_memory, scalar_chain
from .harness import Workload
from .import_time import import_workload


def workloads(al: ModuleType, torch: ModuleType | None, by_hand: bool = False,
              with_torch: bool | None = None) -> dict[str, Callable[[], Workload]]:
    """Builders by key; ``torch`` None leaves PyTorch's runners out of ``setups``."""
    if with_torch is None:
        with_torch = torch is not None
    return {
        "W1": lambda: scalar_chain.w1(al, torch),
        "W2": lambda: scalar_chain.w2(al, torch),
        "W3": lambda: mlp.w3(al, torch, by_hand),
        "W4": lambda: matmul_chain.w4(al, torch),
        "W5": lambda: relu_memory.w5(al, torch),
        "W6": lambda: cross_entropy.w6(al, torch, by_hand),
        "import": lambda: import_workload(with_torch),
    }


# Workloads whose runners start their own processes: they run in the main process.
LOCAL = {"import"}
