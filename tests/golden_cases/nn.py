"""``nn``: modules (Linear, containers, activations, losses), ``Parameter``, state dicts,
``nn.functional`` (graphs, values, errors, warnings), ``nn.init`` and ``optim``.

Randomly initialised weights are overwritten with explicit values (RNG parity with
torch is separate work), so every number here is determined by the code.
"""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


LIN = """
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.5, 0.4, -0.6]]))
    lin.bias.copy_(torch.tensor([0.05, -0.1]))
"""


def with_lin(name: str, code: str) -> None:
    case(name, LIN + textwrap.dedent(code))


NET = """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 1)
        self.register_buffer("running", torch.zeros(2))

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))

net = Net()
with torch.no_grad():
    net.fc1.weight.copy_(torch.tensor([[0.5, -1.0], [1.5, 0.25], [-0.5, 0.75]]))
    net.fc1.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
    net.fc2.weight.copy_(torch.tensor([[1.0, -2.0, 0.5]]))
    net.fc2.bias.copy_(torch.tensor([0.25]))
"""


def with_net(name: str, code: str) -> None:
    case(name, NET + textwrap.dedent(code))


# ---- Linear: values, graphs, errors ---------------------------------------------------------------

with_lin("linear_batch_graph", """
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
y = lin(x)
fn = y.grad_fn
result = (y, fn.next_functions[0][0].variable is lin.bias,
          fn.next_functions[2][0].next_functions[0][0].variable is lin.weight,
          fn._saved_alpha, fn._saved_beta, fn._saved_mat1, fn._saved_mat2, fn._saved_mat1_sym_sizes,
          fn._saved_mat2_sym_sizes, fn._saved_mat2_sym_strides)
""")
with_lin("linear_batch_backward", """
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = lin(x)
(y * torch.tensor([[1.0, -1.0], [2.0, 0.5]])).sum().backward()
result = (y, lin.weight.grad, lin.bias.grad, x.grad, lin.weight.grad.stride(), y.grad_fn._saved_mat1_sym_strides)
""")
with_lin("linear_input_requires_grad_graph", """
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
result = lin(x * 2)
""")
with_lin("linear_1d_input", """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = lin(x)
y.sum().backward()
result = (y, y.grad_fn._saved_self_sym_sizes, x.grad, lin.weight.grad)
""")
with_lin("linear_3d_input", """
x = torch.arange(12.0).reshape(2, 2, 3) / 4 + 0.3
y = lin(x)
y.sum().backward()
result = (y, lin.bias.grad, lin.weight.grad)
""")
with_lin("linear_3d_input_requires_grad", """
x = (torch.arange(12.0).reshape(2, 2, 3) / 4 + 0.3).requires_grad_()
result = lin(x)
""")
case("linear_no_bias", """
lin = nn.Linear(3, 2, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.5, 0.4, -0.6]]))
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
y2 = lin(x)
y1 = lin(torch.tensor([1.0, 2.0, 3.0], requires_grad=True))
y3 = lin(torch.ones(2, 2, 3))
y2.sum().backward()
result = (lin, lin.bias, y2, y1, y3, lin.weight.grad, list(lin.state_dict().keys()))
""")
with_lin("linear_non_contiguous_input", """
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).t()
result = lin(x[None])
""")
with_lin("linear_no_grad", """
with torch.no_grad():
    y = lin(torch.tensor([[1.0, 2.0, 3.0]]))
result = y
""")
with_lin("linear_shape_mismatch", "lin(torch.ones(2, 4))\n")
with_lin("linear_shape_mismatch_1d", "lin(torch.ones(4))\n")
with_lin("linear_shape_mismatch_3d", "lin(torch.ones(2, 2, 4))\n")
with_lin("linear_0d_input", "lin(torch.tensor(1.0))\n")
with_lin("linear_double_input", "lin(torch.ones(2, 3, dtype=torch.float64))\n")
with_lin("linear_long_input", "lin(torch.ones(2, 3, dtype=torch.int64))\n")
case("functional_linear", """
w = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]], requires_grad=True)
b = torch.tensor([0.5, -0.5], requires_grad=True)
x = torch.tensor([[1.0, 1.0, 1.0], [2.0, 0.0, -1.0]])
y = F.linear(x, w, b)
z = F.linear(x, w)
(y.sum() + z.sum()).backward()
result = (y, z, w.grad, b.grad)
""")
case("linear_attributes_and_repr", """
lin = nn.Linear(4, 3)
lin2 = nn.Linear(4, 3, bias=False)
print(lin, lin2)
result = (lin.in_features, lin.out_features, lin.weight.shape, lin.bias.shape, lin.weight.requires_grad,
          type(lin.weight).__name__, lin.weight.is_leaf, lin.weight.grad_fn, lin2.bias,
          [n for n, _ in lin.named_parameters()])
""")
case("linear_default_init_bounds", """
lin = nn.Linear(50, 4)
bound = 1 / 50 ** 0.5
result = (bool((lin.weight.abs() <= bound).all()), bool((lin.bias.abs() <= bound).all()),
          lin.weight.abs().max().item() > bound / 2)
""")
case("linear_zero_in_features", """
lin = nn.Linear(0, 2)
result = (lin.weight, lin.bias)
""")
case("linear_dtype_kwarg", """
lin = nn.Linear(2, 2, dtype=torch.float64)
result = (lin.weight.dtype, lin.bias.dtype)
""")

# ---- Parameter ----------------------------------------------------------------------------------

case("parameter_repr_and_flags", """
p = nn.Parameter(torch.tensor([1.0, 2.0]))
q = nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float64))
r = nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)
print(p)
print(repr(q))
print(r)
print(nn.Parameter())
result = (p.requires_grad, p.is_leaf, type(p).__name__, type(p * 2).__name__, type(p.detach()).__name__,
          type(p.data).__name__, p * 2, isinstance(p, torch.Tensor))
""")
case("parameter_int_requires_grad", "nn.Parameter(torch.tensor([1, 2]))\n")
case("parameter_int_no_grad", "result = nn.Parameter(torch.tensor([1, 2]), requires_grad=False)\n")
case("parameter_shares_memory", """
t = torch.tensor([1.0, 2.0])
p = nn.Parameter(t)
with torch.no_grad():
    p.add_(1)
result = (t, p, p._version)
""")
case("parameter_inplace_error", """
p = nn.Parameter(torch.tensor([1.0, 2.0]))
p.add_(1)
""")
case("parameter_backward", """
p = nn.Parameter(torch.tensor([1.0, 2.0]))
(p * p).sum().backward()
result = (p.grad, type(p.grad).__name__)
""")

# ---- Module: registration, traversal, state dicts ------------------------------------------------------

with_net("module_repr", "print(net)\nresult = repr(net.fc1)\n")
with_net("module_forward", """
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
y = net(x)
y.sum().backward()
result = (y, net.fc1.weight.grad, net.fc2.bias.grad)
""")
with_net("module_traversal", """
result = ([n for n, _ in net.named_parameters()], [tuple(p.shape) for p in net.parameters()],
          [n for n, _ in net.named_buffers()], [n for n, _ in net.named_children()],
          [n for n, _ in net.named_modules()], [type(m).__name__ for m in net.modules()],
          [type(m).__name__ for m in net.children()], len(list(net.parameters(recurse=False))))
""")
with_net("module_state_dict", """
sd = net.state_dict()
print(sd)
result = (list(sd.keys()), type(sd).__name__, sd["fc1.weight"].requires_grad,
          net.state_dict(keep_vars=True)["fc1.weight"].requires_grad, sd["fc2.bias"])
""")
with_net("module_state_dict_shares_memory", """
sd = net.state_dict()
with torch.no_grad():
    net.fc2.bias.add_(1)
result = sd["fc2.bias"]
""")
with_net("module_load_state_dict_roundtrip", """
sd = {k: v * 2 for k, v in net.state_dict().items()}
print(net.load_state_dict(sd))
result = (net.fc1.weight, net.fc2.bias, net.fc1.weight.requires_grad, type(net.fc1.weight).__name__)
""")
with_net("module_load_state_dict_missing", """
net.load_state_dict({"fc1.weight": torch.zeros(3, 2)})
""")
with_net("module_load_state_dict_unexpected", """
sd = dict(net.state_dict())
sd["extra.weight"] = torch.zeros(1)
sd["fc3.bias"] = torch.zeros(1)
net.load_state_dict(sd)
""")
with_net("module_load_state_dict_size_mismatch", """
sd = dict(net.state_dict())
sd["fc1.weight"] = torch.zeros(4, 2)
net.load_state_dict(sd)
""")
with_net("module_load_state_dict_not_strict", """
r = net.load_state_dict({"fc1.weight": torch.ones(3, 2), "bogus": torch.ones(1)}, strict=False)
print(r)
result = (r.missing_keys, r.unexpected_keys, net.fc1.weight)
""")
with_net("module_setattr_errors", """
for attempt in (lambda: setattr(net, "fc1", 3), lambda: setattr(net.fc1, "weight", torch.zeros(3, 2)),
                lambda: setattr(net, "running", 5), lambda: net.missing):
    try:
        attempt()
    except Exception as e:
        print(type(e).__name__, e)
""")
with_net("module_setattr_replace", """
net.fc2 = nn.Linear(3, 4)
net.extra = nn.Parameter(torch.ones(1))
net.fc1.bias = None
net.running = torch.ones(2)
result = ([n for n, _ in net.named_parameters()], list(net.state_dict().keys()), net.running,
          net.fc1.bias, net)
""")
case("module_assign_before_init", """
class Bad(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(1))
        super().__init__()

Bad()
""")
case("module_missing_forward", """
class Empty(nn.Module):
    pass

print(Empty())
Empty()(torch.ones(1))
""")
case("module_extra_repr_multiline", """
class Ex(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(1, 1)

    def extra_repr(self):
        return "a=1,\\nb=2"

class One(nn.Module):
    def extra_repr(self):
        return "k=3"

print(Ex())
print(One())
""")
with_net("module_zero_grad", """
net(torch.ones(2, 2)).sum().backward()
net.zero_grad()
g1 = net.fc1.weight.grad
net(torch.ones(2, 2)).sum().backward()
net.zero_grad(set_to_none=False)
result = (g1, net.fc1.weight.grad, net.fc2.bias.grad)
""")
with_net("module_train_eval", """
a = net.training
r = net.eval()
result = (a, r is net, net.training, net.fc1.training, net.train().training, net.act.training)
""")
with_net("module_apply_order", """
names = []
r = net.apply(lambda m: names.append(type(m).__name__))
result = (names, r is net)
""")
with_net("module_to_double", """
w = net.fc1.weight
r = net.to(torch.float64)
y = net(torch.ones(1, 2, dtype=torch.float64))
result = (r is net, net.fc1.weight.dtype, net.fc1.weight is w, type(net.fc1.weight).__name__,
          net.running.dtype, y, net.float().fc2.weight.dtype, net.double() is net)
""")
with_net("module_requires_grad_", """
net.requires_grad_(False)
y = net(torch.ones(1, 2))
result = (y, [p.requires_grad for p in net.parameters()])
""")
with_net("module_forward_hooks", """
h = net.fc1.register_forward_hook(lambda m, i, o: print("hook", type(m).__name__, i, o))
net(torch.ones(1, 2))
h.remove()
net(torch.ones(1, 2))
h2 = net.fc2.register_forward_hook(lambda m, i, o: o * 0)
h3 = net.fc1.register_forward_pre_hook(lambda m, i: (i[0] * 2,))
result = net(torch.ones(1, 2))
""")
with_net("module_get_submodule", """
result = (net.get_submodule("fc1"), net.get_parameter("fc2.bias"))
""")

# ---- containers ---------------------------------------------------------------------------------

case("sequential_repr_nested", """
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 3), nn.Tanh()),
                  nn.Linear(3, 2), nn.Softmax(dim=1))
print(m)
print(nn.Sequential())
print(m[1:3])
result = ([n for n, _ in m.named_modules()], list(m.state_dict().keys()), len(m), m[0], m[-1])
""")
case("sequential_ordered_dict", """
from collections import OrderedDict
m = nn.Sequential(OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())]))
print(m)
result = (m.fc, m.act, list(m.state_dict().keys()))
""")
case("sequential_forward", """
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    m[0].weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 2.0]]))
    m[0].bias.copy_(torch.tensor([0.0, -1.0]))
    m[2].weight.copy_(torch.tensor([[2.0, 3.0]]))
    m[2].bias.copy_(torch.tensor([0.5]))
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
y = m(x)
y.sum().backward()
result = (y, m[0].weight.grad, m[2].weight.grad)
""")
case("sequential_edit", """
s = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
s.append(nn.Tanh())
del s[0]
s[0] = nn.Sigmoid()
s.insert(1, nn.Identity())
s.extend([nn.ReLU()])
print(s)
result = (len(s), nn.Sequential()(torch.ones(1)))
""")
case("sequential_errors", """
for attempt in (lambda: nn.Sequential(1), lambda: nn.Sequential(nn.ReLU())[5],
                lambda: nn.ModuleList([1]), lambda: nn.ModuleList([nn.ReLU()])[3],
                lambda: nn.ModuleList([nn.ReLU()])(torch.ones(1))):
    try:
        attempt()
    except Exception as e:
        print(type(e).__name__, e)
""")
case("modulelist_repr_and_ops", """
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()])
print(ml)
ml2 = nn.ModuleList()
ml2.append(nn.Tanh())
ml2.extend([nn.Sigmoid()])
ml2.insert(0, nn.ReLU())
print(ml2)
print(nn.ModuleList())
result = (len(ml), [type(m).__name__ for m in ml2], ml2[-1], list(ml.state_dict().keys()), ml[1:3])
""")
case("modulelist_in_module", """
class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 1)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

s = Stack()
print(s)
result = [n for n, _ in s.named_parameters()]
""")

# ---- activations, flatten, identity ---------------------------------------------------------------

case("activation_modules", """
x = torch.tensor([[1.0, -2.0, 3.0], [0.0, 0.5, -1.0]], requires_grad=True)
mods = [nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1), nn.Identity(3, k=4),
        nn.ReLU(inplace=True), nn.Softmax(), nn.LogSoftmax()]
print(mods)
result = [m(x) for m in mods[:6]]
""")
case("activation_softmax_implicit_dim", """
x = torch.tensor([[1.0, -2.0, 3.0], [0.0, 0.5, -1.0]])
result = (nn.Softmax()(x), nn.LogSoftmax()(x), F.softmax(x), F.log_softmax(x), F.softmax(x[0]))
""")
case("relu_inplace_module", """
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
h = x * 2
y = nn.ReLU(inplace=True)(h)
y.sum().backward()
result = (y, y is h, x.grad)
""")
case("relu_inplace_on_leaf_error", """
x = torch.tensor([1.0, -2.0], requires_grad=True)
F.relu(x, inplace=True)
""")
case("functional_activations", """
x = torch.tensor([[1.0, -2.0, 3.0], [0.0, 0.5, -1.0]], requires_grad=True)
ys = (F.relu(x), F.sigmoid(x), F.tanh(x), F.softmax(x, dim=0), F.log_softmax(x, dim=1),
      F.softmax(x, dim=1, dtype=torch.float64))
sum(y.sum() for y in ys[:5]).backward()
result = ys + (x.grad,)
""")
case("flatten_module", """
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
f = nn.Flatten()
y = f(x)
print(f, nn.Flatten(0, 1))
result = (y.shape, y.grad_fn, nn.Flatten(0)(x).shape, nn.Flatten(0, 1)(x).shape)
""")

# ---- losses ----------------------------------------------------------------------------------------

Z = """
z = torch.tensor([[1.0, 2.0, 3.0], [1.0, -1.0, 0.0], [0.5, 0.5, -2.0]], requires_grad=True)
t = torch.tensor([2, 0, 1])
"""


def with_z(name: str, code: str) -> None:
    case(name, Z + textwrap.dedent(code))


with_z("cross_entropy_mean_graph", """
l = F.cross_entropy(z, t)
n = l.grad_fn
saved = (n._saved_reduction, n._saved_ignore_index, n._saved_total_weight, n._saved_target,
         n._saved_weight, n._saved_self, n.next_functions[0][0]._saved_dim)
l.backward()
result = (l, saved, z.grad)
""")
with_z("nll_saved_freed_after_backward", """
l = F.cross_entropy(z, t)
l.backward()
l.grad_fn._saved_total_weight
""")
with_z("cross_entropy_reductions", """
out = []
for red in ("mean", "sum", "none"):
    z.grad = None
    l = F.cross_entropy(z, t, reduction=red)
    tw = l.grad_fn._saved_total_weight
    (l.sum() if red == "none" else l).backward()
    out.append((l, tw, z.grad))
result = out
""")
with_z("cross_entropy_weight", """
w = torch.tensor([1.0, 2.0, 3.0])
out = []
for red in ("mean", "sum", "none"):
    z.grad = None
    l = F.cross_entropy(z, t, weight=w, reduction=red)
    (l.sum() if red == "none" else l).backward()
    out.append((l, z.grad))
result = out
""")
with_z("cross_entropy_ignore_index", """
out = []
for red in ("mean", "sum", "none"):
    z.grad = None
    l = F.cross_entropy(z, torch.tensor([2, -100, 1]), reduction=red)
    (l.sum() if red == "none" else l).backward()
    out.append((l, z.grad))
l2 = F.cross_entropy(z, torch.tensor([7, 7, 1]), ignore_index=7)
result = (out, l2, l2.grad_fn._saved_ignore_index, F.cross_entropy(z, torch.tensor([0, 0, 0]), ignore_index=0))
""")
with_z("cross_entropy_label_smoothing", """
out = []
for red in ("mean", "sum", "none"):
    z.grad = None
    l = F.cross_entropy(z, t, reduction=red, label_smoothing=0.1)
    (l.sum() if red == "none" else l).backward()
    out.append((l, z.grad))
result = out
""")
with_z("cross_entropy_label_smoothing_weight_ignore", """
l = F.cross_entropy(z, torch.tensor([2, -100, 1]), weight=torch.tensor([1.0, 2.0, 3.0]), label_smoothing=0.2)
l.backward()
result = (l, z.grad)
""")
with_z("cross_entropy_probabilities", """
p = torch.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0], [0.1, 0.6, 0.3]])
out = []
for red in ("mean", "sum", "none"):
    z.grad = None
    l = F.cross_entropy(z, p, reduction=red)
    (l.sum() if red == "none" else l).backward()
    out.append((l, z.grad))
ls = F.cross_entropy(z, p, label_smoothing=0.3)
lw = F.cross_entropy(z, p, weight=torch.tensor([1.0, 0.5, 2.0]))
result = (out, ls, lw)
""")
with_z("cross_entropy_1d_input", """
l = F.cross_entropy(z[0], t[0])
l.backward()
result = (l, z.grad)
""")
with_z("cross_entropy_double", "result = F.cross_entropy(z.double(), t)\n")
with_z("cross_entropy_target_out_of_bounds", "F.cross_entropy(z, torch.tensor([3, 0, 1]))\n")
with_z("cross_entropy_target_negative", "F.cross_entropy(z, torch.tensor([-1, 0, 1]))\n")
with_z("cross_entropy_batch_mismatch", "F.cross_entropy(z, torch.tensor([1, 0]))\n")
with_z("cross_entropy_float_target", "F.cross_entropy(z, torch.tensor([1.0, 0.0, 2.0]))\n")
with_z("cross_entropy_int32_target", "F.cross_entropy(z, t.int())\n")
with_z("cross_entropy_bad_reduction", "F.cross_entropy(z, t, reduction='avg')\n")
with_z("cross_entropy_bad_weight", "F.cross_entropy(z, t, weight=torch.tensor([1.0, 2.0]))\n")
with_z("cross_entropy_label_smoothing_too_big", "F.cross_entropy(z, t, label_smoothing=1.5)\n")
with_z("cross_entropy_int_input", "F.cross_entropy(z.int(), t)\n")
with_z("cross_entropy_prob_ignore_index", "F.cross_entropy(z, torch.softmax(z, 1).detach(), ignore_index=1)\n")
with_z("cross_entropy_legacy_size_average", "result = F.cross_entropy(z, t, size_average=False)\n")
with_z("nll_loss_values", """
lp = F.log_softmax(z, dim=1)
out = []
for red in ("mean", "sum", "none"):
    out.append(F.nll_loss(lp, t, reduction=red))
result = (out, F.nll_loss(z, t), F.nll_loss(z, t, weight=torch.tensor([1.0, 0.0, 2.0])),
          F.nll_loss(z[0], torch.tensor(1)), F.nll_loss(z[0], torch.tensor([1]), reduction="none"),
          F.nll_loss(z, t.to(torch.uint8)))
""")
with_z("nll_loss_grad", """
l = F.nll_loss(z, t, weight=torch.tensor([1.0, 0.5, 2.0]))
l.backward()
result = (l, z.grad, type(l.grad_fn).__name__, l.grad_fn.next_functions)
""")
with_z("nll_loss_errors", """
for attempt in (lambda: F.nll_loss(z, torch.tensor([[1, 0, 2]])), lambda: F.nll_loss(z, torch.tensor(1)),
                lambda: F.nll_loss(z[0], torch.tensor([1, 2])), lambda: F.nll_loss(torch.tensor(1.0), torch.tensor(0)),
                lambda: F.nll_loss(z, t.double()), lambda: F.nll_loss(z, torch.tensor([5, 0, 1]))):
    try:
        attempt()
    except Exception as e:
        print(type(e).__name__, e)
""")
case("nll_loss_empty_batch", """
result = (F.nll_loss(torch.empty(0, 3), torch.empty(0, dtype=torch.long)),
          F.nll_loss(torch.empty(0, 3), torch.empty(0, dtype=torch.long), reduction="sum"))
""")
case("mse_loss_values_and_grad", """
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, -1.0, 0.0]], requires_grad=True)
y = torch.tensor([[0.5, 2.5, 3.0], [0.0, 0.0, 1.0]], requires_grad=True)
out = []
for red in ("mean", "sum", "none"):
    x.grad = y.grad = None
    l = F.mse_loss(x, y, reduction=red)
    (l.sum() if red == "none" else l).backward()
    out.append((l, x.grad, y.grad))
result = (out, l.grad_fn._saved_reduction, l.grad_fn.next_functions)
""")
case("mse_loss_broadcast_warning", """
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, -1.0, 0.0]], requires_grad=True)
t = torch.zeros(3, requires_grad=True)
l = F.mse_loss(x, t)
l.backward()
result = (l, l.grad_fn.next_functions, x.grad, t.grad)
""")
case("mse_loss_bad_broadcast", """
F.mse_loss(torch.ones(2, 3), torch.ones(4))
""")
case("mse_loss_dtypes", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
result = (F.mse_loss(x, torch.tensor([1, 1])), F.mse_loss(x, torch.tensor([0.0, 1.0], dtype=torch.float64)),
          F.mse_loss(x, torch.zeros(2), reduction="sum"))
""")
case("mse_loss_legacy_and_bad_reduction", """
x = torch.tensor([1.0, 2.0])
print(F.mse_loss(x, torch.zeros(2), reduce=False))
F.mse_loss(x, torch.zeros(2), reduction="foo")
""")
case("mse_loss_create_graph", """
x = torch.tensor([1.0, 2.0, -1.0], requires_grad=True)
(g,) = torch.autograd.grad(F.mse_loss(x, torch.ones(3)), x, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), x)
result = (g.detach(), g.requires_grad, h)
""")
with_z("cross_entropy_create_graph_values", """
(g,) = torch.autograd.grad(F.cross_entropy(z, t), z, create_graph=True)
result = g.detach()
""")
with_z("loss_modules", """
w = torch.tensor([1.0, 2.0, 3.0])
mods = [nn.MSELoss(), nn.CrossEntropyLoss(), nn.CrossEntropyLoss(weight=w, reduction="sum", label_smoothing=0.1),
        nn.NLLLoss(ignore_index=1), nn.MSELoss(reduction="none")]
print(mods)
zz = F.log_softmax(z, 1)
result = (mods[1](z, t), mods[2](z, t), mods[3](zz, t), mods[0](z, torch.zeros(3, 3)),
          [n for n, _ in mods[2].named_buffers()], mods[2].reduction, mods[2].ignore_index)
""")
case("loss_module_legacy_args", "m = nn.MSELoss(size_average=False)\nresult = m.reduction\n")

# ---- nn.init ------------------------------------------------------------------------------------------

case("init_calculate_gain", """
init = nn.init
result = [init.calculate_gain(n) for n in ("linear", "conv2d", "sigmoid", "tanh", "relu", "selu")] + [
    init.calculate_gain("leaky_relu"), init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("leaky_relu", 5 ** 0.5)]
""")
case("init_calculate_gain_errors", """
for args in (("foo",), ("leaky_relu", "x"), ("leaky_relu", True)):
    try:
        nn.init.calculate_gain(*args)
    except Exception as e:
        print(type(e).__name__, e)
""")
case("init_fans", """
f = nn.init._calculate_fan_in_and_fan_out
result = (f(torch.empty(3, 5)), f(torch.empty(4, 2, 3, 3)))
""")
case("init_fan_errors", """
for attempt in (lambda: nn.init._calculate_fan_in_and_fan_out(torch.empty(3)),
                lambda: nn.init.kaiming_uniform_(torch.empty(3, 3), mode="fan_avg")):
    try:
        attempt()
    except Exception as e:
        print(type(e).__name__, e)
""")
case("init_deterministic_fills", """
w = nn.Parameter(torch.empty(2, 3))
a = nn.init.zeros_(w)
b = nn.init.ones_(torch.empty(2))
c = nn.init.constant_(torch.empty(2, 2), 0.25)
d = nn.init.eye_(torch.empty(2, 3))
result = (a is w, w, b, c, d, w.requires_grad, w.grad_fn)
""")
case("init_random_bounds", """
init = nn.init
w = nn.Parameter(torch.empty(64, 32))
r1 = init.kaiming_uniform_(w, a=5 ** 0.5) is w
b1 = bool((w.abs() <= 1 / 32 ** 0.5).all())
init.xavier_uniform_(w)
b2 = bool((w.abs() <= (6 / 96) ** 0.5).all())
init.uniform_(w, -0.5, 0.25)
b3 = bool(((w >= -0.5) & (w <= 0.25)).all())
init.normal_(w, 3.0, 0.001)
b4 = bool(((w - 3.0).abs() < 0.01).all())
init.kaiming_normal_(w, nonlinearity="relu")
init.xavier_normal_(w, gain=2.0)
result = (r1, b1, b2, b3, b4, w.requires_grad, w.is_leaf, w.shape)
""")
case("init_zero_element_warning", "result = nn.init.kaiming_uniform_(torch.empty(0, 3)).shape\n")

# ---- optim -------------------------------------------------------------------------------------------

OPT = """
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
b = torch.tensor([0.3], requires_grad=True)
A = torch.tensor([[2.0, -1.0, 0.5], [0.0, 1.0, 3.0]])
def loss_fn():
    return ((A @ w + b) ** 2).sum() + (w ** 4).sum() * 0.1
"""


def with_opt(name: str, code: str) -> None:
    case(name, OPT + textwrap.dedent(code))


with_opt("optim_reprs", """
print(torch.optim.SGD([w, b], lr=0.1))
print(torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.01}], lr=0.1, momentum=0.9, nesterov=True))
print(torch.optim.Adam([w]))
print(torch.optim.AdamW([w], lr=1e-2, amsgrad=True))
opt = torch.optim.SGD([w])
result = (opt.defaults, [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups],
          torch.optim.Adam([w]).defaults, torch.optim.AdamW([w]).defaults)
""")
with_opt("optim_state_dict_sgd", """
opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.01}], lr=0.1, momentum=0.9)
print(opt.state_dict())
loss_fn().backward()
opt.step()
result = (opt.state_dict(), w, b)
""")
with_opt("optim_state_dict_adam", """
opt = torch.optim.Adam([w, b], lr=0.1)
loss_fn().backward()
opt.step()
sd = opt.state_dict()
print(sd)
result = (sd["state"][0]["step"], w, b)
""")
with_opt("optim_load_state_dict", """
opt = torch.optim.Adam([w, b], lr=0.1)
for _ in range(2):
    opt.zero_grad()
    loss_fn().backward()
    opt.step()
w2 = w.detach().clone().requires_grad_()
b2 = b.detach().clone().requires_grad_()
opt2 = torch.optim.Adam([w2, b2], lr=0.5)
opt2.load_state_dict(opt.state_dict())
for o, ps in ((opt, (w, b)), (opt2, (w2, b2))):
    o.zero_grad()
    ((A @ ps[0] + ps[1]) ** 2).sum().backward()
    o.step()
result = (w, w2, opt2.param_groups[0]["lr"], opt2.state[w2]["step"], opt2.state_dict()["param_groups"])
""")
with_opt("optim_load_state_dict_errors", """
opt = torch.optim.SGD([w, b], lr=0.1)
for sd in ({"state": {}, "param_groups": []},
           {"state": {}, "param_groups": [{"lr": 0.1, "params": [0]}]}):
    try:
        opt.load_state_dict(sd)
    except Exception as e:
        print(type(e).__name__, e)
""")
with_opt("optim_zero_grad", """
opt = torch.optim.SGD([w, b], lr=0.1)
loss_fn().backward()
opt.zero_grad(set_to_none=False)
g = w.grad
loss_fn().backward()
opt.zero_grad()
result = (g, w.grad, b.grad)
""")
with_opt("optim_errors", """
for attempt in (lambda: torch.optim.SGD([w], lr=-1), lambda: torch.optim.SGD([w], lr=0.1, nesterov=True),
                lambda: torch.optim.SGD([w], lr=0.1, momentum=-1), lambda: torch.optim.SGD([w], lr=0.1, weight_decay=-1),
                lambda: torch.optim.SGD([], lr=0.1), lambda: torch.optim.SGD(w, lr=0.1),
                lambda: torch.optim.Adam([w], betas=(1.0, 0.9)), lambda: torch.optim.Adam([w], betas=(0.9, 1.5)),
                lambda: torch.optim.Adam([w], eps=-1), lambda: torch.optim.Adam([w], lr=-1),
                lambda: torch.optim.Adam([w], weight_decay=-1), lambda: torch.optim.SGD([w * 2], lr=0.1),
                lambda: torch.optim.SGD([w], lr=0.1).add_param_group({"params": [w]}),
                lambda: torch.optim.SGD([1.0], lr=0.1), lambda: torch.optim.SGD({w}, lr=0.1)):
    try:
        attempt()
    except Exception as e:
        print(type(e).__name__, e)
""")
with_opt("optim_duplicate_warning", "opt = torch.optim.SGD([w, w], lr=0.1)\nresult = len(opt.param_groups[0]['params'])\n")
with_opt("optim_add_param_group", """
opt = torch.optim.SGD([w], lr=0.1, momentum=0.5)
opt.add_param_group({"params": b, "lr": 0.2})
print(opt)
result = [g["lr"] for g in opt.param_groups]
""")
with_opt("optim_step_without_grad", """
opt = torch.optim.Adam([w, b], lr=0.1)
(w ** 2).sum().backward()
opt.step()
result = (w, b, len(opt.state))
""")
with_opt("optim_closure", """
opt = torch.optim.SGD([w, b], lr=0.01)
def closure():
    opt.zero_grad()
    l = loss_fn()
    l.backward()
    return l
result = (opt.step(closure), w)
""")


def trajectory(name: str, ctor: str, steps: int = 6) -> None:
    with_opt(name, f"""
opt = {ctor}
losses = []
for _ in range({steps}):
    opt.zero_grad()
    l = loss_fn()
    l.backward()
    opt.step()
    losses.append(l.item())
result = (losses, w, b)
""")


trajectory("sgd_plain", "torch.optim.SGD([w, b], lr=0.01)")
trajectory("sgd_momentum", "torch.optim.SGD([w, b], lr=0.01, momentum=0.9)")
trajectory("sgd_momentum_dampening", "torch.optim.SGD([w, b], lr=0.01, momentum=0.9, dampening=0.3)")
trajectory("sgd_nesterov_weight_decay", "torch.optim.SGD([w, b], lr=0.01, momentum=0.8, nesterov=True, weight_decay=0.1)")
trajectory("sgd_maximize", "torch.optim.SGD([w, b], lr=0.001, maximize=True)", steps=3)
trajectory("adam_default", "torch.optim.Adam([w, b], lr=0.05)")
trajectory("adam_weight_decay_amsgrad", "torch.optim.Adam([w, b], lr=0.05, weight_decay=0.1, amsgrad=True)")
trajectory("adam_betas_maximize", "torch.optim.Adam([w, b], lr=0.01, betas=(0.3, 0.5), maximize=True)", steps=3)
trajectory("adamw_default", "torch.optim.AdamW([w, b], lr=0.05)")
trajectory("adamw_amsgrad", "torch.optim.AdamW([w, b], lr=0.05, weight_decay=0.5, amsgrad=True)")
