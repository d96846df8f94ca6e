"""Checks for notebook 13 · The training loop."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...factories import tensor
from ...grad_mode import no_grad
from ...nn import Linear
from ...optim import SGD
from ._common import (
    Feedback,
    as_array,
    check_value,
    close,
    shares_memory,
)
from ._evidence import watching
from ._payloads import (
    FIXED,
    Variant,
    answer,
    call,
    early,
    encode,
    failed,
    guarded,
    passed,
    run_quietly,
    show,
    spec,
)

NOTEBOOK = "13_training_loop"


def _loop_case(variant: Variant) -> dict:
    """Data, starting weights, learning rate and number of steps of the replayed loop."""
    rng = variant.rng("nb13.loop")
    d = 2 if variant.fixed else int(rng.integers(1, 4))
    n = 64 if variant.fixed else int(rng.integers(20, 60))
    X = rng.normal(size=(n, d))
    true_w = rng.integers(-3, 4, size=(1, d)).astype(float)
    y = X @ true_w.T + float(rng.integers(-2, 3)) + 0.1 * rng.normal(size=(n, 1))
    return {"X": X.round(3).tolist(), "y": y.round(3).tolist(),
            "w0": rng.normal(size=(1, d)).round(3).tolist(), "b0": [round(float(rng.normal()), 3)],
            "lr": 0.1 if variant.fixed else float(rng.choice([0.05, 0.1, 0.2])),
            "steps": 30 if variant.fixed else int(rng.integers(8, 25))}


def _collect_loop(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "train_step", callable_=True)
    case = _loop_case(variant)
    model = Linear(len(case["w0"][0]), 1)
    with no_grad():
        model.weight.copy_(tensor(case["w0"]))
        model.bias.copy_(tensor(case["b0"]))
    opt = SGD(model.parameters(), lr=case["lr"])
    X, y = tensor(case["X"]), tensor(case["y"])
    losses = []
    with watching() as ev:
        for _ in range(case["steps"]):
            got = call(fn, model, opt, X, y)
            if "raised" in got:
                return {"raised": got["raised"]}
            value = got["value"]
            losses.append(value["tensor"] if isinstance(value, dict) and "tensor" in value
                          else value)
    return {"losses": losses, "weight": model.weight.tolist(), "bias": model.bias.tolist(),
            "backwards": ev.backwards}


def _judge_loop(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if "raised" in payload:
        return failed(f"train_step raised {payload['raised']}")
    case = _loop_case(variant)
    X, y = np.asarray(case["X"]), np.asarray(case["y"])
    w, b = np.asarray(case["w0"]), np.asarray(case["b0"])
    losses = []
    for _ in range(case["steps"]):  # plain gradient descent on the mean squared error, by hand
        r = X @ w.T + b - y
        losses.append(float((r ** 2).mean()))
        w = w - case["lr"] * 2 * (r.T @ X) / len(X)
        b = b - case["lr"] * 2 * r.sum(axis=0) / len(X)
    steps = case["steps"]
    if payload["backwards"] != steps:
        return failed(f"{steps} calls of train_step ran {payload['backwards']} backward passes: "
                      "each step is one forward, one loss.backward() and one opt.step(); the "
                      "weights are learned, not set.")
    got_w, got_b = np.asarray(payload["weight"]), np.asarray(payload["bias"])
    if np.allclose(got_w, case["w0"]) and np.allclose(got_b, case["b0"]):
        return failed("the weights never moved: call opt.step() after loss.backward().")
    if not (np.allclose(got_w, w, rtol=1e-4, atol=1e-5)
            and np.allclose(got_b, b, rtol=1e-4, atol=1e-5)):
        return failed("after the steps the weights differ from plain SGD on the mean squared "
                      "error: zero the gradients each step (else they accumulate), and use "
                      "F.mse_loss(model(X), y).")
    got_losses = payload["losses"]
    if any(not isinstance(v, (int, float)) for v in got_losses) or not np.allclose(
            np.asarray(got_losses, dtype=np.float64), losses, rtol=1e-4):
        return failed("the weights are right, but train_step should return each step's loss.")
    return passed()


def ex1_loop(train_step: Any) -> Feedback:
    """``train_step(model, opt, X, y)``: one step of SGD on the mean squared error."""
    return show("train_step", _judge_loop(guarded(_collect_loop)({"train_step": train_step}),
                                          FIXED),
                "opt.zero_grad(), loss = F.mse_loss(model(X), y), loss.backward(), opt.step(); "
                "return loss")


def _ex2_known(before: Any, grad: Any, lr: float = 0.05) -> list[tuple[Any, str]]:
    """Named wrong answers of exercise 2, from the values before the step."""
    b, g = as_array(before), as_array(grad)
    return [(b, "that is the weight before the step."),
            (b + lr * g, "the sign is wrong: SGD moves against the gradient."),
            (b - g, "the learning rate is missing."),
            (g, "that is the gradient.")]


def ex2_step(predicted: Any, weight: Any, before: Any, grad: Any) -> Feedback:
    """Exercise 2 with the weight and gradient captured before ``step()``."""
    payload = guarded(_collect_step)({"predicted": predicted, "p_model": _Model(weight),
                                      "weight_before": before, "grad_before": grad})
    return show("weight after one SGD step", _judge_step(payload, FIXED),
                "plain SGD: new = old - lr * grad, with lr = 0.05")


class _Model:
    """What the check reads of p_model: its weight."""

    def __init__(self, weight: Any) -> None:
        self.weight = weight


def _collect_step(ns: dict, variant: Variant) -> dict:
    predicted, weight = answer(ns, "predicted"), ns["p_model"].weight
    return {"predicted": encode(predicted), "is_weight": predicted is weight,
            "shares": shares_memory(predicted, weight), "weight": weight.tolist(),
            "before": ns["weight_before"], "grad": ns["grad_before"]}


def _judge_step(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if payload["is_weight"] or payload["shares"]:
        return failed("predicted shares memory with p_model.weight, so step() changed it too: it "
                      "shows the result instead of your prediction. Compute it from values of "
                      "its own.")
    pred = payload["predicted"]
    if not (isinstance(pred, dict) and "tensor" in pred):
        return failed("expected a tensor.")
    before, grad = np.asarray(payload["before"]), np.asarray(payload["grad"])
    expected = before - 0.05 * grad
    if not close(payload["weight"], expected):
        return failed("p_model.weight is not before - lr * grad: was the model changed?")
    return run_quietly(check_value, "weight after one SGD step", pred["tensor"], expected,
                       _ex2_known(before, grad))


EXERCISES = {
    "ex1": spec(_collect_loop, _judge_loop, "train_step"),
    "ex2": spec(_collect_step, _judge_step, "weight after one SGD step"),
}
