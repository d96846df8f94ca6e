"""Checks for notebook 16, the capstone: each piece of a home-made scalar engine.

The notebook defines ``Value(data, parents=(), op=None, label="")`` (``seq`` counts creations)
and ``Op`` classes whose ``backward(grad, out, *inputs)`` returns one gradient per input.
The student writes each op's ``backward``, ``topological_order(root)`` and
``chain_rule(order)``. Each check runs the piece on small graphs made here (with the
student's ``Value``, and ops of its own where the piece under test must not depend on
the others), prints one line per piece -- ✓, … "not implemented yet", or ✗ with what
is wrong -- and returns a ``Feedback``. A check never raises.

    from autograd_lab.teaching.checks import nb16
    nb16.check_ops(Add, Mul, Neg)
    nb16.check_topological_order(topological_order, Value)
    nb16.check_chain_rule(chain_rule, Value)
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..exercises import Feedback

__all__ = ["check_chain_rule", "check_engine_order", "check_ops", "check_topological_order"]

NAMES = "ab"


def _bad(piece: str, detail: str, hint: str = "") -> bool:
    return bool(Feedback(False, piece, detail, hint).show())


def _good(piece: str) -> bool:
    return bool(Feedback(True, piece).show())


def _pending(piece: str, error: BaseException | None = None) -> bool:
    """The student copy's stubs raise NotImplementedError("write ..."): say so, no traceback."""
    what = str(error) if error is not None and str(error) else "replace the stub with your code"
    detail = f"not implemented yet: {what}; then run this check again"
    return bool(Feedback(False, piece, detail, state="waiting").show())


def _crashed(piece: str, error: BaseException, hint: str = "") -> bool:
    return _bad(piece, f"it raised {type(error).__name__}: {error}", hint)


def _same(x: float, y: float) -> bool:
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


# ---- the backward of each op -----------------------------------------------------------------

class _Rule:
    """What ``backward`` of one op must return, and the usual wrong answers, as expressions
    in ``grad``, ``out``, the inputs ``a``, ``b`` and the op's constant ``k``."""

    def __init__(self, arity: int, expected: list[str], why: list[str], wrong: list[str],
                 points: list[tuple[float, tuple[float, ...]]],
                 params: tuple[tuple, ...] = ((),)) -> None:
        self.arity, self.expected, self.why = arity, expected, why
        self.wrong, self.points, self.params = wrong, points, params


_BINARY = [(0.5, (2.0, -3.0)), (-2.0, (-0.5, 4.0))]
_UNARY = [(0.5, (0.7,)), (-2.0, (-1.3,))]
_POSITIVE = [(0.5, (0.7,)), (-2.0, (2.5,))]

RULES: dict[str, _Rule] = {
    "Add": _Rule(2, ["grad", "grad"], ["d(a+b)/da = 1", "d(a+b)/db = 1"],
                 ["1", "grad * a", "grad * b", "a", "b", "0"], _BINARY),
    "Mul": _Rule(2, ["grad * b", "grad * a"], ["d(a*b)/da = b", "d(a*b)/db = a"],
                 ["grad * a", "grad * b", "b", "a", "grad", "grad * out"], _BINARY),
    "Neg": _Rule(1, ["-grad"], ["d(-a)/da = -1"], ["grad", "-1", "-a", "-grad * a"], _UNARY),
    "Pow": _Rule(1, ["grad * k * a ** (k - 1)"], ["d(a**k)/da = k * a**(k-1)"],
                 ["k * a ** (k - 1)", "grad * a ** (k - 1)", "grad * k * a ** k",
                  "grad * (k - 1) * a ** (k - 2)", "grad * k * out", "grad * out"],
                 _UNARY, params=((3,), (-1,))),
    "Exp": _Rule(1, ["grad * out"], ["d exp(a)/da = exp(a)"],
                 ["out", "grad * a", "grad", "grad * math.log(a)"], _UNARY),
    "Log": _Rule(1, ["grad / a"], ["d log(a)/da = 1/a"],
                 ["1 / a", "grad * math.log(a)", "grad * a", "grad / out", "grad * out"],
                 _POSITIVE),
    "Tanh": _Rule(1, ["grad * (1 - out ** 2)"], ["d tanh(a)/da = 1 - tanh(a)**2"],
                  ["1 - out ** 2", "grad * (1 - a ** 2)", "grad * (1 + out ** 2)",
                   "grad * out", "grad * (1 - out)"], _UNARY),
    "ReLU": _Rule(1, ["grad * (a > 0)"], ["d relu(a)/da = 1 where a > 0, else 0"],
                  ["(a > 0)", "grad", "grad * out", "out", "grad * (a < 0)"], _UNARY),
    "Sigmoid": _Rule(1, ["grad * out * (1 - out)"], ["d sigmoid(a)/da = s * (1 - s)"],
                     ["out * (1 - out)", "grad * a * (1 - a)", "grad * out",
                      "grad * (1 - out)"], _UNARY),
}


def _eval(expr: str, env: dict[str, float]) -> float:
    return float(eval(expr, {"math": math, "__builtins__": {}}, env))  # noqa: S307 - our own text


def _explain(rule: _Rule, i: int, got: list[float], envs: list[dict[str, float]]) -> str:
    """Name the expression ``got`` matches at every test point, if it is a usual mistake."""
    candidates = [e for j, e in enumerate(rule.expected) if j != i] + rule.wrong
    candidates += [f"-({rule.expected[i]})"]
    for expr in candidates:
        try:
            if all(_same(g, _eval(expr, env)) for g, env in zip(got, envs)):
                return f"got {expr}"
        except (ArithmeticError, ValueError):
            continue
    env = envs[0]
    shown = ", ".join(f"{k}={v:g}" for k, v in env.items())
    want = _eval(rule.expected[i], env)
    return f"got {got[0]:.6g} where {rule.expected[i]} = {want:.6g} ({shown})"


def _check_op(op_cls: type) -> bool:
    name = getattr(op_cls, "__name__", repr(op_cls))
    piece = f"{name}.backward"
    rule = RULES.get(name)
    if rule is None:
        return _bad(piece, f"no check for an op named {name!r}; known: {', '.join(RULES)}.")
    for params in rule.params:
        got_all: list[list[float]] = [[] for _ in range(rule.arity)]
        envs: list[dict[str, float]] = []
        for grad, xs in rule.points:
            try:
                op = op_cls(*params)
                out = float(op.forward(*xs))
            except Exception as e:  # noqa: BLE001 - feedback, not a crash
                return _crashed(f"{name}.forward", e, "the forward rules are given: run their "
                                "cell again without changes")
            env = dict(zip(NAMES, xs), grad=grad, out=out)
            if params:
                env["k"] = params[0]
            envs.append(env)
            try:
                res = op.backward(grad, out, *xs)
            except NotImplementedError as e:
                return _pending(piece, e)
            except Exception as e:  # noqa: BLE001
                return _crashed(piece, e)
            if res is None:
                return _bad(piece, "it returned None.", "end it with `return ...`: one gradient "
                            "per input, in a tuple")
            if res is Ellipsis:
                return _pending(piece)
            if not isinstance(res, (tuple, list)):
                hint = ("one gradient per input, in a tuple: `return (g,)` -- mind the comma"
                        if rule.arity == 1 else
                        "return a tuple: `return grad_a, grad_b`")
                return _bad(piece, f"it returned a {type(res).__name__}, not a tuple.", hint)
            if len(res) != rule.arity:
                return _bad(piece, f"it returned {len(res)} gradient"
                            f"{'s' if len(res) != 1 else ''} for {rule.arity} "
                            f"input{'s' if rule.arity > 1 else ''}.", "one gradient per input, "
                            "in the order of forward's arguments")
            for i, g in enumerate(res):
                try:
                    got_all[i].append(float(g))
                except (TypeError, ValueError):
                    return _bad(piece, f"the gradient for {NAMES[i]} is a {type(g).__name__}, "
                                "not a number.")
        for i in range(rule.arity):
            wanted = [_eval(rule.expected[i], env) for env in envs]
            if not all(_same(g, w) for g, w in zip(got_all[i], wanted)):
                const = f" (k = {params[0]})" if params else ""
                return _bad(piece, f"the gradient for {NAMES[i]}{const} should be "
                            f"{rule.expected[i]}, since {rule.why[i]}; "
                            f"{_explain(rule, i, got_all[i], envs)}.",
                            "backward returns grad times the local derivative (the chain rule's "
                            "link), one per input")
    return _good(piece)


def check_ops(*ops: type) -> Feedback:
    """Each op's ``backward(grad, out, *inputs)`` at a few points; one line per op."""
    results = [_check_op(op) for op in ops]
    return Feedback(bool(results) and all(results))


# ---- graphs the checks build -----------------------------------------------------------------

class _Probe:
    """An op of the checks' own: a correct backward that records each call."""

    def __init__(self, kind: str, log: list) -> None:
        self.kind, self.log = kind, log
        self.node: Any = None  # the Value this op made

    def forward(self, *xs: float) -> float:
        return xs[0] * xs[1] if self.kind == "mul" else sum(xs)

    def backward(self, grad: float, out: float, *xs: float) -> tuple[float, ...]:
        self.log.append((self.node, grad, out, xs))
        if self.kind == "mul":
            return grad * xs[1], grad * xs[0]
        return tuple(grad for _ in xs)


class _TooMuchWork(Exception):
    pass


def _counting(value_cls: type, budget: list[int]) -> type:
    """The student's Value with ``parents`` reads counted: a walk that revisits shared
    Values (exponential on a graph that doubles) runs out of budget instead of hanging."""

    def get(self: Any) -> tuple:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooMuchWork
        return self.__dict__["_parents_"]

    def put(self: Any, v: Any) -> None:
        self.__dict__["_parents_"] = v

    return type("Value", (value_cls,), {"parents": property(get, put)})


def _node(value_cls: type, kind: str, parents: tuple, label: str, log: list) -> Any:
    op = _Probe(kind, log)
    v = value_cls(op.forward(*(p.data for p in parents)), parents, op, label)
    op.node = v
    return v


def _sample_graph(value_cls: type, log: list) -> tuple[Any, list]:
    """x, y, z leaves; s = x*y; l1 = s*x; l2 = l1 + z; q = l2*l2; out = q + s + l1.

    ``s`` reaches ``out`` directly and through l1 -> l2 -> q (a short and a long path: a
    breadth-first walk from ``out`` lists it too early); x, s, l1 and l2 have fan-ins."""
    x, y, z = value_cls(2.0, (), None, "x"), value_cls(-1.5, (), None, "y"), \
        value_cls(0.5, (), None, "z")
    s = _node(value_cls, "mul", (x, y), "s", log)
    l1 = _node(value_cls, "mul", (s, x), "l1", log)
    l2 = _node(value_cls, "add", (l1, z), "l2", log)
    q = _node(value_cls, "mul", (l2, l2), "q", log)
    out = _node(value_cls, "add", (q, s, l1), "out", log)
    return out, [x, y, z, s, l1, l2, q, out]


def _label(v: Any) -> str:
    return getattr(v, "label", "") or repr(v)


def _reachable(root: Any) -> set[int]:
    seen, stack = {id(root)}, [root]
    while stack:
        for p in stack.pop().parents:
            if id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return seen


def _first_violation(order: list) -> tuple[Any, Any] | None:
    """The first (value, parent) with the parent listed after the value."""
    pos = {id(v): i for i, v in enumerate(order)}
    for i, v in enumerate(order):
        for p in v.parents:
            if pos.get(id(p), -1) > i:
                return v, p
    return None


# ---- topological order -----------------------------------------------------------------------

def _run_sort(sort: Callable, root: Any, piece: str, budget: list[int], reads: int) -> list | bool:
    """Run the student's sort with ``reads`` reads of ``.parents`` allowed."""
    budget[0] = reads
    try:
        res = sort(root)
    except NotImplementedError as e:
        return _pending(piece, e)
    except RecursionError:
        return _bad(piece, "RecursionError on a chain of 5,000 Values: one Python call per "
                    "level hits the recursion limit (about 1,000).", "keep your own stack (a "
                    "list of Values still to visit) and loop while it is not empty")
    except _TooMuchWork:
        return _bad(piece, "it visits shared Values again and again: on a graph where every "
                    "Value is used twice, 40 levels deep, that is 2**40 paths.",
                    "remember the Values you have expanded (a set) and expand each one once")
    except Exception as e:  # noqa: BLE001
        return _crashed(piece, e)
    finally:
        budget[0] = 10**9  # the checks below read .parents too
    if res is None:
        return _bad(piece, "it returned None.", "return the list of Values")
    if res is Ellipsis:
        return _pending(piece)
    try:
        return list(res)
    except TypeError:
        return _bad(piece, f"it returned a {type(res).__name__}, not a list of Values.")


def _check_order(order: list, root: Any, piece: str) -> bool:
    hint = ("append a Value only after all of its parents are in the list (a depth-first "
            "post-order); the output comes last")
    seen: set[int] = set()
    for v in order:
        if id(v) in seen:
            return _bad(piece, f"it lists {_label(v)} twice.", "keep a set of the Values you "
                        "have expanded and expand each once: a Value used by several others "
                        "appears once (listed twice, it would send its gradient on twice)")
        seen.add(id(v))
    reach = _reachable(root)
    extra = [v for v in order if id(v) not in reach]
    if extra:
        return _bad(piece, f"it contains {extra[0]!r}, which is not a Value of this graph.")
    if id(root) not in seen:
        return _bad(piece, "the output itself is missing.", hint)
    if len(seen) < len(reach):
        missing = [v for v in _all_values(root) if id(v) not in seen]
        return _bad(piece, f"it leaves out {_label(missing[0])}: the order holds every Value "
                    "the output was computed from, leaves included.", hint)
    bad = _first_violation(order)
    if bad is None:
        return True
    if _first_violation(order[::-1]) is None:
        return _bad(piece, "the order is reversed: the output comes first.",
                    "inputs first, output last: chain_rule walks it backwards itself")
    v, p = bad
    return _bad(piece, f"it puts {_label(v)} before {_label(p)}, but {_label(v)} was computed "
                f"from {_label(p)}: every Value must come after all the Values it was computed "
                "from. A breadth-first walk from the output does not ensure this, nor does "
                "marking a Value seen when it is pushed rather than when it is expanded.", hint)


def _all_values(root: Any) -> list:
    out, seen, stack = [], {id(root)}, [root]
    while stack:
        v = stack.pop()
        out.append(v)
        for p in v.parents:
            if id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return out


def check_topological_order(topological_order: Callable, value_cls: type) -> Feedback:
    """Every Value once, each after its parents, the output last; iterative; linear time."""
    piece = "topological_order"
    budget = [10**9]
    counted = _counting(value_cls, budget)
    # 1. a leaf alone, then a graph with shared Values and paths of different lengths
    leaf = counted(1.0, (), None, "leaf")
    res = _run_sort(topological_order, leaf, piece, budget, 100)
    if res is False:
        return Feedback(False)
    if len(res) != 1 or res[0] is not leaf:
        return Feedback(_bad(piece, f"for a lone leaf it returned {len(res)} Values; expected "
                             "[leaf].", "the output is always in the order, last"))
    root, _ = _sample_graph(counted, [])
    res = _run_sort(topological_order, root, piece, budget, 1000)
    if res is False or not _check_order(res, root, piece):
        return Feedback(False)
    # 2. 40 levels, each Value used twice: linear work only if each Value is expanded once
    v = counted(1.0, (), None, "x")
    for i in range(40):
        v = _node(counted, "add", (v, v), f"d{i}", [])
    res = _run_sort(topological_order, v, piece, budget, 10 * 41 + 100)
    if res is False or not _check_order(res, v, piece):
        return Feedback(False)
    # 3. 5,000 levels deep: a recursive walk fails
    v = counted(1.0, (), None, "x")
    for i in range(5000):
        v = _node(counted, "mul", (v, counted(1.0, (), None, f"c{i}")), f"m{i}", [])
    res = _run_sort(topological_order, v, piece, budget, 10 * 10001 + 100)
    if res is False or not _check_order(res, v, piece):
        return Feedback(False)
    return Feedback(_good(piece))


# ---- the chain-rule loop ---------------------------------------------------------------------

def _reference(order: list) -> tuple[dict[int, float], dict[int, list[float]]]:
    """Each Value's total gradient, and the contributions it receives, in a correct run."""
    total = {id(v): 0.0 for v in order}
    parts: dict[int, list[float]] = {id(v): [] for v in order}
    total[id(order[-1])] = 1.0
    for v in reversed(order):
        if v.op is None:
            continue
        for p, g in zip(v.parents, v.op.__class__.backward(v.op, total[id(v)], v.data,
                                                           *(p.data for p in v.parents))):
            total[id(p)] += g
            parts[id(p)].append(g)
    return total, parts


def _order_of(root: Any) -> list:
    """A correct topological order made here, so this check does not rely on the student's."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
        elif id(v) not in seen:
            seen.add(id(v))
            stack.append((v, True))
            stack.extend((p, False) for p in v.parents if id(p) not in seen)
    return order


def check_chain_rule(chain_rule: Callable, value_cls: type) -> Feedback:
    """Run on a correct order: each op once, after all its users, with the summed gradient;
    leaves receive the sum of every path; leaves accumulate over calls."""
    piece = "chain_rule"
    log: list = []
    root, values = _sample_graph(value_cls, log)
    order = _order_of(root)
    total, parts = _reference(order)
    log.clear()
    for v in values:
        v.grad = 0.0
    try:
        chain_rule(list(order))
    except NotImplementedError as e:
        return Feedback(_pending(piece, e))
    except AttributeError as e:
        if "NoneType" in str(e) and "backward" in str(e):
            return Feedback(_bad(piece, "it called backward on a leaf, whose op is None.",
                                 "skip the Values with `v.op is None`: they have nothing to "
                                 "pass on"))
        return Feedback(_crashed(piece, e))
    except Exception as e:  # noqa: BLE001
        return Feedback(_crashed(piece, e))
    users = {id(v): [u for u in values if any(p is v for p in u.parents)] for v in values}
    ran: list = []
    for node, grad, out, xs in log:
        name = _label(node)
        if any(n is node for n in ran):
            return Feedback(_bad(piece, f"it ran {name}'s op.backward twice.", "call each "
                                 "Value's op.backward once: loop over the order, not over edges"))
        waiting = [u for u in users[id(node)] if not any(n is u for n in ran)]
        if waiting:
            return Feedback(_bad(piece, f"it ran {name}'s op.backward before "
                                 f"{_label(waiting[0])}, which was computed from {name}, had "
                                 f"sent its gradient to {name}.", "walk the order backwards, "
                                 "output first: `for v in reversed(order)`"))
        ran.append(node)
        want = (total[id(node)], node.data, tuple(p.data for p in node.parents))
        if (grad, out, tuple(xs)) != want:
            if out == want[1] and tuple(xs) == want[2]:
                return Feedback(_grad_mismatch(piece, name, grad, total[id(node)],
                                               parts[id(node)]))
            return Feedback(_bad(piece, f"it called {name}'s op.backward(grad={grad!r}, "
                                 f"out={out!r}, inputs={tuple(xs)!r}); expected grad="
                                 f"{want[0]:g}, out={want[1]:g}, inputs={want[2]!r}.",
                                 "v.op.backward(v.grad, v.data, *[p.data for p in v.parents])"))
    for v in values:
        if v.op is not None and not any(n is v for n in ran):
            return Feedback(_bad(piece, f"it never ran {_label(v)}'s op.backward.", "every Value "
                                 "with an op passes its gradient on to its parents"))
    for v in values:
        if v.op is None and not _same(v.grad, total[id(v)]):
            return Feedback(_grad_mismatch(piece, _label(v), v.grad, total[id(v)], parts[id(v)]))
    # leaves accumulate across calls, like .grad in torch
    before = {id(v): v.grad for v in values if v.op is None}
    try:
        chain_rule(list(order))
    except Exception as e:  # noqa: BLE001
        return Feedback(_crashed(piece, e, "the second call on the same graph failed"))
    for v in values:
        if v.op is None and not _same(v.grad, 2 * before[id(v)]):
            return Feedback(_bad(piece, f"after two calls, leaf {_label(v)}.grad should be "
                                 f"{2 * before[id(v)]:g} (leaves accumulate, like .grad in "
                                 f"torch); got {v.grad:g}.", "do not reset the leaves' grad: "
                                 "add into it"))
    return Feedback(_good(piece))


def _grad_mismatch(piece: str, name: str, got: float, want: float, parts: list[float]) -> bool:
    if len(parts) > 1 and any(_same(got, p) for p in parts):
        shown = " + ".join(f"{p:g}" for p in parts)
        return _bad(piece, f"{name} receives gradient along {len(parts)} edges ({shown}); its "
                    f"grad should be their sum, {want:g}; got {got:g}, one edge only.",
                    "add each contribution into the parent's grad (`p.grad += g`), do not "
                    "overwrite it (`p.grad = g`)")
    return _bad(piece, f"{name}'s gradient should be {want:g}; got {got:g}.",
                "add op.backward's results as they are: they already include the incoming grad")


# ---- the engine's schedule (exercise) --------------------------------------------------------

def check_engine_order(engine_order: Callable, expr: Callable, points: list[float],
                       value_cls: type) -> Feedback:
    """``engine_order(root)`` names the op Values in the order autograd_lab's engine runs the
    matching nodes, as its ``Listener`` reports them for the same ``expr`` on tensors."""
    from ...autograd.graph import Listener, listen
    from ...factories import tensor

    piece = "engine_order"

    class Names(Listener):
        def __init__(self) -> None:
            self.names: list[str] = []

        def on_node(self, node: Any, grad_outputs: list) -> None:
            if node.name() != "torch::autograd::AccumulateGrad":
                self.names.append(node.name())

    rec = Names()
    xs = [tensor(p, requires_grad=True) for p in points]
    with listen(rec):
        expr(*xs).backward()
    root = expr(*[value_cls(p, (), None, f"x{i}") for i, p in enumerate(points)])
    try:
        res = engine_order(root)
    except NotImplementedError as e:
        return Feedback(_pending(piece, e))
    except Exception as e:  # noqa: BLE001
        return Feedback(_crashed(piece, e))
    if res is None or res is Ellipsis:
        return Feedback(_pending(piece) if res is Ellipsis else
                        _bad(piece, "it returned None.", "return the list of Values"))
    res = list(res)
    if any(getattr(v, "op", None) is None for v in res):
        return Feedback(_bad(piece, "it lists a leaf: list only the Values with an op "
                             "(the engine's AccumulateGrad nodes are left out here too)."))
    ours = [v.op.torch_name for v in res]
    if ours == rec.names:
        return Feedback(_good(piece))
    return Feedback(_bad(piece, f"the engine ran {rec.names}; your order gives {ours}.",
                         "count each Value's users first; then repeatedly take, among the "
                         "Values whose users have all run, the one created last (largest seq)"))
