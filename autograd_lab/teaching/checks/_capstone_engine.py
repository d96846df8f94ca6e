"""The capstone's last exercise: the order in which autograd_lab's engine runs the nodes.

The expressions are programs over a list of registers, so that the same program runs on the
student's ``Value`` (in the student's kernel) and on tensors (where the engine's ``Listener``
reports the order, in the grader's process).
"""

from __future__ import annotations

from typing import Any, Callable

from ..._dtype import float64
from ...factories import tensor
from ...listener import Listener, listen
from ._payloads import Variant, early, failed, passed

Program = list[tuple[str, tuple[int, ...]]]


def _small(a: Any, b: Any) -> Any:
    u = a * b
    v = (u + a).exp()
    w = u.tanh()
    return v * w + (-b)


def _layered(a: Any, b: Any) -> Any:
    c = a * b + b ** 3
    d = (c + a).relu() * 3 + (-c).exp()
    return (d * c).tanh() + (a * a).log() + d


def _step(op: str, x: list[Any]) -> Any:
    if op == "add":
        return x[0] + x[1]
    if op == "mul":
        return x[0] * x[1]
    if op == "neg":
        return -x[0]
    if op in ("pow2", "pow3"):
        return x[0] ** int(op[-1])
    if op == "exp_tanh":
        return x[0].tanh().exp()
    return getattr(x[0], op)()  # tanh, relu


def _run(program: Program, inputs: list[Any]) -> Any:
    regs = list(inputs)
    for op, args in program:
        regs.append(_step(op, [regs[i] for i in args]))
    return regs[-1]


def _programs(variant: Variant) -> list[tuple[str, Callable[..., Any], list[float]]]:
    """(label, expression of the inputs, input values)."""
    if variant.fixed:
        return [("small", _small, [0.5, -1.0]), ("layered", _layered, [-4.0, 2.0])]
    rng = variant.rng("nb16.engine_order")
    out = []
    for k in range(3):
        n_in = int(rng.integers(2, 4))
        prog: Program = []
        for _ in range(int(rng.integers(6, 12))):
            n = n_in + len(prog)
            op = str(rng.choice(["add", "mul", "add", "neg", "pow2", "pow3", "tanh", "relu",
                                 "exp_tanh"]))
            arity = 2 if op in ("add", "mul") else 1
            # mostly recent registers, sometimes an old one: fan-outs and paths that meet again
            args = tuple(int(n - 1 - min(int(rng.geometric(0.4)) - 1, n - 1))
                         for _ in range(arity))
            prog.append((op, args))
        n = n_in + len(prog)
        prog.append(("add", (n - 1, int(rng.integers(0, n - 1)))))
        values = [round(float(v), 2) for v in rng.uniform(-0.9, 0.9, n_in)]
        out.append((f"a random expression ({k + 1})", lambda *xs, p=prog: _run(p, list(xs)),
                    values))
    return out


def _engine_names(expr: Callable[..., Any], points: list[float]) -> list[str]:
    """The op nodes autograd_lab's engine runs for ``expr`` at ``points``, in order."""
    names: list[str] = []

    class Names(Listener):
        def on_node(self, node: Any, grad_outputs: list) -> None:
            if node.name() != "torch::autograd::AccumulateGrad":
                names.append(node.name())

    xs = [tensor(p, dtype=float64, requires_grad=True) for p in points]
    with listen(Names()):
        expr(*xs).backward()
    return names


def _student_order(engine_order: Callable, expr: Callable, points: list[float],
                   value_cls: type) -> dict:
    root = expr(*[value_cls(p, (), None, f"x{i}") for i, p in enumerate(points)])
    try:
        res = engine_order(root)
    except NotImplementedError as e:
        return {"pending": f"not implemented yet: {e}; then run this check again"}
    except Exception as e:  # noqa: BLE001 - the student's error is recorded
        return {"raised": f"{type(e).__name__}: {e}"}
    if res is Ellipsis:
        return {"pending": "not implemented yet: replace the stub with your code"}
    if res is None:
        return {"none": True}
    res = list(res)
    if any(getattr(v, "op", None) is None for v in res):
        return {"leaf": True}
    return {"names": [str(v.op.torch_name) for v in res]}


def collect_engine_order(ns: dict, variant: Variant) -> dict:
    fn, value_cls = ns.get("engine_order"), ns["Value"]
    if fn is None or fn is Ellipsis:
        return {"unanswered": True}
    return {"runs": [_student_order(fn, expr, points, value_cls)
                     for _, expr, points in _programs(variant)]}


def _verdict(run: dict, engine: list[str], label: str) -> tuple[str, str] | None:
    if "pending" in run:
        return "unanswered", run["pending"]
    if "raised" in run:
        return failed(f"it raised {run['raised']}")
    if run.get("none"):
        return failed("it returned None: return the list of Values.")
    if run.get("leaf"):
        return failed("it lists a leaf: list only the Values with an op (the engine's "
                      "AccumulateGrad nodes are left out here too).")
    if run["names"] != engine:
        on = f"on {label} " if label else ""
        return failed(f"{on}the engine ran {engine}; your order gives {run['names']}.")
    return None


def judge_engine_order(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (label, expr, points), run in zip(_programs(variant), payload["runs"]):
        if (v := _verdict(run, _engine_names(expr, points), label)) is not None:
            return v
    return passed()


def run_engine_order(engine_order: Callable, expr: Callable, points: list[float],
                     value_cls: type) -> tuple[str, str]:
    """The in-notebook check: the notebook's own expression."""
    run = _student_order(engine_order, expr, points, value_cls)
    return _verdict(run, _engine_names(expr, points), "") or passed()
