"""``optim.Optimizer``: parameter groups, per-parameter state, and their (de)serialisation."""

from __future__ import annotations

import copy
import functools
import warnings
from collections import defaultdict
from typing import Any, Callable

import numpy as np

from .._blas import axpy, axpy_copy
from .._dtype import float32, float64, get_default_dtype
from .._fma import fma32, fma64
from .._precision import exact
from .._scratch import scratch
from ..grad_mode import STATE, enable_grad
from ..tensor import Tensor, _make, typename

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _no_grad_step(step: Callable) -> Callable:
    """Run ``step`` with grad mode off (torch: on only for ``differentiable=True``)."""

    @functools.wraps(step)
    def wrapper(self: Optimizer, *args: Any, **kwargs: Any) -> Any:
        prev = STATE.enabled
        STATE.enabled = bool(self.defaults.get("differentiable", False))
        try:
            return step(self, *args, **kwargs)
        finally:
            STATE.enabled = prev

    return wrapper


def _closure_loss(closure: Callable[[], Any] | None) -> Any:
    """The loss ``closure()`` recomputes (with grad mode on: it calls backward), or None."""
    if closure is None:
        return None
    with enable_grad():
        return closure()


class Optimizer:
    """Base class: holds ``param_groups`` (dicts with ``params`` and hyper-parameters),
    ``defaults`` and ``state`` (a dict per parameter, e.g. momentum buffers)."""

    _group_fallbacks: dict[str, Any] = {}  # group entries that states pickled earlier may lack

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                "dicts, but got " + typename(params)
            )
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for group in self.param_groups:
            for key, value in self._group_fallbacks.items():
                group.setdefault(key, value)

    def __repr__(self) -> str:
        s = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            s += "\n"
            s += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    s += f"    {key}: {group[key]}\n"
        return s + ")"

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters (with its own hyper-parameters) to optimise."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        names = [p[0] for p in param_group["params"] if isinstance(p, tuple)]
        param_group["params"] = [p[1] if isinstance(p, tuple) else p
                                 for p in param_group["params"]]
        if names:
            if len(names) != len(param_group["params"]):
                raise ValueError("all optimizer params should be with/without names. Some param "
                                 "names are missing")
            param_group["param_names"] = names
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    f"parameter group didn't specify a value of required optimization "
                    f"parameter {name}"
                )
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, this "
                "will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information", stacklevel=3,
            )
        seen: set[int] = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. cannot add param "
                    f"group {which} to the optimizer"
                )
        if not seen.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad`` (to None by default, else to zeros in place)."""
        for group in self.param_groups:
            for p in group["params"]:
                g = p._grad
                if g is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g._rg = False
                    g._data[...] = 0
                    g._vc[0] += 1

    def step(self, closure: Callable | None = None) -> Any:
        """Update every parameter from its ``.grad`` (each optimizer defines it)."""
        raise NotImplementedError

    # ---- state dict -------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}``.

        The state tensors are the optimizer's own (not copies), as in torch.
        """
        mapping: dict[int, int] = {}
        start = 0

        def pack(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            mapping.update({id(p): i for i, p in enumerate(group["params"], start)
                            if id(p) not in mapping})
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        groups = [pack(g) for g in self.param_groups]
        state = {(mapping[id(k)] if isinstance(k, Tensor) else k): v
                 for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore hyper-parameters and state saved by ``state_dict``.

        As in torch, the state tensors are taken over, not copied (converted only when
        the parameter's dtype differs): two optimizers loaded from one state dict share them.
        """
        state_dict = dict(state_dict)
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = {old_id: p for s, g in zip(saved_groups, groups)
                  for old_id, p in zip(s["params"], g["params"])}
        state: defaultdict = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = {key: _cast_state(param, key, value) for key, value in v.items()}
            else:
                state[k] = v
        new_groups = []
        for group, new in zip(groups, saved_groups):
            new["params"] = group["params"]
            if "param_names" in group and "param_names" not in new:
                new["param_names"] = group["param_names"]
            new_groups.append(new)
        self.__dict__["state"] = state
        self.__dict__["param_groups"] = new_groups


def _cast_state(param: Tensor, key: str, value: Any) -> Any:
    """State tensors take the parameter's dtype, except ``step`` (a float32 counter)."""
    if key != "step" and isinstance(value, Tensor) and value.dtype.is_floating_point:
        return value.to(param.dtype)
    return value


def _fma(a: Any, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``a * b + c`` rounded once, like the fused multiply-add of torch's CPU kernels (numpy's
    two roundings from ``_precision.EXACT_BELOW`` elements up: the precision policy, unless
    BLAS's axpy does it in one pass)."""
    out = axpy_copy(a, b, c) if type(c) is np.ndarray else None
    if out is not None:
        return out
    if not exact(b.size):
        return a * b + c
    if b.dtype == np.float32:
        return fma32(a, b, c)
    if b.dtype == np.float64:
        return fma64(a, b, c)
    return a * b + c


def _fma_into(a: Any, b: np.ndarray, c: np.ndarray) -> None:
    """``c = a * b + c`` in place (``c.add_(b, alpha=a)``), rounded as ``_fma``."""
    if axpy(a, b, c):  # one pass, one rounding
        return
    if exact(b.size):
        c[...] = _fma(a, b, c)
    elif b.shape == c.shape and b.dtype == c.dtype and np.result_type(a, b) == b.dtype:
        # the product in a scratch buffer: no fresh parameter-sized array every step
        tmp = scratch("optim.fma_into", b.shape, b.dtype)
        np.multiply(a, b, out=tmp)
        c += tmp
    else:
        c += a * b


def _zeros_like(p: Tensor) -> Tensor:
    """A zero state tensor shaped like parameter ``p``."""
    return _make(np.zeros(p._data.shape, dtype=p.dtype.np), p.dtype, None)


def _step_counter() -> Tensor:
    """torch's ``state["step"]``: a 0-d float32 counter (float64 when that is the default)."""
    dt = float64 if get_default_dtype() is float64 else float32
    return _make(np.zeros((), dtype=dt.np), dt, None)
