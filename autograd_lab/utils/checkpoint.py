"""``torch.utils.checkpoint``: trade compute for memory -- keep no activations, recompute them.

``checkpoint(fn, *args, use_reentrant=False)`` runs ``fn`` so that the tensors its ops would
save for backward are *not* kept: a saved-tensor hook packs each one as a small placeholder.
The first time backward needs one, ``fn`` runs again (with the random state it had, so dropout
draws the same mask), the recomputed tensors are caught in the order they are saved, and each
placeholder is answered with its twin. The graph is the ordinary one (``ExpBackward0``, ...).

``use_reentrant=True`` is the older form: ``fn`` runs under ``no_grad`` inside a custom
``Function`` (its node is ``CheckpointFunctionBackward``), whose backward recomputes ``fn`` with
grad on and runs a backward of its own through it. It does not work with ``autograd.grad`` or
``backward(inputs=...)``. Leaving ``use_reentrant`` out warns, as torch 2.13 does, and takes it.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any, Callable

from .. import engine
from ..autograd.function import Function
from ..autograd.graph import saved_tensors_hooks
from ..grad_mode import enable_grad, no_grad
from ..random.generator import get_rng_state, set_rng_state
from ..tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]

PASS_USE_REENTRANT = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in "
    "PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")
REENTRANT_WITH_GRAD = (
    "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing an "
    "`inputs` parameter to .backward(). To resolve this error, you can either set "
    "use_reentrant=False, or call .backward() without passing the `inputs` argument.")
NO_INPUT_REQUIRES_GRAD = "None of the inputs have requires_grad=True. Gradients will be None"


def checkpoint(function: Callable, *args: Any, use_reentrant: bool | None = None,
               context_fn: Callable | None = None, determinism_check: str = "default",
               debug: bool = False, preserve_rng_state: bool = True, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``, keeping none of its saved tensors for backward."""
    if use_reentrant is None:
        warnings.warn(PASS_USE_REENTRANT, UserWarning, stacklevel=2)
        use_reentrant = True
    if determinism_check not in ("default", "none"):
        raise ValueError("determinism_check should be one of ['default', 'none'], but got "
                         f"{determinism_check}")
    if use_reentrant:
        if context_fn is not None or debug:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _without_reentrant(function, preserve_rng_state, determinism_check, args, kwargs)


def checkpoint_sequential(functions: Any, segments: int, input: Any,
                          use_reentrant: bool | None = None, **kwargs: Any) -> Any:
    """Run ``functions`` (a list or ``nn.Sequential``) in ``segments`` checkpointed chunks."""
    if use_reentrant is None:
        warnings.warn(PASS_USE_REENTRANT, UserWarning, stacklevel=2)
        use_reentrant = True
    fns = list(functions.children()) if hasattr(functions, "children") else list(functions)
    size = len(fns) // segments

    def run(start: int, end: int) -> Callable:
        def forward(x: Any) -> Any:
            for f in fns[start:end + 1]:
                x = f(x)
            return x
        return forward

    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, **kwargs)
    return run(end + 1, len(fns) - 1)(input)


# ---- use_reentrant=False: saved-tensor hooks ---------------------------------------------------

class _Placeholder:
    """What the graph keeps instead of a saved tensor: its position in save order."""

    __slots__ = ("index", "__weakref__")

    def __init__(self, index: int) -> None:
        self.index = index


class _Region:
    """One checkpointed call: how to run it again, and its saved tensors once recomputed."""

    def __init__(self, function: Callable, args: tuple, kwargs: dict, rng: Tensor | None,
                 check: bool) -> None:
        self.function, self.args, self.kwargs, self.rng = function, args, kwargs, rng
        self.check = check
        self.metadata: list[tuple] = []  # (shape, dtype) of each tensor saved in the forward
        self.holders: list[weakref.ref] = []
        # once recomputed: each placeholder still held -> its tensor; a node that frees its
        # placeholder frees the recomputed tensor with it (weak keys), as torch does
        self.recomputed: weakref.WeakKeyDictionary | None = None

    def pack(self, t: Tensor) -> _Placeholder:
        self.metadata.append((tuple(t.shape), t.dtype))
        holder = _Placeholder(len(self.metadata) - 1)
        self.holders.append(weakref.ref(holder))
        return holder

    def unpack(self, holder: _Placeholder) -> Tensor:
        if self.recomputed is None:
            self._recompute()
        return self.recomputed[holder]

    def _recompute(self) -> None:
        caught: list[Tensor] = []

        def catch(t: Tensor) -> int:
            caught.append(t.detach())
            return len(caught) - 1

        state = get_rng_state() if self.rng is not None else None
        if self.rng is not None:
            set_rng_state(self.rng)
        try:
            with saved_tensors_hooks(catch, lambda i: caught[i]), enable_grad():
                self.function(*self.args, **self.kwargs)
        finally:
            if state is not None:
                set_rng_state(state)
        if self.check:
            _check_same_metadata(self.metadata, caught)
        self.recomputed = weakref.WeakKeyDictionary()
        for ref, t in zip(self.holders, caught):
            holder = ref()
            if holder is not None:
                self.recomputed[holder] = t


def _check_same_metadata(saved: list[tuple], recomputed: list[Tensor]) -> None:
    """torch's determinism check: the recomputation saved the same shapes and dtypes."""
    if len(recomputed) < len(saved):
        raise RuntimeError(
            "torch.utils.checkpoint: trying to save more tensors during recomputation than "
            f"during the original forward pass ({len(recomputed)} recomputed, {len(saved)} "
            "saved).")
    bad = []
    for i, ((shape, dtype), t) in enumerate(zip(saved, recomputed)):
        if tuple(t.shape) != shape or t.dtype is not dtype:
            bad.append(f"tensor at position {i}:\nsaved metadata: {{'shape': "
                       f"torch.Size({list(shape)}), 'dtype': {dtype}, 'device': "
                       f"device(type='cpu')}}\nrecomputed metadata: {{'shape': "
                       f"torch.Size({list(t.shape)}), 'dtype': {t.dtype}, 'device': "
                       "device(type='cpu')}\n")
    if bad:
        raise RuntimeError("torch.utils.checkpoint: Recomputed values for the following tensors "
                           "have different metadata than during the forward pass.\n"
                           + "".join(bad))


def _without_reentrant(function: Callable, preserve_rng_state: bool, determinism_check: str,
                       args: tuple, kwargs: dict) -> Any:
    rng = get_rng_state() if preserve_rng_state else None
    region = _Region(function, args, kwargs, rng, determinism_check == "default")
    with saved_tensors_hooks(region.pack, region.unpack):
        return function(*args, **kwargs)


# ---- use_reentrant=True: a Function that reruns its forward ----------------------------------

class CheckpointFunction(Function):
    """``function`` run without a graph; backward reruns it with one and backpropagates."""

    @staticmethod
    def forward(ctx: Any, run_function: Callable, preserve_rng_state: bool, *args: Any) -> Any:
        ctx.run_function, ctx.preserve_rng_state = run_function, preserve_rng_state
        ctx.rng = get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            warnings.warn(NO_INPUT_REQUIRES_GRAD, UserWarning, stacklevel=4)
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        if engine.in_partial_backward():
            raise RuntimeError(REENTRANT_WITH_GRAD)
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t.detach().requires_grad_(t.requires_grad)
        state = get_rng_state() if ctx.rng is not None else None
        if ctx.rng is not None:
            set_rng_state(ctx.rng)
        try:
            with enable_grad():
                outputs = ctx.run_function(*inputs)
        finally:
            if state is not None:
                set_rng_state(state)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads)
                 if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        engine.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(x.grad if isinstance(x, Tensor) else None for x in inputs)
