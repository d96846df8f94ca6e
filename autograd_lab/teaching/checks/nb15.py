"""Checks for notebook 15 · Recurrent state and truncated backpropagation through time.

The model of the notebook: ``h_t = tanh(W_h h_{t-1} + W_x x_t + b)``, prediction ``w_o · h_t``
of ``x_{t+1}``, and a chunk's loss the mean squared error over its steps. The checks that need
it rebuild it inside themselves, from the values the notebook's names hold.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...engine import grad
from ...factories import tensor, zeros
from ...optim import SGD
from ...random import get_rng_state, set_rng_state
from ...tensor import Tensor
from ..exercises import Feedback, check_close, check_equal, check_true
from ._common import PREDICTION, missing
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
    value_spec,
)

__all__ = ["EXERCISES", "NOTEBOOK", "check_carry", "check_grad_at_chunk_start",
           "check_node_counts", "check_tbptt"]

NOTEBOOK = "15_truncated_bptt"


def _carry_cases(variant: Variant) -> list[tuple[list[float], float]]:
    """(w, scale): the state h = tanh(scale · w) carried, w a leaf."""
    if variant.fixed:
        return [([0.5, -1.0, 2.0], 2.0)]
    rng = variant.rng("nb15.carry")
    return [([float(v) for v in np.round(rng.normal(size=n), 2)], float(rng.choice([-1.5, 0.5, 3])))
            for n in (4, 1)]


def _collect_carry(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "carry", callable_=True)
    runs = []
    for values, scale in _carry_cases(variant):
        w = tensor(values, requires_grad=True)
        runs.append(call(fn, (w * scale).tanh()))
    return {"runs": runs}


def _judge_carry(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (values, scale), got in zip(_carry_cases(variant), payload["runs"]):
        if "raised" in got:
            return failed(f"carry raised {got['raised']}")
        value = got["value"]
        if not (isinstance(value, dict) and "tensor" in value):
            return failed("carry must return a Tensor.")
        expected = np.tanh(scale * np.asarray(values))
        out = np.asarray(value["tensor"], dtype=np.float64)
        if out.shape != expected.shape or not np.allclose(out, expected, atol=1e-6):
            return failed("the next chunk must start from the state's values: keep them "
                          "(resetting to zeros forgets the past).")
        if value["grad_fn"] is not None:
            return failed(f"the result still has grad_fn={value['grad_fn']}: the next chunk's "
                          "backward would run into this chunk's graph. h.detach() keeps the "
                          "values without the graph.")
    return passed()


def check_carry(carry: Any) -> Feedback:
    """Exercise 1: ``carry(h)`` keeps the state's values and cuts its graph."""
    return show("carry(h) keeps the values and cuts the graph",
                _judge_carry(guarded(_collect_carry)({"carry": carry}), FIXED),
                "h.detach() keeps the values without the graph")


def _model_values(make_params: Callable[[], list[Tensor]]) -> list:
    """The values of a fresh set of parameters, the random state left as it was."""
    state = get_rng_state()
    try:
        return [p.detach().tolist() for p in make_params()]
    finally:
        set_rng_state(state)


def _collect_tbptt(ns: dict, variant: Variant) -> dict:
    chunk_losses = answer(ns, "chunk_losses")
    return {"chunk_losses": encode(chunk_losses), "params": _model_values(ns["make_params"]),
            "seq": ns["seq"].tolist()}


def _judge_tbptt(payload: dict, variant: Variant, chunk_len: int = 20,
                 lr: float = 0.1) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    got = payload["chunk_losses"]
    if not isinstance(got, list):
        return failed("chunk_losses must be a list with one number per chunk.")
    if not got:
        return "unanswered", "append each chunk's loss to chunk_losses"
    if any(isinstance(v, dict) and "tensor" in v for v in got):
        return failed("append loss.item(), not the loss tensor: a tensor keeps its chunk's whole "
                      "graph alive (notebook 05).")
    if not all(isinstance(v, (int, float)) for v in got):
        return failed("chunk_losses must hold numbers.")
    seq = tensor(payload["seq"])
    params = [tensor(v, requires_grad=True) for v in payload["params"]]
    opt = SGD(params, lr=lr)
    h = zeros(params[0].shape[0])
    expected = []
    w_h, w_x, b, w_o = params
    for start in range(0, (len(seq) - 1) // chunk_len * chunk_len, chunk_len):
        h = h.detach()  # the epoch, replayed here on the same data and starting values
        loss: Any = 0.0
        for i in range(start, start + chunk_len):
            h = (w_h @ h + w_x @ seq[i:i + 1] + b).tanh()
            loss = loss + (w_o @ h - seq[i + 1]) ** 2
        loss = loss / chunk_len
        opt.zero_grad()
        loss.backward()
        opt.step()
        expected.append(loss.item())
    if len(got) != len(expected):
        return failed(f"one epoch has {len(expected)} chunks of {chunk_len} steps; "
                      f"chunk_losses holds {len(got)}.")
    return run_quietly(check_close, "the loss of every chunk", got, expected, rtol=1e-4,
                       hint="per chunk: h = h.detach(), the chunk's loss, zero_grad(), "
                            "backward(), step(); carry the last state into the next chunk")


def check_tbptt(chunk_losses: Any, make_params: Callable[[], list[Tensor]], seq: Tensor,
                chunk_len: int = 20, lr: float = 0.1) -> Feedback:
    """Exercise 2: the chunk losses of one epoch of truncated BPTT."""
    payload = guarded(_collect_tbptt)({"chunk_losses": chunk_losses, "make_params": make_params,
                                       "seq": seq})
    return show("the loss of every chunk", _judge_tbptt(payload, FIXED, chunk_len, lr),
                "per chunk: h = h.detach(), the chunk's loss, zero_grad(), backward(), step()")


def check_node_counts(with_retain: Any, with_detach: Any) -> Feedback:
    """Exercise 3: nodes the engine runs in the backward of chunk 9 (of 20 steps each)."""
    own, recurrent = 185, 100  # a chunk's whole graph; the 20 recurrent steps of an earlier one
    a = check_equal("nodes run with retain_graph=True", with_retain, own + 9 * recurrent,
                    hint="chunk 9's loss reaches back through the 20 recurrent steps (100 "
                         "nodes) of each of the 9 chunks before it, on top of its own 185")
    b = check_equal("nodes run with h.detach()", with_detach, own,
                    hint="after detach every chunk's graph is the same size")
    return Feedback(bool(a) and bool(b))


def _collect_start(ns: dict, variant: Variant) -> dict:
    grad_h0 = answer(ns, "grad_h0")
    return {"grad_h0": encode(grad_h0), "params": [p.detach().tolist() for p in ns["params"]],
            "h_start": ns["h_start"].detach().tolist(), "seq": ns["seq"].tolist()}


def _judge_start(payload: dict, variant: Variant, start: int = 100,
                 length: int = 20) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    got = payload["grad_h0"]
    if not (isinstance(got, dict) and "tensor" in got):
        return failed("expected the tensor h0.grad.")
    w_h, w_x, b, w_o = (tensor(v) for v in payload["params"])
    seq = tensor(payload["seq"])
    h0 = tensor(payload["h_start"], requires_grad=True)
    h, loss = h0, 0.0
    for i in range(start, start + length):  # the chunk, run here from a leaf h0
        h = (w_h @ h + w_x @ seq[i:i + 1] + b).tanh()
        loss = loss + (w_o @ h - seq[i + 1]) ** 2
    expected = grad(loss / length, h0)[0]
    return run_quietly(check_close, "the gradient at the chunk's start", got["tensor"],
                       expected, rtol=1e-4, atol=1e-7,
                       hint="h0 = h_start.detach().requires_grad_() makes the start a leaf that "
                            "collects a gradient; run the chunk from h0, backward, read h0.grad")


def check_grad_at_chunk_start(grad_h0: Any, params: list[Tensor], h_start: Tensor, seq: Tensor,
                              start: int = 100, length: int = 20) -> Feedback:
    """Exercise 4: d(chunk loss)/d(state the chunk starts from)."""
    if missing("the gradient at the chunk's start", grad_h0):
        return Feedback(False)
    if not isinstance(grad_h0, Tensor):
        return check_true("the gradient at the chunk's start", False,
                          hint=f"expected the tensor h0.grad, not {type(grad_h0).__name__}")
    payload = guarded(_collect_start)({"grad_h0": grad_h0, "params": params, "h_start": h_start,
                                       "seq": seq})
    return show("the gradient at the chunk's start", _judge_start(payload, FIXED, start, length))


EXERCISES = {
    "ex1": spec(_collect_carry, _judge_carry, "carry(h)"),
    "ex2": spec(_collect_tbptt, _judge_tbptt, "the loss of every chunk"),
    "ex3": value_spec(["with_retain", "with_detach"], check_node_counts, graded=False,
                      formative_reason=PREDICTION),
    "ex4": spec(_collect_start, _judge_start, "the gradient at the chunk's start"),
}
