"""The backward stepper as a fidelity instrument: every frame's caption under real torch.

Each case is a program and the tensor whose backward it steps through. ``replay`` records
that backward with ``record_backward`` (under torch, through ``viz.torch_bridge``: torch's own
engine heard through its hooks) and returns every frame's ``caption_text``, which names the
node that runs, what it receives and sends, the ``.grad`` written and in which order. The
cases: every backward pass the course's notebooks step through, and the generated programs of
``scripts/oracle/stepper_programs.py`` (``stepper_programs.json``).
"""

from __future__ import annotations

import importlib
import json
import textwrap
import warnings
from pathlib import Path
from typing import Any

CASES: list[dict] = []


def course(name: str, code: str, retain_graph: bool = False, again: bool = False) -> None:
    """A course stepper: ``code`` binds ``root`` and ``params``."""
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n",
                  "retain_graph": retain_graph, "again": again})


course("nb03_chain_rule", """
    a2 = torch.tensor(2.0, requires_grad=True)
    b2 = torch.tensor(3.0, requires_grad=True)
    c2 = torch.tensor(4.0, requires_grad=True)
    d2 = torch.tensor(5.0, requires_grad=True)
    u2 = a2 * b2
    t2 = torch.log(d2)
    v2 = t2 * c2
    e2 = u2 + v2
    t2.retain_grad()
    root, params = e2, {"a": a2, "b": b2, "c": c2, "d": d2, "u": u2, "t": t2, "v": v2, "e": e2}
""")
course("nb03_accumulation_order", """
    a, b, c = (torch.tensor(val, requires_grad=True) for val in (2.0, 3.0, 4.0))
    e = a * b + c
    root, params = e, {"a": a, "b": b, "c": c, "e": e}
""")
course("nb04_two_paths", """
    x = torch.tensor(3.0, requires_grad=True)
    sq = x**2
    cube = x**3
    y = sq + cube
    root, params = y, {"x": x, "x**2": sq, "x**3": cube, "y": y}
""")
course("nb05_backward_again", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = (x * x).sum()
    root, params = loss, {"x": x, "loss": loss}
""", retain_graph=True, again=True)
course("nb05_backward_twice_frees", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = (x * x).sum()
    root, params = loss, {"x": x, "loss": loss}
""", again=True)
course("nb11_leaf_hook", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.register_hook(lambda grad: grad * 10)
    loss = (x**2).sum()
    root, params = loss, {"x": x, "loss": loss}
""")
course("nb11_hook_zeroes_a_path", """
    x = torch.tensor(2.0, requires_grad=True)
    a = x * 2
    b = x * 3
    a.register_hook(lambda grad: grad * 0)
    loss = a + b
    root, params = loss, {"x": x, "loss": loss}
""")
course("nb12_softmax_cross_entropy", """
    _ = torch.manual_seed(0)
    W = torch.randn(3, 4, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    x = torch.randn(4)
    z = W @ x
    a = z + b
    p = torch.softmax(a, dim=0)
    logp = torch.log(p)
    L = -logp[2]
    a.retain_grad()
    root, params = L, {"W": W, "b": b, "a": a}
""")
course("nb14_distance", """
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    q = torch.tensor([1.0, 2.0])
    root, params = ((p - q) ** 2).sum().sqrt(), {"p": p}
""")
course("nb17_small_model", """
    _ = torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
    x = torch.randn(4, 3)
    y = torch.randn(4, 1)
    loss = torch.nn.functional.mse_loss(model(x), y)
    root, params = loss, dict(model.named_parameters())
""")

for _p in json.loads((Path(__file__).with_name("stepper_programs.json")).read_text()):
    CASES.append({"name": _p["name"], "lines": _p["lines"], "root": _p["root"],
                  "params": _p["params"], "retain_graph": _p["retain_graph"]})


def replay(torch: Any, case: dict[str, Any]) -> list[str]:
    """Every frame's caption of the case's recorded backward (then ``backward_again``)."""
    viz = importlib.import_module("autograd_lab.viz")
    ns: dict[str, Any] = {"torch": torch, "F": importlib.import_module(
        torch.__name__ + ".nn.functional")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if "code" in case:
            exec(case["code"], ns)
            root, params = ns["root"], ns["params"]
        else:
            for line in case["lines"]:
                try:
                    exec(line, ns)
                except Exception:  # part of the program (the fuzzer compares errors)
                    pass
            root = ns[case["root"]].sum()
            params = {k: ns[k] for k in case["params"]}
        rec = viz.record_backward(root, params=params, retain_graph=case["retain_graph"],
                                  errors="record")
        if case.get("again"):
            rec.backward_again()
    return [rec.caption_text(i) for i in range(len(rec.frames))]
