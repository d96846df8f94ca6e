"""Checks for notebook 04b · Backprop by hand, then write the loop.

The student writes ``grads_by_hand(a, b, c, f)`` (the four gradients of L = (a*b + c) * f from
the local derivatives alone), ``order_nodes(root)`` (every node reachable from ``root`` over
``next_functions``, each before the nodes it feeds) and ``backprop(loss)`` (calls every node of
the recorded graph, root first, and sums what reaches each node, so that the leaves'
``AccumulateGrad`` nodes fill ``.grad``). The graphs are autograd_lab's own: the checks judge
them on graphs made here, and on fresh ones for a grader.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ... import _dtype
from ...factories import tensor
from ...node import AccumulateGrad, Node
from ._common import Feedback
from ._evidence import watching
from ._payloads import (
    FIXED,
    Variant,
    answer,
    call,
    early,
    failed,
    guarded,
    invoke,
    passed,
    show,
    spec,
)

NOTEBOOK = "04b_backprop_by_hand"

__all__ = ["EXERCISES", "NOTEBOOK", "check_backprop", "check_by_hand", "check_order_nodes"]


# ---- exercise 1: the four gradients by hand ---------------------------------------------------

def _points(variant: Variant) -> list[tuple[float, float, float, float]]:
    if variant.fixed:
        return [(2.0, -3.0, 10.0, -2.0), (0.5, 4.0, -1.0, 3.0)]
    rng = variant.rng("nb04b.by_hand")
    return [tuple(float(v) for v in np.round(rng.uniform(-5, 5, 4), 1)) for _ in range(3)]


def _collect_by_hand(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "grads_by_hand", callable_=True)
    runs = []
    for pt in _points(variant):
        with watching() as ev:
            got = call(fn, *pt)
        runs.append({"got": got, "backwards": ev.backwards})
    return {"runs": runs}


def _autograd_grads(a: float, b: float, c: float, f: float) -> list[float]:
    leaves = [tensor(v, dtype=_dtype.float64, requires_grad=True) for v in (a, b, c, f)]
    ((leaves[0] * leaves[1] + leaves[2]) * leaves[3]).backward()
    return [float(t.grad.item()) for t in leaves]


def _judge_by_hand(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    names = ["dL/da", "dL/db", "dL/dc", "dL/df"]
    for (a, b, c, f), run in zip(_points(variant), payload["runs"]):
        if run["backwards"]:
            return failed("it ran autograd's backward: work the gradients out from the local "
                          "derivatives alone, then compare with .grad.")
        got = run["got"]
        if "raised" in got:
            return failed(f"it raised {got['raised']}")
        value = got["value"]
        items = value.get("tuple") if isinstance(value, dict) else value
        if not isinstance(items, list) or len(items) != 4:
            return failed("return four numbers: dL_da, dL_db, dL_dc, dL_df.")
        if not all(isinstance(v, (int, float)) for v in items):
            return failed("return plain numbers (the arguments are floats), not tensors.")
        want = _autograd_grads(a, b, c, f)
        for name, g, w in zip(names, items, want):
            if math.isclose(g, w, rel_tol=1e-9, abs_tol=1e-9):
                continue
            at = f"at a={a:g}, b={b:g}, c={c:g}, f={f:g}"
            why = {"dL/da": "dL/dd · dd/de · de/da = f · 1 · b",
                   "dL/db": "dL/dd · dd/de · de/db = f · 1 · a",
                   "dL/dc": "dL/dd · dd/dc = f · 1",
                   "dL/df": "the other factor, d = a·b + c"}[name]
            return failed(f"{name} {at} should be {w:g} ({why}); got {g:g}.")
    return passed()


def check_by_hand(grads_by_hand: Callable) -> Feedback:
    """The four gradients of L = (a*b + c) * f, against autograd_lab's .grad, without backward."""
    verdict = _judge_by_hand(guarded(_collect_by_hand)({"grads_by_hand": grads_by_hand}, FIXED),
                             FIXED)
    return show("grads_by_hand", verdict, "multiply the local derivatives along the path from L "
                "down to each input")


# ---- the graphs of exercises 2 and 3 ------------------------------------------------------------

Program = list[tuple[str, tuple[int, ...]]]


def _programs(variant: Variant) -> list[tuple[list[list[float]], Program]]:
    """(leaf values, program): each program step applies an op to earlier registers; the
    registers start with the leaves and a constant that does not require grad."""
    if variant.fixed:  # L = (a*b + c) * f, then one with a short and a long path into u = x*y
        return [([[2.0], [-3.0], [10.0], [-2.0]], [("mul", (0, 1)), ("add", (5, 2)),
                                                      ("mul", (6, 3))]),
                ([[0.5, -1.0], [2.0, 0.25]], [("mul", (0, 1)), ("tanh", (3,)), ("exp", (4,)),
                                               ("mul", (5, 2)), ("add", (6, 3)), ("add", (7, 0))])]
    rng = variant.rng("nb04b.graphs")
    out = []
    for _ in range(3):
        n_leaves, size = int(rng.integers(2, 4)), int(rng.integers(1, 4))
        leaves = [[round(float(v), 2) for v in rng.uniform(-1.5, 1.5, size)]
                  for _ in range(n_leaves)]
        prog: Program = []
        for _ in range(int(rng.integers(5, 9))):
            n = n_leaves + 1 + len(prog)
            op = str(rng.choice(["add", "mul", "sub", "tanh", "exp", "mul"]))
            arity = 2 if op in ("add", "mul", "sub") else 1
            # mostly recent registers, sometimes old ones: fan-outs and paths of unequal length
            args = tuple(int(n - 1 - min(int(rng.geometric(0.45)) - 1, n - 1))
                         for _ in range(arity))
            prog.append((op, args))
        used = {i for _, args in prog for i in args}
        unused = [i for i in range(n_leaves) if i not in used]
        for leaf in unused or [int(rng.integers(0, n_leaves))]:
            prog.append(("add", (n_leaves + len(prog), leaf)))  # every leaf gets a gradient
        out.append((leaves, prog))
    return out


def _build(leaves: list[list[float]], prog: Program) -> tuple[list, Any]:
    """The leaves (float64, requiring grad) and the scalar loss of ``prog``."""
    xs = [tensor(v, dtype=_dtype.float64, requires_grad=True) for v in leaves]
    regs: list[Any] = [*xs, tensor([0.5] * len(leaves[0]), dtype=_dtype.float64)]
    for op, args in prog:
        x = [regs[i] for i in args]
        if op == "tanh":
            regs.append(x[0].tanh())
        elif op == "exp":
            regs.append((x[0] * 0.5).exp())
        else:
            regs.append(x[0] + x[1] if op == "add" else x[0] * x[1] if op == "mul"
                        else x[0] - x[1])
    loss = regs[-1].sum()
    if loss.grad_fn is None:  # a program of constants only: tie it to the leaves
        loss = (regs[-1] + xs[0]).sum()
    return xs, loss


def _nodes(loss: Any) -> tuple[list[Any], list[tuple[int, int]]]:
    """Every node of ``loss``'s graph in a fixed walk order, and its edges (user, input)."""
    nodes: list[Any] = []
    index: dict[int, int] = {}
    stack = [loss.grad_fn]
    while stack:
        node = stack.pop()
        if id(node) in index:
            continue
        index[id(node)] = len(nodes)
        nodes.append(node)
        stack.extend(nxt for nxt, _ in reversed(node.next_functions) if nxt is not None)
    edges = [(index[id(n)], index[id(nxt)]) for n in nodes for nxt, _ in n.next_functions
             if nxt is not None]
    return nodes, edges


# ---- exercise 2: an order of the nodes -------------------------------------------------------

def _collect_order(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "order_nodes", callable_=True)
    runs = []
    for leaves, prog in _programs(variant):
        _, loss = _build(leaves, prog)
        nodes, _ = _nodes(loss)
        index = {id(n): i for i, n in enumerate(nodes)}
        with watching() as ev:
            res, error = invoke(fn, loss.grad_fn)
        if error is not None:
            runs.append({"raised": error})
            continue
        try:
            order = [index.get(id(n), -1) for n in res]
        except TypeError:
            runs.append({"raised": f"it returned a {type(res).__name__}, not a list of nodes"})
            continue
        runs.append({"order": order, "backwards": ev.backwards})
    return {"runs": runs}


def _judge_order(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for k, ((leaves, prog), run) in enumerate(zip(_programs(variant), payload["runs"])):
        on = "" if k == 0 and variant.fixed else "on a graph with paths of unequal length, "
        if "raised" in run:
            return failed(f"{on}{run['raised']}")
        if run["backwards"]:
            return failed("it ran a backward pass: walk next_functions yourself (the order "
                          "the engine ran its nodes in is not yours to copy).")
        _, loss = _build(leaves, prog)
        nodes, edges = _nodes(loss)
        order, names = run["order"], [n.name() for n in nodes]
        if -1 in order:
            return failed(f"{on}it holds something that is not a node of the graph.")
        if len(set(order)) != len(order):
            twice = next(i for i in order if order.count(i) > 1)
            return failed(f"{on}it lists {names[twice]} twice: a node reached by several paths "
                          "appears once (keep a set of the nodes you have seen).")
        if len(order) < len(nodes):
            left = min(set(range(len(nodes))) - set(order))
            return failed(f"{on}it leaves out {names[left]}: every node reachable over "
                          "next_functions belongs, the leaves' AccumulateGrad included.")
        if order[0] != 0:
            return failed(f"{on}the root (loss.grad_fn) must come first.")
        pos = {i: p for p, i in enumerate(order)}
        bad = [(u, v) for u, v in edges if pos[u] > pos[v]]
        if bad:
            u, v = bad[0]
            return failed(f"{on}it puts {names[v]} before {names[u]}, which feeds it: a node "
                          "may run only after every node that sends it a gradient. A "
                          "breadth-first walk does not ensure this; reverse a depth-first "
                          "post-order.")
    return passed()


def check_order_nodes(order_nodes: Callable) -> Feedback:
    """Every node once, the root first, each before the nodes in its next_functions."""
    verdict = _judge_order(guarded(_collect_order)({"order_nodes": order_nodes}, FIXED), FIXED)
    return show("order_nodes", verdict, "append a node after all of its next_functions (a "
                "depth-first post-order), then reverse the list")


# ---- exercise 3: the loop ------------------------------------------------------------------------

def _collect_backprop(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "backprop", callable_=True)
    runs = []
    for leaves, prog in _programs(variant):
        xs, loss = _build(leaves, prog)
        watched = {"nodes": [(Node, "__call__"), (AccumulateGrad, "__call__")]}
        with watching(watched) as ev:
            got = call(fn, loss)
        runs.append({"raised": got["raised"]} if "raised" in got else {
            "grads": [None if x.grad is None else np.asarray(x.grad._data).tolist() for x in xs],
            "grad_fns": [x.grad is not None and x.grad.grad_fn is not None for x in xs],
            "backwards": ev.backwards, "calls": ev.calls["nodes"]})
    return {"runs": runs}


def _judge_backprop(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for k, ((leaves, prog), run) in enumerate(zip(_programs(variant), payload["runs"])):
        on = "" if k == 0 and variant.fixed else "on a graph where leaves are used several times, "
        if "raised" in run:
            return failed(f"{on}it raised {run['raised']}")
        if run["backwards"]:
            return failed("it ran autograd's backward (or autograd.grad): call the nodes "
                          "yourself, node(grad), root first.")
        xs, loss = _build(leaves, prog)
        nodes, _ = _nodes(loss)
        loss.backward()
        if run["calls"] < len(nodes):
            return failed(f"{on}it called {run['calls']} nodes; the graph has {len(nodes)}: "
                          "call every node, the leaves' AccumulateGrad included (that call "
                          "writes .grad).")
        for i, (x, got) in enumerate(zip(xs, run["grads"])):
            if x.grad is None:  # not on the loss's paths: backward() leaves it None too
                if got is not None:
                    return failed(f"{on}leaf {i} is not on the loss's paths, yet its .grad "
                                  "was set.")
                continue
            want = np.asarray(x.grad._data)
            if got is None:
                return failed(f"{on}leaf {i}'s .grad is None: call its AccumulateGrad node "
                              "with the gradient that reached it.")
            got_a = np.asarray(got, dtype=np.float64)
            if got_a.shape == want.shape and np.allclose(got_a, want, rtol=1e-9, atol=1e-12):
                continue
            if got_a.shape == want.shape and np.allclose(got_a, 2 * want, rtol=1e-9):
                return failed(f"{on}leaf {i}'s .grad is twice autograd's: each node is called "
                              "once, with the sum of what reached it.")
            return failed(f"{on}leaf {i}'s .grad should be {want.tolist()}; got "
                          f"{got_a.tolist()}: a node fed by several others gets the sum of what "
                          "they send (add into its entry, do not overwrite it), and is called "
                          "only after all of them (walk order_nodes' list).")
        if any(run["grad_fns"]):
            return failed("the leaves' .grad recorded a graph: run the loop under "
                          "torch.no_grad(), as the engine runs backward.")
    return passed()


def check_backprop(backprop: Callable) -> Feedback:
    """backprop(loss) fills the leaves' .grad as backward() would, by calling the nodes."""
    verdict = _judge_backprop(guarded(_collect_backprop)({"backprop": backprop}, FIXED), FIXED)
    return show("backprop", verdict, "seed ones_like(loss) for the root; for each node in "
                "order: out = node(grads.pop(node)), then add each out into its next node's entry")


EXERCISES = {
    "ex1": spec(_collect_by_hand, _judge_by_hand, "grads_by_hand"),
    "ex2": spec(_collect_order, _judge_order, "order_nodes"),
    "ex3": spec(_collect_backprop, _judge_backprop, "backprop"),
}
