"""Errors of PyTorch's OpInfo ``error_inputs``: argument checks of scatter, linspace, reshape,
embedding, dot and the stacking functions, fill values, ``out=`` checks, unbound methods
called on numbers, and ops given no tensor at all."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


def errors(name: str, calls: list[str], setup: str = "") -> None:
    """A case trying each call in turn; its result lists what each returned or raised."""
    body = "\n".join(f"    lambda: {c}," for c in calls)
    case(name, setup + "\nr = []\nfor f in (\n" + body + "\n):\n    try:\n        r.append(f())\n"
         "    except Exception as e:\n        r.append(f\"{type(e).__name__}: {e}\")\nresult = r\n")


errors("scatter_gather_shape_checks", [
    "torch.zeros(3, 5, 3).scatter(0, torch.tensor([[0, 1], [1, 2]]), torch.zeros(2, 5))",
    "torch.zeros(3, 5).scatter(0, torch.tensor([[34, 1], [1, 2]]), torch.zeros(2, 5, 2))",
    "torch.zeros(3, 5).scatter_add(0, torch.tensor([[0, 1], [1, 2]]), torch.zeros(1, 5))",
    "torch.zeros(3, 5).scatter(1, torch.tensor([[0, 1]] * 4), 2.0)",
    "torch.zeros(3, 5).scatter(1, torch.tensor([[0, 1]] * 4), torch.zeros(4, 2))",
    "torch.zeros(3, 5).scatter(1, torch.tensor([[0, 9]]), torch.zeros(4, 2))",
    "torch.zeros(3, 5).scatter(1, torch.tensor([[0, 1]]), torch.zeros(4, 2, dtype=torch.float64))",
    "torch.tensor(1.).scatter(0, torch.tensor([[0]]), 2.0)",
    "torch.tensor(1.).scatter(0, torch.tensor([0]), torch.ones(2, 2))",
    "torch.zeros(3, 5).scatter(0, torch.zeros(2, 2, 0, dtype=torch.long), 1.0)",
    "torch.zeros(3, 5).gather(0, torch.zeros(2, 2, 2, dtype=torch.long))",
    "torch.tensor(1.).gather(0, torch.zeros(2, 2, dtype=torch.long))",
])
errors("linspace_arguments", [
    "torch.linspace(0, 3, 1.0)", "torch.linspace(0, 3, 'a')",
    "torch.linspace(torch.tensor([1, 1]), torch.tensor([3, 3]), 1)",
    "torch.linspace(torch.tensor([1.]), 3, 4)", "torch.linspace(0, 3, -1)",
    "torch.linspace(torch.tensor(1.), 3, 4)", "torch.linspace(0, torch.tensor(3.), 4)",
    "torch.linspace(0, 3, torch.tensor(4))",
])
errors("fill_values_complex", [
    "torch.zeros(2).masked_fill(torch.tensor(True), 1j)", "torch.zeros(2).fill_(1j)",
    "torch.full((2,), 1j, dtype=torch.float32)",
    "torch.zeros(2, dtype=torch.long).masked_fill(torch.tensor(True), 1j)",
    "torch.zeros(2).masked_fill(torch.tensor(True), 1 + 0j)",
])
errors("reshape_view_empty_inferred", [
    "torch.zeros(0, 5).reshape(0, -1)", "torch.zeros(0, 5).view(0, -1)",
    "torch.zeros(0, 5).reshape(-1, 0)", "torch.zeros(0, 5).reshape(5, -1)",
    "torch.zeros(0, 5).reshape(0, 2, -1)", "torch.zeros(6).view(0, -1)",
])
errors("embedding_weight_dims", [
    "F.embedding(torch.zeros(2, 2, dtype=torch.long), torch.tensor(1.))",
    "F.embedding(torch.zeros(2, 2, dtype=torch.long), torch.ones(1, 1, 1))",
    "F.embedding(torch.zeros(2, 2, dtype=torch.int16), torch.ones(1))",
])
errors("dot_and_stack_checks", [
    "torch.dot(torch.ones(1), torch.ones(3, dtype=torch.float16))",
    "torch.dot(torch.ones(1), torch.ones(3))", "torch.hstack(())", "torch.vstack([])",
    "torch.hstack([torch.ones(2)])",
])
errors("out_argument_checks", [
    "torch.gather(x, 1, torch.tensor([[0, 0], [1, 0]]), out=torch.zeros(2, 2, dtype=torch.float64))",
    "torch.gather(v, 0, torch.tensor([2, 1, 0]), out=v.expand(3))",
    "torch.gather(v, 0, torch.tensor([2, 1, 0]), out=v)",
    "torch.gather(i, 0, torch.tensor([1, 0]), out=i[:1])",
    "torch.gather(i, 0, torch.tensor([1]), out=torch.zeros(1, dtype=torch.int32))",
    "torch.index_select(x, 1, torch.tensor([0, 1]), out=torch.zeros(2).expand(2, 2))",
    "torch.index_select(x, 0, torch.tensor([0]), out=torch.zeros(2, dtype=torch.long))",
    "torch.amax(x, 0, out=torch.zeros(2, dtype=torch.int32))",
    "torch.amin(x, 0, out=torch.zeros(2, dtype=torch.float64))",
    "torch.cat((x, x), out=torch.zeros(4, 2))",
    "torch.gather(x, 1, torch.tensor([[0, 0], [1, 0]]), out=torch.zeros(2, 2))",
    "torch.amax(x, 0, out=torch.zeros(2))",
    # (torch resizes ``out`` before it finds the overlap: these come last, on their own tensors)
    "torch.cat((y, y), 0, out=y)", "torch.cat((e, x), 0, out=e)",
], setup="x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\nv = torch.arange(6.0)\n"
         "i = torch.tensor([2, 1, 0])\ne = torch.zeros(0)\ny = x.clone()")
errors("unbound_methods_on_numbers", [
    "torch.Tensor.maximum(2, torch.ones(2))", "torch.Tensor.clamp_min(2, 3)",
    "torch.Tensor.atan2(2, torch.ones(2))", "torch.Tensor.eq(2, 3)", "torch.Tensor.__radd__(2, 3)",
    "torch.Tensor.__rmul__(2, torch.ones(2))", "torch.Tensor.__rxor__(2, 3)",
    "torch.Tensor.logical_and(2, 3)", "torch.Tensor.pow(2, 3)", "torch.Tensor.isclose(2, 3)",
    "torch.Tensor.max(2, 3)", "torch.Tensor.add(torch.ones(2), 1)",
])
errors("binary_ops_given_no_tensor", [
    "torch.max(2, torch.ones(2))", "torch.max(2, 3)", "torch.min(2, torch.ones(2))",
    "torch.remainder(2, 3)", "torch.bitwise_and(2, 3)", "torch.bitwise_or(2, 3)",
    "torch.bitwise_xor(2, 3)", "torch.pow(2, 3)", "torch.rsub(2, torch.ones(2))",
    "torch.rsub(2, 3)", "torch.remainder(2, torch.tensor([3]))", "torch.pow(2, torch.tensor([3]))",
    "torch.maximum(2, torch.ones(2))",
])


# ---- activations: Number arguments, silu in place ----------------------------------------------
case("activation_number_args", """
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    t = torch.tensor(0.5, requires_grad=True)
    r = []
    for f in (lambda: F.elu(x, alpha=t), lambda: F.elu(x, t), lambda: F.leaky_relu(x, t), lambda: F.softplus(x, beta=t),
              lambda: F.softplus(x, 1, t), lambda: F.elu(x, torch.tensor(0.5)), lambda: F.softplus(x, beta=torch.tensor(2.)),
              lambda: F.leaky_relu(x, torch.tensor([0.1])), lambda: F.elu(x, alpha="a"), lambda: F.leaky_relu(x, "a"),
              lambda: F.softplus(x, beta="a"), lambda: F.softplus(x, 2.0, threshold=1.0), lambda: F.leaky_relu(x, torch.tensor(0.2))):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    y = x.clone()
    z = F.silu(y, inplace=True)
    z.sum().backward()
    result = r + [y, z is y, y.grad_fn, x.grad]
""")
