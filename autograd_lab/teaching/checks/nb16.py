"""Checks for notebook 16, the capstone: each piece of a home-made scalar engine.

The notebook defines ``Value(data, parents=(), op=None, label="")`` (``seq`` counts creations)
and ``Op`` classes whose ``backward(grad, out, *inputs)`` returns one gradient per input.
The student writes each op's ``backward``, ``topological_order(root)`` and
``chain_rule(order)``. Each check runs the piece on graphs made here (with the student's
``Value``, and ops of its own where the piece under test must not depend on the others),
prints one line per piece -- ✓, … "not implemented yet", or ✗ with what is wrong -- and
returns a ``Feedback``. What a right answer gives is worked out inside each judge.

    from autograd_lab.teaching.checks import nb16
    nb16.check_ops(Add, Mul, Neg)
    nb16.check_topological_order(topological_order, Value)
    nb16.check_chain_rule(chain_rule, Value)
    (Add, ...), topological_order, chain_rule = nb16.check_engine(Op, Value, (Add, ...),
                                                                  topological_order, chain_rule)

``check_engine`` keeps each piece that passes and stands in a reference one for each that
does not yet (``_capstone_fallback``), so that the later sections run before all is solved.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..exercises import Feedback, check_close
from . import _capstone_graphs as graphs
from ._capstone_engine import collect_engine_order, judge_engine_order, run_engine_order
from ._capstone_fallback import note, stand_in_chain_rule, stand_in_op, stand_in_order
from ._payloads import FIXED, Variant, early, failed, guarded, passed, spec, value_spec

__all__ = ["EXERCISES", "NOTEBOOK", "check_chain_rule", "check_engine", "check_engine_order",
           "check_ops", "check_topological_order"]

NOTEBOOK = "16_capstone_build_an_engine"
NAMES = "ab"


def _line(piece: str, result: tuple[str, str], hint: str = "") -> bool:
    status, message = result
    if status == "passed":
        return bool(Feedback(True, piece).show())
    if status == "unanswered":
        return bool(Feedback(False, piece, message, state="waiting").show())
    return bool(Feedback(False, piece, message, hint).show())


def _pending(e: BaseException | None = None) -> dict:
    what = str(e) if e is not None and str(e) else "replace the stub with your code"
    return {"pending": f"not implemented yet: {what}; then run this check again"}


# ---- the backward of each op -----------------------------------------------------------------

def _points(name: str, variant: Variant) -> list[tuple[tuple, float, tuple[float, ...]]]:
    """(op parameters, grad, inputs) at which an op's backward is tried."""
    params = [(3,), (-1,)] if name == "Pow" else [()]
    if variant.fixed:
        if name in ("Add", "Mul"):
            pts = [(0.5, (2.0, -3.0)), (-2.0, (-0.5, 4.0))]
        elif name == "Log":
            pts = [(0.5, (0.7,)), (-2.0, (2.5,))]
        elif name == "ReLU":  # x = 0 included: the derivative there is 0, as in torch
            pts = [(0.5, (0.7,)), (-2.0, (-1.3,)), (1.5, (0.0,))]
        else:
            pts = [(0.5, (0.7,)), (-2.0, (-1.3,))]
        return [(p, g, xs) for p in params for g, xs in pts]
    rng = variant.rng(f"nb16.{name}")
    if name == "Pow":
        params.append((int(rng.choice([2, 4, -2])),))
    out = []
    for p in params:
        for _ in range(3):
            g = round(float(rng.normal() * 2), 3) or 1.0
            if name in ("Add", "Mul"):
                xs: tuple[float, ...] = tuple(round(float(v), 3) for v in rng.normal(size=2) * 2)
            elif name == "Log":
                xs = (round(float(rng.uniform(0.1, 4)), 3),)
            else:
                xs = (round(float(rng.normal() * 1.5), 3) or 0.5,)
            out.append((p, g, xs))
        if name == "ReLU":
            out.append((p, round(float(rng.uniform(0.5, 3)), 3), (0.0,)))
    return out


def _run_op(op_cls: Any, name: str, variant: Variant) -> dict:
    """Run one op's forward and backward at the points of ``variant``."""
    calls = []
    for params, g, xs in _points(name, variant):
        try:
            op = op_cls(*params)
            out = float(op.forward(*xs))
        except Exception as e:  # noqa: BLE001 - feedback, not a crash
            return {"forward_raised": f"{type(e).__name__}: {e}"}
        try:
            res = op.backward(g, out, *xs)
        except NotImplementedError as e:
            return _pending(e)
        except Exception as e:  # noqa: BLE001
            return {"raised": f"{type(e).__name__}: {e}"}
        if res is Ellipsis:
            return _pending()
        if not isinstance(res, (tuple, list)):
            return {"kind": "None" if res is None else type(res).__name__}
        try:
            calls.append({"out": out, "res": [float(v) for v in res]})
        except (TypeError, ValueError):
            return {"not_number": [type(v).__name__ for v in res]}
    return {"calls": calls}


def _judge_op(name: str, rec: dict, variant: Variant) -> tuple[str, str]:
    # what each backward must return, why, and the usual wrong answers, in grad, out, a, b, k
    rules: dict[str, tuple[str, list[str], list[str], list[str]]] = {
        "Add": ("a + b", ["grad", "grad"], ["d(a+b)/da = 1", "d(a+b)/db = 1"],
                ["1", "grad * a", "grad * b", "a", "b", "0"]),
        "Mul": ("a * b", ["grad * b", "grad * a"], ["d(a*b)/da = b", "d(a*b)/db = a"],
                ["grad * a", "grad * b", "b", "a", "grad", "grad * out"]),
        "Neg": ("-a", ["-grad"], ["d(-a)/da = -1"], ["grad", "-1", "-a", "-grad * a"]),
        "Pow": ("a ** k", ["grad * k * a ** (k - 1)"], ["d(a**k)/da = k * a**(k-1)"],
                ["k * a ** (k - 1)", "grad * a ** (k - 1)", "grad * k * a ** k",
                 "grad * (k - 1) * a ** (k - 2)", "grad * k * out", "grad * out"]),
        "Exp": ("math.exp(a)", ["grad * out"], ["d exp(a)/da = exp(a)"],
                ["out", "grad * a", "grad"]),
        "Log": ("math.log(a)", ["grad / a"], ["d log(a)/da = 1/a"],
                ["1 / a", "grad * math.log(a)", "grad * a", "grad / out", "grad * out"]),
        "Tanh": ("math.tanh(a)", ["grad * (1 - out ** 2)"], ["d tanh(a)/da = 1 - tanh(a)**2"],
                 ["1 - out ** 2", "grad * (1 - a ** 2)", "grad * (1 + out ** 2)",
                  "grad * out", "grad * (1 - out)"]),
        "ReLU": ("max(a, 0.0)", ["grad * (a > 0)"],
                 ["d relu(a)/da = 1 where a > 0, and 0 where a <= 0 (torch's choice at 0)"],
                 ["(a > 0)", "grad * (a >= 0)", "grad", "grad * out", "out", "grad * (a < 0)"]),
        "Sigmoid": ("1 / (1 + math.exp(-a))", ["grad * out * (1 - out)"],
                    ["d sigmoid(a)/da = s * (1 - s)"],
                    ["out * (1 - out)", "grad * a * (1 - a)", "grad * out",
                     "grad * (1 - out)"]),
    }
    if name not in rules:
        return failed(f"no check for an op named {name!r}; known: {', '.join(rules)}.")
    forward, expected, why, wrong = rules[name]
    arity = len(expected)
    if (out := early(rec)) is not None:
        return out
    if "pending" in rec:
        return "unanswered", rec["pending"]
    if "forward_raised" in rec:
        return failed(f"forward raised {rec['forward_raised']}: the forward rules are given, run "
                      "their cell again without changes.")
    if "raised" in rec:
        return failed(f"it raised {rec['raised']}")
    if "kind" in rec:
        return failed("it returned None: end it with `return ...`, one gradient per input, in a "
                      "tuple." if rec["kind"] == "None" else f"it returned a {rec['kind']}, not a "
                      "tuple: one gradient per input, in a tuple (`return (g,)`, mind the comma).")
    if "not_number" in rec:
        return failed(f"a gradient is a {rec['not_number'][0]}, not a number.")

    def ev(expr: str, env: dict) -> float:
        return float(eval(expr, {"math": math, "__builtins__": {"max": max}}, env))  # noqa: S307

    envs, got = [], []
    for (params, g, xs), call in zip(_points(name, variant), rec["calls"]):
        env = dict(zip(NAMES, xs), grad=g, k=params[0] if params else 0)
        env["out"] = ev(forward, env)
        if not math.isclose(call["out"], env["out"], rel_tol=1e-9, abs_tol=1e-12):
            return failed("forward gives other values than the op it names: the forward rules "
                          "are given, run their cell again without changes.")
        if len(call["res"]) != arity:
            n = len(call["res"])
            return failed(f"it returned {n} gradient{'s' if n != 1 else ''} for {arity} input"
                          f"{'s' if arity > 1 else ''}: one gradient per input, in the order of "
                          "forward's arguments.")
        envs.append((params, env))
        got.append(call["res"])
    for i in range(arity):
        for params, env_set in _by_params(envs):
            idx = [j for j, (p, _) in enumerate(envs) if p == params]
            mine = [got[j][i] for j in idx]
            want = [ev(expected[i], e) for e in env_set]
            if all(math.isclose(m, w, rel_tol=1e-9, abs_tol=1e-12) for m, w in zip(mine, want)):
                continue
            const = f" (k = {params[0]})" if params else ""
            shown = ", ".join(f"{k}={v:g}" for k, v in env_set[0].items() if k != "k" or params)
            seen = f"got {mine[0]:.6g} where {expected[i]} = {want[0]:.6g} ({shown})"
            for expr in [e for j, e in enumerate(expected) if j != i] + wrong + [
                    f"-({expected[i]})"]:
                try:
                    if all(math.isclose(m, ev(expr, e), rel_tol=1e-9, abs_tol=1e-12)
                           for m, e in zip(mine, env_set)):
                        seen = f"got {expr}"
                        break
                except (ArithmeticError, ValueError):
                    continue
            return failed(f"the gradient for {NAMES[i]}{const} should be {expected[i]}, since "
                          f"{why[i]}; {seen}.")
    return passed()


def _by_params(envs: list[tuple[tuple, dict]]) -> list[tuple[tuple, list[dict]]]:
    groups: dict[tuple, list[dict]] = {}
    for params, env in envs:
        groups.setdefault(params, []).append(env)
    return list(groups.items())


def _ops_spec(names: list[str], title: str) -> Any:
    def collect(ns: dict, variant: Variant) -> dict:
        return {"ops": {n: _run_op(ns[n], n, variant) if n in ns else {"unanswered": True}
                        for n in names}}

    def judge(payload: dict, variant: Variant) -> tuple[str, str]:
        if (out := early(payload)) is not None:
            return out
        results = [(n, _judge_op(n, payload["ops"][n], variant)) for n in names]
        bad = [(n, r) for n, r in results if r[0] in ("failed", "error")]
        if bad:
            return bad[0][1][0], "; ".join(f"{n}.backward: {m}" for n, (_, m) in bad)
        if any(r[0] == "unanswered" for _, r in results):
            return "unanswered", "; ".join(f"{n}.backward: {m}" for n, (s, m) in results
                                           if s == "unanswered")
        return passed()

    return spec(collect, judge, title)


def check_ops(*ops: type) -> Feedback:
    """Each op's ``backward(grad, out, *inputs)`` at a few points; one line per op."""
    results = []
    for op in ops:
        name = getattr(op, "__name__", repr(op))
        rec = guarded(lambda ns, v, op=op, name=name: _run_op(op, name, v))({}, FIXED)
        results.append(_line(f"{name}.backward", _judge_op(name, rec, FIXED),
                             "backward returns grad times the local derivative (the chain "
                             "rule's link), one per input"))
    return Feedback(bool(results) and all(results))


# ---- topological order -----------------------------------------------------------------------

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


def _topo_graphs(variant: Variant) -> list[tuple[str, graphs.Spec]]:
    return [("a lone leaf", [("leaf", (), 1.0, "leaf")]),
            ("a graph with shared Values", graphs.sample_graph(variant)),
            ("a graph where every Value is used twice, 40 levels deep", graphs.doubling()),
            ("a chain of 5,000 Values", graphs.deep_chain())]


def _collect_topo(ns: dict, variant: Variant) -> dict:
    sort, value_cls = ns.get("topological_order"), ns["Value"]
    if sort is None or sort is Ellipsis:
        return {"unanswered": True}
    budget = [10 ** 9]
    counted = _counting(value_cls, budget)
    runs = []
    for _, g in _topo_graphs(variant):
        made = graphs.build(g, counted)
        index = {id(v): i for i, v in enumerate(made)}
        budget[0] = 10 * len(g) + 100
        try:
            res = sort(made[-1])
        except NotImplementedError as e:
            return _pending(e)
        except RecursionError:
            runs.append({"fail": "recursion"})
            break
        except _TooMuchWork:
            runs.append({"fail": "work"})
            break
        except Exception as e:  # noqa: BLE001
            runs.append({"fail": f"it raised {type(e).__name__}: {e}"})
            break
        finally:
            budget[0] = 10 ** 9
        if res is Ellipsis:
            return _pending()
        if res is None:
            runs.append({"fail": "it returned None: return the list of Values."})
            break
        try:
            runs.append({"order": [index.get(id(v), -1) for v in res]})
        except TypeError:
            runs.append({"fail": f"it returned a {type(res).__name__}, not a list of Values."})
            break
    return {"runs": runs}


def _judge_topo(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if "pending" in payload:
        return "unanswered", payload["pending"]
    hint = ("append a Value only after all of its parents are in the list (a depth-first "
            "post-order); the output comes last")
    for k, ((label, g), run) in enumerate(zip(_topo_graphs(variant), payload["runs"])):
        on = "" if k == 1 else f"on {label} "
        fail = run.get("fail")
        if fail == "recursion":
            return failed("RecursionError on a chain of 5,000 Values: one Python call per level "
                          "hits the recursion limit (about 1,000); keep your own stack.")
        if fail == "work":
            return failed("it visits shared Values again and again: on a graph where every Value "
                          "is used twice, 40 levels deep, that is 2**40 paths. Remember the "
                          "Values you have expanded and expand each one once.")
        if fail:
            return failed(f"{on}{fail}")
        order = run["order"]
        labels = [n[3] for n in g]
        if len(set(order)) != len(order):
            twice = next(i for i in order if order.count(i) > 1)
            return failed(f"{on}it lists {labels[twice]} twice: a Value used by several "
                          "others appears once (listed twice, it would send its gradient on "
                          "twice).")
        reach = graphs.reachable(g)
        if any(i not in reach for i in order):
            return failed(f"{on}it contains something that is not a Value of the graph.")
        if len(g) - 1 not in order:
            return failed(f"{on}the output itself is missing. {hint}.")
        if len(order) < len(reach):
            left = min(reach - set(order))
            return failed(f"{on}it leaves out {labels[left]}: the order holds every Value "
                          "the output was computed from, leaves included.")
        pos = {i: k for k, i in enumerate(order)}
        bad = [(i, p) for i in order for p in g[i][1] if pos[p] > pos[i]]
        if bad:
            if all(pos[p] > pos[i] for i in order for p in g[i][1]):
                return failed("the order is reversed: the output comes first. Inputs first, "
                              "output last: chain_rule walks it backwards itself.")
            v, p = bad[0]
            return failed(f"{on}it puts {labels[v]} before {labels[p]}, but {labels[v]} "
                          f"was computed from {labels[p]}: every Value must come after all the "
                          "Values it was computed from. A breadth-first walk from the output "
                          "does not ensure this, nor does marking a Value seen when it is pushed "
                          "rather than when it is expanded.")
    return passed()


def check_topological_order(topological_order: Callable, value_cls: type) -> Feedback:
    """Every Value once, each after its parents, the output last; iterative; linear time."""
    payload = guarded(_collect_topo)({"topological_order": topological_order,
                                      "Value": value_cls}, FIXED)
    return Feedback(_line("topological_order", _judge_topo(payload, FIXED)))


# ---- the chain-rule loop ---------------------------------------------------------------------

def _collect_chain(ns: dict, variant: Variant) -> dict:
    chain_rule, value_cls = ns.get("chain_rule"), ns["Value"]
    if chain_rule is None or chain_rule is Ellipsis:
        return {"unanswered": True}
    log: list = []
    made = graphs.build(graphs.sample_graph(variant), value_cls, log)
    leaves = [i for i, v in enumerate(made) if v.op is None]
    for v in made:
        v.grad = 0.0
    rounds = []
    for _ in range(2):  # twice: leaves accumulate across calls, like .grad in torch
        log.clear()
        try:
            chain_rule(list(made))  # creation order is a topological order
        except NotImplementedError as e:
            return _pending(e)
        except AttributeError as e:
            leaf = "NoneType" in str(e) and "backward" in str(e)
            rounds.append({"raised": "leaf" if leaf else f"AttributeError: {e}"})
            break
        except Exception as e:  # noqa: BLE001
            rounds.append({"raised": f"{type(e).__name__}: {e}"})
            break
        rounds.append({"log": [[i, g, out, list(xs)] for i, g, out, xs in log],
                       "leaves": [float(made[i].grad) for i in leaves]})
    return {"rounds": rounds}


def _judge_chain(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if "pending" in payload:
        return "unanswered", payload["pending"]
    g = graphs.sample_graph(variant)
    labels, data = [n[3] for n in g], graphs.values_of(g)
    total, parts = [0.0] * len(g), [[] for _ in g]
    total[-1] = 1.0
    for i in range(len(g) - 1, -1, -1):  # each Value's gradient, summed over its users
        kind, parents = g[i][0], g[i][1]
        if kind == "leaf":
            continue
        xs = [data[p] for p in parents]
        local = [xs[1], xs[0]] if kind == "mul" else [1.0] * len(xs)
        for p, d in zip(parents, local):
            total[p] += total[i] * d
            parts[p].append(total[i] * d)
    users = {i: [u for u, n in enumerate(g) if i in n[1]] for i in range(len(g))}
    leaves = [i for i, n in enumerate(g) if n[0] == "leaf"]
    first = payload["rounds"][0]
    if first.get("raised") == "leaf":
        return failed("it called backward on a leaf, whose op is None: skip the Values with "
                      "`v.op is None`, they have nothing to pass on.")
    if "raised" in first:
        return failed(f"it raised {first['raised']}")
    ran: list[int] = []
    for i, grad, out, xs in first["log"]:
        name = labels[i]
        if i in ran:
            return failed(f"it ran {name}'s op.backward twice: call each Value's op.backward "
                          "once, looping over the order, not over edges.")
        waiting = [u for u in users[i] if u not in ran]
        if waiting:
            return failed(f"it ran {name}'s op.backward before {labels[waiting[0]]}, which was "
                          f"computed from {name}, had sent its gradient to {name}: walk the "
                          "order backwards, output first: `for v in reversed(order)`.")
        ran.append(i)
        want_xs = [data[p] for p in g[i][1]]
        if not (math.isclose(out, data[i]) and all(math.isclose(a, b) for a, b in
                                                   zip(xs, want_xs))):
            return failed(f"it called {name}'s op.backward(grad={grad!r}, out={out!r}, "
                          f"inputs={tuple(xs)!r}); expected grad={total[i]:g}, out={data[i]:g}, "
                          f"inputs={tuple(want_xs)!r}: v.op.backward(v.grad, v.data, "
                          "*[p.data for p in v.parents]).")
        if not math.isclose(grad, total[i], rel_tol=1e-9, abs_tol=1e-12):
            return _mismatch(name, grad, total[i], parts[i])
    never = [i for i, n in enumerate(g) if n[0] != "leaf" and i not in ran]
    if never:
        return failed(f"it never ran {labels[never[0]]}'s op.backward: every Value with an op "
                      "passes its gradient on to its parents.")
    for k, i in enumerate(leaves):
        if not math.isclose(first["leaves"][k], total[i], rel_tol=1e-9, abs_tol=1e-12):
            return _mismatch(labels[i], first["leaves"][k], total[i], parts[i])
    if len(payload["rounds"]) < 2 or "raised" in payload["rounds"][1]:
        return failed("the second call on the same graph failed.")
    for k, i in enumerate(leaves):
        if not math.isclose(payload["rounds"][1]["leaves"][k], 2 * total[i], rel_tol=1e-9,
                            abs_tol=1e-12):
            return failed(f"after two calls, leaf {labels[i]}.grad should be {2 * total[i]:g} "
                          "(leaves accumulate, like .grad in torch): do not reset the leaves' "
                          "grad, add into it.")
    return passed()


def _mismatch(name: str, got: float, want: float, parts: list[float]) -> tuple[str, str]:
    if len(parts) > 1 and any(math.isclose(got, p, rel_tol=1e-9) for p in parts):
        return failed(f"{name} receives gradient along {len(parts)} edges; its grad should be "
                      f"their sum, {want:g}; got {got:g}, one edge only: add each contribution "
                      "into the parent's grad (`p.grad += g`), do not overwrite it.")
    return failed(f"{name}'s gradient should be {want:g}; got {got:g}: add op.backward's results "
                  "as they are, they already include the incoming grad.")


def check_chain_rule(chain_rule: Callable, value_cls: type) -> Feedback:
    """Run on a correct order: each op once, after all its users, with the summed gradient;
    leaves receive the sum of every path; leaves accumulate over calls."""
    payload = guarded(_collect_chain)({"chain_rule": chain_rule, "Value": value_cls}, FIXED)
    return Feedback(_line("chain_rule", _judge_chain(payload, FIXED)))


def check_engine_order(engine_order: Callable, expr: Callable, points: list[float],
                       value_cls: type) -> Feedback:
    """``engine_order(root)`` names the op Values in the order autograd_lab's engine runs the
    matching nodes, as its ``Listener`` reports them for the same ``expr`` on tensors."""
    return Feedback(_line("engine_order", run_engine_order(engine_order, expr, points,
                                                           value_cls),
                          "count each Value's users first; then repeatedly take, among the "
                          "Values whose users have all run, the one created last (largest seq)"))


def _after_two(grad_after_two: Any) -> Feedback:
    return check_close("a.grad after two backward calls", grad_after_two, 2 * (2 * 3.0 + 1),
                       hint="one call gives dh/da = 2a + 1 = 7; a leaf adds every call's "
                            "gradient to .grad")


EXERCISES = {
    "ops_basic": _ops_spec(["Add", "Mul", "Neg"], "Add, Mul and Neg backward"),
    "ops_unary": _ops_spec(["Pow", "Exp", "Log", "Tanh", "ReLU"],
                           "Pow, Exp, Log, Tanh and ReLU backward"),
    "topo": spec(_collect_topo, _judge_topo, "topological_order"),
    "chain_rule": spec(_collect_chain, _judge_chain, "chain_rule"),
    "ex1": _ops_spec(["Sigmoid"], "Sigmoid backward"),
    "ex2": spec(collect_engine_order, judge_engine_order, "engine_order"),
    "ex3": value_spec(["grad_after_two"], _after_two),
}


def check_engine(op_base: type, value_cls: type, ops: tuple, topological_order: Callable,
                 chain_rule: Callable) -> tuple[tuple, Callable, Callable]:
    """The pieces the rest of the notebook runs on: each of yours that passes its check, and a
    reference stand-in (said in one line) for each that does not pass yet, so that the later
    sections run before everything is solved: ``(ops, topological_order, chain_rule)``."""
    borrowed: list[str] = []
    kept = []
    for op in ops:
        name = getattr(op, "__name__", repr(op))
        if _judge_op(name, guarded(lambda ns, v, op=op, name=name: _run_op(op, name, v))(
                {}, FIXED), FIXED)[0] == "passed":
            kept.append(op)
        else:
            kept.append(stand_in_op(op_base, name))
            borrowed.append(f"{name}.backward")
    topo = guarded(_collect_topo)({"topological_order": topological_order, "Value": value_cls},
                                  FIXED)
    if _judge_topo(topo, FIXED)[0] != "passed":
        topological_order = stand_in_order()
        borrowed.append("topological_order")
    chain = guarded(_collect_chain)({"chain_rule": chain_rule, "Value": value_cls}, FIXED)
    if _judge_chain(chain, FIXED)[0] != "passed":
        chain_rule = stand_in_chain_rule()
        borrowed.append("chain_rule")
    if borrowed:
        note(borrowed)
    else:
        print("✓ the engine below is all yours: every op's backward, topological_order and "
              "chain_rule")
    return tuple(kept), topological_order, chain_rule
