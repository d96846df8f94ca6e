"""What notebooks 04b, 14 and 15 say about torch: the order backward runs the nodes of a NaN's
path, the bytes the parameters' gradients take, and the graph objects a backward pass by hand
walks (``grad_fn``, ``next_functions``, calling a node)."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- 14: which node returns the NaN, and which made the infinity before it ------------------------

case("anomaly_nan_path_order", """
    q = torch.tensor([1.0, 2.0])
    def distance(a, b):
        diff = a - b
        squared = diff**2
        return squared.sum().sqrt()
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = 3 * distance(p, q)
    nodes, stack = [], [loss.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in nodes:
            nodes.append(fn)
            stack.extend(nxt for nxt, _ in fn.next_functions)
    ran = []
    for fn in nodes:
        fn.register_hook(lambda grad_inputs, grad_outputs, fn=fn: ran.append(
            (fn.name(), [g for g in grad_inputs if g is not None])))
    loss.backward()
    for name, returned in ran:
        print(f"{name:16} returned", returned)
    result = (ran, p.grad)
""")

# ---- 15: what the parameters' gradients take -------------------------------------------------------

case("bptt_parameter_grad_bytes", """
    H = 16
    W_h = torch.zeros(H, H, requires_grad=True)
    W_x = torch.zeros(H, 1, requires_grad=True)
    b = torch.zeros(H, requires_grad=True)
    w_o = torch.zeros(H, requires_grad=True)
    params = [W_h, W_x, b, w_o]
    h = torch.tanh(W_h @ torch.zeros(H) + W_x @ torch.ones(1) + b)
    (w_o @ h).backward()
    sizes = [p.grad.element_size() * p.grad.nelement() for p in params]
    print(sizes, f"{sum(sizes):,} bytes")
    result = sizes
""")

# ---- 04b: a backward pass by hand over the recorded graph -----------------------------------------

_L = """
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(-3.0, requires_grad=True)
    c = torch.tensor(10.0, requires_grad=True)
    f = torch.tensor(-2.0, requires_grad=True)
    e = a * b
    d = e + c
    L = d * f
"""

case("by_hand_graph_objects", _L + """
    print(L.grad_fn.name(), [(n.name(), i) for n, i in L.grad_fn.next_functions])
    print(d.grad_fn.name(), [(n.name(), i) for n, i in d.grad_fn.next_functions])
    print(e.grad_fn.name(), [(n.name(), i) for n, i in e.grad_fn.next_functions])
    print(e.grad_fn.next_functions[0][0].variable is a)
    result = L
""")
case("by_hand_call_a_node", _L + """
    with torch.no_grad():
        out = L.grad_fn(torch.tensor(1.0))
    print(out)
    with torch.no_grad():
        print(d.grad_fn(torch.tensor(-2.0)))
    result = out
""")
case("by_hand_call_a_node_records_in_grad_mode", _L + """
    out = L.grad_fn(torch.tensor(1.0))
    result = [(g.requires_grad, g.grad_fn is not None) for g in out]
""")
case("by_hand_accumulate_grad_call", _L + """
    acc = e.grad_fn.next_functions[0][0]
    with torch.no_grad():
        print(acc(torch.tensor(5.0)))
        acc(torch.tensor(1.5))
    result = (acc.name(), a.grad)
""")
case("by_hand_loop_matches_backward", _L + """
    order, seen = [], set()
    def visit(node):
        if node is None or node in seen:
            return
        seen.add(node)
        for nxt, _ in node.next_functions:
            visit(nxt)
        order.append(node)
    visit(L.grad_fn)
    order.reverse()
    grads = {L.grad_fn: torch.ones_like(L)}
    with torch.no_grad():
        for node in order:
            out = node(grads.pop(node))
            out = out if isinstance(out, tuple) else (out,)
            for (nxt, _), g in zip(node.next_functions, out):
                if nxt is not None and g is not None:
                    grads[nxt] = grads[nxt] + g if nxt in grads else g
    print([n.name() for n in order])
    mine = [t.grad.clone() for t in (a, b, c, f)]
    for t in (a, b, c, f):
        t.grad = None
    L.backward()
    result = (mine, [t.grad for t in (a, b, c, f)])
""")
case("by_hand_fan_out_leaf", """
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = (x * x + x.exp()).sum()
    print(y.grad_fn.next_functions[0][0].name(),
          [n.name() for n, _ in y.grad_fn.next_functions[0][0].next_functions])
    result = y
""")
