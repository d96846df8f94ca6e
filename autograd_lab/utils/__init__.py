"""``torch.utils``: ``data`` (datasets and the ``DataLoader``)."""

from . import data

__all__ = ["data"]
