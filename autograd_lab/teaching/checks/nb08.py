"""Checks for notebook 08 · The memory of a graph (binary units: 1 MiB = 2**20 bytes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...factories import tensor
from ...memory import memory_allocated
from ...tensor import Tensor
from ._common import PREDICTION, Feedback, check_value, missing, wrong
from ._payloads import (
    FIXED,
    Variant,
    answer,
    early,
    failed,
    guarded,
    invoke,
    passed,
    raised,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "08_graph_memory"

MIB = 2 ** 20


def _whole(name: str, value: Any, what: str) -> Feedback | None:
    """A wrong verdict unless ``value`` is a whole number (None when it is one)."""
    if missing(name, value):
        return Feedback(False)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer, float)) or (
            isinstance(value, float) and not value.is_integer()):
        return wrong(name, f"expected {what} as a whole number, got {value!r}.")
    return None


def ex1_bytes(predicted_bytes: Any, measured: int, n: int = 2 ** 18, depth: int = 50) -> Feedback:
    """A chain of ``depth`` tanh on ``n`` float32 values saves one output per tanh."""
    name = "bytes held by the graph"
    early = _whole(name, predicted_bytes, "a number of bytes")
    if early is not None:
        return early
    return check_value(name, predicted_bytes, measured, [
        ((depth + 1) * n * 4, "that counts x too; x was allocated before the measurement."),
        (depth * n, "that counts values, not bytes: a float32 takes 4 bytes."),
        (n * 4, "that is one saved tensor; each of the tanh nodes saves its own output."),
        (depth * n * 4 * 2, "tanh saves only its output, not its input as well."),
    ], hint="TanhBackward0 saves its output: one float32 tensor of n values per tanh",
        rtol=0, atol=0.5)


def ex2_after(predicted_after: Any, measured: int, n: int = 2 ** 18) -> Feedback:
    """After backward: the last output (still named h), x.grad, and the 4-byte loss."""
    name = "bytes left after backward"
    early = _whole(name, predicted_after, "a number of bytes")
    if early is not None:
        return early
    return check_value(name, predicted_after, measured, [
        (2 * n * 4, "almost: the 0-d loss is a tensor too (4 bytes)."),
        (n * 4 + 4, "x.grad is new: backward allocated it."),
        (4, "h still names the last tanh output, so that tensor stays."),
        (n * 4, "h's tensor stays, x.grad is new, and the loss takes 4 bytes."),
    ], hint="the saved tensors are freed except the one h still names; x.grad is new; "
            "loss is one float32 (4 bytes)", rtol=0, atol=0.5)


def ex3_saved(predicted_count: Any, predicted_total: Any, measured_count: int,
              measured_total: int) -> Feedback:
    """exp saves its output, sin its input, c * c both inputs: 4 tensors of 4 KiB."""
    name = "tensors packed"
    early = _whole(name, predicted_count, "a count")
    if early is not None:
        return early
    a = check_value(name, predicted_count, measured_count, [
        (3, "c * c saves both inputs: the same tensor c, packed twice."),
        (2, "exp saves its output, sin its input, and c * c saves two."),
    ], hint="exp saves its output, sin its input, * both inputs", rtol=0, atol=0.5)
    name = "bytes packed"
    early = _whole(name, predicted_total, "a number of bytes")
    if early is not None:
        return Feedback(False)
    b = check_value(name, predicted_total, measured_total, [
        (measured_count * 4000, "a holds 1024 values, not 1000."),
        (measured_count * 1024, "that counts values, not bytes: a float32 takes 4 bytes."),
    ], hint="each saved tensor is 1024 × 4 bytes", rtol=0, atol=0.5)
    return Feedback(bool(a) and bool(b))


def ex4_timeline(mib_plain: Any, mib_retained: Any, measured_plain: float,
                 measured_retained: float) -> Feedback:
    """End of backward for three exps on 4 MiB: x and x.grad, or also the three saved outputs."""
    a = check_value("MiB at the end of backward()", mib_plain, measured_plain, [
        (measured_retained, "that is the retained graph; plain backward() frees the saved "
                            "outputs."),
        (measured_plain - 4, "backward adds x.grad (4 MiB)."),
        (0, "x itself is still alive, and backward made x.grad."),
    ], hint="exp saves its output (4 MiB each); backward adds x.grad (4 MiB); without "
            "retain_graph the saved outputs are freed", atol=0.01, rtol=0)
    b = check_value("MiB at the end of backward(retain_graph=True)", mib_retained,
                    measured_retained, [
                        (measured_plain, "that is plain backward(); retain_graph keeps the three "
                                         "saved outputs."),
                        (measured_retained - 4, "backward adds x.grad (4 MiB) on top of the "
                                                "graph."),
                    ], hint="x, three saved exp outputs, and x.grad", atol=0.01, rtol=0)
    return Feedback(bool(a) and bool(b))


N = 2 ** 18  # the exercises' float32 tensors of 2**18 values


# ---- exercise 5: checkpoint every segment ------------------------------------------------------

RNG_STATE = 5056  # bytes of the CPU generator state each checkpoint keeps (to replay dropout)


def _segment_cases(variant: Variant) -> list[tuple[list, int, int]]:
    """(x, n segments, tanh per segment) for each call of run_segments."""
    if variant.fixed:
        return [(np.linspace(-2.0, 2.0, 4096).tolist(), 4, 3)]
    rng = variant.rng("nb08.segments")  # never the notebook's 4 segments: a fixed n must fail
    return [(np.round(rng.normal(size=int(rng.integers(3000, 6000))), 3).tolist(),
             int(rng.choice([3, 5, 6])), int(rng.integers(2, 5))) for _ in range(2)]


def _collect_segments(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "run_segments", callable_=True)
    runs = []
    for values, n, depth in _segment_cases(variant):
        calls: list[int] = []

        def segment(h: Any, depth: int = depth, calls: list = calls) -> Any:
            calls.append(1)
            for _ in range(depth):
                h = h.tanh()
            return h

        out = None  # the previous call's result and graph go before measuring this one
        x = tensor(values, requires_grad=True)
        start = memory_allocated()
        out, error = invoke(fn, x, segment, n)
        if error is not None:
            runs.append({"raised": error})
            continue
        if not isinstance(out, Tensor):
            runs.append({"kind": type(out).__name__})
            continue
        run = {"held": memory_allocated() - start, "forward_calls": len(calls),
               "values": out.detach().tolist(), "requires_grad": out.requires_grad,
               "node": out.grad_fn.name() if out.grad_fn is not None else None}
        if out.requires_grad and out.shape == x.shape:
            try:
                out.sum().backward()
            except Exception as e:  # noqa: BLE001
                run["backward_raised"] = raised(e)
        run["calls"] = len(calls)
        run["grad"] = None if x.grad is None else x.grad.tolist()
        runs.append(run)
    return {"runs": runs}


def _judge_segments(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (values, n, depth), run in zip(_segment_cases(variant), payload["runs"]):
        if "raised" in run:
            return failed(f"calling it raised {run['raised']}")
        if "kind" in run:
            return failed(f"it returns a {run['kind']}; return the tensor after the n segments.")
        h = np.asarray(values, dtype=np.float64)
        grad = np.ones_like(h)
        for _ in range(n * depth):
            h = np.tanh(h)
            grad *= 1 - h * h
        got = np.asarray(run["values"])
        if got.shape != h.shape or not np.allclose(got, h, rtol=1e-4, atol=1e-5):
            return failed(f"it does not return segment applied {n} times to x.")
        if run["forward_calls"] != n:
            return failed(f"segment ran {run['forward_calls']} times in forward; it should "
                          f"run once per segment ({n}).")
        if not run["requires_grad"]:
            return failed("the result is cut off from x: no gradient can reach x (was it "
                          "computed under no_grad, or detached?).")
        if run["node"] == "CheckpointFunctionBackward":
            return failed("that is the reentrant checkpoint: pass use_reentrant=False, as the "
                          "exercise asks.")
        bytes_ = h.size * 4
        stored = run["held"] / bytes_
        if run["held"] > n * (bytes_ + 2 * RNG_STATE):
            return failed(f"forward kept {stored:.0f} tensors of x's size: the segments' saved "
                          "tensors are stored. Wrap each segment in checkpoint(..., "
                          "use_reentrant=False).")
        if run["held"] < (n - 0.5) * bytes_:
            return failed("forward kept only the result: one checkpoint around the whole chain "
                          "makes backward recompute every segment at once, so its peak is as "
                          "high as storing everything. Checkpoint each segment.")
        if "backward_raised" in run:
            return failed(f"backward through it raised {run['backward_raised']}")
        if run["calls"] - run["forward_calls"] != n:
            return failed(f"backward ran segment {run['calls'] - run['forward_calls']} times; "
                          f"each of the {n} checkpointed segments is recomputed once.")
        if run["grad"] is None or not np.allclose(run["grad"], grad, rtol=1e-4, atol=1e-6):
            return failed("the gradient that reaches x is not the stored chain's.")
    return passed()


def ex5_segments(run_segments: Any) -> Feedback:
    """``run_segments(x, segment, n)``: n applications of segment, each one checkpointed."""
    return show("run_segments", _judge_segments(guarded(_collect_segments)(
        {"run_segments": run_segments}), FIXED),
        "h = x; then n times: h = checkpoint(segment, h, use_reentrant=False); return h")


EXERCISES = {  # ex1-ex4 predict what the notebook then measures: formative
    "ex1": value_spec(["predicted_bytes"], ex1_bytes, extra=lambda: (50 * N * 4,),
                      graded=False, formative_reason=PREDICTION),
    "ex2": value_spec(["predicted_after"], ex2_after, extra=lambda: (2 * N * 4 + 4,),
                      graded=False, formative_reason=PREDICTION),
    "ex3": value_spec(["predicted_count", "predicted_total"], ex3_saved,
                      extra=lambda: (4, 4 * 1024 * 4), graded=False, formative_reason=PREDICTION),
    "ex4": value_spec(["mib_plain", "mib_retained"], ex4_timeline, extra=lambda: (8.0, 20.0),
                      graded=False, formative_reason=PREDICTION),
    "ex5": spec(_collect_segments, _judge_segments, "run_segments"),
}
