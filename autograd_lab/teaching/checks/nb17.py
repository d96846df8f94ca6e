"""Checks for notebook 17 · The same pictures on real PyTorch: a closing tour with no exercises."""

from __future__ import annotations

NOTEBOOK = "17_same_pictures_on_pytorch"

EXERCISES: dict = {}
