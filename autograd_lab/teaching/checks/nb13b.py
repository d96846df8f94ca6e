"""Checks for notebook 13b · Training-loop bugs and frozen layers."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...nn import Linear, Sequential, Tanh
from ...nn import functional as F
from ...optim import SGD
from ...random import get_rng_state, manual_seed, set_rng_state
from ..data import make_moons
from ._common import Feedback, close
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
    placeholder,
    show,
    spec,
)

NOTEBOOK = "13b_training_bugs_and_freezing"


def ex1_history(history: list, mem: list) -> Feedback:
    """``history`` holds the losses as Python floats and memory stays flat."""
    return show("history holds the losses, as floats",
                _judge_history({"history": encode(history), "mem": list(mem)}, FIXED),
                "loss.item() turns a 0-d tensor into a Python float, with no graph attached")


def _collect_history(ns: dict, variant: Variant) -> dict:
    history = ns.get("history", [])
    if not history or placeholder(history[0]):
        raise Unanswered("value")
    return {"history": encode(history), "mem": list(ns["mem"])}


def _judge_history(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    history, mem = payload["history"], payload["mem"]
    if not history or history[0] == {"ellipsis": True} or history[0] is None:
        return "unanswered", "replace the ... with your code and run the cell"
    tensors = [v for v in history if isinstance(v, dict) and "tensor" in v]
    if tensors:
        kind = "with their graphs" if any(v["grad_fn"] for v in tensors) else \
            "tensors, not floats"
        return failed(f"history holds tensors ({kind}); memory grew by {mem[-1] - mem[0]:,} "
                      f"bytes over {len(mem)} iterations.")
    if not all(isinstance(v, float) for v in history):
        return failed("history should hold Python floats.")
    if len(set(mem)) != 1:
        return failed(f"memory grew by {mem[-1] - mem[0]:,} bytes.")
    state = get_rng_state()
    try:  # the exercise's loop, replayed on a fresh network of the same seed
        Xm, ym = make_moons(200, noise=0.25, seed=0)
        manual_seed(0)
        net = Sequential(Linear(2, 16), Tanh(), Linear(16, 2))
        opt = SGD(net.parameters(), lr=0.1)
        reference = []
        for _ in range(len(history)):
            opt.zero_grad()
            loss = F.cross_entropy(net(Xm), ym)
            loss.backward()
            opt.step()
            reference.append(loss.item())
    finally:
        set_rng_state(state)
    if not np.allclose(history, reference, rtol=1e-5):
        return failed("the stored numbers are not the losses of the iterations.")
    return passed()


def ex2_freeze(net: Any, opt: Any, first_before: Any, last_before: Any) -> Feedback:
    """Layer 0 frozen (unchanged, no .grad), only trainable parameters in the optimizer."""
    payload = guarded(_collect_freeze)({"ft_net": net, "ft_opt": opt, "first_before": first_before,
                                        "last_before": last_before})
    return show("the first layer frozen, the rest trained", _judge_freeze(payload, FIXED),
                "requires_grad_(False) on ft_net[0]'s parameters, then give the optimizer "
                "[p for p in ft_net.parameters() if p.requires_grad]")


def _collect_freeze(ns: dict, variant: Variant) -> dict:
    net, opt = ns["ft_net"], answer(ns, "ft_opt")
    first, last = list(net[0].parameters()), list(net[2].parameters())
    groups = getattr(opt, "param_groups", None)
    held = [p for g in groups for p in g["params"]] if groups is not None else []
    return {"first_requires": [p.requires_grad for p in first],
            "last_requires": [p.requires_grad for p in last],
            "first_grad": [p.grad is not None for p in first],
            "first_same": all(close(p, b) for p, b in zip(first, ns["first_before"])),
            "last_same": all(close(p, b) for p, b in zip(last, ns["last_before"])),
            "optimizer": groups is not None,
            "held_frozen": sum(any(p is q for q in first) for p in held),
            "held_exact": len(held) == len(last) and all(any(p is q for q in held) for p in last),
            "kind": type(opt).__name__}


def _judge_freeze(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if any(payload["first_requires"]):
        return failed("ft_net[0]'s parameters still require grad: the layer is not frozen.")
    if not all(payload["last_requires"]):
        return failed("ft_net[2] is frozen too; only the first layer should be.")
    if any(payload["first_grad"]):
        return failed("a frozen parameter has a .grad: it was computed before freezing.")
    if not payload["first_same"]:
        return failed("the first layer's weights changed during training.")
    if payload["last_same"]:
        return failed("the last layer did not change: nothing was trained.")
    if not payload["optimizer"]:
        return failed(f"ft_opt should be an optimizer, got {payload['kind']}.")
    if payload["held_frozen"]:
        return failed("the optimizer still holds frozen parameters; hand it only those that "
                      "require grad.")
    if not payload["held_exact"]:
        return failed("the optimizer should hold exactly the trainable parameters.")
    return passed()


EXERCISES = {
    "ex1": spec(_collect_history, _judge_history, "history holds the losses, as floats"),
    "ex2": spec(_collect_freeze, _judge_freeze, "the first layer frozen, the rest trained"),
}
