"""``torch.save`` and ``torch.load``: tensors, parameters, state dicts and containers of them,
to a file (a path or an open binary file).

The file is a pickle (tensors pickle their data, dtype and ``requires_grad``): a loaded tensor
equals the saved one and is a leaf, and objects saved twice (or a module's shared parameters)
come back as one object. With ``weights_only=True`` (torch's default) only this package's
tensors, numpy arrays and plain containers may be loaded, never arbitrary classes.
"""

from __future__ import annotations

import io
import os
import pickle
from typing import IO, Any

from ._device import check_cpu

__all__ = ["load", "save"]

_MAGIC = b"autograd_lab-save-1\n"
_SAFE = {
    ("collections", "OrderedDict"), ("builtins", "set"), ("builtins", "frozenset"),
    ("builtins", "slice"), ("builtins", "complex"),
    ("numpy", "dtype"), ("numpy", "ndarray"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"),
}
_SAFE_MODULES = ("autograd_lab.tensor", "autograd_lab.nn.parameter", "autograd_lab._device")

FileLike = str | os.PathLike | IO[bytes]


class _WeightsUnpickler(pickle.Unpickler):
    """Loads tensors and plain data only (``weights_only=True``)."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _SAFE or module in _SAFE_MODULES:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            "Weights only load failed. In PyTorch 2.6, we changed the default value of the "
            "`weights_only` argument in `torch.load` from `False` to `True`. Re-running "
            "`torch.load` with `weights_only` set to `False` will likely succeed, but it can "
            "result in arbitrary code execution. Do it only if you got the file from a trusted "
            f"source.\nPlease file an issue with the following so that we can make "
            f"`weights_only=True` compatible with your use case: WeightsUnpickler error: "
            f"Unsupported global: GLOBAL {module}.{name}"
        )


def save(obj: Any, f: FileLike, pickle_module: Any = pickle, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True) -> None:
    """Write ``obj`` to the file ``f`` (a path, or a binary file opened for writing)."""
    data = _MAGIC + pickle_module.dumps(obj, protocol=max(pickle_protocol, 4))
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as out:
            out.write(data)
    else:
        f.write(data)


def load(f: FileLike, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: bool | None = None,
         **pickle_load_args: Any) -> Any:
    """Read back what :func:`save` wrote to ``f``."""
    if map_location is not None and not callable(map_location) and not isinstance(
            map_location, dict):
        check_cpu(map_location)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as src:
            data = src.read()
    else:
        data = f.read()
    if not data.startswith(_MAGIC):
        raise RuntimeError("Invalid magic number; corrupt file?")
    stream = io.BytesIO(data[len(_MAGIC):])
    if weights_only is False or pickle_module is not None:
        return (pickle_module or pickle).load(stream, **pickle_load_args)
    return _WeightsUnpickler(stream, **pickle_load_args).load()
