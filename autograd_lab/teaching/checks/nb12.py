"""Checks for notebook 12 · Softmax cross-entropy as a graph."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from ...factories import tensor
from ...nn import functional as functional_module
from ...tensor import Tensor
from ._common import PREDICTION, Feedback, as_array, check_value, missing, right, wrong
from ._evidence import graph_names, watching
from ._payloads import (
    FIXED,
    Variant,
    answer,
    call,
    decode,
    early,
    failed,
    guarded,
    passed,
    run_quietly,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "12_softmax_cross_entropy"


def _ce_cases(variant: Variant) -> list[tuple[list[float], int]]:
    """(logits, true class) for each call."""
    if variant.fixed:
        return [([2.0, 1.0, 0.1], 0)]
    rng = variant.rng("nb12.grad")
    n = int(rng.integers(3, 6))
    logits = [float(v) for v in np.round(rng.normal(size=n) * 2, 2)]
    tied = [1.5, 1.5, -0.5, 1.5]  # ties: softmax splits evenly
    return [(logits, int(rng.integers(1, n))), (tied, int(rng.integers(0, 4))),
            ([float(v) for v in np.round(rng.normal(size=3), 2)], 0)]


def _collect_ce(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "ce_grad", callable_=True)
    with watching() as ev:
        outputs = [call(fn, tensor(a), t) for a, t in _ce_cases(variant)]
    return {"outputs": outputs, **ev.facts()}


def _judge_ce(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if payload["backwards"]:
        return failed("it runs a backward pass (backward() or torch.autograd.grad): the exercise "
                      "asks for the gradient from the formula.")
    for (logits, t), got in zip(_ce_cases(variant), payload["outputs"]):
        if "raised" in got:
            return failed(f"on logits {logits} it raised {got['raised']}")
        a = np.asarray(logits)
        e = np.exp(a - a.max())
        p = e / e.sum()
        onehot = np.eye(len(a))[t]
        wrong_class = np.eye(len(a))[(t + 1) % len(a)]
        status, message = run_quietly(check_value, "dL/dlogits", decode(got["value"]), p - onehot, [
            (p, "that is softmax(logits) alone; subtract the one-hot vector of the true class."),
            (a, "that is the logits themselves."),
            (np.log(p), "that is log softmax, the loss's ingredient, not its gradient."),
            (p - wrong_class, "the one-hot vector is at the wrong class: use the target."),
            (onehot - p, "the sign is wrong: it is softmax minus the one-hot vector."),
        ], rtol=1e-4)
        if status != "passed":
            return status, f"with target {t}: {message}"
    return passed()


def ex1_grad(ce_grad: Any) -> Feedback:
    """``ce_grad(logits, target)`` = softmax(logits) - onehot(target), without backward."""
    return show("ce_grad(logits, target)", _judge_ce(guarded(_collect_ce)({"ce_grad": ce_grad}),
                                                     FIXED),
                "softmax(logits) minus the one-hot vector of the true class")


def ex2_batch(grad_batch: Any, batch_logits: Any, targets: Any) -> Feedback:
    """d mean-CE/d logits = (softmax(rows) - onehot(targets)) / batch size."""
    a = as_array(batch_logits)
    t = np.asarray(targets.tolist(), dtype=np.int64)
    e = np.exp(a - a.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    g = p - np.eye(a.shape[1])[t]
    return check_value("d mean-CE / d logits", grad_batch, g / len(a), [
        (g, "that is the gradient of the summed loss; the mean divides by the batch size."),
        (p / len(a), "the one-hot matrix of the targets is missing."),
        (a, "that is the logits themselves."),
    ], hint="each row is softmax(row) - onehot(target); the mean divides everything by the "
            "batch size", rtol=1e-4)


_FORBIDDEN = ("LogSoftmaxBackward0", "SoftmaxBackward0", "LogsumexpBackward0")


def _stable_cases(variant: Variant) -> list[list[float]]:
    if variant.fixed:
        return [[1000.0, 0.0, -1000.0], [1000.0, 999.0, -1000.0], [0.5, -1.0, 2.0, 0.0],
                [-500.0, -501.0, -499.0]]
    rng = variant.rng("nb12.stable")
    big = float(rng.integers(300, 3000))
    return [[big, big - 1.0, -big, 0.0], [-big, -big - 0.5, -big + 0.25],
            [float(v) for v in np.round(rng.normal(size=5), 2)], [7.0, 7.0, 7.0],
            [big, big]]


def _collect_stable(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "stable_log_softmax", callable_=True)
    watched = {"log_softmax": [(functional_module, "log_softmax"), (Tensor, "log_softmax")],
               "softmax": [(functional_module, "softmax"), (Tensor, "softmax")],
               "logsumexp": [(Tensor, "logsumexp")]}
    root = importlib.import_module("autograd_lab")
    for label in watched:
        watched[label].append((root, label))
    runs = []
    with watching(watched) as ev:
        for values in _stable_cases(variant):
            a = tensor(values, requires_grad=True)
            seen: list = []
            got = call(lambda a=a, seen=seen: seen.append(fn(a)) or seen[-1])
            got["graph"] = graph_names(seen[-1]) if seen and isinstance(seen[-1], Tensor) else []
            runs.append(got)
    return {"runs": runs, **ev.facts()}


def _judge_stable(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    used = [k for k, n in payload["calls"].items() if n]
    if used:
        return failed(f"it calls {used[0]}: the exercise builds log-softmax from max, exp, sum and "
                      "log itself.")
    for values, got in zip(_stable_cases(variant), payload["runs"]):
        if "raised" in got:
            return failed(f"on {values} it raised {got['raised']}")
        if any(n in _FORBIDDEN for n in got.get("graph", [])):
            return failed("its graph holds a softmax node: the exercise builds log-softmax from "
                          "max, exp, sum and log itself.")
        value = got["value"]
        if not (isinstance(value, dict) and "tensor" in value):
            return failed("it should return a tensor.")
        g = np.asarray(value["tensor"], dtype=np.float64)
        v = np.asarray(values)
        expected = (v - v.max()) - np.log(np.exp(v - v.max()).sum())
        if g.shape != expected.shape:
            return failed(f"on {values} it returns shape {list(g.shape)}.")
        if not np.all(np.isfinite(g)):
            return failed(f"on {values} it returns values that are not finite: exp of a large "
                          "logit overflows, and log of an underflowed 0 is -inf.")
        if not np.allclose(g, expected, rtol=1e-5, atol=1e-4):
            if np.allclose(g, v - v.max(), atol=1e-4):
                return failed(f"on {values} it returns a - max(a): the log-sum-exp term is "
                              "missing (it only vanishes when one logit dominates).")
            return failed(f"on {values} it does not match log softmax.")
    return passed()


def ex3_stable(stable_log_softmax: Any) -> Feedback:
    """``stable_log_softmax(a)`` = (a - m) - log(sum(exp(a - m))), finite for huge logits."""
    return show("stable_log_softmax", _judge_stable(guarded(_collect_stable)(
        {"stable_log_softmax": stable_log_softmax}), FIXED),
        "subtract m = max(a) inside the exp, and again outside: (a - m) - log(sum(exp(a - m)))")


def ex4_chain(chain_L: Any, L: Any) -> Feedback:
    """``chain_L``: the node names from ``L.grad_fn`` along first edges, down to W's leaf."""
    name = "the nodes from L down to W"
    hint = ("read section 1's lines bottom-up, one node each; -logp[y] is two operations: "
            "index, then negate")
    if missing(name, chain_L):
        return Feedback(False)
    expected, fn = [], L.grad_fn
    while fn is not None and fn.name() != "torch::autograd::AccumulateGrad":
        expected.append(fn.name())  # along first edges, down to W's leaf
        fn = fn.next_functions[0][0]
    if not isinstance(chain_L, (list, tuple)) or not all(isinstance(s, str) for s in chain_L):
        return wrong(name, "expected a list of node names (strings).", hint)
    got = list(chain_L)
    if got == expected:
        return right(name)
    if got == expected[::-1]:
        return wrong(name, "that is the forward order; start at L.grad_fn.", hint)
    if got and got[-1].endswith("AccumulateGrad"):
        return wrong(name, "stop before the AccumulateGrad of W: list the nodes you pass.", hint)
    if len(got) < len(expected):
        return wrong(name, "nodes are missing: every operation is one node, and -logp[y] is "
                     "two.", hint)
    return wrong(name, "not the nodes along the first edges.", hint)


def _walk_L() -> tuple:
    """Section 1's loss, rebuilt here: L = -log softmax(W x + b)[y]."""
    W = tensor([[0.5, -1.0], [1.5, 0.3], [-0.2, 0.8]], requires_grad=True)
    b = tensor([0.1, -0.1, 0.0], requires_grad=True)
    x = tensor([1.0, 2.0])
    logp = (W @ x + b).softmax(dim=0).log()
    return (-logp[1],)


EXERCISES = {
    "ex1": spec(_collect_ce, _judge_ce, "ce_grad(logits, target)"),
    "ex2": value_spec(["grad_batch", "batch_logits", "targets"], ex2_batch),
    "ex3": spec(_collect_stable, _judge_stable, "stable_log_softmax"),
    "ex4": value_spec(["chain_L"], ex4_chain, extra=_walk_L, graded=False,
                      formative_reason=PREDICTION),
}
