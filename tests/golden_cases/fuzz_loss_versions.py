"""The versions of the gradients a loss's backward leaves (torch's formulas end with in-place
steps), seen as ``.grad._version`` and on ``autograd.grad`` results."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


for red in ("mean", "sum", "none"):
    for w in (False, True):
        for pw in (False, True):
            case(f"bce_with_logits_versions_{red}_w{int(w)}_pw{int(pw)}", f"""
                x = torch.tensor([[0.3, -1.2, 2.0], [0.0, 0.7, -0.4]], requires_grad=True)
                t = torch.tensor([[0.1, 0.9, 0.5], [1.0, 0.0, 0.25]], requires_grad=True)
                w = torch.tensor([0.5, 1.0, 2.0]) if {w} else None
                pw = torch.tensor([1.5, 0.5, 3.0]) if {pw} else None
                out = torch.nn.functional.binary_cross_entropy_with_logits(
                    x, t, weight=w, pos_weight=pw, reduction={red!r}).sum()
                gx, gt = torch.autograd.grad(out, [x, t], retain_graph=True)
                out.backward()
                result = (gx, gt, gx._version, gt._version, x.grad._version, t.grad._version)
            """)

case("bce_with_logits_same_transposed_leaf", """
    v = torch.tensor([[-0.0, 1.21, -2.2], [-2.15, -0.46, 1.31]]).t().requires_grad_()
    torch.nn.functional.binary_cross_entropy_with_logits(v, v).sum().backward()
    result = (v.grad, v.grad._version)
""")
case("mse_loss_empty_backward", """
    x = torch.zeros((0,), requires_grad=True)
    out = [torch.nn.functional.mse_loss(x, x, reduction=r) for r in ('mean', 'sum', 'none')]
    out[0].backward()
    y = torch.zeros((0,), requires_grad=True)
    torch.nn.functional.mse_loss(y, torch.zeros(0)).backward()
    result = (out, x.grad, x.grad._version, y.grad, y.grad._version)
""")
