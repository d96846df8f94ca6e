"""Checks for notebook 11 · Tensor hooks.

Each check recomputes the expected gradient its own way (closed forms, or a fresh
tensor with no hooks) and runs a student's hook on tensors of its own, so an answer
that merely looks like the question's data is not enough.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import autograd
from ...engine import grad
from ...factories import tensor
from ...grad_mode import no_grad
from ...nn import Linear, ReLU, Sequential, Tanh
from ...nn import functional as F
from ...nn.modules.module import Module
from ...optim import SGD
from ...tensor import Tensor
from ..exercises import Feedback, check_close
from ._common import PREDICTION
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
    run_quietly,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "11_tensor_hooks"

__all__ = ["EXERCISES", "NOTEBOOK", "SPY_X", "check_attach_sgd", "check_clip_hook",
           "check_grad_reaching", "check_handle_removed", "check_order", "check_same_shape_hook",
           "check_spy"]

SPY_X = [1.0, -2.0, 3.0]  # exercise 1: h = 3x, loss = (h ** 2).sum()


_LOSSES = {  # loss of h, and its gradient dloss/dh, computed apart
    "(h ** 2).sum()": (lambda h: (h ** 2).sum(), lambda h: 2 * h),
    "h.tanh().sum()": (lambda h: h.tanh().sum(), lambda h: 1 - np.tanh(h) ** 2),
    "(h ** 3).mean()": (lambda h: (h ** 3).mean(), lambda h: 3 * h ** 2 / h.size),
    "(h * h.exp()).sum()": (lambda h: (h * h.exp()).sum(), lambda h: (1 + h) * np.exp(h)),
}


def _spy_cases(variant: Variant) -> list[tuple[list[float], float, str]]:
    """(x, c, loss) with h = c * x."""
    if variant.fixed:
        return [(SPY_X, 3.0, "(h ** 2).sum()")]
    rng = variant.rng("nb11.spy")
    return [([float(v) for v in np.round(rng.normal(size=n), 2)],
             float(rng.choice([-2.0, 0.5, 3.0])), str(rng.choice(list(_LOSSES)))) for n in (3, 4)]


def _collect_spy(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "spy", callable_=True)
    runs = []
    original = Tensor.register_hook
    for x, c, loss_name in _spy_cases(variant):
        xt = tensor(x, requires_grad=True)
        h = c * xt
        registered: list[bool] = []
        fired: list[bool] = []

        def register_hook(self: Any, hook: Any, h: Any = h, registered: list = registered,
                          fired: list = fired) -> Any:
            registered.append(self is h)

            def spied(grad: Any) -> Any:
                fired.append(self is h)
                return hook(grad)
            return original(self, spied)

        Tensor.register_hook = register_hook  # type: ignore[method-assign]
        try:
            with watching({"autograd.grad": [(autograd, "grad")]}) as ev:
                got = call(fn, h, _LOSSES[loss_name][0](h))
        finally:
            Tensor.register_hook = original  # type: ignore[method-assign]
        runs.append({"got": got, "registered": registered, "fired": fired, **ev.facts()})
    return {"runs": runs}


def _judge_spy(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (x, c, loss_name), run in zip(_spy_cases(variant), payload["runs"]):
        got = run["got"]
        if "raised" in got:
            return failed(f"spy raised {got['raised']}")
        if run["calls"].get("autograd.grad"):
            return failed("it asks torch.autograd.grad for the gradient: the exercise is to see "
                          "it with a hook on h, during an ordinary backward.")
        if not any(run["registered"]):
            return failed("no hook was registered on h: h.register_hook(...) is how backward "
                          "shows you the gradient passing through h.")
        if not any(run["fired"]):
            return failed("the hook on h never ran: call loss.backward() after registering it.")
        if run["backwards"] != 1:
            return failed(f"it ran {run['backwards']} backward passes; one is enough.")
        h = c * np.asarray(x)
        status, message = run_quietly(
            check_close, "the gradient the hook on h saw", decode(got["value"]),
            _LOSSES[loss_name][1](h), hint="the hook receives dloss/dh, not h and not x.grad")
        if status != "passed":
            return status, f"for loss = {loss_name}: {message}"
    return passed()


def check_spy(spy: Any) -> Feedback:
    """Exercise 1: ``spy(h, loss)`` returns the gradient a hook on ``h`` saw during backward."""
    return show("spy(h, loss)", _judge_spy(guarded(_collect_spy)({"spy": spy}), FIXED),
                "h.register_hook(lambda grad: seen.append(grad)), then loss.backward()")


def check_clip_hook(clip_hook: Any) -> Feedback:
    """Exercise 2: a hook that clamps every entry of the gradient into [-1, 1]."""
    payload = guarded(_collect_hook("clip_hook", "clip"))({"clip_hook": clip_hook})
    return show("clip_hook clamps each entry into [-1, 1]", _judge_clip(payload, FIXED),
                "return grad.clamp(-1.0, 1.0)")


def check_handle_removed(handle: Any, first: Any, w: Any) -> Feedback:
    """Exercise 3: ``clip_norm`` clipped the first backward of ``(w * w).sum()``, then went."""
    payload = guarded(_collect_removed)({"handle": handle, "first": first, "w": w})
    return show("clip_norm ran once, then was removed", _judge_removed(payload, FIXED),
                "handle = w.register_hook(clip_norm) before the first backward, "
                "handle.remove() after it")


def check_order(y_grad: Any, x_grad: Any) -> Feedback:
    """Exercise 4: predicted ``y.grad`` and ``x.grad`` for the hooks of the exercise."""
    a = check_close("y.grad", y_grad, [10.0, 10.0],
                    hint="retain_grad stores the gradient after all of y's hooks have run, "
                         "whenever retain_grad() was called")
    b = check_close("x.grad", x_grad, [31.0, 31.0],
                    hint="x receives 3 × (y's hooked gradient); x's own hook then runs before "
                         "AccumulateGrad")
    return Feedback(bool(a) and bool(b))


def check_same_shape_hook(hook: Any) -> Feedback:
    """Exercise 5: a hook that puts the mean of the gradient in every entry (same shape)."""
    payload = guarded(_collect_hook("average_fixed", "average"))({"average_fixed": hook})
    return show("the hook returns the mean in every entry", _judge_average(payload, FIXED),
                "grad.mean() is a 0-d tensor; give it the gradient's shape, e.g. "
                "grad.mean().expand_as(grad)")


def _hook_cases(variant: Variant, salt: str) -> list[list]:
    """The gradients a hook is tried on: the notebook's, or fresh ones (0, ±1, 2-d)."""
    if variant.fixed:
        return [[-3.0, -0.5, 4.0, 0.25, 1.0]] if salt == "clip" else [[1.0, -2.0, 4.0, 5.0]]
    rng = variant.rng(f"nb11.{salt}")
    return [[0.0, 1.0, -1.0] + [float(v) for v in np.round(rng.normal(size=3) * 2, 2)],
            np.round(rng.normal(size=(2, 3)) * 2, 2).tolist()]


def _collect_hook(name: str, salt: str) -> Any:
    def collect(ns: dict, variant: Variant) -> dict:
        hook = answer(ns, name, callable_=True)
        call(hook, tensor([1.0, -2.0]))  # the student copy's hook returns ...: Unanswered
        runs = []
        for coeffs in _hook_cases(variant, salt):
            c = tensor(coeffs)
            w = tensor(np.zeros_like(np.asarray(coeffs)).tolist(), requires_grad=True)
            w.register_hook(hook)
            try:
                (w * c).sum().backward()  # the gradient of (w * c).sum() is c
            except NotImplementedError:
                raise
            except Exception as e:  # noqa: BLE001 - the student's error is recorded
                runs.append({"raised": f"{type(e).__name__}: {e}"})
                continue
            runs.append({"grad": encode(w.grad)})
        return {"runs": runs}
    return collect


def _judge_hook(payload: dict, variant: Variant, salt: str, name: str, expected: Any,
                hint: str) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for coeffs, run in zip(_hook_cases(variant, salt), payload["runs"]):
        if "raised" in run:
            return failed(f"your hook raised {run['raised']}")
        status, message = run_quietly(check_close, name, decode(run["grad"]),
                                      expected(np.asarray(coeffs)), hint=hint)
        if status != "passed":
            return status, message
    return passed()


def _judge_clip(payload: dict, variant: Variant) -> tuple[str, str]:
    return _judge_hook(payload, variant, "clip", "clip_hook", lambda c: np.clip(c, -1, 1),
                       "entries inside [-1, 1] stay, larger ones become 1 and smaller ones -1")


def _judge_average(payload: dict, variant: Variant) -> tuple[str, str]:
    return _judge_hook(payload, variant, "average", "average_fixed",
                       lambda c: np.full_like(c, c.mean()),
                       "grad.mean() is a 0-d tensor; give it the gradient's shape")


def _collect_removed(ns: dict, variant: Variant) -> dict:
    handle, first, w = answer(ns, "handle"), ns["first"], ns["w"]
    if not hasattr(handle, "remove"):
        return {"handle": type(handle).__name__}
    now = grad((w * w).sum(), w)[0]  # a fresh backward: a hook still on w would clip it
    return {"w": w.detach().tolist(), "first": first.tolist(), "now": now.tolist()}


def _judge_removed(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if "handle" in payload:
        return failed(f"handle should be what w.register_hook(clip_norm) returns, not a "
                      f"{payload['handle']}.")
    raw = 2 * np.asarray(payload["w"])
    norm = float(np.linalg.norm(raw))
    clipped = raw / norm if norm > 1.0 else raw
    if not np.allclose(payload["first"], clipped, atol=1e-6):
        return failed("the first gradient was not clipped to norm 1: register the hook before "
                      "the first backward.")
    if not np.allclose(payload["now"], raw, atol=1e-6):
        return failed("the hook still runs: call handle.remove() after the first backward.")
    return passed()


# ---- exercise 6: the gradient that reaches a layer, through a module backward hook ---------------

_LAYER_LOSSES = {  # loss of the network's output
    "out.sum()": lambda out: out.sum(),
    "(out ** 2).mean()": lambda out: (out ** 2).mean(),
    "out.tanh().sum()": lambda out: out.tanh().sum(),
}
_ACTIVATIONS = {"Tanh": Tanh, "ReLU": ReLU}


def _layer_cases(variant: Variant) -> list[dict]:
    """Networks (sizes, activation, weights), inputs, a layer index and a loss."""
    rng = variant.rng("nb11.layer")
    cases = []
    for k in range(1 if variant.fixed else 2):
        sizes = [3, 4, 1] if variant.fixed else [int(v) for v in rng.integers(2, 5, size=3)]
        act = "Tanh" if variant.fixed or k == 0 else "ReLU"
        weights = [(np.round(rng.normal(size=(sizes[i + 1], sizes[i])), 3).tolist(),
                    np.round(rng.normal(size=sizes[i + 1]), 3).tolist()) for i in range(2)]
        cases.append({"sizes": sizes, "act": act, "weights": weights,
                      "X": np.round(rng.normal(size=(int(rng.integers(2, 6)), sizes[0])),
                                    3).tolist(),
                      "layer": 1 if variant.fixed else int(rng.integers(1, 3)),
                      "loss": "out.sum()" if variant.fixed else
                      str(rng.choice(list(_LAYER_LOSSES)[1:]))})
    return cases


def _layer_net(case: dict) -> Sequential:
    s = case["sizes"]
    net = Sequential(Linear(s[0], s[1]), _ACTIVATIONS[case["act"]](), Linear(s[1], s[2]))
    with no_grad():
        for lin, (w, b) in zip((net[0], net[2]), case["weights"]):
            lin.weight.copy_(tensor(w))
            lin.bias.copy_(tensor(b))
    return net


def _collect_grad_reaching(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "grad_reaching", callable_=True)
    original = Module.register_full_backward_hook
    runs = []
    for case in _layer_cases(variant):
        net = _layer_net(case)
        target = net[case["layer"]]
        registered: list[bool] = []
        fired: list[bool] = []

        def register(self: Any, hook: Any, target: Any = target, registered: list = registered,
                     fired: list = fired) -> Any:
            registered.append(self is target)

            def heard(module: Any, grad_input: Any, grad_output: Any) -> Any:
                fired.append(module is target)
                return hook(module, grad_input, grad_output)
            return original(self, heard)

        Module.register_full_backward_hook = register  # type: ignore[method-assign]
        try:
            with watching({"autograd.grad": [(autograd, "grad")]}) as ev:
                got = call(fn, net, case["layer"], tensor(case["X"]),
                           _LAYER_LOSSES[case["loss"]])
        finally:
            Module.register_full_backward_hook = original  # type: ignore[method-assign]
        left = sum(len(m.__dict__.get("_backward_hooks") or {}) for m in net)
        runs.append({"got": got, "registered": registered, "fired": fired, "left": left,
                     **ev.facts()})
    return {"runs": runs}


def _judge_grad_reaching(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for case, run in zip(_layer_cases(variant), payload["runs"]):
        got = run["got"]
        if "raised" in got:
            return failed(f"grad_reaching raised {got['raised']}")
        if run["calls"].get("autograd.grad"):
            return failed("it asks torch.autograd.grad: the exercise is to hear the gradient "
                          "with a backward hook on the module, during one ordinary backward.")
        if not any(run["registered"]):
            return failed("no full backward hook was registered on net[i]: "
                          "net[i].register_full_backward_hook(...) is the module's hook.")
        if not any(run["fired"]):
            return failed("the hook on net[i] never ran: run the loss's backward() after "
                          "registering it.")
        if run["backwards"] != 1:
            return failed(f"it ran {run['backwards']} backward passes; one is enough.")
        if got["value"] is None:
            return failed("grad_reaching returned None: the hook's grad_output[0] is the "
                          "gradient at the layer's output.")
        if run["left"]:
            return failed("the hook is still registered after grad_reaching returns: keep the "
                          "handle and call handle.remove(), or every later backward runs it.")
        net = _layer_net(case)  # the same network, without hooks: keep the layer's output
        h = tensor(case["X"])
        kept = before = None
        for k, module in enumerate(net):
            if k == case["layer"]:
                h.retain_grad()  # the layer's input (an intermediate: the layer is never first)
                before = h
            h = module(h)
            if k == case["layer"]:
                h.retain_grad()
                kept = h
        _LAYER_LOSSES[case["loss"]](h).backward()
        value = np.asarray(decode(got["value"]), dtype=float) if isinstance(
            got["value"], dict) else None
        if value is not None and value.shape == tuple(before.shape) and np.allclose(
                value, before.grad.numpy(), atol=1e-5) and (
                before.shape != kept.shape
                or not np.allclose(before.grad.numpy(), kept.grad.numpy(), atol=1e-5)):
            return failed("that is grad_input[0], the gradient at the layer's input; "
                          "grad_output[0] is the one at its output.")
        status, message = run_quietly(
            check_close, "the gradient reaching the layer's output", decode(got["value"]),
            kept.grad.numpy(), hint="grad_output[0] is d loss / d (the layer's output); "
                                    "grad_input[0] is the gradient at its input")
        if status != "passed":
            return status, f"for net[{case['layer']}] and loss = {case['loss']}: {message}"
    return passed()


def check_grad_reaching(grad_reaching: Any) -> Feedback:
    """Exercise 6: ``grad_reaching(net, i, X, loss_fn)`` hears d loss / d net[i]'s output."""
    payload = guarded(_collect_grad_reaching)({"grad_reaching": grad_reaching})
    return show("grad_reaching(net, i, X, loss_fn)", _judge_grad_reaching(payload, FIXED),
                "handle = net[i].register_full_backward_hook(lambda m, gi, go: "
                "seen.append(go[0])), loss_fn(net(X)).backward(), handle.remove()")


# ---- exercise 7: an SGD step inside backward, through post-accumulate hooks ---------------------

def _sgd_case(variant: Variant) -> dict:
    """A network (sizes, weights), data, a learning rate and a number of backward passes."""
    rng = variant.rng("nb11.sgd")
    sizes = [3, 4, 1] if variant.fixed else [int(v) for v in rng.integers(2, 5, size=2)] + [1]
    n = 5 if variant.fixed else int(rng.integers(3, 7))
    return {"sizes": sizes, "act": "Tanh",
            "weights": [(np.round(rng.normal(size=(sizes[i + 1], sizes[i])), 3).tolist(),
                         np.round(rng.normal(size=sizes[i + 1]), 3).tolist()) for i in range(2)],
            "X": np.round(rng.normal(size=(n, sizes[0])), 3).tolist(),
            "Y": np.round(rng.normal(size=(n, 1)), 3).tolist(),
            "lr": 0.1 if variant.fixed else float(rng.choice([0.05, 0.2, 0.5])),
            "steps": 3 if variant.fixed else int(rng.integers(2, 5))}


def _collect_attach_sgd(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "attach_sgd", callable_=True)
    case = _sgd_case(variant)
    model = _layer_net(case)
    params = list(model.parameters())
    original_post, original_hook = Tensor.register_post_accumulate_grad_hook, Tensor.register_hook
    counts = {"post": 0, "tensor": 0}

    def post(self: Any, hook: Any) -> Any:
        counts["post"] += any(self is p for p in params)
        return original_post(self, hook)

    def plain(self: Any, hook: Any) -> Any:
        counts["tensor"] += 1
        return original_hook(self, hook)

    Tensor.register_post_accumulate_grad_hook = post  # type: ignore[method-assign]
    Tensor.register_hook = plain  # type: ignore[method-assign]
    try:
        handles = fn(model, case["lr"])
    except NotImplementedError as e:
        raise Unanswered(str(e)) from None
    except Exception as e:  # noqa: BLE001 - the student's error is recorded
        return {"raised": f"{type(e).__name__}: {e}"}
    finally:
        Tensor.register_post_accumulate_grad_hook = original_post  # type: ignore[method-assign]
        Tensor.register_hook = original_hook  # type: ignore[method-assign]
    if handles is Ellipsis:
        raise Unanswered("handles")
    X, Y = tensor(case["X"]), tensor(case["Y"])
    try:
        for _ in range(case["steps"]):  # backward alone: no optimizer anywhere
            F.mse_loss(model(X), Y).backward()
    except Exception as e:  # noqa: BLE001 - the student's hook raised during backward
        return {"raised": f"{type(e).__name__}: {e}"}
    out = {**counts, "weights": [p.tolist() for p in params],
           "grads_none": [p.grad is None for p in params]}
    try:  # the handles must take the hooks away: then backward fills .grad and steps nothing
        for h in handles:
            h.remove()
        before = [p.detach().clone() for p in params]
        F.mse_loss(model(X), Y).backward()
        out["removed"] = all(p.grad is not None for p in params) and all(
            bool((p == b).all()) for p, b in zip(params, before))
    except Exception as e:  # noqa: BLE001 - not a list of handles
        out["removed"] = False
        out["handles"] = f"{type(e).__name__}: {e}"
    return out


def _judge_attach_sgd(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if "raised" in payload:
        return failed(f"attach_sgd (or its hook) raised {payload['raised']}")
    case = _sgd_case(variant)
    model = _layer_net(case)  # the same network, trained by optim.SGD
    n = len(list(model.parameters()))
    if payload["post"] < n:
        return failed(f"post-accumulate hooks were registered on {payload['post']} of the {n} "
                      "parameters: p.register_post_accumulate_grad_hook(...) for every p in "
                      "model.parameters().")
    opt = SGD(model.parameters(), lr=case["lr"])
    X, Y = tensor(case["X"]), tensor(case["Y"])
    for _ in range(case["steps"]):
        opt.zero_grad()
        F.mse_loss(model(X), Y).backward()
        opt.step()
    expected = [p.tolist() for p in model.parameters()]
    start = [w for pair in case["weights"] for w in pair]
    if all(np.allclose(np.asarray(g), np.asarray(s)) for g, s in zip(payload["weights"], start)):
        return failed("the parameters never moved: in the hook, update p in place under "
                      "torch.no_grad(): p -= lr * p.grad.")
    if not payload["grads_none"] or not all(payload["grads_none"]):
        return failed("after backward a .grad is still there: the hook should set p.grad = None "
                      "once it used it (else the next backward adds to it, and the memory the "
                      "fusion saves stays taken).")
    if not all(np.allclose(np.asarray(g), np.asarray(e), rtol=1e-4, atol=1e-6)
               for g, e in zip(payload["weights"], expected)):
        return failed(f"after {case['steps']} backward passes the parameters differ from "
                      f"optim.SGD(lr={case['lr']}): each hook should do p -= lr * p.grad, once.")
    if not payload.get("removed"):
        return failed("removing the returned handles did not take the hooks away: return the "
                      "handles that register_post_accumulate_grad_hook gives back.")
    return passed()


def check_attach_sgd(attach_sgd: Any) -> Feedback:
    """Exercise 7: ``attach_sgd(model, lr)`` makes backward itself take SGD steps."""
    payload = guarded(_collect_attach_sgd)({"attach_sgd": attach_sgd})
    return show("attach_sgd(model, lr)", _judge_attach_sgd(payload, FIXED),
                "for each p in model.parameters(): a hook that, under torch.no_grad(), does "
                "p -= lr * p.grad and then p.grad = None; return the handles")


EXERCISES = {
    "ex1": spec(_collect_spy, _judge_spy, "spy(h, loss)"),
    "ex2": spec(_collect_hook("clip_hook", "clip"), _judge_clip, "clip_hook"),
    "ex3": spec(_collect_removed, _judge_removed, "clip_norm ran once, then was removed"),
    "ex4": value_spec(["y_grad", "x_grad"], check_order, graded=False,
                      formative_reason=PREDICTION),
    "ex5": spec(_collect_hook("average_fixed", "average"), _judge_average, "average_fixed"),
    "ex6": spec(_collect_grad_reaching, _judge_grad_reaching,
                "grad_reaching(net, i, X, loss_fn)"),
    "ex7": spec(_collect_attach_sgd, _judge_attach_sgd, "attach_sgd(model, lr)"),
}
