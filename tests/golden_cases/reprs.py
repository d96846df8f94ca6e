"""Printed forms of op results: grad_fn and dtype suffixes, Size, dtypes, return types,
formatting of 0-d tensors, and what ``print`` shows for the objects of autograd.

(The golden file of the tensor formatter itself is ``tests/goldens/printing.json``;
this area is named ``reprs`` so as not to clash with it.)
"""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# Each expression is printed (str) and its repr recorded; x, m, d, i are defined first.
SETUP = """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.tensor([[1.0, -2.0, 3.5], [0.25, 5.0, -6.0]], requires_grad=True)
d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
i = torch.tensor([3, 1, 2])
"""
EXPRS = {
    "leaf": "x",
    "sum": "(x * x).sum()",
    "mean": "x.mean()",
    "mul": "x * 2",
    "div": "x / 2",
    "rdiv": "1 / x",
    "rsub": "1 - x",
    "pow": "x ** 2",
    "pow_tensor": "x ** x",
    "rpow": "2 ** x",
    "neg": "-x",
    "exp": "x.exp()",
    "log": "x.log()",
    "sigmoid": "x.sigmoid()",
    "tanh": "x.tanh()",
    "relu": "(x - 2).relu()",
    "abs": "(x - 2).abs()",
    "sqrt": "x.sqrt()",
    "where": "torch.where(x > 1, x, 0.0)",
    "clone": "x.clone()",
    "sum_dim": "m.sum(0)",
    "mean_dim": "m.mean(1, keepdim=True)",
    "max_all": "m.max()",
    "max_dim": "m.max(1)",
    "min_dim": "m.min(dim=0)",
    "max_int_dim": "i.max(0)",
    "view": "m.view(3, 2)",
    "reshape_nc": "m.t().reshape(6)",
    "t": "m.t()",
    "T": "m.T",
    "transpose": "m.transpose(0, 1)",
    "mm": "m @ m.t()",
    "mv": "m @ x",
    "dot": "x @ x",
    "trace": "m[:, :2].trace()",
    "select": "x[0]",
    "slice": "x[1:]",
    "index": "x[[0, 2]]",
    "expand": "x[None].expand(2, 3)",
    "unsqueeze": "x.unsqueeze(1)",
    "squeeze": "m[None].squeeze(0)",
    "cat": "torch.cat([x, x])",
    "stack": "torch.stack([x, x])",
    "float64_leaf": "d",
    "float64_op": "d * 3",
    "float64_sum": "d.sum()",
    "to_float64": "x.double()",
    "int_tensor": "i",
    "int32": "i.int()",
    "int_op": "i * 2",
    "bool_op": "i > 1",
    "uint8": "i.to(torch.uint8)",
    "float16": "x.half() * 2",
    "promoted": "i * 1.5",
    "softmax": "m.softmax(1)",
    "log_softmax": "m.log_softmax(0)",
    "detach": "(x * 2).detach()",
    "no_grad_result": "x.detach() * 2",
    "var": "x.var()",
    "std": "m.std(0)",
    "prod": "x.prod()",
    "0d_leaf": "torch.tensor(14.0, requires_grad=True)",
    "0d_int": "torch.tensor(5)",
    "0d_bool": "torch.tensor(True)",
    "empty": "torch.ones(0, requires_grad=True) * 2",
    "large_values": "x * 1e6",
    "small_values": "x * 1e-6",
    "mixed_values": "torch.tensor([1e-5, 1.0, 1e5]) * x",
    "inf_nan": "x / torch.tensor([0.0, 0.0, 1.0]) - torch.tensor([0.0, 1.0, float('inf')])",
    "wide_suffix_wrap": "torch.arange(8.0, dtype=torch.float64, requires_grad=True) * 1.5",
    "3d": "torch.arange(12.0).reshape(2, 3, 2).requires_grad_() * 1",
    "copyslices": "(lambda h: (h.__setitem__(0, 5.0), h)[1])(x * 2)",
    "inplace_view": "(lambda h: (h[1:].mul_(2), h)[1])(x * 2)",
    "addmm": "torch.addmm(x[:2], m.t(), m[:, :2])",
    "grad_fn_object": "(x * 2).grad_fn",
    "accumulate_grad": "(x * 2).grad_fn.next_functions[0][0]",
    "next_functions": "(x * x.detach()).grad_fn.next_functions",
    "size": "m.shape",
    "size_0d": "torch.tensor(1.0).shape",
    "size_method": "m.size()",
    "size_empty": "torch.zeros(0, 2).shape",
    "dtype_float32": "x.dtype",
    "dtype_float64": "d.dtype",
    "dtype_int64": "i.dtype",
    "dtype_bool": "(i > 1).dtype",
    "dtypes_module": "(torch.float, torch.double, torch.long, torch.int, torch.half, torch.bool, torch.uint8, torch.int8, torch.int16)",
    "default_dtype": "torch.get_default_dtype()",
    "device": "x.device",
    "unbind": "m.unbind()",
    "split": "x.split(2)",
    "where_one_arg": "torch.where(i > 1)",
    "tolist": "m.tolist()",
    "item": "x.sum().item()",
    "int_item": "i.sum().item()",
    "numpy": "x.detach().numpy()",
}
for name, expr in EXPRS.items():
    case(name, SETUP + f"""
value = {expr}
print(value)
result = repr(value)
""")

case("fstring_0d", """
    t = torch.tensor(3.14159)
    result = (f"{t:.2f}", f"{t:>10.3f}", f"{t}", "{}".format(t), f"{torch.tensor(7):03d}",
              f"{torch.tensor(2.0, requires_grad=True):.1f}", f"{(torch.tensor(2.0, requires_grad=True) * 3):.3e}")
""")
case("fstring_vector_plain", """
    t = torch.tensor([1.5, 2.5])
    result = (f"{t}", "{}".format(t), str(t), f"{t!r}")
""")
case("fstring_vector_spec_error", """
    result = f"{torch.tensor([1.5, 2.5]):.2f}"
""")
case("print_multiple", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    print('loss:', y, 'grad fn:', y.grad_fn.name())
    y.backward()
    print('grad', x.grad)
    print(x.grad.shape, x.dtype, x.grad.dtype)
""")
case("print_return_types_fields", """
    m = torch.tensor([[1.0, 4.0], [3.0, 2.0]], requires_grad=True)
    r = m.max(dim=1)
    print(r)
    print(r.values)
    print(r.indices)
    v, idx = r
    result = (repr(r), str(r), v, idx, len(r), type(r).__name__, type(r).__module__)
""")
case("print_min_keepdim", """
    m = torch.tensor([[1.0, 4.0], [3.0, 2.0]])
    print(torch.min(m, 1, keepdim=True))
""")
case("print_size_ops", """
    s = torch.ones(2, 3).shape
    print(s, s[0], s[-1], s[1:], len(s), s == (2, 3), list(s), s.numel())
    result = (repr(s[1:]), type(s[1:]).__name__, repr(s + (4,)) if False else None)
""")
case("print_grad_after_backward", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x ** 2).sum()
    y.backward()
    print(x.grad)
    print(y)
    print(x)
""")
case("print_sum_fact", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    print((x * x).sum())
    print(torch.tensor(14.0))
    print(torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True))
""")
case("print_with_printoptions", """
    torch.set_printoptions(precision=2)
    x = torch.tensor([1.23456, 2.5], requires_grad=True)
    print(x * 2)
    torch.set_printoptions(profile='default')
    print(x * 2)
""")
case("print_nested_tuple", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    print((x, x * 2))
    print([x.sum(), x.mean()])
""")
case("repr_inside_dict", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    print({'x': x, 'y': x.exp()})
""")
case("type_names", """
    x = torch.tensor([1.0])
    result = (type(x).__name__, type(x.shape).__name__, type(x.dtype).__name__, x.type(),
              torch.tensor([1]).type(), torch.tensor([1.0], dtype=torch.float64).type(),
              torch.tensor([True]).type(), torch.tensor([1], dtype=torch.int32).type())
""")
case("dtype_attributes", """
    result = [(repr(d), d.is_floating_point, d.is_signed, d.itemsize)
              for d in (torch.float16, torch.float32, torch.float64, torch.uint8, torch.int8,
                        torch.int16, torch.int32, torch.int64, torch.bool)]
""")
case("dtype_equality_and_aliases", """
    result = (torch.float is torch.float32, torch.double == torch.float64, torch.long is torch.int64,
              torch.int is torch.int32, torch.half is torch.float16, str(torch.float32),
              torch.promote_types(torch.int32, torch.float32), torch.result_type(torch.tensor([1]), 1.0),
              torch.promote_types(torch.uint8, torch.int8), torch.result_type(torch.tensor(1.0), torch.tensor([1])))
""")
