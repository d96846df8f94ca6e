"""Autograd mechanics beyond the tensor hook: hooks after accumulation, module backward hooks,
and activation checkpointing (torch 2.13's `torch.utils.checkpoint`)."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- Tensor.register_post_accumulate_grad_hook --------------------------------------------------

case("post_accumulate_sees_the_sum", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
    (x * 3).sum().backward()
    (x * x).sum().backward()
    result = seen
""")
case("post_accumulate_after_tensor_hooks", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    order = []
    x.register_hook(lambda g: order.append(("hook", g.tolist())))
    x.register_post_accumulate_grad_hook(lambda t: order.append(("post", t.grad.tolist())))
    (x * 2).sum().backward()
    result = order
""")
case("post_accumulate_not_under_autograd_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(1))
    torch.autograd.grad((x * 3).sum(), x)
    result = (seen, x.grad)
""")
case("post_accumulate_removed", """
    x = torch.tensor([1.0], requires_grad=True)
    seen = []
    h = x.register_post_accumulate_grad_hook(lambda t: seen.append(1))
    (x * 2).sum().backward()
    h.remove()
    (x * 2).sum().backward()
    result = (seen, x.grad)
""")
case("post_accumulate_on_non_leaf", """
    x = torch.tensor([1.0], requires_grad=True)
    (x * 2).register_post_accumulate_grad_hook(lambda t: None)
""")
case("post_accumulate_no_grad", """
    torch.tensor([1.0]).register_post_accumulate_grad_hook(lambda t: None)
""")
case("post_accumulate_returns_a_value", """
    x = torch.tensor([1.0], requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda t: 5)
    (x * 2).sum().backward()
""")
# ---- nn.Module full backward hooks ---------------------------------------------------------------

_LINEAR = """
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 2)
"""
case("full_backward_hook_args", _LINEAR + """
    calls = []
    lin.register_full_backward_hook(
        lambda m, gi, go: calls.append((type(m).__name__, gi, go)))
    inp = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)
    out = lin(inp)
    names = (out.grad_fn.name(), [type(n).__name__ for n, _ in out.grad_fn.next_functions])
    (out * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    result = (names, calls, inp.grad)
""")
case("full_backward_hook_replaces_grad_input", _LINEAR + """
    lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 10,))
    inp = torch.ones(2, 3, requires_grad=True)
    lin(inp).sum().backward()
    result = (inp.grad, lin.weight.grad)
""")
case("full_backward_pre_hook_replaces_grad_output", _LINEAR + """
    seen = []
    lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 2,))
    lin.register_full_backward_hook(lambda m, gi, go: seen.append(go))
    inp = torch.ones(2, 3, requires_grad=True)
    lin(inp).sum().backward()
    result = (seen, lin.bias.grad, inp.grad)
""")
case("full_backward_hook_no_input_requires_grad", _LINEAR + """
    calls = []
    lin.register_full_backward_hook(lambda m, gi, go: calls.append(gi))
    out = lin(torch.ones(2, 3))
    out.sum().backward()
    result = (out.grad_fn.name(), calls, lin.bias.grad)
""")
case("full_backward_hook_wrong_count", _LINEAR + """
    lin.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    lin(torch.ones(2, 3, requires_grad=True)).sum().backward()
""")
case("full_backward_hook_removed", _LINEAR + """
    calls = []
    h = lin.register_full_backward_hook(lambda m, gi, go: calls.append(1))
    inp = torch.ones(2, 3, requires_grad=True)
    lin(inp).sum().backward()
    h.remove()
    out = lin(inp)
    out.sum().backward()
    result = (calls, out.grad_fn.name())
""")
case("full_backward_hooks_in_a_sequential", """
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    order = []
    for name, m in net.named_children():
        m.register_full_backward_hook(lambda m, gi, go, name=name: order.append(name))
    net(torch.ones(4, 2, requires_grad=True)).sum().backward()
    result = order
""")

# ---- torch.utils.checkpoint -------------------------------------------------------------------

_CKPT = """
    cp = torch.utils.checkpoint
    torch.manual_seed(0)
    x = torch.randn(5, requires_grad=True)
    def block(a):
        return (a.sin() * (torch.rand(5) > 0.3)).exp().tanh()
"""
case("checkpoint_non_reentrant_graph_and_grad", _CKPT + """
    torch.manual_seed(1)
    y = cp.checkpoint(block, x, use_reentrant=False)
    graph = (y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
    y.sum().backward()
    torch.manual_seed(1)
    plain = torch.autograd.grad(block(x).sum(), x)[0]
    result = (graph, y, x.grad, plain)
""")
case("checkpoint_reentrant_graph_and_grad", _CKPT + """
    torch.manual_seed(1)
    y = cp.checkpoint(block, x, use_reentrant=True)
    name = y.grad_fn.name()
    y.sum().backward()
    result = (name, y, x.grad)
""")
case("checkpoint_default_warns", _CKPT + """
    y = cp.checkpoint(block, x)
    result = y.grad_fn.name()
""")
case("checkpoint_reentrant_refuses_autograd_grad", _CKPT + """
    y = cp.checkpoint(block, x, use_reentrant=True)
    torch.autograd.grad(y.sum(), x)
""")
case("checkpoint_non_reentrant_with_autograd_grad", _CKPT + """
    y = cp.checkpoint(block, x, use_reentrant=False)
    result = torch.autograd.grad(y.sum(), x)
""")
case("checkpoint_reentrant_no_input_requires_grad", """
    cp = torch.utils.checkpoint
    y = cp.checkpoint(lambda a: a * 2, torch.ones(2), use_reentrant=True)
    result = (y.requires_grad, y.grad_fn)
""")
case("checkpoint_bad_determinism_check", _CKPT + """
    cp.checkpoint(block, x, use_reentrant=False, determinism_check="sometimes")
""")
case("checkpoint_keywords_need_non_reentrant", _CKPT + """
    cp.checkpoint(lambda a, scale: a * scale, x, use_reentrant=True, scale=2.0)
""")
case("checkpoint_keywords_non_reentrant", _CKPT + """
    y = cp.checkpoint(lambda a, scale: (a * scale).exp(), x, use_reentrant=False, scale=2.0)
    y.sum().backward()
    result = x.grad
""")
case("checkpoint_sequential_model", """
    cp = torch.utils.checkpoint
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4),
                              torch.nn.Tanh(), torch.nn.Linear(4, 1))
    inp = torch.randn(2, 3, requires_grad=True)
    out = cp.checkpoint_sequential(net, 2, inp, use_reentrant=False)
    out.sum().backward()
    result = (out, out.grad_fn.name(), inp.grad, net[0].weight.grad)
""")
