"""Losses at their edges: 0-d and empty inputs, input checks, every reduction, the node each
loss records, and float32 reductions that must round exactly as torch's loss kernels do.

Each case is a minimal program for a class of inputs the differential fuzzer
(``scripts/oracle/fuzz_against_torch.py``) found differing from torch.
"""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


X = "torch.tensor([[0.5, -1.0, 2.0], [0.1, float('nan'), 0.3]], requires_grad=True)"
T = "torch.tensor([[0.2, 0.3, 0.5], [3.0, 0.2, 0.25]])"
XF = "torch.tensor([[0.5, -1.0, 2.0], [0.1, 1.7, 0.3]], requires_grad=True)"

# ---- mse / l1 on 0-d and empty tensors ----------------------------------------------------

for red in ("mean", "sum", "none"):
    case(f"mse_loss_0d_{red}", f"""
        x = torch.tensor(1., requires_grad=True)
        y = F.mse_loss(x, torch.tensor(3.), reduction='{red}')
        y.backward()
        result = (y, x.grad)
    """)
    case(f"l1_loss_0d_{red}", f"""
        x = torch.tensor(1., requires_grad=True)
        y = F.l1_loss(x, torch.tensor(3.), reduction='{red}')
        y.backward()
        result = (y, x.grad)
    """)
case("mse_loss_empty", "result = (F.mse_loss(torch.zeros(0), torch.zeros(0)), "
     "F.mse_loss(torch.zeros(0), torch.zeros(0), reduction='sum'))\n")
case("l1_loss_broadcast_graph", """
    x = torch.tensor([[0.5, -1.0]], requires_grad=True)
    y = F.l1_loss(x, torch.tensor([[0.2], [0.3]]))
    y.backward()
    result = (y, x.grad)
""")
case("l1_loss_weight_mean", """
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = F.l1_loss(x, torch.tensor([0.2, 0.3, 0.5]), weight=torch.tensor([1., 2., 3.]))
    y.backward()
    result = (y, x.grad)
""")

# ---- binary cross-entropy ---------------------------------------------------------------------

case("bce_nan_input_error", """
    result = F.binary_cross_entropy(torch.tensor([0.5, float('nan')]), torch.tensor([1., 0.]))
""")
case("bce_out_of_range_error", """
    result = F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.]))
""")
case("bce_zero_and_one_inputs", """
    x = torch.tensor([0., 1., 0.5], requires_grad=True)
    y = F.binary_cross_entropy(x, torch.tensor([1., 0., 1.]), reduction='sum')
    result = y
""")
case("bce_empty", """
    result = (F.binary_cross_entropy(torch.zeros(0), torch.zeros(0)),
              F.binary_cross_entropy(torch.zeros(0), torch.zeros(0), reduction='sum'))
""")
case("bce_with_logits_empty", """
    result = (F.binary_cross_entropy_with_logits(torch.zeros(0), torch.zeros(0)),
              F.binary_cross_entropy_with_logits(torch.zeros(0, 2), torch.zeros(0, 2),
                                                 reduction='sum'))
""")
case("bce_with_logits_extremes", """
    x = torch.tensor([-200., 200., 0., float('inf')], requires_grad=True)
    y = F.binary_cross_entropy_with_logits(x, torch.tensor([1., 0., 1., 1.]), reduction='none')
    result = y
""")

# ---- kl_div -------------------------------------------------------------------------------------

for red in ("mean", "sum", "none", "batchmean"):
    case(f"kl_div_{red}", f"""
        x = {XF}
        t = torch.tensor([[0.2, 0.0, 0.8], [0.6, 0.2, 0.2]])
        y = F.kl_div(x.log_softmax(-1), t, reduction='{red}')
        y.sum().backward()
        result = (y, x.grad)
    """)
case("kl_div_target_requires_grad", """
    x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
    t = torch.tensor([[0.2, 0.0, 0.8]], requires_grad=True)
    y = F.kl_div(x.log_softmax(-1), t, reduction='none')
    y.sum().backward()
    result = (y, x.grad, t.grad)
""")
case("kl_div_log_target", """
    x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
    t = torch.tensor([[0.2, 0.1, 0.7]]).log()
    y = F.kl_div(x.log_softmax(-1), t, reduction='sum', log_target=True)
    y.backward()
    result = (y, x.grad)
""")
case("kl_div_0d_batchmean", """
    result = F.kl_div(torch.tensor(-0.5), torch.tensor(0.2), reduction='batchmean')
""")
case("kl_div_legacy_reduce", """
    result = F.kl_div(torch.tensor([-0.5, -1.]), torch.tensor([0.2, 0.8]), reduce=False)
""")
case("kl_div_module", """
    m = nn.KLDivLoss(reduction='batchmean', log_target=True)
    result = (repr(m), m(torch.tensor([[-0.5, -1.]]), torch.tensor([[-0.2, -0.8]])))
""")

# ---- smooth_l1 / huber --------------------------------------------------------------------------

for red in ("mean", "sum", "none"):
    for beta in ("1.0", "0.5"):
        case(f"smooth_l1_{red}_beta{beta.replace('.', '_')}", f"""
            x = {X}
            t = {T}.requires_grad_()
            y = F.smooth_l1_loss(x, t, reduction='{red}', beta={beta})
            y.sum().backward()
            result = (y, x.grad, t.grad, y.grad_fn._saved_beta, y.grad_fn._saved_reduction)
        """)
        case(f"huber_{red}_delta{beta.replace('.', '_')}", f"""
            x = {X}
            t = {T}.requires_grad_()
            y = F.huber_loss(x, t, reduction='{red}', delta={beta})
            y.sum().backward()
            result = (y, x.grad, t.grad, y.grad_fn._saved_delta, y.grad_fn._saved_reduction)
        """)
case("smooth_l1_beta0_is_l1", """
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = F.smooth_l1_loss(x, torch.tensor([0.2, 0.3, 0.5]), beta=0.0)
    y.backward()
    result = (y, x.grad)
""")
case("smooth_l1_negative_beta", """
    result = F.smooth_l1_loss(torch.ones(2), torch.ones(2), beta=-1.)
""")
case("huber_nonpositive_delta", """
    result = F.huber_loss(torch.ones(2), torch.ones(2), delta=0.)
""")
case("huber_broadcast_warns", """
    x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
    y = F.huber_loss(x, torch.tensor([0.2, 0.3, 0.5]))
    y.backward()
    result = (y, x.grad)
""")
case("huber_weight", """
    x = torch.tensor([0.5, -3.0, 2.0], requires_grad=True)
    y = F.huber_loss(x, torch.tensor([0.2, 0.3, 0.5]), weight=torch.tensor([1., 2., 3.]))
    y.backward()
    result = (y, x.grad)
""")
case("smooth_l1_and_huber_0d", """
    x = torch.tensor(0.5, requires_grad=True)
    y = F.smooth_l1_loss(x, torch.tensor(0.2)) + F.huber_loss(x, torch.tensor(3.))
    y.backward()
    result = (y, x.grad)
""")
case("smooth_l1_huber_modules", """
    a, b = torch.tensor([0.5, -1.0]), torch.tensor([0.2, 3.0])
    s, h = nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.)
    result = (repr(s), repr(h), s(a, b), h(a, b), nn.SmoothL1Loss(reduction='sum')(a, b))
""")
case("smooth_l1_int_error", """
    result = F.smooth_l1_loss(torch.tensor([1, 2]), torch.tensor([1, 3]))
""")

# ---- float32 loss reductions: torch's kernel order, bit for bit -----------------------------

for n in (10, 333, 4096, 20001):
    case(f"loss_bits_{n}", f"""
        x = torch.arange({n}, dtype=torch.float32) / 7
        t = torch.arange({n}, dtype=torch.float32).flip(0) / 3
        result = [F.mse_loss(x, t, reduction=r).item().hex() for r in ('sum', 'mean')] + \\
                 [F.l1_loss(x, t, reduction=r).item().hex() for r in ('sum', 'mean')] + \\
                 [F.smooth_l1_loss(x / 1000, t / 1000, reduction=r).item().hex()
                  for r in ('sum', 'mean')] + \\
                 [nn.MSELoss(reduction='sum')(x.reshape(-1, 1), t.reshape(-1, 1)).item().hex()]
    """)
case("mse_sum_training_loop_bits", """
    torch.manual_seed(0)
    X = torch.arange(60, dtype=torch.float32).reshape(30, 2) / 17
    y = X[:, :1] * 3 - X[:, 1:] * 2 + 1
    w = torch.tensor([[0.1], [0.2]], requires_grad=True)
    b = torch.tensor([0.], requires_grad=True)
    loss_fn = nn.MSELoss(reduction='sum')
    losses = []
    for _ in range(200):
        loss = loss_fn(X[:, :1] * w[0] + X[:, 1:] * w[1] + b, y)
        loss.backward()
        with torch.no_grad():
            w -= 0.001 * w.grad
            b -= 0.001 * b.grad
        w.grad = None
        b.grad = None
        losses.append(loss.item().hex())
    result = (losses[::20], w.detach(), b.detach())
""")
case("bce_with_logits_target_dtype", """
    x = torch.tensor(-2.31, dtype=torch.float64, requires_grad=True)
    y = F.binary_cross_entropy_with_logits(x, torch.tensor(0.0), reduction='none')
    y.backward()
    z = F.binary_cross_entropy_with_logits(torch.tensor([-2.31, 0.5]),
                                           torch.tensor([0.0, 1.], dtype=torch.float64))
    result = (y, x.grad, z)
""")
case("bce_with_logits_pos_weight_grad", """
    x = torch.tensor([-2.31, 0.5, 30., -40.], requires_grad=True)
    y = F.binary_cross_entropy_with_logits(x, torch.tensor([0.0, 1., 0.3, 1.]),
                                           pos_weight=torch.tensor([2., 1., 0.5, 3.]))
    y.backward()
    result = (y, x.grad)
""")
for threads in (1, 2, 3):
    case(f"large_sums_bits_{threads}_threads", f"""
        before = torch.get_num_threads()
        torch.set_num_threads({threads})
        x = torch.arange(100003, dtype=torch.float32) / 7
        t = torch.arange(100003, dtype=torch.float32).flip(0) / 3
        result = [x.sum().item().hex(), x.mean().item().hex(), x.reshape(-1, 1).t().sum().item().hex(),
                  F.mse_loss(x, t, reduction='sum').item().hex(), F.mse_loss(x, t).item().hex(),
                  F.l1_loss(x, t).item().hex(), torch.get_num_threads()]
        torch.set_num_threads(before)
    """)
case("huber_mixed_dtypes", """
    a = torch.tensor([1., 2.5], requires_grad=True)
    b = torch.tensor([0.5, 4.], dtype=torch.float64, requires_grad=True)
    y = F.huber_loss(a, b)
    result = (y, F.huber_loss(b, a, reduction='none'))
    y.backward()
""")
case("smooth_l1_mse_mixed_dtypes", """
    a = torch.tensor([1., 2.5], requires_grad=True)
    b = torch.tensor([0.5, 4.], dtype=torch.float64, requires_grad=True)
    y = F.smooth_l1_loss(a, b) + F.mse_loss(a, b) + F.l1_loss(a, b)
    y.backward()
    result = (y, a.grad, b.grad)
""")
case("smooth_l1_huber_empty_backward", """
    x = torch.zeros(0, dtype=torch.float64, requires_grad=True)
    (F.smooth_l1_loss(x, x * 2) + F.huber_loss(x, x * 3)).backward()
    y = torch.zeros(0, requires_grad=True)
    F.smooth_l1_loss(y, torch.zeros(0)).sum().backward()
    result = (x.grad, y.grad)
""")
