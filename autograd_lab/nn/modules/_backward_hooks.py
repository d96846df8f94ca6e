"""Module backward hooks: ``register_full_backward_hook`` and ``register_full_backward_pre_hook``.

A module has no node of its own in the graph, so, as in torch, its call wraps the tensors that
go in and come out in an identity ``Function`` (``BackwardHookFunction``). Its node,
``BackwardHookFunctionBackward``, is where the gradients are caught: the one on the outputs
sees ``grad_output`` (and runs the pre-hooks, which may replace it), the one on the inputs sees
``grad_input`` and runs the hooks, which may replace that. So a hooked module's output shows
``grad_fn=<BackwardHookFunctionBackward>``, as in torch.
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

from ...autograd.function import Function
from ...grad_mode import is_grad_enabled
from ...tensor import Tensor

NO_INPUT_REQUIRES_GRAD = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.")


class BackwardHookFunction(Function):
    """Identity on a module's tensors; its backward node is where a hook catches gradients."""

    @staticmethod
    def forward(ctx: Any, *args: Tensor) -> tuple:
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        return grads


_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _user_stacklevel() -> int:
    """The stacklevel of the first caller outside the package (the user's ``backward()``)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def _with_none(indices: list[int], values: Any, size: int) -> tuple:
    out: list = [None] * size
    for i, v in zip(indices, values):
        out[i] = v
    return tuple(out)


class BackwardHook:
    """One module call's hooks: catches ``grad_output`` at the outputs, then ``grad_input`` at
    the inputs, and calls ``hook(module, grad_input, grad_output)``."""

    def __init__(self, module: Any, hooks: list, pre_hooks: list) -> None:
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_outputs: tuple | None = None
        self.n_inputs = self.n_outputs = -1
        self.input_index: list[int] | None = None
        self.output_index: list[int] | None = None

    def _wrap(self, args: tuple, on_node: Any) -> tuple[tuple, list[int] | None]:
        """Route the tensors among ``args`` through ``BackwardHookFunction`` (when one needs a
        gradient and grad mode is on) and hand its node to ``on_node``."""
        index = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in index]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        wrapped = BackwardHookFunction.apply(*tensors)
        nodes = [t.grad_fn for t in wrapped if t.grad_fn is not None]
        on_node(nodes[0])
        out = list(args)
        for i, t in zip(index, wrapped):
            out[i] = t
        return tuple(out), index

    def setup_input_hook(self, args: tuple) -> tuple:
        """Wrap the inputs: their node runs the hooks once ``grad_input`` is known."""
        def on_node(node: Any) -> None:
            node.register_hook(self._input_hook)

        args, self.input_index = self._wrap(args, on_node)
        self.n_inputs = len(args)
        return args

    def _input_hook(self, grad_input: tuple, _grad_output: tuple) -> tuple | None:
        if self.grad_outputs is None:  # the gradient reached the inputs without the outputs
            return None
        res = _with_none(self.input_index or [], grad_input, self.n_inputs)
        for hook in self.hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                   f"got {len(out)}, but expected {len(res)}")
            res = out
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_index or [])

    def setup_output_hook(self, result: Any) -> Any:
        """Wrap the outputs: their node records ``grad_output`` and runs the pre-hooks."""
        def on_node(node: Any) -> None:
            node.register_hook(self._output_hook)

        single = not isinstance(result, tuple)
        args = (result,) if single else result
        args, self.output_index = self._wrap(args, on_node)
        self.n_outputs = len(args)
        return args[0] if single else args

    def _output_hook(self, _grad_input: tuple, grad_output: tuple) -> tuple | None:
        self.grad_outputs = _with_none(self.output_index or [], grad_output, self.n_outputs)
        for hook in self.pre_hooks:
            out = hook(self.module, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(self.grad_outputs):
                raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(out)}, but expected {len(self.grad_outputs)}")
            self.grad_outputs = out
        local = self.grad_outputs
        if self.input_index is None:  # no input needs a gradient: the hooks run here
            warnings.warn(NO_INPUT_REQUIRES_GRAD, UserWarning, stacklevel=_user_stacklevel())
            grad_inputs = _with_none([], [], self.n_inputs)
            for hook in self.hooks:
                res = hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple)
                                            and all(r is None for r in res)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        return tuple(local[i] for i in self.output_index or [])
