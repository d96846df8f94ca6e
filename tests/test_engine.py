"""The backward engine: ordering, accumulation, graph freeing, create_graph, autograd.grad,
backward(inputs=), hooks, retain_grad, and the Listener events the visual tools build on."""

from __future__ import annotations

import gc
import warnings
from typing import Any

import numpy as np
import pytest

import autograd_lab as torch
from autograd_lab import autograd, engine
from autograd_lab.autograd.graph import Listener, listen

BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)
ACC = "torch::autograd::AccumulateGrad"


def _leaf(*values: float) -> torch.Tensor:
    return torch.tensor(list(values), dtype=torch.float64, requires_grad=True)


def _exact(text: str) -> str:
    import re

    return "^" + re.escape(text) + "$"


def run_order(roots: list, grads: Any = None) -> list[str]:
    """Names of the nodes in the order backward runs them (recorded by node pre-hooks)."""
    seen, stack, order = set(), [r.grad_fn for r in roots], []
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        n.register_prehook(lambda go, n=n: order.append(n.name()))
        stack.extend(f for f, _ in n.next_functions)
    autograd.backward(roots, grads)
    return order


# ---- ordering ---------------------------------------------------------------------------------
# Expected orders were recorded from PyTorch 2.13 with the same pre-hook recorder.

def test_chain_order() -> None:
    x = _leaf(0.5, 1.0)
    assert run_order([x.exp().sin().sum()]) == ["SumBackward0", "SinBackward0", "ExpBackward0",
                                                ACC]


def test_diamond_runs_shared_node_once_after_both_branches() -> None:
    x = _leaf(0.5, 1.0)
    a = x * 2
    assert run_order([(a.exp() * a.sin()).sum()]) == [
        "SumBackward0", "MulBackward0", "SinBackward0", "ExpBackward0", "MulBackward0", ACC]
    a_ = 2 * np.array([0.5, 1.0])
    want = 2 * (np.exp(a_) * np.sin(a_) + np.exp(a_) * np.cos(a_))
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-12)


def test_unbalanced_branches_wait_for_dependencies() -> None:
    x = _leaf(0.5, 1.0)
    a = x.exp()
    long = a.sin().cos().tanh()
    short = a * 3
    assert run_order([(long + short).sum()]) == [
        "SumBackward0", "AddBackward0", "MulBackward0", "TanhBackward0", "CosBackward0",
        "SinBackward0", "ExpBackward0", ACC]


def test_two_leaves_and_reuse() -> None:
    w, x = _leaf(0.5, 1.0), _leaf(1.5, 2.0)
    y = w * x
    z = y + w
    assert run_order([(z * y).sum()]) == [
        "SumBackward0", "MulBackward0", "AddBackward0", "MulBackward0", ACC, ACC]
    wv, xv = np.array([0.5, 1.0]), np.array([1.5, 2.0])
    yv = wv * xv
    # L = (y + w) y:  dL/dy = 2y + w,  dL/dw = (2y + w) x + y,  dL/dx = (2y + w) w
    np.testing.assert_allclose(w.grad.numpy(), (2 * yv + wv) * xv + yv, rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), (2 * yv + wv) * wv, rtol=1e-12)


def test_several_roots() -> None:
    x = _leaf(0.5, 1.0)
    a = x.exp()
    l1, l2 = a.sin().sum(), (a * a).mean()
    assert run_order([l1, l2]) == ["MeanBackward0", "MulBackward0", "SumBackward0",
                                   "SinBackward0", "ExpBackward0", ACC]
    av = np.exp([0.5, 1.0])
    np.testing.assert_allclose(x.grad.numpy(), (np.cos(av) + av) * av, rtol=1e-12)


def test_repeated_layers() -> None:
    x, w = _leaf(0.5, 1.0), _leaf(2.0)
    h = x
    for _ in range(3):
        h = (h * w).tanh() + h
    assert run_order([h.sum()]) == ["SumBackward0"] + [
        "AddBackward0", "TanhBackward0", "MulBackward0"] * 3 + [ACC, ACC]


def test_same_root_twice_and_several_outputs_of_one_node() -> None:
    x = _leaf(1.0, 2.0)
    loss = (x * x).sum()
    autograd.backward([loss, loss])
    assert x.grad.tolist() == [4.0, 8.0]
    x.grad = None
    a, b = x.split(1)
    autograd.backward([a, b], [torch.tensor([1.0], dtype=torch.float64),
                               torch.tensor([3.0], dtype=torch.float64)])
    assert x.grad.tolist() == [1.0, 3.0]


def test_multi_path_gradients_are_summed() -> None:
    x = _leaf(1.0, 2.0, 3.0)
    y = x * x + x * 3 + x.exp() + x
    y.backward(torch.ones(3, dtype=torch.float64))
    xv = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(x.grad.numpy(), 2 * xv + 3 + np.exp(xv) + 1, rtol=1e-12)


def test_long_chain_has_no_recursion_limit() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    z = x
    for _ in range(100_000):
        z = z + 1.0
    (g,) = autograd.grad(z.sum(), x)
    assert g.tolist() == [1.0, 1.0]
    del y, z
    gc.collect()  # tearing the long graphs down does not recurse either


# ---- retain_graph and freeing ------------------------------------------------------------------

def test_backward_twice_needs_retain_graph() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = (x * x).sum()
    loss.backward(retain_graph=True)
    loss.backward()
    assert x.grad.tolist() == [4.0, 8.0, 12.0]
    with pytest.raises(RuntimeError, match=_exact(BACKWARD_TWICE)):
        loss.backward()


def test_backward_twice_without_saved_tensors_is_fine() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = (x + 1).sum()
    loss.backward()
    loss.backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_saved_tensors_freed_after_backward() -> None:
    a, b = _leaf(1.0, 2.0), _leaf(3.0, 4.0)
    c = a * b
    fn = c.grad_fn
    assert fn._saved_self is a and fn._saved_other is b
    assert sorted(n for n, _ in fn.saved_tensors_info()) == ["other", "self"]
    c.sum().backward()
    assert fn.saved_tensors_info() == []
    with pytest.raises(RuntimeError, match=_exact(BACKWARD_TWICE)):
        fn._saved_self
    d = a.exp()
    d.sum().backward(retain_graph=True)
    assert [n for n, _ in d.grad_fn.saved_tensors_info()] == ["result"]
    assert d.grad_fn._saved_result.tolist() == d.tolist()


def test_saved_tensor_info_versions() -> None:
    x = _leaf(1.0, 2.0)
    y = x * 2
    z = y * y
    (name, st), _ = z.grad_fn.saved_tensors_info()
    assert st.saved_version == 0 and st.current_version == 0 and st.shape == (2,)
    assert st.nbytes == 16
    with torch.no_grad():
        y.add_(1)
    assert st.current_version == 1 and st.saved_version == 0


def test_grad_of_non_scalar_needs_gradient() -> None:
    x = _leaf(1.0, 2.0)
    y = x * 2
    with pytest.raises(RuntimeError, match=_exact("grad can be implicitly created only for "
                                                  "scalar outputs")):
        y.backward()
    with pytest.raises(RuntimeError, match=_exact(
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has "
            "a shape of torch.Size([2]).")):
        y.backward(torch.ones(3, dtype=torch.float64))
    y.backward(torch.tensor([1.0, 10.0], dtype=torch.float64))
    assert x.grad.tolist() == [2.0, 20.0]
    with pytest.raises(RuntimeError, match=_exact("element 0 of tensors does not require grad "
                                                  "and does not have a grad_fn")):
        torch.tensor([1.0]).sum().backward()


def test_leaf_grad_is_a_fresh_tensor_then_accumulates_in_place() -> None:
    x = _leaf(1.0, 2.0)
    g = torch.tensor([3.0, 4.0], dtype=torch.float64)
    (x * 1).backward(g)
    assert x.grad.tolist() == [3.0, 4.0] and x.grad is not g
    g.add_(1)
    assert x.grad.tolist() == [3.0, 4.0]
    first = x.grad
    (x * 1).backward(g)
    assert x.grad is first and first.tolist() == [7.0, 9.0]
    assert x.grad.grad_fn is None and not x.grad.requires_grad


# ---- create_graph ------------------------------------------------------------------------------

def test_create_graph_higher_order() -> None:
    x = torch.tensor(3.0, requires_grad=True)
    (g,) = autograd.grad(x ** 3, x, create_graph=True)
    assert repr(g) == "tensor(27., grad_fn=<MulBackward0>)"
    (gg,) = autograd.grad(g, x, create_graph=True)
    assert gg.item() == 18.0
    (ggg,) = autograd.grad(gg, x)
    assert ggg.item() == 6.0 and ggg.grad_fn is None
    assert x.grad is None  # autograd.grad never touches .grad


def test_backward_create_graph_warns_and_builds_grad_graph() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Using backward\\(\\) with create_graph=True will create "
                                         "a reference cycle"):
        (x ** 3).sum().backward(create_graph=True)
    assert x.grad.requires_grad and x.grad.tolist() == [3.0, 12.0]
    x.grad.sum().backward()
    # x.grad was 3x^2 (and still requires grad); d/dx sum(3 x^2) = 6x is added into it
    assert x.grad.tolist() == [3.0 + 6.0, 12.0 + 12.0]


def test_create_graph_retains_the_graph() -> None:
    x = _leaf(1.0, 2.0)
    y = (x.exp() * x).sum()
    (g,) = autograd.grad(y, x, create_graph=True)
    (g2,) = autograd.grad(y, x)  # the first call kept the graph (retain_graph defaults to True)
    np.testing.assert_allclose(g.detach().numpy(), g2.numpy())


# ---- autograd.grad -----------------------------------------------------------------------------

def test_grad_options() -> None:
    x, y, unused = _leaf(1.0, 2.0), _leaf(3.0, 4.0), _leaf(5.0)
    out = (x * y).sum()
    gx, gy = autograd.grad(out, [x, y], retain_graph=True)
    assert gx.tolist() == [3.0, 4.0] and gy.tolist() == [1.0, 2.0]
    assert x.grad is None and y.grad is None
    with pytest.raises(RuntimeError, match=_exact(
            "The differentiated Tensor at index 1 appears to not have been used in the graph. "
            "Set allow_unused=True if this is the desired behavior.")):
        autograd.grad(out, [x, unused], retain_graph=True)
    gx, gu = autograd.grad(out, [x, unused], allow_unused=True, retain_graph=True)
    assert gu is None and gx.tolist() == [3.0, 4.0]
    gx, gu = autograd.grad(out, [x, unused], materialize_grads=True, retain_graph=True)
    assert gu.tolist() == [0.0] and gu.dtype is torch.float64
    (gx,) = autograd.grad(x * y, x, grad_outputs=torch.tensor([1.0, -1.0], dtype=torch.float64))
    assert gx.tolist() == [3.0, -4.0]
    with pytest.raises(RuntimeError, match=_exact("One of the differentiated Tensors does not "
                                                  "require grad")):
        autograd.grad((x * 2).sum(), torch.tensor([1.0]))


def test_grad_with_respect_to_an_intermediate() -> None:
    x = _leaf(1.0, 2.0)
    h = x * 3
    out = (h * h).sum()
    (gh,) = autograd.grad(out, h, retain_graph=True)
    assert gh.tolist() == [6.0, 12.0]
    gh, gx = autograd.grad(out, [h, x])
    assert gh.tolist() == [6.0, 12.0] and gx.tolist() == [18.0, 36.0]


def test_grad_several_outputs() -> None:
    x = _leaf(1.0, 2.0)
    (g,) = autograd.grad([(x * 2).sum(), (x * x).sum()], x)
    assert g.tolist() == [4.0, 6.0]


# ---- backward(inputs=) -------------------------------------------------------------------------

def test_backward_inputs_fills_only_those() -> None:
    w, b = _leaf(1.0, 2.0), _leaf(0.5)
    loss = (w * 3 + b).sum()
    loss.backward(inputs=[w], retain_graph=True)
    assert w.grad.tolist() == [3.0, 3.0] and b.grad is None
    loss.backward(inputs=b)
    assert b.grad.tolist() == [2.0] and w.grad.tolist() == [3.0, 3.0]
    with pytest.raises(RuntimeError, match=_exact("`inputs` argument to `backward()` cannot be "
                                                  "empty.")):
        (w * 2).sum().backward(inputs=[])


def test_backward_inputs_non_leaf() -> None:
    x = _leaf(1.0, 2.0)
    h = x * 2
    (h * h).sum().backward(inputs=[h])
    assert x.grad is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert h.grad.tolist() == [4.0, 8.0]


# ---- hooks ------------------------------------------------------------------------------------

def test_tensor_hook_sees_and_replaces_gradient() -> None:
    x = _leaf(1.0, 2.0)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    y.register_hook(lambda g: g * 10)
    y.register_hook(lambda g: seen.append(g.tolist()))  # sees the replaced gradient
    (y * y).sum().backward()
    assert seen == [[4.0, 8.0], [40.0, 80.0]]
    assert x.grad.tolist() == [80.0, 160.0]


def test_leaf_hook_runs_once_with_the_summed_gradient() -> None:
    x = _leaf(1.0, 2.0)
    calls = []

    def hook(g: torch.Tensor) -> torch.Tensor:
        calls.append(g.tolist())
        return g + 1

    x.register_hook(hook)
    (x * 2 + x * 3).sum().backward()
    assert calls == [[5.0, 5.0]]
    assert x.grad.tolist() == [6.0, 6.0]


def test_hook_removal() -> None:
    x = _leaf(1.0)
    calls = []
    h = x.register_hook(lambda g: calls.append(1))
    (x * 2).backward()
    h.remove()
    (x * 2).backward()
    h.remove()  # removing twice is harmless
    assert calls == [1] and x.grad.tolist() == [4.0]


def test_hook_on_tensor_without_grad_errors() -> None:
    with pytest.raises(RuntimeError, match=_exact("cannot register a hook on a tensor that "
                                                  "doesn't require gradient")):
        torch.tensor([1.0]).register_hook(lambda g: g)


def test_node_hooks() -> None:
    a, b = _leaf(2.0), _leaf(3.0)
    c = a * b
    log = []

    def pre(grad_outputs: tuple) -> tuple:
        log.append(("pre", [g.tolist() for g in grad_outputs]))
        return (grad_outputs[0] * 2,)

    def post(grad_inputs: tuple, grad_outputs: tuple) -> tuple:
        log.append(("post", [g.tolist() for g in grad_inputs], [g.tolist() for g in grad_outputs]))
        return (grad_inputs[0], grad_inputs[1] * 0)

    c.grad_fn.register_prehook(pre)
    handle = c.grad_fn.register_hook(post)
    c.backward()
    assert log == [("pre", [[1.0]]), ("post", [[6.0], [4.0]], [[2.0]])]
    assert a.grad.tolist() == [6.0] and b.grad.tolist() == [0.0]
    handle.remove()


def test_calling_a_node() -> None:
    a, b = torch.tensor(2.0, requires_grad=True), torch.tensor(3.0, requires_grad=True)
    out = a * b + a
    assert repr(out.grad_fn(torch.tensor(1.0))) == "(tensor(1.), tensor(1.))"
    ga, gb = out.grad_fn.next_functions[0][0](torch.tensor(1.0))
    assert ga.item() == 3.0 and gb.item() == 2.0


# ---- retain_grad -------------------------------------------------------------------------------

def test_retain_grad() -> None:
    x = _leaf(1.0, 2.0)
    h = x * 3
    h.retain_grad()
    assert h.retains_grad
    (h * h).sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "non-leaf .grad" warning once retained
        assert h.grad.tolist() == [6.0, 12.0]
    x.retain_grad()  # a no-op on a leaf
    assert not x.retains_grad
    with pytest.raises(RuntimeError, match=_exact("can't retain_grad on Tensor that has "
                                                  "requires_grad=False")):
        torch.tensor([1.0]).retain_grad()


def test_retained_grad_accumulates() -> None:
    x = _leaf(1.0, 2.0)
    h = x * 3
    h.retain_grad()
    out = (h * h).sum()
    out.backward(retain_graph=True)
    out.backward()
    assert h.grad.tolist() == [12.0, 24.0] and x.grad.tolist() == [36.0, 72.0]


# ---- Listener events ----------------------------------------------------------------------------

class Recorder(Listener):
    """Every event as a tuple; gradients as lists."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    def on_begin(self, roots: list, grads: list) -> None:
        self.events.append(("begin", [(n.name(), nr) for n, nr in roots],
                            [g.tolist() for g in grads]))

    def on_node(self, node: Any, grad_outputs: list) -> None:
        self.events.append(("node", node.name(),
                            [None if g is None else g.tolist() for g in grad_outputs]))

    def on_edge(self, node: Any, index: int, next_node: Any, input_nr: int, grad: Any) -> None:
        self.events.append(("edge", node.name(), index, next_node.name(), input_nr,
                            None if grad is None else grad.tolist()))

    def on_accumulate(self, tensor: Any, grad: Any, total: Any) -> None:
        self.events.append(("accumulate", tensor, grad.tolist(), total.tolist()))

    def on_free(self, node: Any, names: list) -> None:
        self.events.append(("free", node.name(), sorted(names)))

    def on_error(self, node: Any, error: BaseException) -> None:
        self.events.append(("error", node.name(), error))

    def on_end(self) -> None:
        self.events.append(("end",))


def _close(events: list, want: list) -> None:
    """Compare event lists: tensors by identity, numbers approximately, the rest exactly."""
    assert len(events) == len(want), (events, want)
    for e, w in zip(events, want):
        assert len(e) == len(w) and e[0] == w[0], (e, w)
        for a, b in zip(e[1:], w[1:]):
            if isinstance(b, torch.Tensor):
                assert a is b
                continue
            try:
                wanted = np.asarray(b, dtype=float)
            except (TypeError, ValueError):
                assert a == b, (e, w)
            else:
                np.testing.assert_allclose(np.asarray(a, dtype=float), wanted, rtol=1e-12)


def test_listener_chain() -> None:
    x = _leaf(0.5, 1.0)
    y = x.exp()
    loss = y.sin().sum()
    rec = Recorder()
    with listen(rec):
        loss.backward()
    yv = np.exp([0.5, 1.0])
    _close(rec.events, [
        ("begin", [("SumBackward0", 0)], [1.0]),
        ("node", "SumBackward0", [1.0]),
        ("edge", "SumBackward0", 0, "SinBackward0", 0, [1.0, 1.0]),
        ("node", "SinBackward0", [[1.0, 1.0]]),
        ("free", "SinBackward0", ["self"]),
        ("edge", "SinBackward0", 0, "ExpBackward0", 0, list(np.cos(yv))),
        ("node", "ExpBackward0", [list(np.cos(yv))]),
        ("free", "ExpBackward0", ["result"]),
        ("edge", "ExpBackward0", 0, ACC, 0, list(np.cos(yv) * yv)),
        ("node", ACC, [list(np.cos(yv) * yv)]),
        ("accumulate", x, list(np.cos(yv) * yv), list(np.cos(yv) * yv)),
        ("end",),
    ])
    np.testing.assert_allclose(x.grad.numpy(), np.cos(yv) * yv, rtol=1e-12)


def test_listener_fan_out_fan_in() -> None:
    x = _leaf(0.5, 1.0)
    a = x * 2
    loss = (a.exp() + a.sin()).sum()
    rec = Recorder()
    engine.backward(loss, listener=rec)
    av = 2 * np.array([0.5, 1.0])
    ones = [1.0, 1.0]
    _close(rec.events, [
        ("begin", [("SumBackward0", 0)], [1.0]),
        ("node", "SumBackward0", [1.0]),
        ("edge", "SumBackward0", 0, "AddBackward0", 0, ones),
        ("node", "AddBackward0", [ones]),
        ("edge", "AddBackward0", 0, "ExpBackward0", 0, ones),
        ("edge", "AddBackward0", 1, "SinBackward0", 0, ones),
        ("node", "SinBackward0", [ones]),  # created after Exp: runs first
        ("free", "SinBackward0", ["self"]),
        ("edge", "SinBackward0", 0, "MulBackward0", 0, list(np.cos(av))),
        ("node", "ExpBackward0", [ones]),
        ("free", "ExpBackward0", ["result"]),
        ("edge", "ExpBackward0", 0, "MulBackward0", 0, list(np.exp(av))),
        # fan-in: the Mul node runs once, with the two gradients summed
        ("node", "MulBackward0", [list(np.cos(av) + np.exp(av))]),
        ("free", "MulBackward0", ["other"]),  # the 2, saved as a 0-d tensor as torch does
        ("edge", "MulBackward0", 0, ACC, 0, list(2 * (np.cos(av) + np.exp(av)))),
        ("node", ACC, [list(2 * (np.cos(av) + np.exp(av)))]),
        ("accumulate", x, list(2 * (np.cos(av) + np.exp(av))),
         list(2 * (np.cos(av) + np.exp(av)))),
        ("end",),
    ])


def test_listener_retained_grad_and_second_backward() -> None:
    x = _leaf(1.0, 2.0)
    h = x * 3
    h.retain_grad()
    loss = (h * h).sum()
    rec = Recorder()
    with listen(rec):
        loss.backward(retain_graph=True)
    acc = [e for e in rec.events if e[0] == "accumulate"]
    assert [e[1] for e in acc] == [h, x]
    assert acc[0][2:] == ([6.0, 12.0], [6.0, 12.0])
    assert acc[1][2:] == ([18.0, 36.0], [18.0, 36.0])
    assert not [e for e in rec.events if e[0] == "free"]  # retain_graph: nothing is released
    rec2 = Recorder()
    with listen(rec2):
        loss.backward()
    acc = [e for e in rec2.events if e[0] == "accumulate"]
    assert acc[0][2:] == ([6.0, 12.0], [12.0, 24.0])  # totals show the accumulation
    assert acc[1][2:] == ([18.0, 36.0], [36.0, 72.0])
    frees = [e for e in rec2.events if e[0] == "free"]
    # h * h, then x * 3: the 3 is saved as a 0-d tensor and freed, as torch frees it
    assert frees == [("free", "MulBackward0", ["other", "self"]),
                     ("free", "MulBackward0", ["other"])]
    assert h.grad.tolist() == [12.0, 24.0]


def test_listener_free_names() -> None:
    a, b = _leaf(1.0), _leaf(2.0)
    loss = (a * b).sigmoid().log().sum()
    rec = Recorder()
    engine.backward(loss, listener=rec)
    assert [e[1:] for e in rec.events if e[0] == "free"] == [
        ("LogBackward0", ["self"]), ("SigmoidBackward0", ["result"]),
        ("MulBackward0", ["other", "self"])]


def test_listener_on_error_for_version_mismatch() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    y.add_(1)
    rec = Recorder()
    msg = ("one of the variables needed for gradient computation has been modified by an "
           "inplace operation: [torch.FloatTensor [3]], which is output 0 of Sigmoid, is at "
           "version 1; expected version 0 instead. Hint: enable anomaly detection to find the "
           "operation that failed to compute its gradient, with "
           "torch.autograd.set_detect_anomaly(True, check_nan=False).")
    with listen(rec), pytest.raises(RuntimeError, match=_exact(msg)) as info:
        y.sum().backward()
    kinds = [e[0] for e in rec.events]
    assert kinds[-1] == "error" and "end" not in kinds
    assert rec.events[-1][1] == "SigmoidBackward0" and rec.events[-1][2] is info.value
    assert rec.events[-2] == ("node", "SigmoidBackward0", [[1.0, 1.0, 1.0]])
    assert x.grad is None
    assert engine._listeners == []  # the block removed its listener despite the error


def test_listener_registration_forms() -> None:
    x = _leaf(1.0)
    outer, inner, explicit = Recorder(), Recorder(), Recorder()
    with listen(outer):
        with listen(inner):
            (x * 2).sum().backward()
        assert not outer.events and inner.events  # the innermost listener gets the events
        engine.backward((x * 2).sum(), listener=explicit)
        assert not outer.events and explicit.events  # an explicit listener takes precedence
        autograd.grad((x * 2).sum(), x)
        assert outer.events[0][0] == "begin" and outer.events[-1] == ("end",)
    n = len(outer.events)
    (g,) = engine.grad((x * 3).sum(), x, listener=explicit)
    assert g.tolist() == [3.0]
    assert len(outer.events) == n
    # autograd.grad accumulates nothing: no accumulate event
    assert not [e for e in outer.events if e[0] == "accumulate"]


def test_listener_gradients_are_copies() -> None:
    x = _leaf(1.0, 2.0)

    class Vandal(Listener):
        def on_edge(self, node: Any, index: int, next_node: Any, input_nr: int,
                    grad: Any) -> None:
            grad[...] = 1e9

        def on_accumulate(self, tensor: Any, grad: Any, total: Any) -> None:
            total[...] = -1.0

    with listen(Vandal()):
        (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_no_listener_nothing_recorded() -> None:
    rec = Recorder()
    x = _leaf(1.0, 2.0)
    h = x.exp()
    h.retain_grad()
    (h * h).sum().backward()
    autograd.grad((x * x).sum(), x)
    assert rec.events == []
    assert engine._listeners == []
    with listen(rec):
        pass
    assert rec.events == [] and engine._listeners == []
