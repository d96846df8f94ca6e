"""Checks for notebook 12 · Softmax cross-entropy as a graph."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...factories import tensor
from ._common import Feedback, as_array, check_value, is_tensor, missing, right, wrong


def _softmax(a: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def ex1_grad(grad_logits: Any, logits: Any) -> Feedback:
    """dL/da = softmax(a) - onehot(0) for L = -log softmax(a)_0."""
    a = as_array(logits)
    p = _softmax(a)
    onehot = np.eye(len(a))[0]
    return check_value("dL/dlogits", grad_logits, p - onehot, [
        (p, "that is softmax(logits) alone; subtract the one-hot vector of the true class."),
        (a, "that is the logits themselves."),
        (np.log(p), "that is log softmax, the loss's ingredient, not its gradient."),
        (p - np.eye(len(a))[1], "the true class is 0, not 1."),
    ], hint="softmax(logits) minus the one-hot vector of the true class", rtol=1e-4)


def ex2_batch(grad_batch: Any, batch_logits: Any, targets: Any) -> Feedback:
    """d mean-CE/d logits = (softmax(rows) - onehot(targets)) / batch size."""
    a = as_array(batch_logits)
    t = np.asarray(targets.tolist())
    g = _softmax(a, axis=1) - np.eye(a.shape[1])[t]
    return check_value("d mean-CE / d logits", grad_batch, g / len(a), [
        (g, "that is the gradient of the summed loss; the mean divides by the batch size."),
        (_softmax(a, axis=1) / len(a), "the one-hot matrix of the targets is missing."),
        (a, "that is the logits themselves."),
    ], hint="each row is softmax(row) - onehot(target); the mean divides everything by the "
            "batch size", rtol=1e-4)


def ex3_stable(stable_log_softmax: Any) -> Feedback:
    """``stable_log_softmax(a)`` = (a - m) - log(sum(exp(a - m))), finite for huge logits."""
    name = "stable_log_softmax"
    hint = "subtract m = max(a) inside the exp, and again outside: (a - m) - log(sum(exp(a - m)))"
    if missing(name, stable_log_softmax):
        return Feedback(False)
    if not callable(stable_log_softmax):
        return wrong(name, f"expected a function of one tensor, got "
                     f"{type(stable_log_softmax).__name__}.", hint)
    for values in ([1000.0, 0.0, -1000.0], [1000.0, 999.0, -1000.0], [0.5, -1.0, 2.0, 0.0],
                   [-500.0, -501.0, -499.0]):
        a = tensor(values)
        try:
            got = stable_log_softmax(a)
        except Exception as e:  # noqa: BLE001 - the student's error is the feedback
            return wrong(name, f"on {values} it raised {type(e).__name__}: {e}", hint)
        if not is_tensor(got):
            return wrong(name, f"it should return a tensor, got {type(got).__name__}.", hint)
        g = as_array(got)
        v = np.asarray(values)
        expected = (v - v.max()) - np.log(np.exp(v - v.max()).sum())
        if g.shape != expected.shape:
            return wrong(name, f"on {values} it returns shape {list(g.shape)}.", hint)
        if not np.all(np.isfinite(g)):
            return wrong(name, f"on {values} it returns {np.array2string(g)}: not finite. "
                         "exp of a large logit overflows, and log of an underflowed 0 is -inf.",
                         hint)
        if not np.allclose(g, expected, rtol=1e-5, atol=1e-4):
            if np.allclose(g, v - v.max(), atol=1e-4):
                return wrong(name, f"on {values} it returns a - max(a): the log-sum-exp term is "
                             "missing (it only vanishes when one logit dominates).", hint)
            return wrong(name, f"on {values} it does not match log softmax.", hint)
    return right(name)


def _chain_to_leaf(L: Any) -> list[str]:
    walked, fn = [], L.grad_fn
    while fn is not None and fn.name() != "torch::autograd::AccumulateGrad":
        walked.append(fn.name())
        fn = fn.next_functions[0][0]
    return walked


def ex4_chain(chain_L: Any, L: Any) -> Feedback:
    """``chain_L``: the node names from ``L.grad_fn`` along first edges, down to W's leaf."""
    name = "the nodes from L down to W"
    hint = ("read section 1's lines bottom-up, one node each; -logp[y] is two operations: "
            "index, then negate")
    if missing(name, chain_L):
        return Feedback(False)
    expected = _chain_to_leaf(L)
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
        return wrong(name, f"{len(expected) - len(got)} node(s) missing.", hint)
    return wrong(name, "not the nodes along the first edges.", hint)
