"""Checks for notebook 05 · retain_graph and accumulation."""

from __future__ import annotations

import math
from typing import Any

from ...factories import tensor
from ..exercises import check_raises
from ._common import Feedback, as_array, check_value, is_tensor, missing, right, wrong
from ._payloads import (
    FIXED,
    Unanswered,
    Variant,
    answer,
    early,
    encode,
    failed,
    guarded,
    passed,
    run_quietly,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "05_retain_graph_and_accumulation"


def ex1_three_calls(grad_after_three: Any) -> Feedback:
    """Three backward calls of sum(x²) at [1, -1] accumulate 3·2x = [6, -6]."""
    return check_value("x.grad after three backward calls", grad_after_three, [6.0, -6.0], [
        ([2.0, -2.0], "that is one call's gradient; the three calls add up in .grad."),
        ([4.0, -4.0], "that is two calls; the third adds another 2x."),
        ([1.0, -1.0], "that is x itself."),
    ], hint="each call adds 2x = [2., -2.]; retain_graph=True on the first two")


def ex2_scale(scale: Any) -> Feedback:
    """The scale that turns three part-means into the full-batch mean: 1/3."""
    name = "gradient accumulated over three parts"
    hint = "the mean over 6 samples is the average of three means over 2 samples"
    if missing(name, scale):
        return Feedback(False)
    s = as_array(scale)
    if s is None or s.shape != ():
        return wrong(name, f"scale should be one number, got {type(scale).__name__}.", hint)
    X = tensor([[0.5, -1.0], [1.5, 0.2], [-0.3, 0.8], [2.0, 1.0], [-1.2, -0.4], [0.1, 0.9]])
    Y = tensor([[1.0], [-0.5], [0.3], [2.0], [-1.0], [0.4]])
    w = tensor([[0.7, -0.2]], requires_grad=True)
    ((X @ w.T - Y) ** 2).mean().backward()
    full = w.grad.clone()
    w.grad = None
    for i in range(3):  # the notebook's three parts, each mean times the scale
        part = slice(2 * i, 2 * i + 2)
        (((X[part] @ w.T - Y[part]) ** 2).mean() * float(s)).backward()
    ratio = (w.grad / full).mean().item()
    if math.isclose(ratio, 1.0, rel_tol=1e-4):
        return right(name)
    if ratio == 0:
        return wrong(name, "with this scale every gradient is zero.", hint)
    return wrong(name, f"with this scale the accumulated gradient is {ratio:.3g} times the "
                 "full-batch gradient.", hint)


def ex3_plug(kept: Any, held: int, reference: float) -> Feedback:
    """``kept`` holds evaluate()'s value with no graph alive (``held`` bytes left over)."""
    name = "the value, without its graph"
    hint = "a Python float (.item()) holds no tensor and no graph"
    if missing(name, kept):
        return Feedback(False)
    if is_tensor(kept) and kept.grad_fn is not None:
        return wrong(name, f"kept is a tensor with grad_fn={kept.grad_fn.name()}: its whole "
                     f"graph stays alive ({held:,} bytes).", hint)
    if held >= 1000:
        return wrong(name, f"{held:,} bytes are still allocated: something still refers to the "
                     "graph.", hint)
    v = as_array(kept)
    if v is None or v.shape != ():
        return wrong(name, f"kept should be the one number evaluate() returns, got "
                     f"{type(kept).__name__}.", hint)
    if not math.isclose(float(v), reference, rel_tol=1e-5, abs_tol=1e-3):
        return wrong(name, "kept is not the value evaluate() returned.", hint)
    return right(name)


def ex4_second(second: Any) -> Feedback:
    """d²/dx² sin(x) at 1 = -sin(1)."""
    return check_value("d²/dx² sin(x) at x = 1", second, -math.sin(1.0), [
        (math.cos(1.0), "that is the first derivative, cos(1)."),
        (-math.cos(1.0), "-cos(1) would be the third derivative."),
        (1.0, "that is x itself."),
    ], hint="the first grad needs create_graph=True so that it can be differentiated again")


def ex5_fails(fails: Any) -> Feedback:
    """``fails`` is the output whose graph saved tensors (x * x), so a second backward raises."""
    name = "a second fails.backward()"
    hint = "only saved tensors are freed: +, - and mean save none; x * x saves x (twice)"
    if missing(name, fails):
        return Feedback(False)
    if not is_tensor(fails) or fails.grad_fn is None:
        return wrong(name, "expected one of the tensors a, b, c.", hint)
    return check_raises(name, fails.backward, RuntimeError,
                        match="Trying to backward through the graph a second time", hint=hint)


def ex6_zeros(weight_grad: Any, lin: Any) -> Feedback:
    """``lin``'s gradients were reset to zeros (not None), and ``weight_grad`` is that tensor."""
    payload = guarded(_collect_zeros)({"weight_grad": ... if weight_grad is None and
                                       lin.weight.grad is not None else weight_grad, "lin": lin})
    return show("lin.weight.grad is a tensor of zeros", _judge_zeros(payload, FIXED),
                "zero_grad() sets .grad to None by default; zero_grad(set_to_none=False) fills "
                "zeros")


def _collect_plug(ns: dict, variant: Variant) -> dict:
    kept = answer(ns, "kept")
    return {"kept": encode(kept), "held": int(ns["held"]), "reference": float(ns["reference"])}


def _judge_plug(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    kept, held = payload["kept"], payload["held"]
    if isinstance(kept, dict) and kept.get("grad_fn"):
        return failed(f"kept is a tensor with grad_fn={kept['grad_fn']}: its whole graph stays "
                      f"alive ({held:,} bytes).")
    if isinstance(kept, dict) and "tensor" in kept:
        kept = kept["tensor"]
    return run_quietly(ex3_plug, kept, held, payload["reference"])


def _collect_fails(ns: dict, variant: Variant) -> dict:
    fails = answer(ns, "fails")
    which = next((n for n in ("a", "b", "c") if ns.get(n) is fails), None)
    return {"which": which, "kind": type(fails).__name__}


def _judge_fails(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if payload["which"] is None:
        return failed("expected one of the tensors a, b, c.")
    x = tensor([1.0, 2.0], requires_grad=True)
    outs = {"a": (x + 1).sum(), "b": (x - 2).mean(), "c": (x * x).sum()}
    for out in outs.values():
        out.backward()
    try:
        outs[payload["which"]].backward()
    except RuntimeError:
        return passed()
    return failed(f"{payload['which']}.backward() works a second time: only saved tensors are "
                  "freed, and +, - and mean save none; x * x saves x.")


def _collect_zeros(ns: dict, variant: Variant) -> dict:
    weight_grad, lin = ns.get("weight_grad", ...), ns["lin"]
    if weight_grad is Ellipsis:
        raise Unanswered("weight_grad")
    g, bg = lin.weight.grad, lin.bias.grad
    return {"weight_none": g is None, "bias_none": bg is None,
            "weight_zero": g is not None and bool((g == 0).all()),
            "bias_zero": bg is not None and bool((bg == 0).all()),
            "is_weight_grad": weight_grad is not None and weight_grad is g}


def _judge_zeros(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if payload["weight_none"]:
        return failed("lin.weight.grad is None: that is what zero_grad() does by default.")
    if not (payload["weight_zero"] and payload["bias_zero"]):
        return failed("lin's gradients still hold the old values: reset them on lin itself (a new "
                      "tensor of zeros elsewhere changes nothing).")
    if not payload["is_weight_grad"]:
        return failed("weight_grad should be lin.weight.grad itself.")
    return passed()


EXERCISES = {
    "ex1": value_spec(["grad_after_three"], ex1_three_calls),
    "ex2": value_spec(["scale"], ex2_scale),
    "ex3": spec(_collect_plug, _judge_plug, "the value, without its graph"),
    "ex4": value_spec(["second"], ex4_second),
    "ex5": spec(_collect_fails, _judge_fails, "a second fails.backward()"),
    "ex6": spec(_collect_zeros, _judge_zeros, "lin.weight.grad is a tensor of zeros"),
}
