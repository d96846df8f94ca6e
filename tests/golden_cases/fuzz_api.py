"""The API teaching code reaches for beyond tensors and autograd: ``autograd.Variable``,
devices and ``torch.cuda`` on a CPU-only build, ``torch.utils.data`` (seeded shuffling must
give torch's batches), ``RMSprop``/``Adagrad``, ``LazyLinear``, ``save``/``load``,
``meshgrid``, ``torch._C._functions.AccumulateGrad`` and the grad-mode decorators on
generators, methods and classes."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- torch.autograd.Variable ----------------------------------------------------------------

case("variable_wraps_a_tensor", """
Variable = torch.autograd.Variable
t = torch.ones(2)
v = Variable(t, requires_grad=True)
print(v, type(v).__name__, isinstance(v, Variable), isinstance(t, Variable), v is t)
print(v.data_ptr() == t.data_ptr(), Variable.__name__, Variable.__module__)
print(Variable(), isinstance(3, Variable), issubclass(torch.Tensor, Variable))
t.add_(1)
print(v, v._version)
result = (v * 3).sum()
result.backward()
print(v.grad, v.is_leaf)
""")
case("variable_of_a_non_leaf_is_a_leaf", """
a = torch.ones(2, requires_grad=True)
b = torch.autograd.Variable(a * 2)
print(b, b.grad_fn, b.is_leaf, b.requires_grad)
""")
case("variable_errors", """
for args, kw in (([1.0],), {}), ((torch.tensor([1, 2]),), {"requires_grad": True}):
    try:
        torch.autograd.Variable(*args, **kw)
    except Exception as e:
        print(type(e).__name__, e)
result = torch.autograd.Variable(torch.ones(1), volatile=True)
""")

# ---- devices, torch.cuda, torch.accelerator -------------------------------------------------

case("device_reprs_and_equality", """
cpu, cpu0, cuda1 = torch.device("cpu"), torch.device("cpu:0"), torch.device("cuda", 1)
print(repr(cpu), repr(cpu0), repr(cuda1), repr(torch.device("cuda")), repr(torch.device("meta")))
print(str(cpu), str(cpu0), str(cuda1), cpu.type, cpu.index, cuda1.index)
print(cpu == torch.device("cpu"), cpu == cpu0, cpu == "cpu", cpu != "cpu", torch.device(cpu))
print(hash(cpu), hash(cpu0), hash(cuda1), hash(torch.device("cuda")), {cpu: 1})
x = torch.ones(2)
print(x.device, repr(x.device), x.device == cpu, x.device == "cpu", x.is_cuda, x.is_cpu)
print(x.get_device(), torch.ones(2, device="cpu:0").device, isinstance(x.device, torch.device))
""")
case("device_parse_errors", """
for spec in ["gpu", "CPU", " cpu", "cuda:x", "cpu:-1", "cuda:0:1", "cuda: 0"]:
    try:
        torch.device(spec)
    except Exception as e:
        print(type(e).__name__, e)
for args in [("cpu", -1), ("cpu:0", 0), (1.5,)]:
    try:
        torch.device(*args)
    except Exception as e:
        print(type(e).__name__, e)
""")
case("cuda_unavailable_device_choice", """
device = "cuda" if torch.cuda.is_available() else "cpu"
print(device, torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.is_initialized())
print(torch.accelerator.is_available(), torch.accelerator.current_accelerator())
print(torch.cuda.memory_allocated(), torch.cuda.empty_cache(), torch.cuda.manual_seed(0))
print(torch.backends.cudnn.is_available(), torch.backends.mps.is_available())
model = nn.Linear(2, 1).to(device)
x = torch.ones(3, 2).to(device)
print(model(x).shape, x.to(torch.device(device)).device, x.cpu().device)
""")
case("cuda_errors_without_cuda", """
x = torch.ones(2)
for f in [lambda: x.to("cuda"), lambda: x.cuda(), lambda: torch.ones(2, device="cuda"),
          lambda: torch.tensor([1.0], device=torch.device("cuda:0")),
          lambda: nn.Linear(2, 2).to("cuda"), lambda: nn.Linear(2, 2).cuda(),
          lambda: torch.cuda.current_device(), lambda: torch.cuda.get_device_name(0),
          lambda: torch.zeros(2, device="gpu")]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
""")
case("default_device", """
print(torch.get_default_device())
torch.set_default_device("cpu")
print(torch.get_default_device(), torch.ones(1).device)
torch.set_default_device(None)
with torch.device("cpu"):
    print(torch.zeros(1).device)
print(torch.get_default_device())
try:
    torch.set_default_device("gpu")
except Exception as e:
    print(type(e).__name__, e)
""")

# ---- torch.utils.data -----------------------------------------------------------------------

case("dataloader_shuffle_matches_torch", """
data = torch.utils.data
X, y = torch.arange(20.).reshape(10, 2), torch.arange(10)
ds = data.TensorDataset(X, y)
print(len(ds), ds[3])
torch.manual_seed(0)
loader = data.DataLoader(ds, batch_size=4, shuffle=True)
print(len(loader))
for epoch in range(2):
    for xb, yb in loader:
        print(epoch, yb.tolist(), xb.shape)
print(torch.randn(2))
""")
case("dataloader_in_order_still_draws_a_seed", """
torch.manual_seed(3)
loader = torch.utils.data.DataLoader(list(range(7)), batch_size=3)
print([b for b in loader], len(loader))
print(torch.rand(2))
""")
case("dataloader_drop_last_and_unbatched", """
data = torch.utils.data
ds = data.TensorDataset(torch.arange(10.).reshape(5, 2), torch.arange(5))
print(list(data.DataLoader(ds, batch_size=2, drop_last=True)))
print(len(data.DataLoader(ds, batch_size=2, drop_last=True)), len(data.DataLoader(ds, batch_size=2)))
print(list(data.DataLoader(ds, batch_size=None))[:2])
print(next(iter(data.DataLoader(ds))))
""")
case("dataloader_default_collate", """
L = torch.utils.data.DataLoader
print(list(L([1, 2, 3, 4, 5], batch_size=2)))
print(list(L([(1, 2.0), (3, 4.0)], batch_size=2)))
print(list(L([{"a": 1, "b": torch.ones(2)}, {"a": 2, "b": torch.zeros(2)}], batch_size=2)))
print(list(L([[True, "x"], [False, "y"]], batch_size=2)))
print(list(L([np.array([1.0, 2.0]), np.array([3.0, 4.0])], batch_size=2)))
print(list(L([np.float32(1.5), np.float32(2.5)], batch_size=2)))
try:
    list(L([[1, 2], [3]], batch_size=2))
except Exception as e:
    print(type(e).__name__, e)
try:
    list(L([object(), object()], batch_size=2))
except Exception as e:
    print(type(e).__name__, str(e)[:60])
""")
case("dataloader_generator_and_samplers", """
data = torch.utils.data
g = torch.Generator().manual_seed(42)
print([b.tolist() for b in data.DataLoader(list(range(8)), batch_size=3, shuffle=True, generator=g)])
torch.manual_seed(1)
s = data.RandomSampler(range(6))
print(list(s), list(s), len(s))
print(list(data.BatchSampler(data.SequentialSampler(range(7)), 3, drop_last=False)))
print(list(data.BatchSampler(range(7), 3, drop_last=True)))
torch.manual_seed(2)
print(list(data.RandomSampler(range(5), replacement=True, num_samples=7)))
print(torch.randn(1))
""")
case("dataset_subclass_and_concat", """
class Squares(torch.utils.data.Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return torch.tensor([float(i)]), i * i
ds = Squares(5) + Squares(3)
print(len(ds), ds[6], ds[-1], type(ds).__name__)
for xb, yb in torch.utils.data.DataLoader(ds, batch_size=3):
    print(xb.tolist(), yb)
""")
case("random_split_lengths_and_fractions", """
data = torch.utils.data
ds = data.TensorDataset(torch.arange(10))
torch.manual_seed(0)
a, b = data.random_split(ds, [7, 3])
print(len(a), len(b), a.indices, b.indices, type(a).__name__, a[0])
torch.manual_seed(0)
print([s.indices for s in data.random_split(range(10), [0.5, 0.3, 0.2])])
print([s.indices for s in data.random_split(range(7), [0.5, 0.5], generator=torch.Generator().manual_seed(1))])
try:
    data.random_split(range(10), [3, 3])
except Exception as e:
    print(type(e).__name__, e)
try:
    data.TensorDataset(torch.ones(2), torch.ones(3))
except Exception as e:
    print(type(e).__name__, e)
""")

# ---- RMSprop and Adagrad --------------------------------------------------------------------

case("rmsprop_adagrad_reprs_and_state", """
p = torch.ones(2, requires_grad=True)
print(torch.optim.RMSprop([p]))
print(torch.optim.Adagrad([p]))
o = torch.optim.Adagrad([p], lr=0.1)
print(o.state_dict())
p.grad = torch.tensor([1.0, -2.0])
o.step()
print(o.state_dict(), p)
o = torch.optim.RMSprop([p], lr=0.1, momentum=0.5, centered=True)
o.step()
print(o.state_dict(), p)
""")
case("rmsprop_adagrad_errors", """
p = torch.ones(2, requires_grad=True)
for kw in [dict(lr=-1), dict(alpha=-1), dict(eps=-1), dict(momentum=-1), dict(weight_decay=-1)]:
    try:
        torch.optim.RMSprop([p], **kw)
    except Exception as e:
        print(type(e).__name__, e)
for kw in [dict(lr=-1), dict(lr_decay=-1), dict(weight_decay=-1),
           dict(initial_accumulator_value=-1), dict(eps=-1)]:
    try:
        torch.optim.Adagrad([p], **kw)
    except Exception as e:
        print(type(e).__name__, e)
""")
for _name, _opt in {
    "rmsprop": "torch.optim.RMSprop(params, lr=0.01)",
    "rmsprop_momentum_wd": "torch.optim.RMSprop(params, lr=0.01, momentum=0.9, weight_decay=0.1)",
    "rmsprop_centered": "torch.optim.RMSprop(params, lr=0.02, centered=True, alpha=0.9, "
                        "maximize=True)",
    "adagrad": "torch.optim.Adagrad(params, lr=0.1)",
    "adagrad_decay": "torch.optim.Adagrad(params, lr=0.1, lr_decay=0.01, weight_decay=0.05, "
                     "initial_accumulator_value=0.1)",
}.items():
    case(f"trajectory_{_name}", f"""
    params = [torch.tensor([0.5, -1.0, 2.0, 0.25], requires_grad=True),
              torch.tensor([[1.5, -0.5], [0.75, -2.0]], dtype=torch.float64, requires_grad=True)]
    opt = {_opt}
    for step in range(6):
        opt.zero_grad()
        loss = sum(((p - 0.3 * step) ** 2 * torch.arange(1.0, p.numel() + 1).reshape(p.shape)).sum()
                   for p in params)
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4), params[0])
    result = params
    """)

# ---- nn.LazyLinear --------------------------------------------------------------------------

case("lazy_linear_infers_in_features", """
m = nn.LazyLinear(3)
print(m, m.weight, m.bias, type(m).__name__, m.in_features)
print(nn.LazyLinear(2, bias=False))
torch.manual_seed(0)
y = m(torch.ones(2, 4))
print(y, m, type(m).__name__, m.weight.shape, type(m.weight).__name__)
torch.manual_seed(0)
ref = nn.Linear(4, 3)
print(torch.equal(m.weight, ref.weight), torch.equal(m.bias, ref.bias))
result = y
""")
case("lazy_linear_in_sequential_with_optimizer", """
torch.manual_seed(0)
net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(5, 3)
loss = net(x).pow(2).mean()
loss.backward()
opt.step()
print(net, loss)
result = net[2].weight
""")

# ---- save / load ----------------------------------------------------------------------------

case("save_load_round_trip", """
import os, tempfile
torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
model(torch.ones(1, 3)).sum().backward()
opt.step()
path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 3,
            "x": torch.arange(4), "w": torch.tensor([1.5], requires_grad=True)}, path)
ckpt = torch.load(path)
print(sorted(ckpt), ckpt["epoch"], ckpt["x"], ckpt["w"])
model2 = nn.Linear(3, 2)
print(model2.load_state_dict(ckpt["model"]))
print(all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters())))
opt2 = torch.optim.Adam(model2.parameters())
opt2.load_state_dict(ckpt["opt"])
print(opt2.state_dict()["param_groups"], opt2.state_dict()["state"][0]["step"])
t = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
torch.save(t, path)
result = torch.load(path)
""")

# ---- meshgrid -------------------------------------------------------------------------------

case("meshgrid_ij_xy", """
x, y = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")
print(x, y)
x, y = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")
print(x, y)
print(torch.meshgrid([torch.arange(2.), torch.tensor(5.)], indexing="ij"))
""")
case("meshgrid_warns_without_indexing", """
a, b = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]))
print(a.shape, b)
a, b = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]))
""")
case("meshgrid_graph_and_errors", """
a = torch.arange(2., requires_grad=True)
b = torch.arange(3.)
x, y = torch.meshgrid(a, b, indexing="xy")
(x * y).sum().backward()
print(x.grad_fn, x.grad_fn.next_functions[0][0].next_functions, y.grad_fn, a.grad)
for f in [lambda: torch.meshgrid(indexing="ij"), lambda: torch.meshgrid(a, indexing="foo"),
          lambda: torch.meshgrid(a, torch.arange(2), indexing="ij")]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
result = x
""")

# ---- torch._C._functions.AccumulateGrad ------------------------------------------------------

case("accumulate_grad_type", """
AccumulateGrad = torch._C._functions.AccumulateGrad
a = torch.ones(2, requires_grad=True)
node = (a * 2).grad_fn.next_functions[0][0]
print(type(node) is AccumulateGrad, isinstance(node, AccumulateGrad), AccumulateGrad.__name__)
print(node.variable is a)
""")

# ---- grad-mode decorators -------------------------------------------------------------------

case("no_grad_on_a_generator_holds_per_step", """
@torch.no_grad()
def gen():
    for i in range(2):
        print("inside", torch.is_grad_enabled())
        yield i
g = gen()
print(next(g), torch.is_grad_enabled())
print(next(g), torch.is_grad_enabled())
print(list(g), torch.is_grad_enabled())
""")
case("enable_grad_generator_send_and_close", """
@torch.enable_grad()
def gen():
    x = yield 1
    print("got", x, torch.is_grad_enabled())
    try:
        yield 2
    finally:
        print("closing", torch.is_grad_enabled())
with torch.no_grad():
    g = gen()
    print(next(g), torch.is_grad_enabled())
    print(g.send(5), torch.is_grad_enabled())
    g.close()
    print(torch.is_grad_enabled())
""")
case("inference_mode_generator_and_flag", """
@torch.inference_mode()
def gen():
    yield torch.is_inference_mode_enabled(), torch.is_grad_enabled()
print(list(gen()), torch.is_inference_mode_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
""")
case("no_grad_on_methods_and_classes", """
class Model:
    @torch.no_grad()
    def predict(self, x):
        return x * 2
    @torch.no_grad
    def predict2(self, x):
        return x * 3
x = torch.ones(1, requires_grad=True)
print(Model().predict(x), Model().predict2(x), Model.predict.__name__)
@torch.no_grad()
class C:
    def __init__(self):
        self.flag = torch.is_grad_enabled()
print(C().flag, C.__name__, torch.is_grad_enabled())
f = torch.set_grad_enabled(False)(lambda: torch.is_grad_enabled())
print(f(), torch.is_grad_enabled(), f.__name__)
""")
case("default_device_cuda_fails_when_used", """
torch.set_default_device("cuda")
for f in [torch.get_default_device, lambda: torch.ones(2), lambda: torch.tensor([1.0]),
          lambda: torch.randn(2), lambda: nn.Linear(2, 2)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
torch.set_default_device("cpu")
print(torch.ones(1), torch.get_default_device())
torch.set_default_device(None)
""")
case("sgd_updates_bit_exact", """
for kw in [dict(lr=0.1), dict(lr=0.05, momentum=0.9, weight_decay=0.01),
           dict(lr=0.05, momentum=0.8, nesterov=True), dict(lr=0.05, momentum=0.9, dampening=0.3)]:
    for dtype in (torch.float32, torch.float64):
        w = torch.tensor([0.3, -1.7, 2.2, 0.9], dtype=dtype, requires_grad=True)
        opt = torch.optim.SGD([w], **kw)
        for step in range(5):
            opt.zero_grad()
            ((w - 0.1 * step) ** 2 * torch.tensor([1.0, 3.0, 0.5, 2.0], dtype=dtype)).sum().backward()
            opt.step()
        print([v.hex() for v in w.tolist()])
""")

# keyword arguments as tutorials write them
case("matmul_keywords", """
    result = torch.matmul(input=torch.ones(2), other=torch.tensor([2.0, 3.0]))
""")
case("randint_high_keyword", """
    torch.manual_seed(0)
    result = (torch.randint(high=5, size=(3,)), torch.randint(0, 5, (3,)))
""")
