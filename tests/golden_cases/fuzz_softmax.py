"""Softmax, log_softmax and the losses built on them at the edges the differential fuzzer
found: empty dims, 0-d inputs, infinities, and class-probability targets with no class."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


case("softmax_0d_inf_nan_finite", """
    result = [torch.tensor(v).softmax(-1) for v in (float('inf'), float('-inf'), float('nan'), 2.0)]
""")
case("softmax_0d_backward", """
    x = torch.tensor(0.5, requires_grad=True)
    y = x.softmax(0)
    y.backward()
    result = (y, x.grad)
""")
case("softmax_empty_1d", """
    result = torch.zeros((0,), dtype=torch.float32).softmax(0)
""")
case("softmax_empty_rows_backward", """
    x = torch.zeros((1, 0), dtype=torch.float64).requires_grad_()
    y = x.softmax(-1)
    y.sum().backward()
    result = (y, x.grad)
""")
case("log_softmax_empty_dim0", """
    x = torch.zeros((0, 3), requires_grad=True)
    y = x.log_softmax(0)
    y.sum().backward()
    result = (y, x.grad)
""")
case("cross_entropy_prob_target_no_class", """
    x = torch.zeros((1, 0), dtype=torch.float64).requires_grad_()
    t = x.softmax(-1).detach()
    out = [torch.nn.functional.cross_entropy(x, t, reduction=r) for r in ('mean', 'sum', 'none')]
    out[0].backward()
    result = (out, x.grad)
""")
case("cross_entropy_prob_target_no_class_3d", """
    x = torch.zeros((2, 0, 3), dtype=torch.float64).requires_grad_()
    result = torch.nn.functional.cross_entropy(x, x.softmax(1).detach())
""")
case("cross_entropy_0d_prob_target", """
    x = torch.tensor(0.5, requires_grad=True)
    result = torch.nn.functional.cross_entropy(x, x.softmax(-1).detach())
""")
case("cross_entropy_0d_long_target", """
    x = torch.tensor(0.5, requires_grad=True)
    result = torch.nn.functional.cross_entropy(x, torch.tensor(0))
""")
case("cross_entropy_0d_input_1d_target", """
    x = torch.tensor(0.5, requires_grad=True)
    result = torch.nn.functional.cross_entropy(x, torch.tensor([1.0]))
""")
case("kl_div_empty", """
    x = torch.zeros((1, 0), requires_grad=True)
    out = torch.nn.functional.kl_div(x.log_softmax(-1), x.softmax(-1).detach(), reduction='sum')
    out.backward()
    result = (out, x.grad)
""")
