"""Checks for notebook 10 · Custom autograd Functions."""

from __future__ import annotations

from typing import Any

from ..._dtype import float64
from ...autograd.function import Function
from ...autograd.gradcheck import gradcheck
from ...factories import tensor
from ...ops.elementwise import sign
from ._common import Feedback, as_array, check_value, missing, right, wrong


def _cube(backward_formula: Any) -> type[Function]:
    class Cube(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx: Any, grad_out: Any) -> Any:
            (x,) = ctx.saved_tensors
            return backward_formula(x, grad_out)
    return Cube


def ex1_cube(cube_backward: Any, node_name: Any) -> Feedback:
    """``cube_backward(x, g)`` = g·3x² passes gradcheck; ``node_name`` is "CubeBackward"."""
    ok = True
    name = "gradcheck(Cube)"
    hint = "d(x^3)/dx = 3x^2, multiplied by grad_out (the chain rule's other factor)"
    if missing(name, cube_backward):
        ok = False
    elif not callable(cube_backward):
        ok = bool(wrong(name, f"expected a function of (x, grad_out), got "
                        f"{type(cube_backward).__name__}.", hint))
    else:
        x = tensor([0.3, -1.2, 2.0, 0.7], dtype=float64, requires_grad=True)
        try:
            passed = gradcheck(_cube(cube_backward).apply, (x,), raise_exception=False)
        except Exception as e:  # noqa: BLE001 - the student's error is the feedback
            ok = bool(wrong(name, f"backward raised {type(e).__name__}: {e}", hint))
        else:
            if passed:
                right(name)
            else:
                w = tensor([1.0, -2.0, 0.5, 3.0], dtype=float64)
                g = as_array(cube_backward(x.detach(), w))
                local = 3 * as_array(x) ** 2
                detail = ("it ignores grad_out: right only when the incoming gradient is 1."
                          if g is not None and g.shape == local.shape and
                          abs(g - local).max() < 1e-9 else
                          "its Jacobian differs from the numerical one.")
                ok = bool(wrong(name, detail, hint))
    name2 = "the node of Cube"
    hint2 = "custom nodes are named after the class plus 'Backward', with no number"
    if missing(name2, node_name):
        return Feedback(False)
    if node_name == "CubeBackward":
        right(name2)
    elif node_name == "CubeBackward0":
        return wrong(name2, "built-in nodes carry a number; custom ones do not.", hint2)
    elif node_name == "PowBackward0":
        return wrong(name2, "x ** 3 inside forward is not recorded: forward runs without "
                     "building a graph, and the whole Function becomes one node.", hint2)
    else:
        return wrong(name2, f"{node_name!r} is not it.", hint2)
    return Feedback(ok)


def ex2_passing(passing: Any) -> Feedback:
    """The sigmoid backwards A (g·s(1-s)) and D (g·(s-s²)) pass gradcheck; B and C do not."""
    name = "backwards that pass gradcheck"
    hint = "loop over candidates.items() and keep the names whose gradcheck returns True"
    if missing(name, passing):
        return Feedback(False)
    if not isinstance(passing, (set, frozenset)) or not all(isinstance(p, str) for p in passing):
        return wrong(name, "expected a set of names, like {'A'}.", hint)
    expected = {"A", "D"}
    if passing == expected:
        return right(name)
    if passing == {"A"}:
        return wrong(name, "one more passes: a formula written differently can be the same "
                     "function.", hint)
    if "B" in passing:
        return wrong(name, "B forgets grad_out; gradcheck's one-hot vectors catch that.", hint)
    return wrong(name, "not the set gradcheck gives.", hint)


def _ste(backward_formula: Any) -> type[Function]:
    class SignSTE(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return sign(x)

        @staticmethod
        def backward(ctx: Any, grad_out: Any) -> Any:
            (x,) = ctx.saved_tensors
            return backward_formula(x, grad_out)
    return SignSTE


def ex3_ste(ste_backward: Any) -> Feedback:
    """``ste_backward(x, g)`` = g where |x| <= 1, else 0."""
    name = "ste_backward"
    hint = "pass grad_out through where |x| <= 1, zero elsewhere: grad_out * (x.abs() <= 1)"
    if missing(name, ste_backward):
        return Feedback(False)
    if not callable(ste_backward):
        return wrong(name, f"expected a function of (x, grad_out), got "
                     f"{type(ste_backward).__name__}.", hint)
    x = tensor([-2.0, -1.0, -0.5, 0.3, 1.0, 1.5], requires_grad=True)
    w = tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    try:
        (_ste(ste_backward).apply(x) * w).sum().backward()
    except Exception as e:  # noqa: BLE001 - the student's error is the feedback
        return wrong(name, f"backward raised {type(e).__name__}: {e}", hint)
    return check_value(name, x.grad, [0.0, 2.0, 3.0, 4.0, 5.0, 0.0], [
        ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "that is the identity everywhere; clip it to |x| <= 1."),
        ([0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "that is sign's true derivative (0), which is what the "
                                          "estimator replaces."),
        ([0.0, 0.0, 3.0, 4.0, 0.0, 0.0], "at |x| = 1 the gradient should pass too (<=, not <)."),
        ([0.0, 1.0, 1.0, 1.0, 1.0, 0.0], "it ignores grad_out: multiply the mask by it."),
    ], hint=hint)
