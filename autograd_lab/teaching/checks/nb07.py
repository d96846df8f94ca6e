"""Checks for notebook 07 · detach, clone, no_grad and inference_mode."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...factories import tensor
from ...grad_mode import is_grad_enabled
from ._common import (
    Feedback,
    as_array,
    check_value,
    close,
    is_tensor,
    missing,
    right,
    shares_memory,
    wrong,
)


def ex1_targets(grad_stop: Any, grad_through: Any) -> Feedback:
    """With w = 3, x = 2: d/dw (wx - stopgrad(wx/2))² = 12 and d/dw (wx - wx/2)² = 6."""
    a = check_value("gradient with the target detached", grad_stop, 12.0, [
        (6.0, "that is the gradient through the target: the target was not detached."),
        (3.0, "that is w itself.")], hint="the target 3 is a constant: 2 (6 - 3) · x")
    b = check_value("gradient through the target", grad_through, 6.0, [
        (12.0, "that is the gradient with the target detached."),
        (3.0, "that is w itself.")],
        hint="the loss is (0.5 w x)² = 0.25 w² x², whose derivative is 0.5 w x²")
    return Feedback(bool(a) and bool(b))


def ex2_snapshot(snapshot: Any, w: Any, before: Any) -> Feedback:
    """``snapshot``: own memory, no graph, the values ``before`` that ``w`` was changed in place."""
    name = "snapshot"
    hint = "detach() alone shares memory with w, clone() alone stays in the graph: detach().clone()"
    if missing(name, snapshot):
        return Feedback(False)
    if not is_tensor(snapshot):
        return wrong(name, f"expected a tensor, got {type(snapshot).__name__}.", hint)
    if snapshot is w:
        return wrong(name, "that is w itself.", hint)
    if shares_memory(snapshot, w):
        return wrong(name, "it shares memory with w, so the in-place update changed it too "
                     "(detach() does not copy).", hint)
    if snapshot.requires_grad:
        return wrong(name, "it requires grad: it is still part of w's graph (clone() alone "
                     "records CloneBackward0).", hint)
    if not close(snapshot, before):
        return wrong(name, "its values are not those w had before the update.", hint)
    return right(name)


def ex3_inference(preds: Any, preds_np: Any, model: Any, inputs: Any) -> Feedback:
    """``preds`` made under no_grad (no graph), ``preds_np`` the same numbers as a NumPy array."""
    name = "preds and preds_np"
    hint = "compute preds inside the with torch.no_grad(): block; then preds.numpy()"
    if missing(name, preds) or missing(name, preds_np):
        return Feedback(False)
    if not is_tensor(preds):
        return wrong(name, f"preds should be a tensor, got {type(preds).__name__}.", hint)
    if preds.requires_grad or preds.grad_fn is not None:
        return wrong(name, "preds requires grad: it was computed outside the no_grad block.", hint)
    if not isinstance(preds_np, np.ndarray):
        return wrong(name, f"preds_np should be a NumPy array, got {type(preds_np).__name__}.",
                     "no detach() is needed for a tensor made under no_grad: .numpy() works")
    expected = as_array(model(inputs).detach())
    if preds_np.shape != expected.shape:
        return wrong(name, f"preds_np has shape {list(preds_np.shape)}, expected "
                     f"{list(expected.shape)}.", hint)
    if close(preds_np, as_array(inputs)):
        return wrong(name, "preds_np holds the inputs, not the predictions.", hint)
    if not (close(preds_np, expected) and close(preds, expected)):
        return wrong(name, "the values are not model(inputs).", hint)
    return right(name)


class _Probe:
    """A linear model that records whether gradient recording was on when it was called."""

    def __init__(self) -> None:
        self.weight = tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
        self.calls: list[bool] = []

    def __call__(self, x: Any) -> Any:
        self.calls.append(is_grad_enabled())
        return x @ self.weight.T


def ex4_predict(predict: Any) -> Feedback:
    """``predict(model, X)`` runs the model without recording a graph and returns its output."""
    name = "predict"
    hint = ("decorate predict with @torch.inference_mode() (or run the model inside "
            "with torch.inference_mode():) and return the output")
    if missing(name, predict):
        return Feedback(False)
    if not callable(predict):
        return wrong(name, f"expected a function of (model, X), got {type(predict).__name__}.",
                     hint)
    probe = _Probe()
    X = tensor([[1.0, 2.0], [-1.0, 0.5], [3.0, 0.0]])
    try:
        out = predict(probe, X)
    except Exception as e:  # noqa: BLE001 - the student's error is the feedback
        return wrong(name, f"calling it raised {type(e).__name__}: {e}", hint)
    if not probe.calls:
        return wrong(name, "it never called the model.", hint)
    if missing(name, out):
        return wrong(name, "it returns None: return the model's output.", hint)
    if not is_tensor(out):
        return wrong(name, f"it should return a tensor, got {type(out).__name__}.", hint)
    if any(probe.calls):
        return wrong(name, "the model ran with gradient recording on: a graph was built (and "
                     "saved tensors kept) even if you detach the result afterwards.", hint)
    if close(out, X):
        return wrong(name, "it returns the input X, not the model's output.", hint)
    if not close(out, (X @ probe.weight.T).detach()):
        return wrong(name, "it does not return model(X).", hint)
    return right(name)
