"""Snippets in the style of PyTorch teaching material, run as written by a student.

The official tutorials ("A Gentle Introduction to torch.autograd", "Autograd mechanics",
the 60-minute blitz, "Learn the basics"), micrograd/makemore-style lectures (manual
backprop checked against autograd, cross-entropy by hand), d2l-style chapters
(``x.grad.zero_()``, detach, control flow) and course-style printing of graphs,
tensors, modules and optimizers. Every input is explicit (no random numbers).
"""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- A Gentle Introduction to torch.autograd ----------------------------------------------------

case("gentle_q_backward", """
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
result = (Q, a.grad, b.grad)
""")

case("gentle_q_grad_fn_chain", """
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
print(Q.grad_fn)
print(Q.grad_fn.next_functions)
result = Q
""")

case("gentle_requires_grad_propagation", """
x = torch.tensor([[0.5, 1.0], [1.5, 2.0]])
y = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
z = torch.tensor([[0.1, 0.2], [0.3, 0.4]], requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
result = (a, b)
""")

case("gentle_freeze_parameters", """
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(4, 5)
print([p.requires_grad for p in model.parameters()])
print(model)
result = [n for n, p in model.named_parameters() if p.requires_grad]
""")

case("gentle_dag_leaves", """
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
print(a.is_leaf, b.is_leaf, Q.is_leaf)
print(a.grad_fn, Q.requires_grad)
result = Q.grad_fn.next_functions[0][0].next_functions
""")

# ---- Autograd mechanics ---------------------------------------------------------------------------

case("mechanics_saved_self", """
x = torch.tensor([0.5, -1.0, 2.0, 0.25, 3.0], requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)
result = y.grad_fn._saved_self
""")

case("mechanics_saved_result", """
x = torch.tensor([0.5, -1.0, 2.0, 0.25, 3.0], requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
result = y.grad_fn._saved_result
""")

case("mechanics_no_grad_context", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
z = x * 2
print(z.requires_grad)
result = (y, z)
""")

case("mechanics_no_grad_decorator", """
@torch.no_grad()
def doubler(x):
    return x * 2

x = torch.tensor([1.0, 2.0], requires_grad=True)
z = doubler(x)
print(z.requires_grad)
result = z
""")

case("mechanics_set_grad_enabled", """
x = torch.tensor([1.0], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
result = y
""")

case("mechanics_inference_mode", """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad, y.is_leaf, y.grad_fn)
result = y
""")

case("mechanics_inplace_leaf_error", """
a = torch.tensor([1.0, 2.0], requires_grad=True)
a.add_(1)
""")

case("mechanics_inplace_saved_modified", """
x = torch.tensor([1.0, -2.0], requires_grad=True)
y = x.sigmoid()
y.mul_(2)
y.sum().backward()
""")

case("mechanics_inplace_exp_then_backward", """
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.exp()
b.add_(1)
b.sum().backward()
""")

case("mechanics_inplace_ok_when_not_saved", """
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
b.add_(1)
print(b.grad_fn, b._version)
b.sum().backward()
result = (b, a.grad)
""")

case("mechanics_multiple_backward_error", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
""")

case("mechanics_retain_graph_accumulates", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
result = x.grad
""")

case("mechanics_requires_grad_false_on_nonleaf", """
x = torch.tensor([1.0], requires_grad=True)
y = x * 2
y.requires_grad = False
""")

case("mechanics_eval_mode_flag", """
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(model.training)
model.eval()
print(model.training, model[0].training)
model.train()
print(model.training)
result = model.training
""")

# ---- 60-minute blitz / Learn the basics: tensors -------------------------------------------------

case("blitz_tensor_from_data", """
data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
print(x_data)
result = x_data
""")

case("blitz_tensor_from_numpy", """
np_array = np.array([[1, 2], [3, 4]])
x_np = torch.from_numpy(np_array)
print(x_np)
result = x_np
""")

case("blitz_ones_like_zeros_like", """
x_data = torch.tensor([[1, 2], [3, 4]])
x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \\n {x_ones} \\n")
x_float = torch.zeros_like(x_data, dtype=torch.float)
print(f"Zeros Tensor: \\n {x_float} \\n")
result = (x_ones, x_float)
""")

case("blitz_shape_tuple", """
shape = (2, 3,)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)
print(f"Ones Tensor: \\n {ones_tensor} \\n")
print(f"Zeros Tensor: \\n {zeros_tensor}")
result = ones_tensor
""")

case("blitz_attributes", """
tensor = torch.ones(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")
result = (tensor.shape, tensor.dtype, str(tensor.device))
""")

case("blitz_indexing_column_zero", """
tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:,1] = 0
print(tensor)
result = tensor
""")

case("blitz_cat_dim1", """
tensor = torch.ones(4, 4)
tensor[:, 1] = 0
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)
result = t1
""")

case("blitz_arithmetic_matmul", """
tensor = torch.tensor([[1., 0., 2.], [0., 3., 1.]])
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.zeros_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
print(y1)
result = (y1, y2, y3)
""")

case("blitz_elementwise_out", """
tensor = torch.tensor([[1., 0., 2.], [0., 3., 1.]])
z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.zeros_like(tensor)
torch.mul(tensor, tensor, out=z3)
result = (z1, z2, z3)
""")

case("blitz_single_element_item", """
tensor = torch.tensor([[1., 0., 2.], [0., 3., 1.]])
agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
result = agg_item
""")

case("blitz_inplace_add", """
tensor = torch.tensor([[1., 0., 2.], [0., 3., 1.]])
print(f"{tensor} \\n")
tensor.add_(5)
print(tensor)
result = tensor
""")

case("blitz_numpy_bridge", """
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
result = n
""")

case("blitz_numpy_to_tensor_bridge", """
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
result = t
""")

case("blitz_tensor_dtype_float64_print", """
x = torch.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=torch.float64)
print(x)
print(x.dtype, x.type())
result = x
""")

case("blitz_tensor_view_sizes", """
x = torch.arange(16.).view(4, 4)
y = x.view(16)
z = x.view(-1, 8)
print(x.size(), y.size(), z.size())
result = (y, z)
""")

case("blitz_item_of_one_element", """
x = torch.tensor([-0.3])
print(x)
print(x.item())
result = x.item()
""")

# ---- Learn the basics: autograd --------------------------------------------------------------

LTB_AUTOGRAD = """
x = torch.ones(5)
y = torch.zeros(3)
w = torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [-0.7, 0.8, 0.9],
                  [1.0, -1.1, 1.2], [0.05, 0.15, -0.25]], requires_grad=True)
b = torch.tensor([0.5, -0.5, 0.25], requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
"""


def with_ltb(name: str, code: str) -> None:
    case(name, LTB_AUTOGRAD + textwrap.dedent(code))


with_ltb("ltb_autograd_grad_fn", """
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
result = (z, loss)
""")

with_ltb("ltb_autograd_backward", """
loss.backward()
print(w.grad)
print(b.grad)
result = (loss, w.grad, b.grad)
""")

with_ltb("ltb_autograd_disable_tracking", """
z = torch.matmul(x, w)+b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)
z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)
result = z_det
""")

case("ltb_jacobian_product", """
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\\nSecond call\\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\\nCall after zeroing gradients\\n{inp.grad}")
result = out
""")

case("ltb_bce_with_logits_values", """
logits = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
target = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
loss = F.binary_cross_entropy_with_logits(logits, target)
loss.backward()
result = (loss, logits.grad)
""")

case("ltb_bce_with_logits_reductions", """
logits = torch.tensor([0.5, -1.0, 3.0], requires_grad=True)
target = torch.tensor([1.0, 0.0, 0.5])
a = F.binary_cross_entropy_with_logits(logits, target, reduction='sum')
b = F.binary_cross_entropy_with_logits(logits, target, reduction='none')
c = F.binary_cross_entropy_with_logits(logits, target, pos_weight=torch.tensor([2.0, 1.0, 0.5]))
(a + b.sum() + c).backward()
result = (a, b, c, logits.grad)
""")

case("ltb_bce_probabilities", """
p = torch.tensor([0.9, 0.2, 0.6], requires_grad=True)
target = torch.tensor([1.0, 0.0, 1.0])
loss = F.binary_cross_entropy(p, target)
loss.backward()
result = (loss, p.grad)
""")

case("ltb_bce_modules", """
p = torch.tensor([[0.25, 0.75]], requires_grad=True)
target = torch.tensor([[0.0, 1.0]])
l1 = nn.BCELoss()(p, target)
l2 = nn.BCEWithLogitsLoss()(p, target)
print(nn.BCELoss(), nn.BCEWithLogitsLoss())
(l1 + l2).backward()
result = (l1, l2, p.grad)
""")

# ---- Learn the basics: build the model, optimization loop --------------------------------------

NET = """
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(4, 3),
            nn.ReLU(),
            nn.Linear(3, 2),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork()
with torch.no_grad():
    model.linear_relu_stack[0].weight.copy_(torch.tensor(
        [[0.1, -0.2, 0.3, 0.05], [0.4, 0.1, -0.3, 0.2], [-0.25, 0.35, 0.15, -0.1]]))
    model.linear_relu_stack[0].bias.copy_(torch.tensor([0.01, -0.02, 0.03]))
    model.linear_relu_stack[2].weight.copy_(torch.tensor([[0.5, -0.4, 0.3], [-0.2, 0.6, 0.1]]))
    model.linear_relu_stack[2].bias.copy_(torch.tensor([0.1, -0.1]))
X = torch.tensor([[[1.0, 2.0], [0.5, -1.0]], [[0.0, 1.5], [-2.0, 0.25]],
                  [[0.3, 0.3], [0.3, 0.3]]])
y = torch.tensor([1, 0, 1])
"""


def with_net(name: str, code: str) -> None:
    case(name, NET + textwrap.dedent(code))


with_net("ltb_model_repr", """
print(f"Model structure: {model}\\n\\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \\n")
result = model
""")

with_net("ltb_model_predict", """
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
result = (logits, pred_probab, y_pred)
""")

with_net("ltb_train_loop", """
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model.train()
for step in range(5):
    pred = model(X)
    loss = loss_fn(pred, y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    print(f"loss: {loss.item():>7f}  [{step:>5d}]")
result = list(model.parameters())
""")

with_net("ltb_test_loop", """
loss_fn = nn.CrossEntropyLoss()
model.eval()
test_loss, correct = 0, 0
with torch.no_grad():
    pred = model(X)
    test_loss += loss_fn(pred, y).item()
    correct += (pred.argmax(1) == y).type(torch.float).sum().item()
correct /= len(y)
print(f"Test Error: \\n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \\n")
result = (test_loss, correct)
""")

with_net("ltb_zero_grad_leaves_none", """
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
loss = loss_fn(model(X), y)
loss.backward()
optimizer.step()
optimizer.zero_grad()
print([p.grad for p in model.parameters()])
result = loss
""")

with_net("ltb_state_dict", """
sd = model.state_dict()
print(list(sd.keys()))
result = sd["linear_relu_stack.2.weight"]
""")

with_net("ltb_optimizer_repr", """
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
print(optimizer)
result = len(optimizer.param_groups[0]["params"])
""")

with_net("ltb_adam_loop", """
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(3):
    optimizer.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    optimizer.step()
result = (loss, model.linear_relu_stack[2].weight)
""")

with_net("ltb_sgd_momentum_loop", """
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
losses = []
for _ in range(4):
    optimizer.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    optimizer.step()
    losses.append(round(loss.item(), 4))
print(losses)
result = model.linear_relu_stack[0].bias
""")

case("ltb_flatten_module", """
flatten = nn.Flatten()
x = torch.arange(12.).view(3, 2, 2)
flat = flatten(x)
print(flat.size())
result = flat
""")

case("ltb_linear_relu_prints", """
layer1 = nn.Linear(in_features=4, out_features=2)
with torch.no_grad():
    layer1.weight.copy_(torch.tensor([[0.5, -0.5, 0.25, 1.0], [-1.0, 0.75, 0.5, -0.25]]))
    layer1.bias.zero_()
x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 0.5]])
hidden1 = layer1(x)
print(f"Before ReLU: {hidden1}\\n\\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
result = hidden1
""")

# ---- micrograd-style checks ------------------------------------------------------------------------

case("micrograd_neuron", """
x1 = torch.Tensor([2.0]).double()                ; x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()                ; x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double()               ; w1.requires_grad = True
w2 = torch.Tensor([1.0]).double()                ; w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double()  ; b.requires_grad = True
n = x1*w1 + x2*w2 + b
o = torch.tanh(n)

print(o.data.item())
o.backward()

print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
result = (o, x1.grad, w1.grad)
""")

case("micrograd_tensor_legacy_ctor", """
a = torch.Tensor([2.0])
b = torch.Tensor([[1, 2], [3, 4]])
print(a, a.dtype, b)
result = (a, b)
""")

case("micrograd_expression", """
a = torch.tensor(-4.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(f'{g.data.item():.4f}')
print(f'{a.grad.item():.4f}')
print(f'{b.grad.item():.4f}')
result = (g, a.grad, b.grad)
""")

case("micrograd_sanity", """
x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
xpt, ypt = x, y
result = (ypt.data.item(), xpt.grad.item())
""")

case("micrograd_mlp_manual_loss", """
xs = torch.tensor([[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]])
ys = torch.tensor([1.0, -1.0, -1.0, 1.0])
W = torch.tensor([[0.1, -0.3], [0.2, 0.4], [-0.5, 0.25]], requires_grad=True)
v = torch.tensor([0.7, -0.6], requires_grad=True)
for k in range(3):
    ypred = torch.tanh(torch.tanh(xs @ W) @ v)
    loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
    W.grad = None
    v.grad = None
    loss.backward()
    with torch.no_grad():
        W += -0.05 * W.grad
        v += -0.05 * v.grad
    print(k, f"{loss.item():.4f}")
result = (loss, W, v)
""")

case("micrograd_sum_of_generator_graph", """
ys = torch.tensor([1.0, -1.0])
ypred = torch.tensor([0.5, 0.25], requires_grad=True)
loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
loss.backward()
print(loss)
result = (loss, ypred.grad)
""")

case("micrograd_numerical_gradient", """
def f(x):
    return 3*x**2 - 4*x + 5

x = torch.tensor(3.0, requires_grad=True)
h = 0.001
numerical = (f(x.detach() + h) - f(x.detach())) / h
y = f(x)
y.backward()
print(round(numerical.item(), 2), x.grad.item())
result = (numerical, x.grad)
""")

case("micrograd_topo_grad_fn_names", """
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-3.0, requires_grad=True)
c = torch.tensor(10.0, requires_grad=True)
e = a * b
d = e + c
f = torch.tensor(-2.0, requires_grad=True)
L = d * f
names = []
def walk(fn):
    if fn is None:
        return
    names.append(type(fn).__name__)
    for nxt, _ in fn.next_functions:
        walk(nxt)
walk(L.grad_fn)
print(names)
L.backward()
result = (L, a.grad, b.grad, c.grad, f.grad)
""")

# ---- makemore-style: bigram counts, one-hot, cross-entropy by hand ------------------------------

case("makemore_counts_matrix", """
N = torch.zeros((4, 4), dtype=torch.int32)
pairs = [(0, 1), (1, 2), (2, 0), (1, 2), (0, 1), (3, 3), (2, 1)]
for ix1, ix2 in pairs:
    N[ix1, ix2] += 1
print(N)
P = (N+1).float()
P /= P.sum(1, keepdims=True)
print(P[0].sum())
result = (N, P)
""")

case("makemore_counts_keepdim_broadcast_bug", """
N = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
P = N.float()
good = P / P.sum(1, keepdim=True)
bad = P / P.sum(1)
print(P.sum(1, keepdim=True).shape, P.sum(1).shape)
result = (good, bad, good.sum(1), bad.sum(1))
""")

case("makemore_one_hot", """
xs = torch.tensor([0, 5, 13, 13, 1])
xenc = F.one_hot(xs, num_classes=27).float()
print(xenc.shape, xenc.dtype)
result = xenc
""")

case("makemore_one_hot_infer_classes", """
ix = torch.tensor([[0, 2], [1, 3]])
oh = F.one_hot(ix)
print(oh.shape, oh.dtype)
result = oh
""")

case("makemore_one_hot_errors", """
try:
    F.one_hot(torch.tensor([0.0, 1.0]))
except RuntimeError as e:
    print(e)
try:
    F.one_hot(torch.tensor([0, 3]), num_classes=3)
except RuntimeError as e:
    print(e)
F.one_hot(torch.tensor([-1, 0]))
""")

MAKEMORE = """
xs = torch.tensor([0, 5, 13, 13, 1])
ys = torch.tensor([5, 13, 13, 1, 0])
W = (torch.arange(27 * 27, dtype=torch.float32).view(27, 27) * 0.37).sin()
W.requires_grad = True
"""


def with_makemore(name: str, code: str) -> None:
    case(name, MAKEMORE + textwrap.dedent(code))


with_makemore("makemore_forward_softmax_by_hand", """
xenc = F.one_hot(xs, num_classes=27).float()
logits = xenc @ W
counts = logits.exp()
probs = counts / counts.sum(1, keepdims=True)
print(probs.shape)
print(probs[0].sum())
loss = -probs[torch.arange(5), ys].log().mean()
print(loss.item())
result = (loss, probs[torch.arange(5), ys])
""")

with_makemore("makemore_training_steps", """
for k in range(3):
    xenc = F.one_hot(xs, num_classes=27).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(5), ys].log().mean() + 0.01*(W**2).mean()
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
    print(f"{loss.item():.4f}")
result = (loss, W[0, :5])
""")

with_makemore("makemore_cross_entropy_matches", """
xenc = F.one_hot(xs, num_classes=27).float()
logits = xenc @ W
counts = logits.exp()
probs = counts / counts.sum(1, keepdims=True)
manual = -probs[torch.arange(5), ys].log().mean()
builtin = F.cross_entropy(logits, ys)
print(torch.allclose(manual, builtin))
result = (manual, builtin)
""")

with_makemore("makemore_grad_fn_chain", """
xenc = F.one_hot(xs, num_classes=27).float()
logits = xenc @ W
counts = logits.exp()
probs = counts / counts.sum(1, keepdims=True)
loss = -probs[torch.arange(5), ys].log().mean()
result = loss
""")

with_makemore("makemore_loss_per_example", """
xenc = F.one_hot(xs, num_classes=27).float()
logits = xenc @ W
probs = logits.softmax(dim=1)
nlls = torch.zeros(5)
for i in range(5):
    x = xs[i].item()
    y = ys[i].item()
    p = probs[i, y]
    logp = torch.log(p)
    nll = -logp
    nlls[i] = nll
    print(f'example {i}: x={x} y={y} p={p.item():.4f} nll={nll.item():.4f}')
print('average negative log likelihood, i.e. loss =', nlls.mean().item())
result = nlls
""")

case("makemore_log_likelihood_loop", """
P = torch.tensor([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25], [0.2, 0.2, 0.6]])
log_likelihood = 0.0
n = 0
for ix1, ix2 in [(0, 1), (1, 0), (2, 2), (1, 2)]:
    prob = P[ix1, ix2]
    logprob = torch.log(prob)
    log_likelihood += logprob
    n += 1
    print(f'{ix1}{ix2}: {prob:.4f} {logprob:.4f}')
nll = -log_likelihood
print(f'{log_likelihood=}')
print(f'{nll=}')
print(f'{nll/n}')
result = nll / n
""")

MLP = """
X = torch.tensor([[0, 0, 5], [0, 5, 13], [5, 13, 13], [13, 13, 1]])
Y = torch.tensor([13, 13, 1, 0])
C = (torch.arange(27 * 2, dtype=torch.float32).view(27, 2) * 0.61).cos()
W1 = (torch.arange(6 * 4, dtype=torch.float32).view(6, 4) * 0.23).sin() * 0.5
b1 = torch.linspace(-0.2, 0.2, 4)
W2 = (torch.arange(4 * 27, dtype=torch.float32).view(4, 27) * 0.11).cos() * 0.3
b2 = torch.zeros(27)
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
"""


def with_mlp(name: str, code: str) -> None:
    case(name, MLP + textwrap.dedent(code))


with_mlp("mlp_embedding_shapes", """
emb = C[X]
print(emb.shape)
print(C[5], C[torch.tensor([5, 6, 7])].shape, C[X][1, 2])
a = torch.cat([emb[:, 0, :], emb[:, 1, :], emb[:, 2, :]], 1)
b = torch.cat(torch.unbind(emb, 1), 1)
print(a.shape, torch.equal(a, b))
print((emb.view(4, 6) == a).all())
result = (a, emb.grad_fn)
""")

with_mlp("mlp_arange_views", """
a = torch.arange(18)
print(a.view(2, 9))
print(a.view(9, 2))
print(a.view(3, 3, 2))
result = a.view(3, 3, 2)
""")

with_mlp("mlp_forward_backward", """
emb = C[X]
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
logits = h @ W2 + b2
loss = F.cross_entropy(logits, Y)
for p in parameters:
    p.grad = None
loss.backward()
print(sum(p.nelement() for p in parameters))
result = (loss, C.grad[13], W1.grad, b2.grad[:4])
""")

with_mlp("mlp_train_steps", """
lossi = []
for i in range(4):
    emb = C[X]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y)
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 2 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    lossi.append(round(loss.log10().item(), 4))
print(lossi)
result = loss
""")

with_mlp("mlp_learning_rate_search_values", """
lre = torch.linspace(-3, 0, 7)
lrs = 10**lre
print(lre)
print(lrs)
result = lrs
""")

with_mlp("mlp_saturation_stats", """
emb = C[X]
hpreact = emb.view(emb.shape[0], -1) @ W1 + b1
h = torch.tanh(hpreact)
print((h.abs() > 0.99).float().mean())
print(hpreact.mean(0, keepdim=True), hpreact.std(0, keepdim=True))
print((h.abs() > 0.5).sum().item())
result = (h.abs() > 0.5)
""")

with_mlp("mlp_kaiming_scale", """
gain = (5/3)/(6**0.5)
W = W1 * gain
print(gain, W.std().item())
result = W
""")

with_mlp("mlp_sample_greedy", """
out = []
context = [0] * 3
with torch.no_grad():
    for _ in range(4):
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        logits = h @ W2 + b2
        probs = F.softmax(logits, dim=1)
        ix = torch.argmax(probs, dim=1).item()
        context = context[1:] + [ix]
        out.append(ix)
print(out)
result = out
""")

# ---- makemore part 4: backprop ninja ---------------------------------------------------------------

NINJA = """
def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f'{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s} | maxdiff: {maxdiff:.0e}')

n = 4
vocab, emb_dim, block, hidden = 7, 2, 3, 5
Xb = torch.tensor([[0, 1, 2], [3, 4, 5], [6, 0, 1], [2, 2, 3]])
Yb = torch.tensor([3, 0, 6, 1])
C = (torch.arange(vocab * emb_dim, dtype=torch.float32).view(vocab, emb_dim) * 0.7).sin()
W1 = (torch.arange(block * emb_dim * hidden, dtype=torch.float32).view(6, hidden) * 0.3).cos()
W1 = W1 * (5/3) / ((block * emb_dim)**0.5)
b1 = torch.linspace(-0.1, 0.1, hidden)
W2 = (torch.arange(hidden * vocab, dtype=torch.float32).view(hidden, vocab) * 0.45).sin() * 0.1
b2 = torch.linspace(0.0, 0.06, vocab)
bngain = torch.linspace(0.9, 1.1, hidden).view(1, hidden)
bnbias = torch.linspace(-0.05, 0.05, hidden).view(1, hidden)
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True

emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
bnmeani = 1/n*hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff**2
bnvar = 1/(n-1)*(bndiff2).sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5)**-0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum**-1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()

for p in parameters:
    p.grad = None
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv,
          norm_logits, logit_maxes, logits, h, hpreact, bnraw,
          bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani,
          embcat, emb]:
    t.retain_grad()
loss.backward()
"""


def with_ninja(name: str, code: str) -> None:
    case(name, NINJA + textwrap.dedent(code))


with_ninja("ninja_loss_and_grad_fns", """
print(loss.item())
print(logprobs.grad_fn, logit_maxes.grad_fn, bnvar_inv.grad_fn, emb.grad_fn)
result = (loss, logits.grad)
""")

with_ninja("ninja_manual_part1", """
dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0/n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum**-2) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
cmp('logprobs', dlogprobs, logprobs)
cmp('probs', dprobs, probs)
cmp('counts_sum_inv', dcounts_sum_inv, counts_sum_inv)
cmp('counts_sum', dcounts_sum, counts_sum)
cmp('counts', dcounts, counts)
cmp('norm_logits', dnorm_logits, norm_logits)
cmp('logit_maxes', dlogit_maxes, logit_maxes)
cmp('logits', dlogits, logits)
result = dlogits
""")

with_ninja("ninja_manual_part2", """
dlogits = logits.grad
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhpreact = (1.0 - h**2) * dh
dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
dbnraw = bngain * dhpreact
dbnbias = dhpreact.sum(0, keepdim=True)
dbndiff = bnvar_inv * dbnraw
dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
dbnvar = (-0.5*(bnvar + 1e-5)**-1.5) * dbnvar_inv
dbndiff2 = (1.0/(n-1))*torch.ones_like(bndiff2) * dbnvar
dbndiff += (2*bndiff) * dbndiff2
dhprebn = dbndiff.clone()
dbnmeani = (-dbndiff).sum(0)
dhprebn += 1.0/n * (torch.ones_like(hprebn) * dbnmeani)
dembcat = dhprebn @ W1.T
dW1 = embcat.T @ dhprebn
db1 = dhprebn.sum(0)
demb = dembcat.view(emb.shape)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        ix = Xb[k,j]
        dC[ix] += demb[k,j]
for name, d, t in [('h', dh, h), ('W2', dW2, W2), ('b2', db2, b2), ('hpreact', dhpreact, hpreact),
                   ('bngain', dbngain, bngain), ('bnbias', dbnbias, bnbias),
                   ('bnraw', dbnraw, bnraw), ('bnvar_inv', dbnvar_inv, bnvar_inv),
                   ('bnvar', dbnvar, bnvar), ('bndiff2', dbndiff2, bndiff2),
                   ('bndiff', dbndiff, bndiff), ('bnmeani', dbnmeani, bnmeani),
                   ('hprebn', dhprebn, hprebn), ('embcat', dembcat, embcat),
                   ('W1', dW1, W1), ('b1', db1, b1), ('emb', demb, emb), ('C', dC, C)]:
    print(name, torch.allclose(d, t.grad, atol=1e-6))
result = dW1
""")

with_ninja("ninja_fast_cross_entropy", """
loss_fast = F.cross_entropy(logits, Yb)
print(loss_fast.item(), 'diff:', (loss_fast - loss).item())
dlogits = F.softmax(logits, 1)
dlogits[range(n), Yb] -= 1
dlogits /= n
cmp('logits', dlogits, logits)
print(torch.allclose(dlogits.sum(1), torch.zeros(n), atol=1e-6))
result = dlogits
""")

with_ninja("ninja_fast_batchnorm", """
hpreact_fast = bngain * (hprebn - hprebn.mean(0, keepdim=True)) / torch.sqrt(
    hprebn.var(0, keepdim=True, unbiased=True) + 1e-5) + bnbias
print('max diff small:', (hpreact_fast - hpreact).abs().max().item() < 1e-6)
dhpreact = hpreact.grad
dhprebn = bngain*bnvar_inv/n * (n*dhpreact - dhpreact.sum(0) - n/(n-1)*bnraw*(dhpreact*bnraw).sum(0))
print('hprebn', torch.allclose(dhprebn, hprebn.grad, atol=1e-6))
result = dhprebn
""")

with_ninja("ninja_update_with_no_grad", """
grads = [p.grad for p in parameters]
with torch.no_grad():
    for p, grad in zip(parameters, grads):
        p.data += -0.1 * grad
result = (W2.detach(), b2.detach())
""")

# ---- d2l-style autograd chapter -------------------------------------------------------------------

case("d2l_dot_backward", """
x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)
result = (y, x.grad)
""")

case("d2l_zero_then_sum", """
x = torch.arange(4.0, requires_grad=True)
y = 2 * torch.dot(x, x)
y.backward()
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)
result = x.grad
""")

case("d2l_non_scalar_gradient", """
x = torch.arange(4.0, requires_grad=True)
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
x.grad.zero_()
y = x * x
y.sum().backward()
result = x.grad
""")

case("d2l_detach", """
x = torch.arange(4.0, requires_grad=True)
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)
result = (u, x.grad)
""")

case("d2l_control_flow", """
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = torch.tensor(0.3, requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
result = (d, a.grad)
""")

case("d2l_control_flow_negative", """
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = torch.tensor([-0.7, 0.2], requires_grad=True)
d = f(a)
d.sum().backward()
result = (d, a.grad)
""")

case("d2l_ndarray_basics", """
x = torch.arange(12, dtype=torch.float32)
print(x.numel(), x.shape)
X = x.reshape(3, 4)
print(X)
print(torch.zeros((2, 3, 4)).shape, torch.ones((2, 3, 4)).sum())
print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))
result = X
""")

case("d2l_elementwise_ops", """
x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)
print(torch.exp(x))
result = (x ** y, x // y, x % y)
""")

case("d2l_cat_compare_sum", """
X = torch.arange(12, dtype=torch.float32).reshape((3,4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(torch.cat((X, Y), dim=0))
print(torch.cat((X, Y), dim=1))
print(X == Y)
print(X.sum())
result = (X == Y, X < Y)
""")

case("d2l_broadcasting", """
a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print(a, b)
result = a + b
""")

case("d2l_indexing_slicing", """
X = torch.arange(12, dtype=torch.float32).reshape((3,4))
print(X[-1], X[1:3])
X[1, 2] = 17
print(X)
X[:2, :] = 12
print(X)
result = X
""")

case("d2l_saving_memory", """
X = torch.arange(12, dtype=torch.float32).reshape((3,4))
Y = torch.ones(3, 4)
before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = torch.zeros_like(Y)
zid = id(Z)
Z[:] = X + Y
print(id(Z) == zid)
before = id(X)
X += Y
print(id(X) == before)
result = (X, Z)
""")

case("d2l_conversion", """
X = torch.arange(6, dtype=torch.float32).reshape(2, 3)
A = X.numpy()
B = torch.from_numpy(A)
print(type(A), type(B))
a = torch.tensor([3.5])
print(a, a.item(), float(a), int(a))
result = (B, a.item(), float(a), int(a))
""")

case("d2l_linear_algebra", """
A = torch.arange(6).reshape(3, 2)
print(A.T)
A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
print(A == A.T)
X = torch.arange(24).reshape(2, 3, 4)
print(X)
a = 2
print(a + X, (a * X).shape)
result = (a + X).sum()
""")

case("d2l_reduction_axis", """
A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = A.clone()
print(A, A + B)
print(A * B)
print(A.shape, A.sum())
print(A.sum(axis=0), A.sum(axis=0).shape)
print(A.sum(axis=1), A.sum(axis=[0, 1]) == A.sum())
print(A.mean(), A.sum() / A.numel())
print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])
result = A.sum(axis=[0, 1])
""")

case("d2l_keepdims_cumsum", """
A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
sum_A = A.sum(axis=1, keepdims=True)
print(sum_A, sum_A.shape)
print(A / sum_A)
print(A.cumsum(axis=0))
result = (A / sum_A, A.cumsum(axis=0))
""")

case("d2l_products_and_norms", """
x = torch.arange(3, dtype=torch.float32)
y = torch.ones(3, dtype = torch.float32)
print(x, y, torch.dot(x, y))
print(torch.sum(x * y))
A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
print(A.shape, x.shape, torch.mv(A, x), A@x)
B = torch.ones(3, 4)
print(torch.mm(A, B), A@B)
u = torch.tensor([3.0, -4.0])
print(torch.norm(u))
print(torch.abs(u).sum())
print(torch.norm(torch.ones((4, 9))))
result = torch.norm(u)
""")

case("d2l_linreg_from_scratch", """
true_w = torch.tensor([2, -3.4])
true_b = 4.2
X = torch.tensor([[0.1, 0.2], [1.0, -1.0], [0.5, 0.5], [-0.3, 0.8], [2.0, 0.0], [0.0, 0.0]])
y = torch.matmul(X, true_w) + true_b
y = y.reshape((-1, 1))
w = torch.zeros(size=(2,1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)

def linreg(X, w, b):
    return torch.matmul(X, w) + b

def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()

for epoch in range(3):
    l = squared_loss(linreg(X, w, b), y)
    l.sum().backward()
    sgd([w, b], 0.1, 6)
    with torch.no_grad():
        train_l = squared_loss(linreg(X, w, b), y)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):.4f}')
print(f'error in estimating w: {true_w - w.reshape(true_w.shape)}')
print(f'error in estimating b: {true_b - b}')
result = (w, b)
""")

case("d2l_softmax_from_scratch", """
X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))

def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition

X_prob = softmax(torch.tensor([[0.1, 0.5, -0.2, 0.3, 1.0], [2.0, -1.0, 0.0, 0.5, 0.5]]))
print(X_prob, X_prob.sum(1).round(decimals=4))
y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])

def cross_entropy(y_hat, y):
    return -torch.log(y_hat[list(range(len(y_hat))), y])

print(cross_entropy(y_hat, y))

def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())

print(accuracy(y_hat, y) / len(y))
result = cross_entropy(y_hat, y)
""")

case("d2l_higher_order", """
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy, = torch.autograd.grad(y, x, create_graph=True)
d2y, = torch.autograd.grad(dy, x)
print(dy, d2y)
result = (dy, d2y)
""")

case("d2l_sin_derivative_plot_values", """
x = torch.linspace(-3, 3, 7, requires_grad=True)
y = torch.sin(x)
y.sum().backward()
print(torch.allclose(x.grad, torch.cos(x.detach())))
result = (x.detach(), y.detach(), x.grad)
""")

case("d2l_relu_derivative", """
x = torch.arange(-2.0, 2.0, 0.5, requires_grad=True)
y = torch.relu(x)
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad)
x.grad.data.zero_()
y = torch.sigmoid(x)
y.backward(torch.ones_like(x), retain_graph=True)
result = x.grad
""")

# ---- course-style printing of graphs --------------------------------------------------------------

case("print_grad_fn_names", """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
z = y.mean()
print(y.grad_fn)
print(z.grad_fn)
print(z.grad_fn.name())
result = z
""")

case("print_next_functions_walk", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
out = ((x * w).sum() + 1).tanh()
fn = out.grad_fn
depth = 0
while fn is not None:
    print('  ' * depth + type(fn).__name__)
    nxt = [f for f, _ in fn.next_functions if f is not None]
    fn = nxt[0] if nxt else None
    depth += 1
result = out.grad_fn.next_functions
""")

case("print_accumulate_grad_variable", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
acc = y.grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.variable is x)
print(acc.variable)
result = acc.next_functions
""")

case("print_is_leaf_table", """
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
c = a * b
d = c.detach()
e = b * 2
for name, t in [('a', a), ('b', b), ('c', c), ('d', d), ('e', e)]:
    print(f"{name}: is_leaf={t.is_leaf} requires_grad={t.requires_grad} grad_fn={t.grad_fn}")
result = [t.is_leaf for t in (a, b, c, d, e)]
""")

case("print_grad_after_backward", """
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x.pow(2).sum()
print(x.grad)
y.backward()
print(x.grad)
print(y.grad_fn, y.requires_grad, y.is_leaf)
result = x.grad
""")

case("print_nonleaf_grad_warning", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.sum()
z.backward()
print(y.grad)
result = y.grad
""")

case("print_retain_grad", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
z = (y ** 2).sum()
z.backward()
print(y.grad, x.grad)
print(y.retains_grad, x.retains_grad)
result = (y.grad, x.grad)
""")

case("print_hooks_print_grad", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print('grad of y:', g))
h = x.register_hook(lambda g: g * 10)
(y * y).sum().backward()
print(x.grad)
h.remove()
result = x.grad
""")

case("print_version_counter", """
x = torch.tensor([1.0, 2.0, 3.0])
print(x._version)
x.add_(1)
x[0] = 5
print(x._version)
y = x.view(3)
y.mul_(2)
print(x._version, y._version)
result = x
""")

case("print_saved_tensors_freed", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = y.sum()
z.backward()
try:
    y.grad_fn._saved_result
except RuntimeError as e:
    print(e)
result = y
""")

case("print_tensor_reprs_shapes", """
print(torch.tensor(3.0))
print(torch.tensor([]))
print(torch.zeros(0, 3))
print(torch.arange(6).view(2, 1, 3))
print(torch.ones(2, 2, dtype=torch.int64))
print(torch.tensor([True, False]))
print(torch.tensor([1.5, 2.25], dtype=torch.float64, requires_grad=True))
result = torch.arange(6).view(2, 1, 3)
""")

case("print_tensor_reprs_magnitudes", """
print(torch.tensor([1e-8, 1.0, 1e8]))
print(torch.tensor([0.1, 0.01, 0.001]))
print(torch.tensor([123456.0, 1.5]))
print(torch.tensor([1e-5, 2e-5]))
print(torch.tensor([float('inf'), float('-inf'), float('nan'), 1.0]))
print(torch.tensor([100.0, 200.0]))
print(torch.tensor([[1e10, 1.0], [2.0, 3.0]]))
print(torch.tensor(-0.0))
result = torch.tensor([1e-8, 1.0, 1e8])
""")

case("print_tensor_large_summarized", """
x = torch.arange(2000.)
print(x)
y = torch.arange(1200).view(30, 40)
print(y)
result = x.shape
""")

case("print_tensor_printoptions", """
torch.set_printoptions(precision=2)
x = torch.tensor([1.23456, 2.34567])
print(x)
torch.set_printoptions(precision=4, sci_mode=True)
print(x)
torch.set_printoptions(profile="default")
print(x)
result = x
""")

case("print_grad_fn_in_fstring", """
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2 + 3 * x
print(f"y = {y}")
print(f"y.grad_fn = {y.grad_fn}")
print(f"value: {y.item():.3f}")
result = y
""")

case("print_parameter_repr", """
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(p), p.requires_grad, p.is_leaf)
q = p * 2
print(q)
result = (p, q)
""")

case("print_module_reprs", """
model = nn.Sequential(
    nn.Linear(784, 128),
    nn.ReLU(),
    nn.Linear(128, 10),
    nn.LogSoftmax(dim=1),
)
print(model)
print(model[0])
print(sum(p.numel() for p in model.parameters()))
print([type(m).__name__ for m in model.modules()])
result = [(n, tuple(p.shape)) for n, p in model.named_parameters()]
""")

case("print_custom_module_repr", """
class TwoLayer(nn.Module):
    def __init__(self, d_in, h, d_out):
        super().__init__()
        self.linear1 = nn.Linear(d_in, h)
        self.linear2 = nn.Linear(h, d_out)

    def forward(self, x):
        return self.linear2(self.linear1(x).clamp(min=0))

m = TwoLayer(3, 4, 2)
print(m)
print(m.linear1.weight.shape, m.linear2.bias.shape)
result = [n for n, _ in m.named_parameters()]
""")

case("print_parameter_lists", """
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(0.5)
    lin.bias.fill_(-1.0)
print(list(lin.parameters()))
print(lin.weight)
print(lin.bias.data)
result = list(lin.parameters())
""")

case("print_grad_of_parameters_after_backward", """
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.3, -0.7]]))
    lin.bias.fill_(0.2)
out = lin(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum()
out.backward()
for name, p in lin.named_parameters():
    print(name, p.grad)
result = (out, lin.weight.grad, lin.bias.grad)
""")

# ---- in-place gotchas and views ---------------------------------------------------------------

case("gotcha_relu_inplace_saved", """
x = torch.tensor([-1.0, 2.0], requires_grad=True)
y = x.sigmoid()
z = y * 2
y.relu_()
result = z
""")

case("gotcha_view_of_leaf_inplace", """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x[:2]
y.mul_(2)
""")

case("gotcha_inplace_on_nonleaf_view", """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
y[1:] *= 3
print(y.grad_fn)
y.sum().backward()
result = (y, x.grad)
""")

case("gotcha_no_grad_update_then_backward", """
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
print(w, w.grad, w.requires_grad, w.is_leaf)
w.grad.zero_()
loss = (w ** 2).sum()
loss.backward()
result = (w, w.grad)
""")

case("gotcha_update_without_no_grad", """
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
w -= 0.1 * w.grad
""")

case("gotcha_reassign_loses_leaf", """
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
w = w - 0.1 * w.grad
print(w.is_leaf, w.grad_fn)
loss = (w ** 2).sum()
loss.backward()
print(w.grad)
result = w
""")

case("gotcha_grad_accumulates_without_zero", """
w = torch.tensor([1.0, -1.0], requires_grad=True)
for i in range(3):
    loss = (w * 3).sum()
    loss.backward()
    print(i, w.grad)
result = w.grad
""")

case("gotcha_grad_none_before_backward", """
w = torch.tensor([1.0, -1.0], requires_grad=True)
print(w.grad)
w.grad.zero_()
""")

case("gotcha_numpy_on_requires_grad", """
w = torch.tensor([1.0, -1.0], requires_grad=True)
w.numpy()
""")

case("gotcha_int_tensor_requires_grad", """
x = torch.tensor([1, 2, 3], requires_grad=True)
""")

case("gotcha_backward_on_non_scalar", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.backward()
""")

case("gotcha_backward_without_requires_grad", """
x = torch.tensor([1.0, 2.0])
y = (x * 2).sum()
y.backward()
""")

case("gotcha_shape_mismatch_matmul", """
a = torch.ones(2, 3)
b = torch.ones(2, 3)
a @ b
""")

case("gotcha_broadcast_mismatch", """
a = torch.ones(3, 2)
b = torch.ones(3)
a + b
""")

case("gotcha_view_non_contiguous", """
x = torch.arange(6.).view(2, 3)
y = x.t()
print(y.is_contiguous())
y.view(6)
""")

case("gotcha_reshape_non_contiguous", """
x = torch.arange(6.).view(2, 3)
y = x.t().reshape(6)
z = x.t().contiguous().view(6)
print(torch.equal(y, z))
result = (y, z)
""")

case("gotcha_detach_shares_memory", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.detach()
y[0] = 10.0
print(x)
c = x.clone()
print(c.grad_fn)
result = (x, y, c)
""")

case("gotcha_float_vs_long_division", """
a = torch.tensor([5, 7])
print(a / 2, a // 2, a.dtype, (a / 2).dtype)
result = (a / 2, a // 2)
""")

case("gotcha_setitem_shape_mismatch", """
y = torch.zeros(4, 3)
y[0:2] = torch.ones(2, 1)
print(y)
y[0:2] = torch.ones(3, 1)
""")

case("gotcha_setitem_shape_mismatch_vector", """
y = torch.zeros(4)
y[0:2] = torch.ones(2, 1)
""")

case("gotcha_item_on_vector", """
x = torch.tensor([1.0, 2.0])
x.item()
""")

case("gotcha_bool_of_vector", """
x = torch.tensor([1.0, 2.0])
if x > 0:
    print('positive')
""")

# ---- no_grad / inference ---------------------------------------------------------------------------

case("no_grad_reenter_same_object", """
ng = torch.no_grad()
x = torch.tensor([1.0], requires_grad=True)
with ng:
    a = x * 2
with ng:
    b = x * 3
print(a.requires_grad, b.requires_grad, torch.is_grad_enabled())
result = (a, b)
""")

case("no_grad_nested_enable_grad", """
x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
    z = x * 2
print(y.requires_grad, z.requires_grad)
result = (y, z)
""")

case("no_grad_inference_loop", """
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 0.5], [-0.5, 1.0]]))
    lin.bias.zero_()
    preds = [lin(torch.tensor([float(i), 1.0])).argmax().item() for i in range(4)]
print(preds)
result = preds
""")

case("no_grad_is_grad_enabled", """
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
result = torch.is_grad_enabled()
""")

# ---- common ops in teaching code --------------------------------------------------------------------

case("op_argmax_keepdim", """
x = torch.tensor([[0.1, 0.7, 0.2], [0.6, 0.3, 0.1]])
print(x.argmax(), x.argmax(1), x.argmax(dim=1, keepdim=True), torch.argmax(x, 0))
result = x.argmax(1)
""")

case("op_max_dim_namedtuple", """
x = torch.tensor([[0.1, 0.7, 0.2], [0.6, 0.3, 0.1]], requires_grad=True)
out = x.max(dim=1)
print(out)
values, indices = out
values.sum().backward()
result = (values, indices, x.grad)
""")

case("op_topk", """
x = torch.tensor([[0.1, 0.7, 0.2, 0.9], [0.6, 0.3, 0.1, 0.5]], requires_grad=True)
t = torch.topk(x, 2)
print(t)
t.values.sum().backward()
print(x.topk(1, dim=0, largest=False))
result = (t.values, t.indices, x.grad, t.values.grad_fn)
""")

case("op_sort", """
x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 2.5, -1.0]], requires_grad=True)
s = torch.sort(x)
print(s)
sd = x.sort(dim=0, descending=True)
(s.values * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
result = (s.values, s.indices, sd.values, sd.indices, x.grad, s.values.grad_fn)
""")

case("op_argsort", """
x = torch.tensor([3.0, 1.0, 2.0, -5.0])
print(torch.argsort(x), x.argsort(descending=True))
result = torch.argsort(x)
""")

case("op_gather", """
probs = torch.tensor([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]], requires_grad=True)
target = torch.tensor([1, 0])
picked = probs.gather(1, target.unsqueeze(1))
print(picked)
picked.log().sum().backward()
result = (picked, probs.grad, picked.grad_fn)
""")

case("op_gather_function", """
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
idx = torch.tensor([[0, 0], [1, 0]])
g = torch.gather(x, 1, idx)
g.backward(torch.tensor([[1.0, 10.0], [100.0, 1000.0]]))
result = (g, x.grad)
""")

case("op_scatter_inplace", """
zeros = torch.zeros(2, 4)
idx = torch.tensor([[1], [3]])
zeros.scatter_(1, idx, 1.0)
print(zeros)
src = torch.tensor([[5.0, 6.0], [7.0, 8.0]])
z2 = torch.zeros(2, 4).scatter_(1, torch.tensor([[0, 2], [1, 3]]), src)
result = (zeros, z2)
""")

case("op_scatter_grad", """
src = torch.tensor([[5.0, 6.0], [7.0, 8.0]], requires_grad=True)
base = torch.tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], requires_grad=True)
out = base.scatter(1, torch.tensor([[0, 2], [1, 0]]), src)
out.backward(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
result = (out, src.grad, base.grad)
""")

case("op_scatter_add", """
counts = torch.zeros(5)
idx = torch.tensor([0, 1, 1, 3, 3, 3])
counts.scatter_add_(0, idx, torch.ones(6))
result = counts
""")

case("op_masked_fill_attention", """
T = 4
tril = torch.tril(torch.ones(T, T))
wei = torch.zeros((T, T))
wei = wei.masked_fill(tril == 0, float('-inf'))
wei = F.softmax(wei, dim=-1)
print(tril)
print(wei)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
out = wei @ x
result = (wei, out)
""")

case("op_masked_fill_grad", """
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
mask = torch.tensor([[True, False], [False, True]])
y = x.masked_fill(mask, 0.0)
y.sum().backward()
z = torch.masked_fill(x.detach(), mask, -1.0)
result = (y, x.grad, z, y.grad_fn)
""")

case("op_tril_triu", """
a = torch.arange(1., 10.).view(3, 3)
print(torch.tril(a), torch.triu(a), a.tril(-1), a.triu(1))
x = a.clone().requires_grad_()
(x.tril() * 2).sum().backward()
result = (torch.tril(a), torch.triu(a, diagonal=1), x.grad)
""")

case("op_tril_ones_average", """
T = 3
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
wei = torch.tril(torch.ones(T, T))
wei = wei / wei.sum(1, keepdim=True)
xbow = wei @ x
xbow_loop = torch.zeros((T, 2))
for t in range(T):
    xprev = x[:t+1]
    xbow_loop[t] = torch.mean(xprev, 0)
print(torch.allclose(xbow, xbow_loop))
result = xbow
""")

case("op_cumsum", """
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
c = x.cumsum(dim=1)
c.backward(torch.tensor([[1.0, 0.0, 2.0], [0.5, 0.5, 0.5]]))
print(torch.cumsum(torch.arange(5), 0))
result = (c, x.grad, c.grad_fn, torch.cumsum(torch.arange(5), 0))
""")

case("op_floor_ceil_round", """
x = torch.tensor([-1.5, -0.5, 0.4, 0.5, 1.5, 2.5, 2.7])
print(torch.floor(x), torch.ceil(x), torch.round(x), x.round(decimals=1))
y = x.clone().requires_grad_()
(y.floor() + y.ceil() + y.round()).sum().backward()
result = (x.floor(), x.ceil(), x.round(), x.trunc(), y.grad)
""")

case("op_logical_ops", """
a = torch.tensor([True, False, True])
b = torch.tensor([True, True, False])
print(torch.logical_and(a, b), torch.logical_or(a, b), torch.logical_xor(a, b))
x = torch.tensor([1.0, float('nan'), float('inf'), -2.0])
print(torch.isnan(x), torch.isinf(x), torch.isfinite(x))
result = (a & b, a | b, ~a, torch.isnan(x))
""")

case("op_nonzero_where", """
x = torch.tensor([[0.0, 1.5], [2.0, 0.0]])
print(torch.nonzero(x))
print(x.nonzero())
print(torch.where(x > 0))
print(torch.count_nonzero(x))
result = torch.nonzero(x)
""")

case("op_index_select", """
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = torch.index_select(x, 1, torch.tensor([0, 2, 0]))
y.sum().backward()
result = (y, x.grad, y.grad_fn)
""")

case("op_exp2_log10", """
x = torch.tensor([0.0, 1.0, 3.0], requires_grad=True)
y = torch.exp2(x) + torch.log10(x + 1)
y.sum().backward()
result = (y, x.grad)
""")

case("op_sinh_cosh_atan", """
x = torch.tensor([-0.5, 0.0, 0.75], requires_grad=True)
y = torch.sinh(x) + torch.cosh(x) + torch.atan(x) + torch.asin(x) + torch.acos(x)
y.sum().backward()
result = (y, x.grad)
""")

case("op_stack_hstack_vstack", """
a = torch.tensor([1.0, 2.0])
b = torch.tensor([3.0, 4.0])
print(torch.stack([a, b]), torch.stack([a, b], dim=1))
print(torch.hstack([a, b]), torch.vstack([a, b]))
result = (torch.hstack([a, b]), torch.vstack([a, b]))
""")

case("op_diag", """
x = torch.tensor([1.0, 2.0, 3.0])
print(torch.diag(x))
m = torch.arange(9.).view(3, 3)
print(torch.diag(m), m.diagonal())
result = (torch.diag(x), torch.diag(m))
""")

case("op_matmul_forms", """
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.5, -1.0], [2.0, 0.25]])
c = a @ b
d = torch.mm(a, b) + a.matmul(b) + torch.matmul(a, b[:, 0])[:, None]
(c.sum() + d.sum()).backward()
result = (c, d, a.grad)
""")

case("op_broadcast_to_expand", """
x = torch.tensor([[1.0], [2.0]])
print(x.expand(2, 3), torch.broadcast_to(x, (2, 3)))
print(x.expand(-1, 4).shape)
result = x.expand(2, 3)
""")

case("op_all_any", """
x = torch.tensor([[True, False], [True, True]])
print(x.all(), x.any(), x.all(dim=1), torch.all(x), torch.any(x, dim=0))
y = torch.tensor([1.0, 2.0])
print(torch.all(y > 0), (y > 1).any())
result = (x.all(dim=1), torch.all(y > 0))
""")

case("op_clamp_clip", """
x = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
y = x.clamp(-1, 1)
y.sum().backward()
print(torch.clamp(x.detach(), min=0))
result = (y, x.grad)
""")

case("op_mean_std_var", """
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 6.0, 8.0]])
print(x.mean(), x.std(), x.var(), x.std(dim=1), x.var(0, unbiased=False))
print(x.mean(dim=0, keepdim=True))
result = (x.std(dim=1), x.var(0, unbiased=False))
""")

case("op_unsqueeze_squeeze_shapes", """
x = torch.tensor([1.0, 2.0, 3.0])
print(x.unsqueeze(0).shape, x.unsqueeze(1).shape, x[None, :].shape, x[:, None].shape)
y = torch.zeros(1, 3, 1)
print(y.squeeze().shape, y.squeeze(0).shape, y.squeeze(-1).shape)
result = x[:, None] * x[None, :]
""")

case("op_permute_transpose", """
x = torch.arange(24.).view(2, 3, 4)
print(x.permute(2, 0, 1).shape, x.transpose(0, 1).shape, x.mT.shape)
result = x.permute(2, 0, 1)
""")

case("op_permute_no_args", """
x = torch.arange(6.).view(2, 3)
x.permute()
""")

case("op_expand_no_args", """
x = torch.arange(3.)
x.expand()
""")

case("op_norm_validation", """
x = torch.tensor([3.0, 4.0])
print(x.norm(), x.norm(p=1), x.norm(float('inf')), x.norm(dim=0))
x.norm(p="nuc")
""")

case("op_norm_bad_p_type", """
x = torch.tensor([3.0, 4.0])
x.norm(p="abc")
""")

case("op_norm_int_tensor", """
x = torch.tensor([3, 4])
x.norm()
""")

case("op_rounding_of_item_prints", """
x = torch.tensor([0.1, 0.2, 0.3])
s = x.sum()
print(s, s.item(), f"{s.item():.2f}", round(s.item(), 3))
result = s.item()
""")

case("op_sum_dtype_int", """
x = torch.tensor([1, 2, 3], dtype=torch.int32)
print(x.sum(), x.sum().dtype, x.float().mean())
result = x.sum()
""")

case("op_tensor_comparisons_chain", """
x = torch.tensor([1, 5, 3, 8])
mask = (x > 2) & (x < 8)
print(mask, x[mask], mask.sum(), mask.float().mean())
result = x[mask]
""")

case("op_arange_indexing_rows", """
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.0, 1.0, 1.0]])
targets = torch.tensor([0, 1, 2])
picked = logits[torch.arange(3), targets]
print(picked)
print(logits[range(3), targets])
result = picked
""")

case("op_allclose_and_equal", """
a = torch.tensor([1.0, 2.0, 3.0])
b = a + 1e-7
print(torch.allclose(a, b), torch.equal(a, b), torch.allclose(a, a + 0.1))
print(torch.allclose(a, b, atol=0, rtol=0))
result = torch.isclose(a, b)
""")

case("op_view_minus_one", """
x = torch.arange(24.)
print(x.view(-1).shape, x.view(2, -1).shape, x.view(-1, 3, 2).shape)
x.view(-1, 5)
""")

case("op_flatten_batch", """
x = torch.arange(24.).view(2, 3, 4)
print(x.flatten().shape, x.flatten(1).shape, torch.flatten(x, start_dim=0, end_dim=1).shape)
result = x.flatten(1)
""")

case("op_chunk_split", """
x = torch.arange(10.)
print(x.chunk(3))
print(torch.split(x, 4))
print(x.split([3, 7]))
result = x.chunk(3)
""")

case("op_repeat_interleave_tile", """
x = torch.tensor([1, 2, 3])
print(x.repeat(2), x.repeat(2, 1))
print(torch.tile(x, (2,)))
print(x.repeat_interleave(2))
result = x.repeat_interleave(2)
""")

case("op_where_ternary", """
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = torch.where(x > 0, x, torch.zeros_like(x))
y.sum().backward()
print(torch.where(x > 0, 1.0, 0.0))
result = (y, x.grad)
""")

case("op_softmax_variants", """
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(torch.softmax(x, dim=1), F.softmax(x, dim=0), x.softmax(-1))
print(F.log_softmax(x, dim=1))
result = torch.allclose(F.log_softmax(x, dim=1).exp().sum(1), torch.ones(2))
""")

case("op_activations", """
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
outs = [F.relu(x), torch.sigmoid(x), torch.tanh(x), F.leaky_relu(x, 0.1), F.gelu(x),
        F.silu(x), F.softplus(x), F.elu(x)]
sum(o.sum() for o in outs).backward()
print([o.grad_fn.name() for o in outs])
result = outs + [x.grad]
""")

case("op_activation_modules", """
x = torch.tensor([-1.0, 0.0, 1.5])
for m in [nn.ReLU(), nn.LeakyReLU(0.2), nn.GELU(), nn.Tanh(), nn.Sigmoid(), nn.SiLU()]:
    print(m, m(x))
result = nn.LeakyReLU()(x)
""")

case("op_mse_l1_losses", """
pred = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
target = torch.tensor([1.0, 1.0, 1.0])
mse = F.mse_loss(pred, target)
l1 = F.l1_loss(pred, target)
(mse + l1).backward()
print(nn.MSELoss()(pred, target), nn.L1Loss()(pred, target))
result = (mse, l1, pred.grad)
""")

case("op_embedding_module", """
emb = nn.Embedding(5, 2)
with torch.no_grad():
    emb.weight.copy_(torch.arange(10.).view(5, 2) / 10)
idx = torch.tensor([[0, 4], [2, 2]])
out = emb(idx)
print(emb)
out.sum().backward()
result = (out, emb.weight.grad, out.grad_fn)
""")

case("op_dot_product_attention_small", """
q = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], requires_grad=True)
k = torch.tensor([[0.5, 0.5], [1.0, -1.0], [0.0, 2.0]])
v = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
wei = q @ k.transpose(-2, -1) * 2**-0.5
tril = torch.tril(torch.ones(3, 3))
wei = wei.masked_fill(tril == 0, float('-inf'))
wei = F.softmax(wei, dim=-1)
out = wei @ v
out.sum().backward()
result = (out, q.grad)
""")

# ---- factories and known gaps -----------------------------------------------------------------------

case("factory_zeros_negative", """
torch.zeros(2, -1)
""")

for _f in ("ones", "empty", "rand", "randn"):
    case(f"factory_{_f}_negative", f"""
    torch.{_f}(2, -1)
    """)

case("factory_full_negative", """
torch.full((2, -1), 1.0)
""")

case("factory_zeros_float_size", """
torch.zeros(2.5)
""")

case("factory_ones_float_in_list", """
torch.ones(2, 2.5)
""")

case("factory_zeros_tuple_float", """
torch.zeros((2, 2.5))
""")

case("factory_arange_float_steps", """
print(torch.arange(0, 1, 0.25), torch.arange(1, 4), torch.arange(5.0))
print(torch.arange(-1.0, 1.0, 0.5).dtype, torch.arange(3).dtype)
result = torch.arange(0, 1, 0.1)
""")

case("factory_linspace_eye_full", """
print(torch.linspace(0, 1, 5), torch.eye(3), torch.full((2, 2), 7.0), torch.full((2,), 3))
result = (torch.linspace(-1, 1, 4), torch.eye(2, 3))
""")

case("factory_from_numpy_bad_type", """
arr = np.array([1, 'a', None], dtype=object)
torch.from_numpy(arr)
""")

case("factory_from_numpy_object", """
arr = np.array(['a', 'b'])
torch.from_numpy(arr)
""")

case("factory_from_numpy_dtypes", """
for dt in [np.float32, np.float64, np.int64, np.int32, np.uint8, np.bool_, np.int16]:
    print(torch.from_numpy(np.zeros(2, dtype=dt)).dtype)
result = torch.from_numpy(np.array([1.5, 2.5]))
""")

case("factory_tensor_dtype_inference", """
print(torch.tensor([1, 2]).dtype, torch.tensor([1.0, 2]).dtype, torch.tensor([True]).dtype)
print(torch.tensor(np.array([1.0], dtype=np.float32)).dtype, torch.tensor(3).dtype)
result = torch.tensor([[1, 2.5], [3, 4]])
""")

# ---- integer wrap-around with out-of-range Python ints -------------------------------------------

case("uint8_eq_257", """
x = torch.tensor([1, 2, 255], dtype=torch.uint8)
print(x == 257, x == 1, x != 257)
result = (x == 257, x < 256, x > -1)
""")

case("uint8_rsub_300", """
x = torch.tensor([1, 2, 200], dtype=torch.uint8)
print(300 - x, x + 300, x * 300)
result = (300 - x, x + 300, x - 300)
""")

case("int8_overflow_scalar", """
x = torch.tensor([100, -100, 5], dtype=torch.int8)
print(x + 200, x * 3, x == 261)
result = (x + 200, x == 261)
""")

# ---- errors students hit with the indexing/sorting ops --------------------------------------------

_EDGE = {
    "gather_out_of_bounds": "x.gather(1, torch.tensor([[0], [5]]))",
    "gather_float_index": "x.gather(1, torch.tensor([[0.], [1.]]))",
    "gather_ndim_mismatch": "x.gather(1, torch.tensor([0, 1]))",
    "gather_index_too_large": "x.gather(1, torch.tensor([[0, 1], [1, 1], [0, 0]]))",
    "gather_smaller_index": "result = x.gather(1, torch.tensor([[0, 1, 2, 0]]))",
    "gather_negative_index": "result = x.gather(1, torch.tensor([[-1], [0]]))",
    "index_select_out_of_range": "x.index_select(1, torch.tensor([0, 5]))",
    "index_select_2d_index": "x.index_select(1, torch.tensor([[0, 1]]))",
    "index_select_float_index": "x.index_select(1, torch.tensor([0.]))",
    "scatter_out_of_bounds": "x.clone().scatter_(1, torch.tensor([[0], [5]]), 1.0)",
    "scatter_dtype_mismatch": "x.clone().scatter_(1, torch.tensor([[0], [1]]), torch.tensor([[1]]))",
    "scatter_add_number": "x.clone().scatter_add_(1, torch.tensor([[0], [1]]), 1.0)",
    "scatter_leaf_inplace": "x.clone().requires_grad_().scatter_(1, torch.tensor([[0], [1]]), 1.0)",
    "one_hot_num_classes_zero": "F.one_hot(torch.tensor([0, 1]), num_classes=0)",
    "one_hot_empty_infer": "F.one_hot(torch.tensor([], dtype=torch.long))",
    "one_hot_empty_given": "result = F.one_hot(torch.tensor([], dtype=torch.long), 3)",
    "one_hot_0d": "result = F.one_hot(torch.tensor(2), 3)",
    "one_hot_int32": "F.one_hot(torch.tensor([0, 1], dtype=torch.int32), 3)",
    "topk_k_too_large": "x.topk(4)",
    "topk_dim0": "result = x.topk(2, dim=0)",
    "topk_smallest": "result = x.topk(2, largest=False)",
    "topk_0d": "result = torch.tensor(3.).topk(1)",
    "sort_ties_stable": "result = torch.tensor([2., 1., 2., 1., 3.]).sort(descending=True)",
    "sort_ties_ascending": "result = torch.tensor([2., 1., 2., 1., 3.]).sort()",
    "sort_nan": "result = torch.tensor([2., float('nan'), -1.]).sort()",
    "tril_big_diagonal": "result = x.tril(5)",
    "tril_1d": "torch.tensor([1., 2.]).tril()",
    "cumsum_no_dim": "x.cumsum()",
    "cumsum_int32": "result = torch.tensor([1, 2], dtype=torch.int32).cumsum(0)",
    "cumsum_bool": "result = torch.tensor([True, True]).cumsum(0)",
    "cumsum_dtype": "result = x.cumsum(1, dtype=torch.float64)",
    "nonzero_0d": "result = torch.nonzero(torch.tensor(2.))",
    "nonzero_as_tuple": "result = torch.nonzero(x, as_tuple=True)",
    "count_nonzero_dim": "result = torch.count_nonzero(x - 2, dim=0)",
    "masked_fill_long_mask": "x.masked_fill(torch.tensor([1, 0, 1]), 0.)",
    "masked_fill_bad_shape": "x.masked_fill(torch.tensor([True, False]), 0.)",
    "masked_fill_broadcast_mask": "result = x.masked_fill(torch.tensor([True, False, True]), -1.)",
    "floor_int": "result = torch.tensor([1, -2]).floor()",
    "floor_bool": "torch.tensor([True]).floor()",
    "round_decimals_int": "torch.tensor([1, 2]).round(decimals=1)",
    "round_decimals": "result = torch.tensor([1.25, 2.35, -0.15]).round(decimals=1)",
    "round_negative_decimals": "result = torch.tensor([125., 150., 249.]).round(decimals=-2)",
    "diag_offset": "result = torch.diag(torch.tensor([1, 2]), -1)",
    "diagonal_offset": "result = x.diagonal(1)",
    "repeat_interleave_dim": "result = x.repeat_interleave(2, dim=0)",
    "tile_short_dims": "result = torch.tile(x, (2,))",
    "hstack_2d": "result = torch.hstack([x, x])",
    "vstack_scalar_rows": "result = torch.vstack([torch.tensor(1.), torch.tensor(2.)])",
    "logical_and_numbers": "result = torch.logical_and(torch.tensor([0, 1, 2]), torch.tensor([1, 1, 0]))",
    "isnan_int": "result = torch.isnan(torch.tensor([1, 2]))",
    "norm_p_none": "result = x.norm(p=None)",
    "norm_negative_p": "result = x[0].norm(-1)",
    "norm_neg_inf": "result = x[0].norm(float('-inf'))",
    "norm_fro_dims": "result = x.norm(p='fro', dim=(0, 1))",
    "norm_list_p": "x.norm(p=[1])",
    "norm_bool": "torch.tensor([True]).norm()",
    "norm_dtype": "result = x.norm(dtype=torch.float64)",
    "zeros_size_kwarg": "result = torch.zeros(size=(2, 1)) + torch.ones(size=[1, 3])",
    "sum_axis_keepdims": "result = x.sum(axis=1, keepdims=True)",
    "mean_axis_tuple": "result = torch.mean(x, axis=(0, 1))",
    "argmax_axis": "result = x.argmax(axis=0)",
    "cat_axis": "result = torch.cat([x, x], axis=1)",
    "max_axis_keepdims": "result = x.max(axis=1, keepdims=True)",
    "out_resize_warning": "out = torch.zeros(3)\nresult = torch.add(x[0], 1, out=out)",
    "out_requires_grad": "torch.mul(x.requires_grad_(), 2, out=torch.zeros(2, 3))",
    "out_cast_error": "torch.mul(x, x, out=torch.zeros(2, 3, dtype=torch.int64))",
    "out_upcast": "out = torch.zeros(2, 3, dtype=torch.float64)\ntorch.mul(x, x, out=out)\nresult = out",
    "out_under_no_grad": "w = x.clone().requires_grad_()\nout = torch.zeros(2, 3)\nwith torch.no_grad():\n    torch.mul(w, 2, out=out)\nresult = (out, out._version)",
    "setitem_range": "y = x.clone()\ny[range(2), [0, 2]] = 0.\nresult = y",
    "index_empty_range": "result = x[range(0)]",
    "bce_shape_mismatch": "F.binary_cross_entropy(torch.tensor([0.5, 0.2]), torch.tensor([[1.], [0.]]))",
    "bce_out_of_range": "F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.]))",
    "bce_extremes": "result = F.binary_cross_entropy(torch.tensor([0., 1.]), torch.tensor([1., 0.]))",
    "bce_logits_shape_mismatch": "F.binary_cross_entropy_with_logits(torch.tensor([0.5, 0.2]), torch.tensor([[1.], [0.]]))",
    "bce_logits_long_target": "F.binary_cross_entropy_with_logits(torch.tensor([0.5, 0.2]), torch.tensor([1, 0]))",
    "embedding_out_of_range": "F.embedding(torch.tensor([5]), torch.zeros(3, 2))",
    "embedding_float_index": "F.embedding(torch.tensor([1.]), torch.zeros(3, 2))",
    "embedding_padding_repr": "result = repr(nn.Embedding(5, 2, padding_idx=0)) + repr(nn.Embedding(4, 3, padding_idx=-1))",
    "module_reprs_new": "result = [repr(m) for m in (nn.LeakyReLU(0.2, inplace=True), nn.GELU('tanh'), nn.ELU(), nn.Softplus(), nn.L1Loss(), nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.])))]",
    "l1_loss_broadcast_warning": "result = F.l1_loss(torch.tensor([1., 2.]), torch.tensor([[1.], [0.]]))",
    "type_of_things": "result = [str(type(v)) for v in (x, x.shape, x.dtype, nn.Parameter(x), (x * 2).grad_fn)]",
}

for _name, _code in _EDGE.items():
    case(f"edge_{_name}", "x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])\n" + _code + "\n")

case("edge_grads_of_new_ops", """
x = torch.tensor([[0.5, -1.0, 2.0], [0.3, -0.2, 1.0]], requires_grad=True)
t = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
outs = [
    F.binary_cross_entropy_with_logits(x, t, weight=torch.tensor([1., 2., 3.]), reduction='sum'),
    F.binary_cross_entropy(x.sigmoid(), t, reduction='none').sum(),
    F.gelu(x, approximate='tanh').sum(), F.softplus(x, beta=2.0).sum(), F.elu(x, alpha=0.5).sum(),
    x.sort(dim=0, descending=True).values[0].sum(), x.topk(2).values.pow(2).sum(),
    x.cumsum(0).mul(torch.tensor([1., 2., 3.])).sum(), x.triu(1).sum() * 3,
    x.diagonal().pow(2).sum(), x.diag().sum(), x[0].diag(1).sum(), x.index_select(0, torch.tensor([1, 1])).sum(),
    x.gather(0, torch.tensor([[1, 0, 1]])).pow(2).sum(), x.repeat_interleave(2, dim=1).pow(2).sum(),
    torch.hstack([x, x * 2]).sum(), torch.vstack([x[0], x[1]]).exp().sum(),
    x.exp2().sum() + x.sinh().sum() + x.cosh().sum() + x.atan().sum() + (x / 3).asin().sum(),
    torch.tile(x, (2, 1)).sum(), torch.broadcast_to(x, (2, 2, 3)).sum(),
]
for o in outs:
    print(o.grad_fn.name())
sum(outs).backward()
result = x.grad
""")

case("edge_scatter_graph", """
src = torch.tensor([[5.0, 6.0], [7.0, 8.0]], requires_grad=True)
base = torch.tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], requires_grad=True)
idx = torch.tensor([[0, 2], [1, 0]])
out = base.scatter_add(1, idx, src * 2) + base.scatter(1, idx, 0.5)
out.backward(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
y = base.detach().clone().requires_grad_()
z = y * 1
z.scatter_(1, idx, src)
z.sum().backward()
result = (out, src.grad, base.grad, z, y.grad)
""")

# ---- full-precision prints: torch's order of additions ---------------------------------------------

case("precision_sums_and_means", """
x = torch.arange(1, 101, dtype=torch.float32) / 7
m = (torch.arange(60, dtype=torch.float32).view(6, 10) * 0.37).sin()
print(x.sum().item(), x.mean().item(), (x * 0.1).sum().item())
print(m.sum().item(), m.sum(0).tolist()[:3], m.sum(1).tolist()[:3], m.mean(1).tolist()[:3])
print(m.t().sum(1).tolist()[:3], m.sum((0, 1)).item(), m.view(2, 3, 10).sum((0, 2)).tolist())
result = (x.sum(), m.sum(0), m.mean(1))
""")

case("precision_losses", """
logits = (torch.arange(40, dtype=torch.float32).view(8, 5) * 0.91).cos() * 3
y = torch.tensor([0, 4, 2, 2, 1, 3, 0, 4])
print(F.cross_entropy(logits, y).item(), F.cross_entropy(logits, y, reduction='sum').item())
print(F.log_softmax(logits, dim=1)[0].tolist())
print(F.mse_loss(logits[:, 0], logits[:, 1]).item())
w = torch.tensor([1.0, 0.5, 2.0, 1.5, 0.25])
print(F.cross_entropy(logits, y, weight=w).item(), F.nll_loss(logits, y, ignore_index=2).item())
result = F.cross_entropy(logits, y)
""")

case("precision_training_loss_prints", """
X = (torch.arange(48, dtype=torch.float32).view(16, 3) * 0.53).sin()
Y = torch.tensor([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2, 1, 1, 0, 2])
W = ((torch.arange(9, dtype=torch.float32).view(3, 3) * 0.77).cos() * 0.5).requires_grad_()
b = torch.zeros(3, requires_grad=True)
for step in range(3):
    loss = F.cross_entropy(X @ W + b, Y)
    W.grad = None
    b.grad = None
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        b -= 0.5 * b.grad
    print(step, loss.item())
result = (W, b)
""")

case("manual_seed_returns_the_generator", """
g = torch.manual_seed(0)
print(repr(g))
result = type(g).__name__
""")

case("scalar_factor_is_saved_and_freed", """
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 3).sum()
y.backward()
print(x.grad)
y.backward()
""")

case("scalar_divisor_is_saved_and_freed", """
x = torch.tensor([1., 2.], requires_grad=True)
y = (x / 2).sum()
y.backward()
print(y.grad_fn.next_functions[0][0]._saved_other)
""")

case("cat_promotes_over_every_tensor", """
a = torch.tensor([1, 2])
b = torch.tensor([0.5], dtype=torch.float64)
c = torch.tensor([1.5])
print(torch.cat([a, b, c]), torch.stack([c, c.double()]).dtype)
result = torch.cat([a, c, b])
""")
