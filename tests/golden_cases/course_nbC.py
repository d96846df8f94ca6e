"""What notebooks 11 and 12 show of torch 2.13: hooks after accumulation, module backward hooks
and their nodes, and the softmax cross-entropy gradients read without the stepper."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


_NET = """
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    X = torch.randn(5, 3)
"""

# ---- 11 · the opening puzzle and its answer --------------------------------------------------

case("nb11_puzzle_every_parameter_has_a_grad", _NET + """
    net(X).sum().backward()
    result = [name for name, p in net.named_parameters() if p.grad is not None]
""")
case("nb11_puzzle_answered_by_a_module_hook", _NET + """
    seen = {}
    handle = net[1].register_full_backward_hook(
        lambda module, grad_input, grad_output: seen.update(output=grad_output[0],
                                                           input=grad_input[0]))
    net(X).sum().backward()
    handle.remove()
    result = (seen["output"], net[2].weight, seen["input"], net(X).grad_fn.name())
""")
case("nb11_pre_hook_cuts_the_layers_below", _NET + """
    handle = net[1].register_full_backward_pre_hook(lambda module, grad_output:
                                                    (grad_output[0] * 0,))
    net(X).sum().backward()
    handle.remove()
    result = (net[0].weight.grad, net[0].bias.grad, net[2].bias.grad)
""")

# ---- 11 · post-accumulate hooks ---------------------------------------------------------------

case("nb11_post_accumulate_beside_register_hook", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda grad: print("register_hook sees           ", grad))
    x.register_post_accumulate_grad_hook(lambda t: print("post-accumulate hook sees .grad", t.grad))
    for _ in range(2):
        (3 * x).sum().backward()
""")
case("nb11_optimizer_step_fused_into_backward", _NET + """
    def small_net():
        torch.manual_seed(0)
        return torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))

    def sgd_step(p, lr=0.1):
        with torch.no_grad():
            p -= lr * p.grad
        p.grad = None

    fused, plain = small_net(), small_net()
    for p in fused.parameters():
        p.register_post_accumulate_grad_hook(sgd_step)
    opt = torch.optim.SGD(plain.parameters(), lr=0.1)
    Y = torch.randn(5, 1)
    for _ in range(3):
        ((fused(X) - Y) ** 2).mean().backward()
        opt.zero_grad()
        ((plain(X) - Y) ** 2).mean().backward()
        opt.step()
    result = (list(fused.parameters()), list(plain.parameters()),
              [p.grad for p in fused.parameters()])
""")

# ---- 11 · a full backward hook on a Linear, and the nodes it adds ----------------------------

case("nb11_full_backward_hook_on_a_linear", """
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 2)
    calls = []
    handle = lin.register_full_backward_hook(
        lambda module, grad_input, grad_output: calls.append((type(module).__name__,
                                                              grad_output, grad_input)))
    inp = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    out = lin(inp)
    addmm = out.grad_fn.next_functions[0][0]
    nodes = (out.grad_fn.name(), [fn.name() for fn, _ in out.grad_fn.next_functions],
             [fn.name() for fn, _ in addmm.next_functions],
             [fn.name() for fn, _ in addmm.next_functions[1][0].next_functions])
    (out * torch.tensor([[1.0, -1.0]])).sum().backward()
    handle.remove()
    result = (nodes, calls, inp.grad, lin(inp).grad_fn.name())
""")

# ---- 12 · the gradients of the five-step loss, without the stepper --------------------------

case("nb12_gradients_with_autograd_grad", """
    torch.manual_seed(0)
    W = torch.randn(3, 4, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    x = torch.randn(4)
    z = W @ x
    a = z + b
    p = torch.softmax(a, dim=0)
    L = -torch.log(p)[2]
    a.retain_grad()
    L.backward(retain_graph=True)
    grads = torch.autograd.grad(L, (a, b, W), retain_graph=True)
    onehot = torch.zeros(3)
    onehot[2] = 1.0
    delta = p.detach() - onehot
    result = (grads, a.grad, torch.allclose(grads[0], delta), torch.allclose(grads[1], delta),
              torch.allclose(grads[2], torch.outer(delta, x)))
""")
