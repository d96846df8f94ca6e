"""The polynomial fits of "Learning PyTorch with Examples", run to the end: a cubic
``a + b x + c x^2 + d x^3`` fitted to ``sin(x)`` on ``linspace(-pi, pi, 2000)`` for 2000 steps,
with raw tensors and hand-written gradients, with autograd, with ``nn.Sequential`` and a manual
update, and with ``optim.SGD`` and ``optim.RMSprop``; each prints its loss every 100 steps.

Where the last digits come from (both libraries run side by side, every intermediate tensor
compared bit for bit):

* ``linspace`` (torch's two-sided fused multiply-add), ``x ** 2``, ``x ** 3`` and
  ``x.unsqueeze(-1).pow(p)`` (multiplications), every 2000-element ``sum`` (torch's cascade
  order, ``ops.summation``), ``MSELoss``, the bias gradient, the manual updates and the SGD
  and RMSprop steps (fused multiply-adds) are replayed: bit for bit at every step.
* ``torch.sin`` on float32 is MKL's vector math in torch's MKL builds (``at::vml::vsin``
  calls ``vsSin`` with ``VML_HA``), closed source: its values are neither the correctly
  rounded sine autograd_lab computes (92 of these 2000 are one unit in the last place away
  from it) nor SLEEF's ``sinf_u10``, so it cannot be replayed. The cases keep the tutorial's
  ``y = torch.sin(x)`` and then set those 92 entries to torch's values (``PIN_SIN``; under
  torch it changes nothing). With them the first two fits print torch's losses to every digit.
* ``nn.Linear`` runs ``addmm``, and its weight gradient ``mm``, through MKL's sgemm, whose
  kernel MKL picks by shape and CPU (on the recording CPU these shapes sum their products in
  order without fused multiply-adds; other shapes do not): not replayed, so a loss may differ
  in its last digits. The ``nn`` fits print losses to 6 significant digits and the fitted
  coefficients to every digit (those come out bit for bit). RMSprop divides each step by the
  gradient's running RMS, so near the minimum (after about 1,500 steps) its iterates hop
  around with an amplitude of about ``lr``, and a last-bit difference in a product decides
  where: that fit runs 1,500 steps and prints 5 significant digits (its constant and square
  terms, near 0 there, to 5 decimals).
"""

from __future__ import annotations

import textwrap

CASES: list[dict] = []

# Where torch's float32 ``sin(linspace(-pi, pi, 2000))`` (MKL) is not the correctly rounded
# sine, and torch's values there.
PIN_SIN = """\
y[[
    59, 89, 108, 132, 139, 145, 153, 158, 170, 173, 253, 282, 309, 372, 386, 392, 413, 425, 437,
    439, 443, 473, 502, 517, 520, 556, 587, 588, 620, 622, 657, 666, 676, 693, 696, 698, 732,
    739, 756, 833, 839, 853, 855, 860, 868, 869, 1130, 1131, 1139, 1144, 1146, 1160, 1166, 1243,
    1260, 1267, 1301, 1303, 1306, 1323, 1333, 1342, 1377, 1379, 1411, 1412, 1443, 1479, 1482,
    1497, 1526, 1556, 1560, 1562, 1574, 1586, 1607, 1613, 1627, 1690, 1717, 1746, 1826, 1829,
    1841, 1846, 1854, 1860, 1867, 1891, 1910, 1940
]] = torch.tensor([
    -0.18438555300235748, -0.27610716223716736, -0.33297958970069885, -0.4030962288379669,
    -0.4231325387954712, -0.44014373421669006, -0.4625808596611023, -0.4764564633369446,
    -0.5092713832855225, -0.5173636674880981, -0.7140179872512817, -0.7747832536697388,
    -0.8255846500396729, -0.9204605221748352, -0.9367623925209045, -0.9431954026222229,
    -0.963055431842804, -0.9725256562232971, -0.9806124567985535, -0.9818249344825745,
    -0.9841334223747253, -0.9964673519134521, -0.9999750256538391, -0.9985304474830627,
    -0.9979750514030457, -0.9844110608100891, -0.9626310467720032, -0.9617750644683838,
    -0.9294173717498779, -0.9270792007446289, -0.8803187608718872, -0.8665487766265869,
    -0.8504360318183899, -0.8211252689361572, -0.8157069683074951, -0.812054455280304,
    -0.7451744675636292, -0.7303227186203003, -0.6927970051765442, -0.49977314472198486,
    -0.4833504259586334, -0.44437241554260254, -0.4387321174144745, -0.4245559871196747,
    -0.4016575813293457, -0.3987771272659302, 0.3987771272659302, 0.4016575813293457,
    0.4245559871196747, 0.4387321174144745, 0.44437241554260254, 0.4833504259586334,
    0.49977314472198486, 0.6927970051765442, 0.7303227186203003, 0.7451744675636292,
    0.812054455280304, 0.8157069683074951, 0.8211252689361572, 0.8504360318183899,
    0.8665487766265869, 0.8803187608718872, 0.9270792007446289, 0.9294173717498779,
    0.9617750644683838, 0.9626310467720032, 0.9844110608100891, 0.9979750514030457,
    0.9985304474830627, 0.9999750256538391, 0.9964673519134521, 0.9841334223747253,
    0.9818249344825745, 0.9806124567985535, 0.9725256562232971, 0.963055431842804,
    0.9431954026222229, 0.9367623925209045, 0.9204605221748352, 0.8255846500396729,
    0.7747832536697388, 0.7140179872512817, 0.5173636674880981, 0.5092713832855225,
    0.4764564633369446, 0.4625808596611023, 0.44014373421669006, 0.4231325387954712,
    0.4030962288379669, 0.33297958970069885, 0.27610716223716736, 0.18438555300235748
])
"""


def case(name: str, code: str) -> None:
    code = textwrap.dedent(code).strip() + "\n"
    CASES.append({"name": name, "code": code.replace("PIN_SIN\n", PIN_SIN)})


case("tensors_manual_gradients", """
import math
torch.manual_seed(0)
dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
PIN_SIN
a = torch.randn((), device=device, dtype=dtype)
b = torch.randn((), device=device, dtype=dtype)
c = torch.randn((), device=device, dtype=dtype)
d = torch.randn((), device=device, dtype=dtype)
learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
""")

case("autograd", """
import math
torch.manual_seed(0)
dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
PIN_SIN
a = torch.randn((), dtype=dtype, requires_grad=True)
b = torch.randn((), dtype=dtype, requires_grad=True)
c = torch.randn((), dtype=dtype, requires_grad=True)
d = torch.randn((), dtype=dtype, requires_grad=True)
learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
""")

_NN = """
import math
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
PIN_SIN
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
loss_fn = torch.nn.MSELoss(reduction='sum')
"""
_RESULT = """
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + '
      f'{linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3')
"""

case("nn_sequential", _NN + """
learning_rate = 1e-6
for t in range(2000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.6g}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
""" + _RESULT)

case("optim_sgd", _NN + """
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(2000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.6g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""" + _RESULT)

case("optim_rmsprop", _NN + """
learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
for t in range(1500):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.5g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
a, (b, c, d) = linear_layer.bias.item(), linear_layer.weight[0].tolist()
print(f'Result: y = {round(a, 5) + 0.0} + {round(b, 5)} x + {round(c, 5) + 0.0} x^2 + '
      f'{round(d, 5)} x^3')
""")
