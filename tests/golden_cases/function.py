"""Custom ``autograd.Function``s, ``gradcheck``/``gradgradcheck`` and
``autograd.functional`` (jacobian, hessian, vjp, jvp, hvp, vhp)."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


MYEXP = """
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y
"""


def with_myexp(name: str, code: str) -> None:
    case(name, MYEXP + textwrap.dedent(code))


# ---- Function: node, edges, saved tensors ---------------------------------------------------

with_myexp("function_basic", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
y.sum().backward()
print(y.grad_fn)
result = (y, y.grad_fn.name(), type(y.grad_fn).__name__, x.grad, y.grad_fn.next_functions[0][0].variable is x)
""")
with_myexp("function_saved_tensors", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
result = (y.grad_fn.saved_tensors, y.grad_fn.needs_input_grad)
""")
with_myexp("function_saved_after_backward", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
y.sum().backward()
y.grad_fn.saved_tensors
""")
with_myexp("function_backward_twice", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
y.sum().backward()
y.sum().backward()
""")
with_myexp("function_retain_graph", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
y.sum().backward(retain_graph=True)
y.sum().backward()
result = x.grad
""")
with_myexp("function_saved_output_modified", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
y.mul_(2)
y.sum().backward()
""")
with_myexp("function_in_chain", """
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
z = (MyExp.apply(x * 2) + x).sum()
z.backward()
result = (z, x.grad)
""")
with_myexp("function_no_grad_input", """
x = torch.tensor([1.0, 2.0])
y = MyExp.apply(x)
result = (y, y.requires_grad, y.grad_fn)
""")
with_myexp("function_under_no_grad", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = MyExp.apply(x)
result = (y, y.requires_grad)
""")
with_myexp("function_create_graph", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
g.sum().backward()
result = (g, x.grad)
""")
case("function_saved_input_modified", """
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 1
y = Sq.apply(a)
a.add_(1)
y.sum().backward()
""")
case("function_saved_input_leaf", """
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Sq.apply(x)
result = (y.grad_fn.saved_tensors, y.grad_fn.saved_tensors[0] is x)
""")
case("function_non_tensor_args", """
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, name):
        ctx.k = k
        print(name, ctx.needs_input_grad)
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None, None

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
y = Scale.apply(x, 3.0, "first")
y.sum().backward()
y2 = Scale.apply(c, 2.0, "second")
result = (y, x.grad, len(y.grad_fn.next_functions), y2, y2.requires_grad)
""")
case("function_two_tensor_inputs_one_const", """
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        print(ctx.needs_input_grad)
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print(ctx.needs_input_grad)
        return g * b, g * a

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
y = Mul.apply(a, b)
y.sum().backward()
result = (y.grad_fn.next_functions[1], a.grad, b.grad)
""")
case("function_wrong_number_of_grads", """
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, g):
        return g

x = torch.tensor([1.0, 2.0], requires_grad=True)
Bad.apply(x, x).sum().backward()
""")
case("function_too_many_grads", """
class TooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g

x = torch.tensor([1.0, 2.0], requires_grad=True)
TooMany.apply(x).sum().backward()
""")
case("function_extra_nones_ok", """
class Extra(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2, None, None

x = torch.tensor([1.0, 2.0], requires_grad=True)
Extra.apply(x).sum().backward()
result = x.grad
""")
case("function_wrong_grad_shape", """
class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)

x = torch.tensor([1.0, 2.0], requires_grad=True)
BadShape.apply(x).sum().backward()
""")
case("function_grad_shape_scalar", """
class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.tensor(1.0)

x = torch.tensor([1.0, 2.0], requires_grad=True)
BadShape.apply(x).sum().backward()
""")
case("function_grad_expandable_is_summed", """
class Wide(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.ones(3, 2)

x = torch.tensor([1.0, 2.0], requires_grad=True)
Wide.apply(x).sum().backward()
result = x.grad
""")
case("function_grad_dtype_cast", """
class D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g.double() * 2

x = torch.tensor([1.0, 2.0], requires_grad=True)
D.apply(x).sum().backward()
result = x.grad
""")
case("function_grad_not_tensor", """
class R(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return 3

x = torch.tensor([1.0, 2.0], requires_grad=True)
R.apply(x).sum().backward()
""")
case("function_grad_for_non_tensor_input", """
class N(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g, g

x = torch.tensor([1.0, 2.0], requires_grad=True)
N.apply(x, 2.0).sum().backward()
""")
case("function_multiple_outputs", """
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1", g1, "g2", g2)
        return g1 * 2 + g2 * 3

x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Split.apply(x)
a.sum().backward()
result = (a, b, a.grad_fn is b.grad_fn, a.output_nr, b.output_nr, x.grad)
""")
case("function_set_materialize_grads_false", """
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1", g1, "g2", g2)
        return g1 * 2

x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Split.apply(x)
a.sum().backward()
result = x.grad
""")
case("function_non_tensor_output", """
class RetNon(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return 5, x * 2

    @staticmethod
    def backward(ctx, g, g2):
        print("grads", g, g2)
        return g2

x = torch.tensor([1.0, 2.0], requires_grad=True)
r = RetNon.apply(x)
r[1].sum().backward()
result = (r, r[1].output_nr, x.grad)
""")
case("function_mark_non_differentiable", """
class Perm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        i = torch.tensor([1, 2, 0])
        v = x[i]
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i

    @staticmethod
    def backward(ctx, g, gi):
        print("gi", gi)
        (i,) = ctx.saved_tensors
        r = torch.zeros_like(g)
        r[i] = g
        return r

x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = Perm.apply(x)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
result = (v, i, i.requires_grad, x.grad)
""")
case("function_integer_output", """
class Arg(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.argmax()

    @staticmethod
    def backward(ctx, g):
        return None

x = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
r = Arg.apply(x)
result = (r, r.requires_grad, r.grad_fn)
""")
case("function_mark_dirty", """
class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g

x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 1
b = AddOne.apply(a)
b.sum().backward()
result = (a, b is a, a._version, type(a.grad_fn).__name__, x.grad)
""")
case("function_mark_dirty_leaf", """
class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g

x = torch.tensor([1.0, 2.0], requires_grad=True)
AddOne.apply(x)
""")
case("function_returns_input", """
class Ident(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2

x = torch.tensor([1.0, 2.0], requires_grad=True)
b = Ident.apply(x)
b.sum().backward()
result = (b, b is x, b.is_leaf, x.grad)
""")
case("function_setup_context", """
class MyMul(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        ctx.save_for_backward(x, None)
        print("setup", output, ctx.needs_input_grad)

    @staticmethod
    def backward(ctx, g):
        x, n = ctx.saved_tensors
        print("saved", x, n)
        return g * ctx.k, None

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyMul.apply(x, 3.0)
y.sum().backward()
y2 = MyMul.apply(x, k=4.0)
result = (y, y2, x.grad)
""")
case("function_save_non_tensor", """
class S(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(3)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g

S.apply(torch.tensor([1.0], requires_grad=True))
""")
case("function_no_backward", """
class NoBack(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

y = NoBack.apply(torch.tensor([1.0], requires_grad=True))
print(y)
y.sum().backward()
""")
case("function_no_forward", """
class NoFwd(torch.autograd.Function):
    pass

NoFwd.apply(torch.tensor([1.0], requires_grad=True))
""")
case("function_instantiated", """
class Pl(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g

f = Pl()
f(torch.tensor([1.0]))
""")
case("function_node_not_callable", """
class C(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g

y = C.apply(torch.tensor([1.0], requires_grad=True))
y.grad_fn(torch.ones(1))
""")
case("function_grad_modes_inside", """
class Look(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        print("forward", torch.is_grad_enabled(), y.requires_grad)
        return y

    @staticmethod
    def backward(ctx, g):
        print("backward", torch.is_grad_enabled(), g.requires_grad)
        return g * 2

x = torch.tensor([1.0], requires_grad=True)
Look.apply(x).sum().backward()
(g,) = torch.autograd.grad(Look.apply(x).sum(), x, create_graph=True)
result = (x.grad, g)
""")
case("function_node_hooks", """
class C(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3

    @staticmethod
    def backward(ctx, g):
        return g * 3

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = C.apply(x)
y.grad_fn.register_hook(lambda gi, go: print("hook", gi, go))
y.grad_fn.register_prehook(lambda go: print("prehook", go))
y.sum().backward()
result = x.grad
""")
case("once_differentiable_plain", """
once_differentiable = torch.autograd.function.once_differentiable

class OD(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        print("in backward", g.requires_grad, torch.is_grad_enabled())
        return 2 * x * g

x = torch.tensor([1.0, 2.0], requires_grad=True)
OD.apply(x).sum().backward()
result = x.grad
""")
case("once_differentiable_twice", """
once_differentiable = torch.autograd.function.once_differentiable

class OD(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = OD.apply(x)
(g,) = torch.autograd.grad(y, x, grad_outputs=torch.ones(2, requires_grad=True), create_graph=True)
print(g)
g.sum().backward()
""")

# ---- gradcheck / gradgradcheck -----------------------------------------------------------------

case("gradcheck_passes", """
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]], dtype=torch.float64, requires_grad=True)
y = torch.tensor([0.5, -2.0], dtype=torch.float64, requires_grad=True)
result = (torch.autograd.gradcheck(lambda a, b: (a * b).sin(), (x, y)),
          torch.autograd.gradcheck(lambda a: a.exp().sum(), x),
          torch.autograd.gradcheck(lambda a: (a.relu(), a * 3), (y,)))
""")
with_myexp("gradcheck_custom_function_ok", """
y = torch.tensor([0.5, -2.0, 1.5], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(MyExp.apply, (y,))
""")
case("gradcheck_jacobian_mismatch", """
class BadExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y * 2

y = torch.tensor([0.5, -2.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(BadExp.apply, (y,))
""")
case("gradcheck_mismatch_second_input", """
class BadMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a * 0

a = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(BadMul.apply, (a, b))
""")
case("gradcheck_error_class", """
import importlib
GradcheckError = importlib.import_module(torch.__name__ + ".autograd.gradcheck").GradcheckError

class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 3

y = torch.tensor([0.5], dtype=torch.float64, requires_grad=True)
try:
    torch.autograd.gradcheck(Bad.apply, (y,))
except GradcheckError as e:
    print(type(e).__name__, isinstance(e, RuntimeError))
result = torch.autograd.gradcheck(Bad.apply, (y,), raise_exception=False)
""")
case("gradcheck_float32_warns", """
y = torch.tensor([0.5, -2.0], requires_grad=True)
result = torch.autograd.gradcheck(lambda a: a * 2, (y,), eps=1e-3, atol=1e-3)
""")
case("gradcheck_no_input_requires_grad", """
torch.autograd.gradcheck(lambda a: a * 2, (torch.ones(2, dtype=torch.float64),))
""")
case("gradcheck_stride_zero_input", """
x = torch.ones(1, dtype=torch.float64, requires_grad=True).expand(3)
torch.autograd.gradcheck(lambda a: a * 2, (x,))
""")
case("gradcheck_backward_not_multiplied", """
class Aff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2 + 1

y = torch.tensor([0.5, -2.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(Aff.apply, (y,), atol=10.0)
""")
case("gradcheck_not_reentrant", """
class Nondet(torch.autograd.Function):
    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        Nondet.calls += 1
        return g * 2 + Nondet.calls * 1e-9

y = torch.tensor([0.5, -2.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(Nondet.apply, (y,))
""")
case("gradcheck_nondet_tol", """
class Nondet(torch.autograd.Function):
    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        Nondet.calls += 1
        return g * 2 * (1 + Nondet.calls * 1e-12)

y = torch.tensor([0.5, -2.0], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(Nondet.apply, (y,), nondet_tol=1e-6)
""")
case("gradcheck_no_differentiable_outputs", """
y = torch.tensor([0.5, -2.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(lambda a: (a * a).detach(), (y,))
""")
case("gradgradcheck_passes", """
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]], dtype=torch.float64, requires_grad=True)
y = torch.tensor([0.5, -2.0], dtype=torch.float64, requires_grad=True)
go = torch.tensor([[1.0, 0.5], [2.0, -1.0]], dtype=torch.float64)
result = (torch.autograd.gradgradcheck(lambda a, b: (a * b).sin(), (x, y), grad_outputs=go),
          torch.autograd.gradgradcheck(lambda a: (a ** 3).sum(), (y,),
                                       grad_outputs=torch.tensor(1.5, dtype=torch.float64)))
""")
case("gradgradcheck_once_differentiable_fails", """
once_differentiable = torch.autograd.function.once_differentiable

class OD(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

y = torch.tensor([0.5, -2.0], dtype=torch.float64, requires_grad=True)
go = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradgradcheck(OD.apply, (y,), grad_outputs=(go,))
""")

# ---- autograd.functional --------------------------------------------------------------------------

FUNCTIONAL = """
AF = torch.autograd.functional
hessian, hvp, jacobian, jvp, vhp, vjp = AF.hessian, AF.hvp, AF.jacobian, AF.jvp, AF.vhp, AF.vjp
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
W = torch.tensor([[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]])
f = lambda v: W @ v.sin()
"""


def with_functional(name: str, code: str) -> None:
    case(name, FUNCTIONAL + textwrap.dedent(code))


with_functional("jacobian_vector_function", "result = jacobian(f, x)\n")
with_functional("jacobian_create_graph", """
J = jacobian(f, x, create_graph=True)
result = (J, J.requires_grad, type(J.grad_fn).__name__)
""")
with_functional("jacobian_tuples", """
result = jacobian(lambda a, b: (a * b, a.sum() * b), (x, x * 2))
""")
with_functional("jacobian_matrix_input", """
result = jacobian(lambda a: a.exp(), torch.tensor([[1.0, 2.0], [0.0, -1.0]]))
""")
with_functional("jacobian_vectorize_flag", "result = jacobian(lambda a: a.sum(), x, vectorize=True)\n")
with_functional("jacobian_constant_output", "result = jacobian(lambda a: torch.ones(2), x)\n")
with_functional("jacobian_strict_independent", "jacobian(lambda a: torch.ones(2), x, strict=True)\n")
with_functional("jacobian_not_a_tensor", "jacobian(f, 3.0)\n")
with_functional("jacobian_tuple_with_non_tensor", "jacobian(f, (x, 3.0))\n")
with_functional("hessian_cubic", "result = hessian(lambda a: (a ** 3).sum(), x)\n")
with_functional("hessian_two_inputs", """
result = hessian(lambda a, b: (a * b * a).sum(), (x, torch.tensor([1.0, -1.0, 2.0])))
""")
with_functional("hessian_not_scalar", "hessian(lambda a: a * 2, x)\n")
with_functional("hessian_strict_linear", "hessian(lambda a: (a * 2).sum(), x, strict=True)\n")
with_functional("vjp_basic", "result = vjp(f, x, torch.tensor([1.0, 1.0]))\n")
with_functional("vjp_scalar_no_v", "result = vjp(lambda a: (a * a).sum(), x)\n")
with_functional("vjp_v_required", "vjp(f, x)\n")
with_functional("vjp_v_wrong_size", "vjp(f, x, torch.ones(3))\n")
with_functional("jvp_basic", "result = jvp(f, x, torch.tensor([1.0, 0.0, 0.0]))\n")
with_functional("jvp_v_wrong_length", "jvp(f, (x,), (torch.ones(3), torch.ones(3)))\n")
with_functional("hvp_vhp", """
g = lambda a: (a ** 3).sum() + (a[0] * a[1])
result = (hvp(g, x, torch.tensor([1.0, 2.0, 3.0])), vhp(g, x, torch.tensor([1.0, 2.0, 3.0])))
""")
with_functional("hvp_strict_linear", "hvp(lambda a: (a * 2).sum(), x, torch.ones(3), strict=True)\n")

# ---- views returned by a Function ----------------------------------------------------------------

VIEWFN = """
class V(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.view(2, 1)

    @staticmethod
    def backward(ctx, g):
        return g.view(2)

class Ident(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a

    @staticmethod
    def backward(ctx, g):
        return g
"""


def with_viewfn(name: str, code: str) -> None:
    case(name, VIEWFN + textwrap.dedent(code))


with_viewfn("function_view_output_inplace_error", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
r = V.apply(x * 1)
print(r, r._base is None)
r.mul_(2)
""")
with_viewfn("function_returned_input_inplace_error", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
r = Ident.apply(x * 1)
r.mul_(2)
""")
with_viewfn("function_view_output_inplace_no_grad_ok", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
r = V.apply(x * 1)
with torch.no_grad():
    r.mul_(2)
result = r.detach()
""")
with_viewfn("function_returned_input_under_no_grad", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = Ident.apply(x)
result = (y, y.requires_grad, y._base is x, y is x, y.grad_fn)
""")
