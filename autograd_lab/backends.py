"""``torch.backends`` of a CPU-only build: no cuDNN, no MPS; their flags can be set."""

from __future__ import annotations

from types import SimpleNamespace


def _unavailable() -> bool:
    return False


# ``torch.backends.cudnn.deterministic = True`` is common in seeded teaching code
cudnn = SimpleNamespace(is_available=_unavailable, enabled=True, deterministic=False,
                        benchmark=False, allow_tf32=True)
mps = SimpleNamespace(is_available=_unavailable, is_built=_unavailable)
cuda = SimpleNamespace(is_built=_unavailable)

__all__ = ["cuda", "cudnn", "mps"]
