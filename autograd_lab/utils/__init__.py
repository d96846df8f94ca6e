"""``torch.utils``: ``data`` (datasets and the ``DataLoader``) and ``checkpoint`` (recompute
activations in backward instead of keeping them)."""

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
