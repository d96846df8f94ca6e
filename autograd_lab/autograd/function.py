"""``torch.autograd.Function``: operations with a hand-written backward.

A subclass defines ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)``
(or ``forward(*args)`` plus ``setup_context(ctx, inputs, output)``). ``apply``
runs ``forward`` without recording, then puts one node in the graph: an instance
of ``<Name>Backward``, which is also the ``ctx`` both methods receive. Its edges
lead to the tensor inputs; when the engine reaches it, it calls ``backward``
with one gradient per output and checks what comes back, as PyTorch does.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable

import numpy as np

from .. import _messages as msg
from ..grad_mode import STATE, no_grad
from ..node import FREED, Node, SavedTensor, edge, new_node
from ..ops.common import sum_to
from ..tensor import Tensor, _make, _wrap_grad

__all__ = ["BackwardCFunction", "Function", "FunctionCtx", "InplaceFunction",
           "NestedIOFunction", "once_differentiable"]


def _shape_str(shape: tuple) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _expandable(shape: tuple, to: tuple) -> bool:
    """Whether ``shape`` broadcasts to ``to`` (so a gradient of shape ``to`` can be summed)."""
    if len(shape) > len(to):
        return False
    for s, t in zip(reversed(shape), reversed(to)):
        if s != t and s != 1:
            return False
    return True


class FunctionCtx:
    """What ``forward``/``setup_context`` may call on ``ctx``."""

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for ``backward`` (read back as ``ctx.saved_tensors``).

        They are version-checked: modifying one in place afterwards makes
        backward raise, exactly as for a built-in op.
        """
        self.to_save = tensors

    def mark_dirty(self, *args: Tensor) -> None:
        """Declare inputs that ``forward`` modified in place (and returns)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args: Tensor) -> None:
        """Outputs that will never get a gradient (indices, masks ...)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """With False, ``backward`` gets None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = value

    def save_for_forward(self, *tensors: Tensor | None) -> None:
        self.saved_for_forward = tensors


class BackwardCFunction(FunctionCtx, Node):
    """The graph node of a custom Function; also its ``ctx``."""

    _forward_cls: type
    to_save: tuple = ()
    dirty_tensors: tuple = ()
    non_differentiable: tuple = ()
    materialize_grads = True
    needs_input_grad: tuple = ()

    def __call__(self, *grads: Any) -> Any:  # torch's Python nodes are not callable
        raise TypeError(f"'{type(self).__name__}' object is not callable")

    def __repr__(self) -> str:
        # torch creates these classes inside torch.autograd.function
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward``, checked for in-place changes."""
        out = []
        for key in self.__dict__.get("_saved_keys", ()):
            v = self._saved[key] if key is not None else None
            if v is FREED:
                raise RuntimeError(msg.BACKWARD_TWICE)
            out.append(None if v is None else v.unpack(self, True))
        return tuple(out)

    saved_variables = saved_tensors

    @property
    def _forward_name(self) -> str:
        return self._forward_cls.__name__

    # ---- running backward -----------------------------------------------------------------

    def apply(self, grads: list) -> tuple:
        """Call the user's ``backward`` on Tensors; return one gradient per edge."""
        as_tensor = STATE.enabled  # create_graph: keep Tensors (and their graph)
        outs = self.__dict__["_out_meta"]
        gs = []
        for g, meta in zip(grads, outs):
            if g is None and meta is not None and self.materialize_grads:
                shape, dt = meta
                g = _make(np.zeros(shape, dtype=dt.np), dt, None)
            elif g is not None and not isinstance(g, Tensor):
                g = _wrap_grad(g)
            gs.append(g)
        result = self._forward_cls.backward(self, *gs)
        if not isinstance(result, tuple):
            result = (result,)
        return self._check_grads(result, as_tensor)

    def _check_grads(self, result: tuple, as_tensor: bool) -> tuple:
        """torch's checks on what ``backward`` returned: count, types, shapes, dtypes."""
        is_tensor_input = self.__dict__["_is_tensor_input"]
        n = len(is_tensor_input)
        if len(result) > n and all(r is None for r in result[n:]):
            result = result[:n]
        if len(result) != n:
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients (expected {n}, "
                f"got {len(result)})"
            )
        grads = []
        for i, (r, is_tensor) in enumerate(zip(result, is_tensor_input)):
            if not is_tensor:
                if r is not None:
                    raise RuntimeError(
                        f"function {self.name()} returned a gradient different than None at "
                        f"position {i + 1}, but the corresponding forward input was not a Variable"
                    )
                continue
            if r is not None and not isinstance(r, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(r).__name__})")
            grads.append(r)
        out = []
        for i, (g, (fn, _), meta) in enumerate(zip(grads, self.next_functions,
                                                   self.__dict__["_in_meta"])):
            if g is None or fn is None:
                out.append(None)
                continue
            shape, dt = meta
            if tuple(g.shape) != shape:
                if not _expandable(shape, tuple(g.shape)):
                    raise RuntimeError(
                        f"Function {self.name()} returned an invalid gradient at index {i} - got "
                        f"{_shape_str(g.shape)} but expected shape compatible with "
                        f"{_shape_str(shape)}"
                    )
                g = sum_to(g, shape)
            if g.dtype is not dt:
                g = g.to(dt)
            out.append(g if as_tensor else g._data)
        return tuple(out)


class _FunctionMeta(type):
    """Gives every Function subclass its node class, ``<Name>Backward``."""

    def __init__(cls, name: str, bases: tuple, attrs: dict) -> None:
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": __name__})
        super().__init__(name, bases, attrs)


def _is_overridden(cls: type, name: str) -> bool:
    return getattr(cls, name) is not getattr(Function, name)


class Function(FunctionCtx, metaclass=_FunctionMeta):
    """Base of custom autograd operations: subclass it and call ``MyFn.apply(...)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning, stacklevel=2,
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> Any:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` and record one ``<Name>Backward`` node for the result."""
        setup = _is_overridden(cls, "setup_context")
        if setup:
            import inspect  # here, not at module level: it is slow to import

            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, {}
        is_tensor = tuple(isinstance(a, Tensor) for a in args)
        needs = tuple(t and a._rg for a, t in zip(args, is_tensor))
        executable = STATE.enabled and any(needs)
        node_cls = cls._backward_cls
        ctx = new_node(node_cls, tuple(edge(a) for a, t in zip(args, is_tensor) if t))
        ctx.needs_input_grad = needs
        with no_grad():
            if setup:
                output = cls.forward(*args)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        return _process_outputs(ctx, args, is_tensor, output, executable)


def _process_outputs(ctx: BackwardCFunction, args: tuple, is_tensor: tuple, output: Any,
                     executable: bool) -> Any:
    """Attach ``ctx`` to the outputs (views of returned inputs, history of dirty ones)."""
    is_tuple = isinstance(output, tuple)
    outputs = output if is_tuple else (output,)
    inputs = {id(a) for a, t in zip(args, is_tensor) if t}
    dirty = {id(t) for t in ctx.dirty_tensors}
    non_diff = {id(t) for t in ctx.non_differentiable}
    for t in ctx.dirty_tensors:
        if id(t) not in inputs:
            raise RuntimeError(
                "Some elements marked as dirty during the forward method were not passed as "
                "inputs to the forward. Please ensure that you only mark inputs as dirty."
            )
        t._vc[0] += 1
    results = []
    out_meta: list = []
    for nr, o in enumerate(outputs):
        if not isinstance(o, Tensor):
            results.append(o)
            out_meta.append(None)
            continue
        out_meta.append((tuple(o._data.shape), o.dtype))
        is_input, is_dirty = id(o) in inputs, id(o) in dirty
        differentiable = (executable and id(o) not in non_diff and o.dtype.is_floating_point)
        if is_input and not is_dirty:
            o = _alias(o, as_view=differentiable)  # an input returned as-is: a new alias
        if differentiable:
            if is_dirty and o.grad_fn is None and o._rg:
                raise RuntimeError(
                    "a leaf Variable that requires grad has been used in an in-place operation."
                )
            o.grad_fn, o._rg, o._output_nr = ctx, True, nr
            if is_dirty:
                o._grad = None
            elif o._base is not None:  # torch forbids in-place changes of such views
                o._nograd_view = False
                o._custom_fn_view = (
                    f"Output {nr} of {type(ctx)._forward_cls.__name__} is a view and is being "
                    "modified inplace. This view was created inside a custom Function (or because "
                    "an input was returned as-is) and the autograd logic to handle view+inplace "
                    "would override the custom backward associated with the custom Function, "
                    "leading to incorrect gradients. This behavior is forbidden. You can fix this "
                    "by cloning the output of the custom Function."
                )
        results.append(o)
    ctx._n_outputs = len(outputs)
    ctx._out_meta = out_meta
    ctx._is_tensor_input = is_tensor
    ctx._in_meta = [(tuple(a._data.shape), a.dtype) for a, t in zip(args, is_tensor) if t]
    _save(ctx, results)
    if not executable:
        ctx._release()
    return tuple(results) if is_tuple else results[0]


def _alias(t: Tensor, as_view: bool) -> Tensor:
    """``t.view_as(t)`` without recording: same memory and version counter (a view of
    ``t`` when it becomes a differentiable output, a plain alias otherwise)."""
    out = _make(t._data.view(), t.dtype, None, t._storage, t._vc)
    if as_view:
        out._base = t._base if t._base is not None else t
    return out


def _save(ctx: BackwardCFunction, outputs: list) -> None:
    """Turn ``ctx.to_save`` into version-checked saved tensors."""
    keys = []
    out_ids = {id(o) for o in outputs if isinstance(o, Tensor) and o.grad_fn is ctx}
    for i, t in enumerate(ctx.to_save):
        if t is None:
            keys.append(None)
            continue
        if not isinstance(t, Tensor):
            raise TypeError(
                f"save_for_backward can only save variables, but argument {i} is of type "
                f"{type(t).__name__}"
            )
        key = f"saved_tensors[{i}]"
        ctx._saved[key] = SavedTensor(t, id(t) in out_ids, ctx)
        keys.append(key)
    ctx._saved_keys = keys
    ctx.to_save = ()


class Error(Node):
    """A node that refuses to run (the second derivative of a once-differentiable backward)."""

    def name(self) -> str:
        return "torch::autograd::Error"

    def backward(self, *grads: Any) -> tuple:
        raise RuntimeError(self.__dict__["message"])


def once_differentiable(fn: Callable) -> Callable:
    """Decorate ``backward``: run it without recording; differentiating it again raises."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        with no_grad():
            outputs = fn(ctx, *args)
        if not STATE.enabled:
            return outputs
        if not any(isinstance(a, Tensor) and a._rg for a in args):
            return outputs
        outs = outputs if isinstance(outputs, tuple) else (outputs,)
        fakes = []
        for o in outs:
            if o is not None:
                o = o.detach()
                o._rg = True
            fakes.append(o)
        err = new_node(Error, tuple(edge(f) for f in fakes))
        err.message = ("trying to differentiate twice a function that was marked with "
                       "@once_differentiable")
        res = []
        for nr, f in enumerate(fakes):
            if f is not None:
                f = _make(f._data, f.dtype, err, f._storage, f._vc)
                f._output_nr = nr
            res.append(f)
        err._n_outputs = len(res)
        return tuple(res) if isinstance(outputs, tuple) else res[0]

    return wrapper


class InplaceFunction(Function):
    """A Function with an ``inplace`` flag (kept for compatibility)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    """Legacy base class; use ``Function`` with static methods."""
