"""Checks for notebook 07 · detach, clone, no_grad and inference_mode."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...factories import tensor
from ...grad_mode import is_grad_enabled, no_grad, set_grad_enabled
from ...nn.modules.module import Module
from ...nn.parameter import Parameter
from ._common import (
    Feedback,
    as_array,
    close,
    shares_memory,
)
from ._evidence import watching
from ._payloads import (
    FIXED,
    Unanswered,
    Variant,
    answer,
    call,
    decode,
    early,
    encode,
    failed,
    guarded,
    passed,
    placeholder,
    show,
    spec,
)

NOTEBOOK = "07_detach_clone_no_grad"


def _target_cases(variant: Variant) -> list[tuple[float, float]]:
    """(w, x) for the calls of target_grad."""
    if variant.fixed:
        return [(3.0, 2.0), (-1.0, 0.5)]
    rng = variant.rng("nb07.targets")
    return [(float(rng.integers(-5, 6)) + 0.5, float(rng.integers(-4, 5))) for _ in range(3)]


def _collect_targets(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "target_grad", callable_=True)
    runs = []
    for w, x in _target_cases(variant):
        for stop in (True, False):
            with watching() as ev:
                got = call(fn, tensor(w, requires_grad=True), tensor(x), stop)
            runs.append({"got": got, "backwards": ev.backwards})
    return {"runs": runs}


def _judge_targets(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    runs = iter(payload["runs"])
    for w, x in _target_cases(variant):
        stop_grad, through_grad = w * x * x, 0.5 * w * x * x  # 2(wx - wx/2)·x and d(wx/2)²/dw
        for stop, expected, other in ((True, stop_grad, through_grad),
                                      (False, through_grad, stop_grad)):
            run = next(runs)
            label = f"with w = {w:g}, x = {x:g} and detach_target={stop}"
            if "raised" in run["got"]:
                return failed(f"{label} it raised {run['got']['raised']}")
            if not run["backwards"]:
                return failed("it returns a number without a backward pass: let autograd "
                              "differentiate the loss (torch.autograd.grad(loss, w)[0]).")
            got = as_array(decode(run["got"]["value"]))
            if got is None or got.size != 1:
                return failed(f"{label} it should return the gradient, one number.")
            if np.isclose(float(got.ravel()[0]), expected, rtol=1e-5, atol=1e-6):
                continue
            if expected != other and np.isclose(float(got.ravel()[0]), other, rtol=1e-5):
                return failed("the detached and the tracked target give each other's gradient: "
                              "detach() makes the target a constant, so only the prediction "
                              "carries w." if stop else "the target is detached although "
                              "detach_target is False: the target is half the prediction, so "
                              "it carries w too.")
            return failed(f"{label} the gradient should be 2 (prediction - target) · d(prediction"
                          " - target)/dw.")
    return passed()


def ex1_targets(target_grad: Any) -> Feedback:
    """``target_grad(w, x, detach_target)``: d/dw (wx - t)², t = wx/2 detached or not."""
    return show("target_grad", _judge_targets(guarded(_collect_targets)(
        {"target_grad": target_grad}), FIXED),
        "target = (0.5 * prediction).detach() if detach_target else 0.5 * prediction; then "
        "torch.autograd.grad((prediction - target) ** 2, w)[0]")


def ex2_snapshot(snapshot: Any, w: Any, before: Any) -> Feedback:
    """``snapshot``: own memory, no graph, the values ``before`` that ``w`` was changed in place."""
    payload = guarded(_collect_snapshot)({"snapshot": snapshot, "w": w, "before": before})
    return show("snapshot", _judge_snapshot(payload, FIXED),
                "detach() alone shares memory with w, clone() alone stays in the graph: "
                "detach().clone()")


def ex3_inference(preds: Any, preds_np: Any, model: Any, inputs: Any) -> Feedback:
    """``preds`` made under no_grad (no graph), ``preds_np`` the same numbers as a NumPy array."""
    payload = guarded(_collect_inference)({"preds": preds, "preds_np": preds_np, "model": model,
                                           "inputs": inputs})
    return show("preds and preds_np", _judge_inference(payload, FIXED),
                "compute preds inside the with torch.no_grad(): block; then preds.numpy()")


class _Probe:
    """A linear model that records whether gradient recording was on when it was called."""

    def __init__(self, weight: list) -> None:
        self.weight = tensor(weight, requires_grad=True)
        self.calls: list[bool] = []

    def __call__(self, x: Any) -> Any:
        self.calls.append(is_grad_enabled())
        return x @ self.weight.T


def _predict_cases(variant: Variant) -> list[tuple[list, list]]:
    """(weight, X) for each call of predict."""
    if variant.fixed:
        return [([[0.5, -1.0], [2.0, 0.25]], [[1.0, 2.0], [-1.0, 0.5], [3.0, 0.0]])]
    rng = variant.rng("nb07.predict")
    out = []
    for n_in, n_out, rows in ((3, 2, 4), (2, 1, 1)):
        out.append((np.round(rng.normal(size=(n_out, n_in)), 2).tolist(),
                    np.round(rng.normal(size=(rows, n_in)), 2).tolist()))
    return out


def _collect_predict(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "predict", callable_=True)
    runs = []
    for weight, X in _predict_cases(variant):
        probe = _Probe(weight)
        got = call(fn, probe, tensor(X))
        runs.append({"got": got, "calls": probe.calls})
    return {"runs": runs}


def _judge_predict(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (weight, X), run in zip(_predict_cases(variant), payload["runs"]):
        got = run["got"]
        if "raised" in got:
            return failed(f"calling it raised {got['raised']}")
        if not run["calls"]:
            return failed("it never called the model.")
        value = got["value"]
        if value is None:
            return failed("it returns None: return the model's output.")
        if not (isinstance(value, dict) and "tensor" in value):
            return failed("it should return a tensor.")
        if any(run["calls"]):
            return failed("the model ran with gradient recording on: a graph was built (and saved "
                          "tensors kept) even if you detach the result afterwards.")
        out = np.asarray(value["tensor"])
        if out.shape == np.shape(X) and np.allclose(out, X):
            return failed("it returns the input X, not the model's output.")
        expected = np.asarray(X) @ np.asarray(weight).T
        if out.shape != expected.shape or not np.allclose(out, expected, rtol=1e-5, atol=1e-6):
            return failed("it does not return model(X).")
    return passed()


def ex4_predict(predict: Any) -> Feedback:
    """``predict(model, X)`` runs the model without recording a graph and returns its output."""
    return show("predict", _judge_predict(guarded(_collect_predict)({"predict": predict}), FIXED),
                "decorate predict with @torch.inference_mode() (or run the model inside "
                "with torch.inference_mode():) and return the output")


def _collect_snapshot(ns: dict, variant: Variant) -> dict:
    snapshot, w = answer(ns, "snapshot"), ns["w"]
    return {"snapshot": encode(snapshot), "is_w": snapshot is w,
            "shares": shares_memory(snapshot, w), "before": ns["before"]}


def _judge_snapshot(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    snap = payload["snapshot"]
    if payload["is_w"]:
        return failed("that is w itself.")
    if payload["shares"]:
        return failed("it shares memory with w, so the in-place update changed it too (detach() "
                      "does not copy).")
    if not (isinstance(snap, dict) and "tensor" in snap):
        return failed("expected a tensor.")
    if snap["requires_grad"]:
        return failed("it requires grad: it is still part of w's graph (clone() alone records "
                      "CloneBackward0).")
    if not close(snap["tensor"], payload["before"]):
        return failed("its values are not those w had before the update.")
    return passed()


def _collect_inference(ns: dict, variant: Variant) -> dict:
    preds, preds_np = ns.get("preds", ...), ns.get("preds_np", ...)
    if placeholder(preds) and placeholder(preds_np):
        raise Unanswered("preds")
    model, inputs = ns["model"], ns["inputs"]
    return {"preds": encode(preds), "preds_np": encode(preds_np),
            "is_ndarray": isinstance(preds_np, np.ndarray),
            "weight": model.weight.detach().tolist(), "bias": model.bias.detach().tolist(),
            "inputs": inputs.detach().tolist()}


def _judge_inference(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    preds, preds_np = payload["preds"], payload["preds_np"]
    if preds == {"ellipsis": True} or preds_np == {"ellipsis": True}:
        return "unanswered", "replace the ... with your code and run the cell"
    if not (isinstance(preds, dict) and "tensor" in preds):
        return failed("preds should be a tensor.")
    if preds["requires_grad"] or preds["grad_fn"]:
        return failed("preds requires grad: it was computed outside the no_grad block.")
    if not payload["is_ndarray"]:
        return failed("preds_np should be a NumPy array: no detach() is needed for a tensor made "
                      "under no_grad, .numpy() works.")
    x = np.asarray(payload["inputs"])
    expected = x @ np.asarray(payload["weight"]).T + np.asarray(payload["bias"])
    got = np.asarray(preds_np["array"])
    if got.shape != expected.shape:
        return failed(f"preds_np has shape {list(got.shape)}, expected {list(expected.shape)}.")
    if got.shape == x.shape and np.allclose(got, x):
        return failed("preds_np holds the inputs, not the predictions.")
    if not (close(got, expected) and close(preds["tensor"], expected)):
        return failed("the values are not model(inputs).")
    return passed()


class _ModeProbe(Module):
    """A linear layer that notes, at each call, its mode and whether recording was on; in
    training mode it zeroes its first output, as a dropout layer might."""

    def __init__(self, weight: list) -> None:
        super().__init__()
        self.weight = Parameter(tensor(weight))
        self.calls: list[tuple[bool, bool]] = []

    def forward(self, x: Any) -> Any:
        self.calls.append((self.training, is_grad_enabled()))
        out = x @ self.weight.T
        if self.training:
            out = out * tensor([0.0] + [1.0] * (out.shape[-1] - 1))
        return out


def _mode_cases(variant: Variant) -> list[tuple[list, list, bool]]:
    """(weight, X, train mode before the call) for each call of evaluate."""
    if variant.fixed:
        return [([[1.0, 2.0], [0.5, -1.0]], [[1.0, 1.0], [2.0, -1.0]], True),
                ([[1.0, 2.0], [0.5, -1.0]], [[3.0, 0.5]], False)]
    rng = variant.rng("nb07.evaluate")
    out = []
    for n_in, n_out, rows, mode in ((3, 2, 2, True), (2, 3, 1, False), (2, 2, 3, True)):
        out.append((np.round(rng.normal(size=(n_out, n_in)), 2).tolist(),
                    np.round(rng.normal(size=(rows, n_in)), 2).tolist(), mode))
    return out


def _collect_evaluate(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "evaluate", callable_=True)
    runs = []
    for weight, X, mode in _mode_cases(variant):
        model = _ModeProbe(weight)
        model.train(mode)
        got = call(fn, model, tensor(X))
        runs.append({"got": got, "calls": model.calls, "after": model.training,
                     "grad_after": is_grad_enabled()})
    return {"runs": runs}


def _judge_evaluate(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (weight, X, mode), run in zip(_mode_cases(variant), payload["runs"]):
        got = run["got"]
        if "raised" in got:
            return failed(f"calling it raised {got['raised']}")
        if not run["calls"]:
            return failed("it never called the model.")
        if any(training for training, _ in run["calls"]):
            return failed("the model ran in training mode (its dropout still active): call "
                          "model.eval() first — no_grad does not change how layers behave.")
        if any(recording for _, recording in run["calls"]):
            return failed("the model ran with gradient recording on: eval() changes how layers "
                          "behave, not whether a graph is recorded; add torch.no_grad().")
        if run["after"] != mode:
            return failed("it left the model in " + ("eval" if mode else "training") + " mode, "
                          "but it was in " + ("training" if mode else "eval") + " mode before: "
                          "note model.training first and restore it with model.train(...).")
        if not run["grad_after"]:
            return failed("recording is still off after it returned: use torch.no_grad() as a "
                          "with block.")
        value = got["value"]
        if not (isinstance(value, dict) and "tensor" in value):
            return failed("it should return the model's output, a tensor.")
        expected = np.asarray(X) @ np.asarray(weight).T
        out = np.asarray(value["tensor"])
        if out.shape != expected.shape or not np.allclose(out, expected, rtol=1e-5, atol=1e-6):
            return failed("it does not return model(X).")
    return passed()


def ex5_evaluate(evaluate: Any) -> Feedback:
    """``evaluate(model, X)``: eval mode and no graph for the call, the model's mode restored."""
    return show("evaluate", _judge_evaluate(guarded(_collect_evaluate)({"evaluate": evaluate}),
                                            FIXED),
                "was_training = model.training; model.eval(); with torch.no_grad(): out = "
                "model(X); model.train(was_training); return out")


def _switch_cases(variant: Variant) -> list[tuple[list, list, bool, bool]]:
    """(weight, X, train, called inside no_grad) for each call of run."""
    if variant.fixed:
        w, X = [[1.0, -2.0], [0.5, 3.0]], [[1.0, 2.0]]
        return [(w, X, True, False), (w, X, False, False), (w, X, True, True)]
    rng = variant.rng("nb07.switch")
    out = []
    for train, inside in ((False, False), (True, True), (True, False), (False, True)):
        out.append((np.round(rng.normal(size=(2, 3)), 2).tolist(),
                    np.round(rng.normal(size=(2, 3)), 2).tolist(), train, inside))
    return out


def _collect_switch(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "run", callable_=True)
    runs, mode = [], is_grad_enabled()
    for weight, X, train, inside in _switch_cases(variant):
        probe = _Probe(weight)
        if inside:
            with no_grad():
                got = call(fn, probe, tensor(X), train)
                after = is_grad_enabled()
        else:
            got = call(fn, probe, tensor(X), train)
            after = is_grad_enabled()
        set_grad_enabled(mode)  # undo a mode the answer left switched
        runs.append({"got": got, "calls": probe.calls, "after": after})
    return {"runs": runs}


def _judge_switch(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (weight, X, train, inside), run in zip(_switch_cases(variant), payload["runs"]):
        got = run["got"]
        where = " when called inside a torch.no_grad() block" if inside else ""
        if "raised" in got:
            return failed(f"calling it with train={train}{where} raised {got['raised']}")
        if not run["calls"]:
            return failed("it never called the model.")
        if any(recording != train for recording in run["calls"]):
            return failed(f"with train={train}{where} the model ran with recording "
                          + ("off" if train else "on") + ": torch.set_grad_enabled(train) sets "
                          "the mode to train, whatever it was outside.")
        if run["after"] != (not inside):
            return failed("it changed the grad mode for the code after it: use "
                          "torch.set_grad_enabled(train) as a with block, which restores it.")
        value = got["value"]
        if not (isinstance(value, dict) and "tensor" in value):
            return failed("it should return the model's output, a tensor.")
        if value["requires_grad"] != train:
            return failed(f"with train={train} its output should "
                          + ("" if train else "not ") + "require grad.")
        expected = np.asarray(X) @ np.asarray(weight).T
        if not close(value["tensor"], expected):
            return failed("it does not return model(X).")
    return passed()


def ex6_switch(run: Any) -> Feedback:
    """``run(model, X, train)``: model(X) with recording on exactly when ``train``."""
    return show("run", _judge_switch(guarded(_collect_switch)({"run": run}), FIXED),
                "with torch.set_grad_enabled(train): return model(X)")


EXERCISES = {
    "ex1": spec(_collect_targets, _judge_targets, "target_grad"),
    "ex2": spec(_collect_snapshot, _judge_snapshot, "snapshot"),
    "ex3": spec(_collect_inference, _judge_inference, "preds and preds_np"),
    "ex4": spec(_collect_predict, _judge_predict, "predict"),
    "ex5": spec(_collect_evaluate, _judge_evaluate, "evaluate"),
    "ex6": spec(_collect_switch, _judge_switch, "run"),
}
