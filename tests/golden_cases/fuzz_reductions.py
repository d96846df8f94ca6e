"""Reductions, cumulative ops and splitting, at their edges: NaN, ties, empty and 0-d inputs,
torch's error texts, and float32 sums that must round exactly as torch's kernels do.

Each case is a minimal program for a class of inputs the differential fuzzer
(``scripts/oracle/fuzz_against_torch.py``) found differing from torch.
"""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


NAN_ROWS = "torch.tensor([[0.31, 5.], [float('nan'), 1.], [1., 2.]], requires_grad=True)"

# ---- max / min / argmax / argmin / amax / amin with NaN: the first NaN wins ----------------

for op in ("max", "min"):
    case(f"nan_{op}_dim_values_indices_grad", f"""
        x = {NAN_ROWS}
        r = x.{op}(dim=1)
        r.values.sum().backward()
        result = (r.values, r.indices, x.grad)
    """)
    case(f"nan_{op}_dim0_keepdim", f"""
        x = torch.tensor([[0.31, float('nan'), float('nan')], [float('nan'), 1., float('nan')],
                          [1., 2., 3.]])
        result = x.{op}(0, keepdim=True)
    """)
    case(f"nan_{op}_full_grad_shared_by_nans", f"""
        x = torch.tensor([1., float('nan'), float('nan'), 2.], requires_grad=True)
        y = x.{op}()
        y.backward()
        result = (y, x.grad)
    """)
    case(f"a{op}_nan_rows_and_grad", f"""
        x = {NAN_ROWS}
        y = x.a{op}(1)
        y.sum().backward()
        result = (y, x.grad)
    """)
for op in ("argmax", "argmin"):
    case(f"nan_{op}_rows", f"""
        x = torch.tensor([[0.31, float('nan'), float('nan')], [float('nan'), 1., float('nan')],
                          [1., 2., 3.]])
        result = (x.{op}(1), x.{op}(0), x.{op}(), x.{op}(0, keepdim=True))
    """)
    case(f"{op}_ties_first_index", f"""
        x = torch.tensor([[1., 3., 3., 0.], [-0., 0., 0., -1.], [2., 2., 2., 2.]])
        result = (x.{op}(1), x.{op}(0), x.{op}())
    """)
    case(f"{op}_no_dim_keepdim", f"""
        result = torch.tensor([[1, 2], [0, 5]]).{op}(dim=None, keepdim=True)
    """)
    case(f"{op}_bool_error", f"""
        result = torch.tensor([True, False]).{op}()
    """)
case("max_dim_ties_first_index", """
    x = torch.tensor([[1., 3., 3., 0.], [2., 2., 2., 2.]], requires_grad=True)
    r = x.max(1)
    r.values.sum().backward()
    result = (r, x.grad)
""")
case("max_full_ties_share_grad", """
    x = torch.tensor([3., 3., 1.], requires_grad=True)
    x.max().backward()
    result = x.grad
""")

# ---- empty inputs: torch's errors, never numpy's ----------------------------------------

EMPTY = {
    "max_dim0_of_0x3": "torch.ones(0, 3).max(dim=0)",
    "max_lastdim_of_1x0_keepdim": "torch.ones(1, 0).max(-1, keepdim=True)",
    "min_dim0_of_0x3": "torch.ones(0, 3).min(dim=0)",
    "max_dim1_of_0x3": "torch.ones(0, 3).max(1, keepdim=True)",
    "max_full_of_empty": "torch.ones(0, 3).max()",
    "amax_full_of_empty": "torch.ones(0, 3).amax()",
    "amin_full_of_empty": "torch.ones(0, 3).amin()",
    "amax_dim0_of_0x3": "torch.ones(0, 3).amax(0)",
    "amax_negative_dim_of_0x3": "torch.ones(0, 3).amax(-2)",
    "amax_dims_of_0x3": "torch.ones(0, 3).amax((0, 1))",
    "amax_dim1_of_0x3": "torch.ones(0, 3).amax(1)",
    "argmax_full_of_empty": "torch.ones(0, 3).argmax()",
    "argmin_full_of_empty": "torch.ones(0, 3).argmin()",
    "argmax_dim0_of_0x3": "torch.ones(0, 3).argmax(0)",
    "argmax_lastdim_of_1x0": "torch.ones(1, 0).argmax(-1, keepdim=True)",
    "argmax_dim1_of_0x3": "torch.ones(0, 3).argmax(1, keepdim=True)",
    "median_full_of_empty": "torch.ones(0, 3).median()",
    "median_dim0_of_0x3": "torch.ones(0, 3).median(0)",
    "median_dim1_of_0x3": "torch.ones(0, 3).median(1, keepdim=True)",
    "median_int_empty": "torch.ones(0, dtype=torch.int64).median()",
    "prod_dim0_of_0x3": "torch.ones(0, 3).prod(0)",
    "logsumexp_of_empty": "torch.zeros(0).logsumexp(0)",
    "logsumexp_of_empty_keepdim": "torch.zeros(0).logsumexp(-1, keepdim=True)",
    "logsumexp_dim0_of_0x2": "torch.zeros(0, 2).logsumexp(0)",
    "logsumexp_dim1_of_0x2": "torch.zeros(0, 2).logsumexp(1)",
    "cumsum_of_0x3": "torch.ones(0, 3).cumsum(0)",
    "cumprod_of_0x3": "torch.ones(0, 3).cumprod(1)",
    "norm_minus1_of_empty": "torch.zeros(0).norm(-1)",
    "norm_minus_inf_of_empty": "torch.zeros(0).norm(float('-inf'))",
    "norm_inf_of_empty": "torch.zeros(0).norm(float('inf'))",
    "norm_minus1_5_of_empty": "torch.zeros(0).norm(-1.5)",
    "norm_inf_dim0_of_0x3": "torch.zeros(0, 3).norm(float('inf'), dim=0)",
    "norm_minus2_negative_dim_of_0x3": "torch.zeros(0, 3).norm(-2, dim=-2)",
    "norm_minus1_dim0_of_3x0": "torch.zeros(3, 0).norm(-1, dim=0)",
    "norm_2_dim0_of_0x3": "torch.zeros(0, 3).norm(2, dim=0)",
    "norm_half_of_empty": "torch.zeros(0, 3).norm(0.5)",
    "all_dim0_of_0x3": "torch.zeros(0, 3).all(0)",
    "any_of_0x3": "torch.zeros(0, 3).any()",
}
for name, expr in EMPTY.items():
    case(f"empty_{name}", f"result = {expr}\n")

# ---- var / std: degrees of freedom <= 0 ---------------------------------------------------

VAR = {
    "var_of_1x0": "torch.zeros(1, 0).var()",
    "std_of_1x0": "torch.zeros(1, 0).std()",
    "var_correction0_of_1x0": "torch.zeros(1, 0).var(correction=0)",
    "var_unbiased_false_of_1x0": "torch.zeros(1, 0).var(unbiased=False)",
    "var_dim1_of_1x0": "torch.zeros(1, 0).var(1)",
    "std_dim0_of_0x3": "torch.ones(0, 3).std(0)",
    "var_of_one_element": "torch.tensor([1.]).var()",
    "var_correction_above_n": "torch.tensor([1., 2.]).var(correction=3)",
    "std_correction_equal_n": "torch.tensor([1., 2.]).std(correction=2)",
    "var_of_0d_dim0": "torch.tensor(1.).var(0)",
}
for name, expr in VAR.items():
    case(f"dof_{name}", f"result = {expr}\n")
case("dof_var_backward_full", """
    x = torch.tensor([1., 2., 2.], requires_grad=True)
    y = x.var(correction=4)
    y.backward()
    result = (y, x.grad)
""")
case("dof_var_backward_equal_elements", """
    x = torch.tensor([2., 2.], requires_grad=True)
    y = x.var(correction=2)
    y.backward()
    result = (y, x.grad)
""")
case("dof_std_backward", """
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x.std(correction=2)
    y.backward()
    result = (y, x.grad)
""")

# ---- norm ----------------------------------------------------------------------------------

case("norm0_backward_leaves_grad_none", """
    a = torch.tensor([1., 0., 2.], requires_grad=True)
    y = a.norm(0)
    y.backward()
    result = (y, a.grad, y.requires_grad)
""")
case("norm0_dim_backward_leaves_grad_none", """
    a = torch.tensor([[1., 0.], [2., 3.]], requires_grad=True)
    y = a.norm(0, dim=1)
    y.sum().backward()
    result = (y, a.grad)
""")
case("norm0_plus_sum_backward", """
    a = torch.tensor([1., 0.], requires_grad=True)
    (a.norm(0) + a.sum()).backward()
    result = a.grad
""")
for p in ("-1", "0.5", "-2", "3", "1.5"):
    case(f"norm_{p.replace('-', 'minus').replace('.', '_')}_grad_with_zeros", f"""
        x = torch.tensor([[1., -2.], [0., 0.], [0., 3.]], requires_grad=True)
        y = x.norm({p}, dim=1)
        y.sum().backward()
        result = (y, x.grad)
    """)

# ---- median ---------------------------------------------------------------------------------

case("median_full", "result = torch.tensor([[5., 3., 3., 1., 3.], [2., 2., 2., 2., 2.]]).median()\n")
case("median_even_count_lower", "result = torch.tensor([1., 2., 3., 4.]).median()\n")
case("median_dim_ties_and_signed_zero", """
    x = torch.tensor([[0., -0., 0., 1.], [5., 3., 3., 1.], [2., 2., 2., 2.]])
    result = (x.median(1), x.median(0), torch.median(x, dim=1, keepdim=True))
""")
case("median_dim_nan_first", """
    result = torch.tensor([[2., float('nan'), 1., float('nan')], [1., 2., 3., 4.]]).median(1)
""")
case("median_full_nan", """
    result = torch.tensor([[0., 1.], [2., float('nan')]]).median()
""")
case("median_int", """
    result = (torch.tensor([3, 1, 2]).median(), torch.tensor([3, 1, 2, 4]).median(0))
""")
case("median_0d", "result = (torch.tensor(3.).median(), torch.tensor(3.).median(0))\n")
case("median_bool_error", "result = torch.tensor([True, False]).median()\n")
case("median_return_type", """
    r = torch.tensor([[1., 2.]]).median(dim=1, keepdim=True)
    result = (type(r).__name__, type(r).__module__, repr(r), r.indices)
""")
case("median_full_grad_shared", """
    x = torch.tensor([[5., 3., 3., 1., 3.], [2., 2., 2., 2., 2.]], requires_grad=True)
    y = x.median()
    y.backward()
    result = (y, x.grad, y.grad_fn._saved_result)
""")
case("median_full_grad_nan", """
    x = torch.tensor([[5., 3.], [float('nan'), float('nan')]], requires_grad=True)
    y = x.median()
    y.backward()
    result = (y, x.grad)
""")
case("median_dim_grad", """
    x = torch.tensor([[5., 3., 3., 1., 3.], [2., 7., 2., 1., 2.]], requires_grad=True)
    r = x.median(1)
    fn = r.values.grad_fn
    saved = (fn._saved_dim, fn._saved_keepdim, fn._saved_self_sym_sizes, fn._saved_indices)
    r.values.backward(torch.tensor([1., 10.]))
    result = (r, x.grad, saved)
""")

# ---- cumulative ops ---------------------------------------------------------------------------

case("cumprod_values_and_node", """
    x = torch.tensor([1., 2., 0., 4.], requires_grad=True)
    y = x.cumprod(0)
    result = (y, y.grad_fn._saved_dim, y.grad_fn._saved_self, y.grad_fn._saved_result)
""")
for name, vals in (("no_zero", "[1., 2., -3., 4.]"), ("one_zero", "[1., 2., 0., 4., 5.]"),
                   ("two_zeros", "[2., 0., 3., 0., 5.]"), ("leading_zero", "[0., 2., 3.]")):
    case(f"cumprod_grad_{name}", f"""
        x = torch.tensor({vals}, requires_grad=True)
        y = torch.cumprod(x, dim=0)
        y.backward(torch.arange(1., x.numel() + 1))
        result = (y, x.grad)
    """)
case("cumprod_grad_2d_dim1_zeros", """
    x = torch.tensor([[1., 0., 3.], [2., 2., 0.5], [0., 0., 1.]], requires_grad=True)
    y = x.cumprod(1)
    y.sum().backward()
    result = (y, x.grad)
""")
case("cumprod_grad_of_grad", """
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    (g,) = torch.autograd.grad(x.cumprod(0).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    result = (g.detach(), gg)
""")
case("cumprod_int_and_0d", """
    result = (torch.tensor([1, 2, 3]).cumprod(0), torch.tensor(3.).cumprod(0),
              torch.tensor([True, True, False]).cumprod(0))
""")
case("cumprod_missing_dim", "result = torch.ones(2).cumprod()\n")
case("cumsum_float32_accumulates_in_double", """
    x = torch.tensor([1e8, 1., -1e8, 1., 0.1, 3e7, -3e7, 0.2])
    result = ([v.hex() for v in x.cumsum(0).tolist()], [v.hex() for v in x.cumprod(0).tolist()])
""")
case("cumsum_inplace_and_cumprod_inplace", """
    x = torch.tensor([1., 2., 3.])
    x.cumsum_(0)
    y = torch.tensor([1., 2., 3.])
    y.cumprod_(0)
    result = (x, y)
""")

# ---- count_nonzero / logsumexp / all / any ---------------------------------------------------

COUNT = {
    "method_keepdim": "torch.tensor([[1., 0.]]).count_nonzero(1, keepdim=True)",
    "method_unknown_keyword": "torch.tensor([[1., 0.]]).count_nonzero(foo=2)",
    "method_keywords_only": "torch.tensor([[1., 0.]]).count_nonzero(dim=1, keepdim=True)",
    "method_float": "torch.tensor([[1., 0.]]).count_nonzero(1.5)",
    "method_dim_float": "torch.tensor([[1., 0.]]).count_nonzero(dim=1.5)",
    "function_keepdim": "torch.count_nonzero(torch.ones(2), keepdim=True)",
    "function_two_keywords": "torch.count_nonzero(torch.ones(2, 1), keepdim=True, dim=0)",
    "function_str": "torch.count_nonzero(torch.ones(2), 'a')",
    "function_bool": "torch.count_nonzero(torch.ones(2), True)",
    "function_list_input": "torch.count_nonzero([1, 2])",
    "valid_forms": "(torch.count_nonzero(torch.tensor([[1., 0.], [float('nan'), 0.]]), dim=(0, 1)),"
                   " torch.tensor([[1., 0.]]).count_nonzero(axis=1),"
                   " torch.count_nonzero(input=torch.tensor([[1., 0.]]), dim=[0, 1]),"
                   " torch.tensor(2.).count_nonzero(0))",
    "dim_twice": "torch.tensor([[1., 0.]]).count_nonzero(dim=(0, 0))",
}
for name, expr in COUNT.items():
    case(f"count_nonzero_{name}", f"result = {expr}\n")

LSE = {
    "method_missing_dim": "torch.tensor([[1., 0.]]).logsumexp(keepdim=True)",
    "function_missing_dim": "torch.logsumexp(torch.ones(2, 3))",
    "dim_none": "torch.tensor([[1., 0.]]).logsumexp(dim=None)",
    "int_and_bool": "(torch.tensor([1, 2]).logsumexp(0), torch.tensor([True, False]).logsumexp(0))",
    "infinities": "(torch.tensor([-float('inf')] * 2).logsumexp(0),"
                  " torch.tensor([float('inf')] * 2).logsumexp(0),"
                  " torch.tensor([float('inf'), -float('inf')]).logsumexp(0))",
    "bits": "torch.tensor([1e-3, 2., 3.7, -1.1, 0.25, 9.5, -3.3, 1.7, 0.4]).logsumexp(0).item().hex()",
}
for name, expr in LSE.items():
    case(f"logsumexp_{name}", f"result = {expr}\n")
case("logsumexp_grad_infinities", """
    x = torch.tensor([[-float('inf'), -float('inf')], [float('inf'), 1.]], requires_grad=True)
    y = x.logsumexp(1)
    y.sum().backward()
    result = (y, x.grad, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
""")
case("all_any_forms", """
    x = torch.tensor([[1., 0.], [float('nan'), 2.]])
    result = (x.all(), x.all(1), x.all(1, keepdim=True), x.any((0, 1)), x.all(dim=(0,)),
              torch.tensor([[1, 0], [3, 2]], dtype=torch.uint8).all(1), torch.tensor(2.).all(0),
              torch.any(torch.tensor([1., 0.]), dim=0, keepdim=True))
""")
case("all_dim_out_of_range", "result = torch.tensor([[1, 0], [3, 2]]).all(3)\n")

# ---- split / chunk / unbind / size / cat on 0-d and empty tensors ---------------------------

SPLIT = {
    "chunk_0d": "torch.tensor(1.).chunk(2)",
    "chunk_0d_bad_chunks": "torch.tensor(1.).chunk(0)",
    "chunk_0d_bad_dim": "torch.tensor(1.).chunk(1, 3)",
    "split_0d": "torch.tensor(1.).split(2)",
    "split_0d_sizes": "torch.tensor(1.).split([1])",
    "unbind_0d": "torch.tensor(1.).unbind()",
    "unbind_0d_minus1": "torch.tensor(1.).unbind(-1)",
    "unbind_0d_dim1": "torch.tensor(1.).unbind(1)",
    "size_0d": "torch.tensor(1.).size(0)",
    "size_0d_minus1": "torch.tensor(1.).size(-1)",
    "split_negative": "torch.ones(2).split(-1)",
    "chunk_counts": "[len(torch.arange(float(n)).chunk(4)) for n in range(11)]",
    "chunk_empty_dim": "torch.ones(0, 2).chunk(3)",
    "chunk_empty_dim1_shapes": "[t.shape for t in torch.ones(2, 0).chunk(3, 1)]",
    "chunk_empty_node": "torch.ones(0, 2, requires_grad=True).chunk(3)[0].grad_fn.name()",
    "cat_0d_first": "torch.cat([torch.tensor(1.), torch.ones(2)])",
    "cat_0d_second": "torch.cat([torch.ones(2), torch.tensor(1.)])",
}
for name, expr in SPLIT.items():
    case(f"split_{name}", f"result = {expr}\n")

# ---- float32 sums: torch's order of additions, bit for bit ----------------------------------

for n in (7, 100, 1000, 5003, 20000):
    case(f"sum_bits_{n}", f"""
        x = torch.arange({n}, dtype=torch.float32) / 7 - torch.arange({n}, dtype=torch.float32).flip(0) / 3
        result = (x.sum().item().hex(), x.mean().item().hex(), x.abs().sum().item().hex(),
                  (x * x).sum().item().hex())
    """)
case("sum_bits_2d_dims", """
    x = torch.arange(3000, dtype=torch.float32).reshape(30, 100) / 7
    result = ([v.hex() for v in x.sum(0).tolist()[:5]], [v.hex() for v in x.sum(1).tolist()[:5]],
              [v.hex() for v in x.t().sum(0).tolist()[:5]])
""")
case("logsumexp_0d_keepdim", """
    x = torch.tensor([[0.22], [-0.29], [float('nan')]], dtype=torch.float64, requires_grad=True)
    result = (x.std().logsumexp(-1, keepdim=True), torch.tensor(3.).logsumexp(0, keepdim=True))
""")
case("sum_to_size1_dims_bits", """
    X = torch.arange(60, dtype=torch.float32).reshape(30, 2) / 17
    w = torch.tensor([[0.1], [0.2]], requires_grad=True)
    p = X[:, :1] * w[0] + X[:, 1:] * w[1]
    (p * p).sum().backward()
    result = [v.hex() for v in w.grad.flatten().tolist()]
""")
case("sum_mean_empty_dim_list_reduces_all", """
    x = torch.tensor([[1., 2.]], requires_grad=True)
    y, z = x.sum(()), x.mean([], keepdim=True)
    (y + z.sum()).backward()
    result = (y, z, x.grad, y.grad_fn._saved_dim, z.grad_fn._saved_dim,
              torch.tensor(2., requires_grad=True).sum(()), torch.tensor([1, 2]).sum(()))
""")
case("mean_optional_dtype_error", "result = torch.tensor([1., 2.]).mean(dtype=torch.int64)\n")
case("mean_int_input_error", "result = torch.tensor([1, 2]).mean(0)\n")

# ---- the version of a leaf's first .grad: copied by AccumulateGrad (1) or kept (0) ----------

GRAD_VERSION = {
    "sum": "x.sum().backward(retain_graph=True)",
    "sum_dim": "x.sum(1).sum().backward()",
    "mean": "x.mean().backward()",
    "mean_dim": "x.mean(0).sum().backward()",
    "expand_sum": "x.expand(3, 2, 3).sum().backward()",
    "scalar_times": "(x * 2).sum().backward()",
    "twice": "x.sum().backward(); x.sum().backward()",
    "given_gradient": "x.backward(torch.ones(2, 3))",
}
for name, code in GRAD_VERSION.items():
    case(f"grad_version_{name}", f"""
        x = torch.tensor([[0.09, -1.03, 1.97], [-0.57, 1.42, 0.66]], requires_grad=True)
        {code}
        result = (x.grad._version, x.grad.stride(), x.grad)
    """)
case("grad_version_0d_backward", """
    x = torch.tensor(0.29, requires_grad=True)
    x.backward(retain_graph=True)
    result = (x.grad._version, x.grad)
""")
case("grad_version_transposed_leaf", """
    x = torch.tensor([[1., 2.], [3., 4.]]).t().requires_grad_()
    x.sum().backward()
    result = (x.grad._version, x.grad.stride(), x.grad)
""")
GRAD_LAYOUT = {
    "0d_sum": ("torch.tensor(0.5, requires_grad=True)", "x.sum().backward()"),
    "transposed_narrow": ("torch.tensor([[1.39, 0., 0.24], [-0.09, 0.15, 0.]]).t().requires_grad_()",
                          "x.narrow(0, 0, 1).sum().backward()"),
    "transposed_amin": ("torch.tensor([[2.35, 1.38, -0.63], [1.75, -0.32, 1.31]]).t().requires_grad_()",
                        "x.amin(-1).sum().backward()"),
    "view_of_leaf": ("torch.tensor(-2.61, requires_grad=True)", "x.flatten()[None].sum().backward()"),
    "broadcast_operand": ("torch.tensor([[1., 2.]], requires_grad=True)",
                          "(x * torch.tensor([[1.], [2.]])).sum().backward()"),
    "dtype_cast": ("torch.tensor([1., 2.], requires_grad=True)", "x.double().sum().backward()"),
}
for name, (leaf, code) in GRAD_LAYOUT.items():
    case(f"grad_version_{name}", f"""
        x = {leaf}
        {code}
        result = (x.grad._version, x.grad.stride(), x.grad)
    """)
for name, code in (("cumsum", "x.cumsum(1).sum().backward()"),
                   ("cumprod", "x.cumprod(1).sum().backward()"),
                   ("unbind", "x.unbind(0)[0].sum().backward()"),
                   ("chunk", "x.chunk(2)[1].sum().backward()"),
                   ("cat", "torch.cat([x, x]).sum().backward()"),
                   ("logsumexp", "x.logsumexp(1).sum().backward()"),
                   ("mse_loss", "F.mse_loss(x, torch.zeros(2, 2)).backward()"),
                   ("huber_loss", "F.huber_loss(x, torch.zeros(2, 2)).backward()")):
    case(f"grad_version_{name}", f"""
        x = torch.tensor([[1., 5.], [7., 2.]], requires_grad=True)
        {code}
        result = (x.grad._version, x.grad)
    """)
for name, code in (("0d_rsqrt", "x.rsqrt().backward()"), ("0d_exp", "x.exp().backward()"),
                   ("0d_scalar_times", "(x * 2).backward()"), ("0d_itself", "x.backward()"),
                   ("0d_plus", "(x + 1).backward()")):
    case(f"grad_version_{name}", f"""
        x = torch.tensor(3.71, requires_grad=True)
        {code}
        result = (x.grad._version, x.grad)
    """)
