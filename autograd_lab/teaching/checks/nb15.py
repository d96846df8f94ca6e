"""Checks for notebook 15 · Recurrent state and truncated backpropagation through time.

The model of the notebook, written once more here as the reference the checks run:
``h_t = tanh(W_h h_{t-1} + W_x x_t + b)``, prediction ``w_o · h_t`` of ``x_{t+1}``, and a
chunk's loss the mean squared error over its steps.
"""

from __future__ import annotations

from typing import Any, Callable

from ...engine import grad
from ...factories import tensor, zeros
from ...optim import SGD
from ...random import get_rng_state, set_rng_state
from ...tensor import Tensor
from ..exercises import Feedback, check_close, check_equal, check_true
from ._common import missing, not_a_function

__all__ = ["check_carry", "check_grad_at_chunk_start", "check_node_counts", "check_tbptt",
           "chunk_loss"]


def chunk_loss(params: list[Tensor], h: Tensor, seq: Tensor, start: int,
               length: int) -> tuple[Tensor, Tensor]:
    """(mean squared error of the next-value predictions over the chunk, the last state)."""
    w_h, w_x, b, w_o = params
    loss: Any = 0.0
    for i in range(start, start + length):
        h = (w_h @ h + w_x @ seq[i:i + 1] + b).tanh()
        loss = loss + (w_o @ h - seq[i + 1]) ** 2
    return loss / length, h


def check_carry(carry: Any) -> Feedback:
    """Exercise 1: ``carry(h)`` keeps the state's values and cuts its graph."""
    name = "carry(h) keeps the values and cuts the graph"
    if (fb := not_a_function(name, carry, "carry")) is not None:
        return fb
    w = tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = (w * 2).tanh()
    before = h.tolist()
    try:
        out = carry(h)
    except Exception as e:  # noqa: BLE001 - a failing answer is feedback, not a crash
        return check_true(name, False, hint=f"carry raised {type(e).__name__}: {e}")
    if out is Ellipsis:
        return check_true(name, ...)
    if not isinstance(out, Tensor):
        return check_true(name, False, hint=f"carry must return a Tensor, not "
                                             f"{type(out).__name__}")
    if out.shape != h.shape or not all(abs(a - b) < 1e-6 for a, b in zip(out.tolist(), before)):
        return check_true(name, False, hint="the next chunk must start from the state's values: "
                                             "keep them (resetting to zeros forgets the past)")
    node = out.grad_fn.name() if out.grad_fn is not None else ""
    return check_true(name, out.grad_fn is None,
                      hint=f"the result still has grad_fn={node}: the next chunk's backward "
                           "would run into this chunk's graph. h.detach() keeps the values "
                           "without the graph")


def reference_losses(make_params: Callable[[], list[Tensor]], seq: Tensor, chunk_len: int,
                     lr: float) -> list[float]:
    """One epoch of truncated BPTT: a loss per chunk, SGD after each, the state detached.

    The random number generator is left as it was (``make_params`` may reseed it).
    """
    state = get_rng_state()
    try:
        params = make_params()
    finally:
        set_rng_state(state)
    opt = SGD(params, lr=lr)
    h = zeros(params[0].shape[0])
    losses = []
    for start in range(0, (len(seq) - 1) // chunk_len * chunk_len, chunk_len):
        loss, h = chunk_loss(params, h.detach(), seq, start, chunk_len)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def check_tbptt(chunk_losses: Any, make_params: Callable[[], list[Tensor]], seq: Tensor,
                chunk_len: int, lr: float) -> Feedback:
    """Exercise 2: the chunk losses of one epoch of truncated BPTT."""
    name = "the loss of every chunk"
    if missing(name, chunk_losses):
        return Feedback(False)
    if isinstance(chunk_losses, (list, tuple)) and not chunk_losses:
        return check_true(name, ...)
    if not isinstance(chunk_losses, (list, tuple)):
        return check_true(name, False, hint="chunk_losses must be a list with one number per chunk")
    if any(isinstance(v, Tensor) for v in chunk_losses):
        return check_true(name, False, hint="append loss.item(), not the loss tensor: a tensor "
                                             "keeps its chunk's whole graph alive (notebook 05)")
    expected = reference_losses(make_params, seq, chunk_len, lr)
    if len(chunk_losses) != len(expected):
        return check_true(name, False, hint=f"one epoch has {len(expected)} chunks of "
                                             f"{chunk_len} steps; you stored {len(chunk_losses)}")
    try:
        got = [float(v) for v in chunk_losses]
    except (TypeError, ValueError):
        return check_true(name, False, hint="chunk_losses must hold numbers")
    return check_close(name, got, expected, rtol=1e-4,
                       hint="per chunk: h = h.detach(), the chunk's loss, zero_grad(), backward(), "
                            "step(); carry the last state into the next chunk (do not reset it)")


def check_node_counts(with_retain: Any, with_detach: Any) -> Feedback:
    """Exercise 3: nodes the engine runs in the backward of chunk 9 (of 20 steps each)."""
    a = check_equal("nodes run with retain_graph=True", with_retain, 185 + 9 * 100,
                    hint="chunk 9's loss reaches back through the 20 recurrent steps (100 "
                         "nodes) of each of the 9 chunks before it, on top of its own 185")
    b = check_equal("nodes run with h.detach()", with_detach, 185,
                    hint="after detach every chunk's graph is the same size")
    return Feedback(bool(a) and bool(b))


def check_grad_at_chunk_start(grad_h0: Any, params: list[Tensor], h_start: Tensor, seq: Tensor,
                              start: int, length: int) -> Feedback:
    """Exercise 4: d(chunk loss)/d(state the chunk starts from)."""
    name = "the gradient at the chunk's start"
    if missing(name, grad_h0):
        return Feedback(False)
    if not isinstance(grad_h0, Tensor):
        return check_true(name, False, hint=f"expected the tensor h0.grad, not "
                                             f"{type(grad_h0).__name__}")
    h0 = h_start.detach().requires_grad_()
    loss, _ = chunk_loss(params, h0, seq, start, length)
    expected = grad(loss, h0)[0]
    return check_close(name, grad_h0, expected, rtol=1e-4, atol=1e-7,
                       hint="h0 = h_start.detach().requires_grad_() makes the start a leaf that "
                            "collects a gradient; run the chunk from h0, backward, read h0.grad")
