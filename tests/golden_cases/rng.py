"""torch's CPU random numbers, call by call (checked by ``tests/test_random_parity.py``).

A case is a list of ``calls`` made after ``manual_seed(seed)`` (``seed`` null: no seeding),
with ``gen_seed`` the seed of the case's own ``Generator`` (null: none). :func:`replay` makes
the calls on torch or autograd_lab and returns every call's result as raw bytes, so the test
compares bit for bit. Arrays are ``{"dtype", "shape", "data"}`` with ``data`` the base64 of the
zlib-compressed little-endian bytes. A call is a dict with an ``op``:

* ``rand``/``randn``: ``size``, ``dtype``, optional ``gen`` (use the case's Generator);
* ``randint``: ``low``, ``high``, ``size``, ``dtype``; ``randperm``: ``n``, ``dtype``;
* ``fill``: ``method`` (``uniform_``/``normal_``/``bernoulli_``) applied to a view (``view``:
  a list of steps ``["t"]``, ``["permute", dims]``, ``["slice", dim, start, stop, step]``) of
  an empty ``shape`` tensor with ``args``; the result is the view's values;
* ``like``: ``method`` (``rand_like``/``randn_like``) on such a view; the result is the new
  tensor's values followed by its strides;
* ``normal``: ``mean``/``std`` (numbers or stored arrays), optional ``size``;
* ``bernoulli``: ``p`` (a stored array), optional ``scalar_p``;
* ``linear``: ``in``/``out`` features -- ``torch.nn.Linear``'s weight and bias;
* ``seed``: ``manual_seed(value)``; ``state``: ``get_rng_state()``; ``pos``: the state's
  ``[left, next, normal_is_valid]``; ``keep``: remember the state as ``as``; ``set_state``:
  load ``state`` (a stored array) or the kept state ``kept`` (with ``left``/``next``
  overwritten when given); ``gen_seed``: ``Generator().manual_seed(value)``.

The outcome holds per call its result (``null`` when it has none; a call marked ``digest``
gives the SHA-256 of its bytes with its first and last 32 values) and the warnings torch gave
(without its C++ "Triggered internally at" suffix). A case marked ``raises`` records the
exception its call ends with as ``error``. A ``kernel_feed`` case runs torch's float32 normal
kernel on every uniform a float draw can give (see :func:`kernel_feed`).
"""

from __future__ import annotations

import base64
import hashlib
import re
import warnings
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

SEEDS = [0, 1, 42, 1234, 2**31 - 1, 2**32 + 5, 2**63 + 12345, 2**64 - 1]
CASES: list[dict[str, Any]] = []
_TRIGGERED = re.compile(r"\s*\(Triggered internally at .*?\)\s*$", re.DOTALL)


# ---- arrays as JSON -------------------------------------------------------------------------

def encode(array: np.ndarray) -> dict[str, Any]:
    """An array as JSON: dtype, shape and compressed base64 bytes."""
    array = np.ascontiguousarray(array)
    return {"dtype": array.dtype.name, "shape": list(array.shape),
            "data": base64.b64encode(zlib.compress(array.tobytes(), 9)).decode("ascii")}


def decode(obj: dict[str, Any]) -> np.ndarray:
    """The array ``encode`` stored."""
    raw = zlib.decompress(base64.b64decode(obj["data"]))
    return np.frombuffer(raw, dtype=obj["dtype"]).reshape(obj["shape"]).copy()


def digest(array: np.ndarray) -> dict[str, Any]:
    """A large result: the SHA-256 of its bytes, with its first and last 32 values in full."""
    array = np.ascontiguousarray(array)
    flat = array.reshape(-1)
    return {"dtype": array.dtype.name, "shape": list(array.shape),
            "sha256": hashlib.sha256(array.tobytes()).hexdigest(),
            "head": encode(flat[:32]), "tail": encode(flat[-32:])}


def stored(array: np.ndarray) -> dict[str, Any]:
    """An argument array, encoded for a case."""
    return encode(np.asarray(array))


# ---- the cases ------------------------------------------------------------------------------

def case(name: str, seed: int | None, calls: list[dict[str, Any]],
         gen_seed: int | None = None, raises: bool = False) -> None:
    """A case: ``calls`` made after ``manual_seed(seed)``."""
    CASES.append({"name": name, "seed": seed, "gen_seed": gen_seed, "calls": calls,
                  **({"raises": True} if raises else {})})


def sweep_sizes() -> list[int]:
    """1..40, then every multiple of 16 up to 1100 with its neighbours, and a few large ones."""
    sizes = list(range(1, 41))
    for m in range(48, 1101, 16):
        sizes += [m - 1, m, m + 1]
    return sizes + [1100, 4096, 10007]


RAW_UP_TO = 160  # larger results of the size sweeps are stored as digests with their ends


def size_cases() -> None:
    """Every sweep size for seed 0; sizes up to 65 (and a few larger) for the other seeds."""
    short = list(range(1, 41)) + [47, 48, 49, 63, 64, 65]
    for dtype in ("float32", "float64"):
        for seed in SEEDS:
            for op in ("rand", "randn"):
                calls: list[dict[str, Any]] = []
                for n in sweep_sizes() if seed == 0 else short + [255, 256, 257]:
                    calls += [{"op": "seed", "value": seed},
                              {"op": op, "size": [n], "dtype": dtype, "digest": n > RAW_UP_TO},
                              {"op": "pos"}]
                case(f"{op}_sizes_seed{seed}_{dtype}", None, calls)
    # Big enough for the threaded float32 kernel: only a digest of the values is stored.
    case("randn_large", 9, [{"op": "randn", "size": [n], "dtype": "float32", "digest": True}
                            for n in (262_144, 300_007, 1_000_000)]
         + [{"op": "randn", "size": [100_003], "dtype": "float64", "digest": True},
            {"op": "rand", "size": [100_003], "dtype": "float64", "digest": True},
            {"op": "pos"}])
    # float16: uniforms are float uniforms rounded to half (a value that rounds up to the upper
    # bound becomes the lower one); normals of fewer than 16 values use the double path.
    case("float16", 10, [{"op": "rand", "size": [200_000], "dtype": "float16", "digest": True},
                         {"op": "rand", "size": [100], "dtype": "float16"},
                         {"op": "randn", "size": [15], "dtype": "float16"},
                         {"op": "fill", "method": "uniform_", "shape": [3000], "dtype": "float16",
                          "args": [0.3, 0.9]},
                         {"op": "fill", "method": "uniform_", "shape": [3000], "dtype": "float16",
                          "args": [-1.1, 1.3]}, {"op": "pos"}])
    case("randn_shapes", 7, [{"op": "randn", "size": s, "dtype": "float32"}
                             for s in ([2, 3], [4, 4], [3, 5, 7], [1, 16], [0], [2, 0, 3])])


def sequence_cases() -> None:
    """Mixed call sequences: every draw continues the same stream."""
    mixed = [
        {"op": "randn", "size": [3]}, {"op": "rand", "size": [20]},
        {"op": "randn", "size": [17]}, {"op": "randint", "low": 0, "high": 10, "size": [5],
                                        "dtype": "int64"},
        {"op": "randn", "size": [1]}, {"op": "randn", "size": [2, 3]},
        {"op": "randperm", "n": 10, "dtype": "int64"},
        {"op": "randn", "size": [1], "dtype": "float64"}, {"op": "randn", "size": [33]},
        {"op": "rand", "size": [5], "dtype": "float64"}, {"op": "randn", "size": [1]},
        {"op": "randn", "size": [5], "dtype": "float64"}, {"op": "pos"},
        {"op": "randn", "size": [700]}, {"op": "randn", "size": [15]}, {"op": "pos"},
        {"op": "state"},
    ]
    for seed in SEEDS:
        case(f"mixed_seed{seed}", seed, mixed)
    # Long runs that cross the 624-word block boundary many times.
    case("many_small_randn", 3, [{"op": "randn", "size": [n % 7 + 1]} for n in range(400)]
         + [{"op": "state"}])
    case("many_rand_float64", 4, [{"op": "rand", "size": [n % 13 + 1], "dtype": "float64"}
                                  for n in range(300)] + [{"op": "state"}])
    case("negative_seed", -7, [{"op": "randn", "size": [20]}, {"op": "state"}])


def integer_cases() -> None:
    """``randint`` over ranges that take torch's different paths."""
    ranges = [(0, 10), (-5, 5), (0, 2), (3, 4), (0, 1000), (0, 2**28 - 1), (0, 2**28),
              (-2**27, 2**27), (0, 2**31), (0, 2**32), (0, 2**32 + 1), (-2**63, 2**63 - 1),
              (7, 2**40)]
    for seed in SEEDS[:4]:
        calls = [{"op": "randint", "low": lo, "high": hi, "size": [37], "dtype": "int64"}
                 for lo, hi in ranges]
        calls += [{"op": "randint", "low": 0, "high": 100, "size": [3, 4], "dtype": d}
                  for d in ("int32", "int16", "uint8", "float32", "float64")]
        calls += [{"op": "randint", "low": 0, "high": 2, "size": [9], "dtype": "bool"},
                  {"op": "randint", "low": 0, "high": 2**28, "size": [9], "dtype": "float32"},
                  {"op": "randint", "low": -2**30, "high": 2**30, "size": [9],
                   "dtype": "int32"}, {"op": "pos"}]
        case(f"randint_seed{seed}", seed, calls)
        calls = [{"op": "randperm", "n": n, "dtype": "int64"}
                 for n in (0, 1, 2, 3, 10, 100, 1000, 5000)]
        calls += [{"op": "randperm", "n": 50, "dtype": d} for d in ("int32", "float32")]
        case(f"randperm_seed{seed}", seed, calls + [{"op": "pos"}])


def fill_cases() -> None:
    """In-place uniform_, normal_ and bernoulli_, also on non-contiguous views."""
    views = {"contiguous": None, "t": [["t"]], "permute": [["permute", [2, 0, 1]]],
             "slice": [["slice", 1, 1, 4, 1]], "step_t": [["slice", 1, 0, None, 2], ["t"]]}
    shapes = {"contiguous": [40, 3], "t": [40, 4], "permute": [3, 4, 5], "slice": [10, 6],
              "step_t": [40, 8]}
    params = {"uniform_": [[0.0, 1.0], [-0.3, 0.7], [-0.123, 0.457], [2.0, 2.0], [1.0, 1.0]],
              "normal_": [[0.0, 1.0], [0.37, 1.93], [-3.0, 0.01], [1.0, 0.0]],
              "bernoulli_": [[0.3], [0.0], [1.0]]}
    for dtype in ("float32", "float64"):
        calls = []
        for vname, view in views.items():
            for method, plist in params.items():
                for args in plist:
                    calls.append({"op": "fill", "method": method, "shape": shapes[vname],
                                  "view": view, "dtype": dtype, "args": args})
        calls.append({"op": "pos"})
        case(f"fill_views_{dtype}", 11, calls)
        big = [{"op": "fill", "method": "normal_", "shape": [n], "dtype": dtype,
                "args": [0.37, 1.93]} for n in (16, 17, 100, 1000, 4099)]
        big += [{"op": "fill", "method": "uniform_", "shape": [n], "dtype": dtype,
                 "args": [-0.0883883476483184, 0.0883883476483184]} for n in (5, 1000)]
        big += [{"op": "fill", "method": "uniform_", "shape": [64], "dtype": dtype,
                 "args": [1.0, float(np.nextafter(np.float32(1), np.float32(2)))]}]
        big += [{"op": "fill", "method": "normal_", "shape": [300, 700], "view": [["t"]],
                 "dtype": dtype, "args": [0.3, 2.0], "digest": True}]  # the serial path
        case(f"fill_large_{dtype}", 12, big + [{"op": "pos"}])
    rng = np.random.default_rng(5)
    p32 = rng.random((4, 6)).astype(np.float32)
    calls = [{"op": "fill", "method": "bernoulli_", "shape": [6, 4], "view": [["t"]],
              "dtype": "float32", "args": [stored(p32)]},
             {"op": "fill", "method": "bernoulli_", "shape": [4, 6], "dtype": "float64",
              "args": [stored(p32.astype(np.float64))]},
             {"op": "fill", "method": "bernoulli_", "shape": [5, 4, 6], "dtype": "int64",
              "args": [stored(p32)]},
             {"op": "fill", "method": "bernoulli_", "shape": [30], "dtype": "int64",
              "args": [0.4]},
             {"op": "fill", "method": "bernoulli_", "shape": [30], "dtype": "bool",
              "args": [0.4]}, {"op": "pos"}]
    case("bernoulli_inplace", 13, calls)


def distribution_cases() -> None:
    """``normal`` and ``bernoulli`` with tensor arguments; the ``*_like`` draws."""
    rng = np.random.default_rng(8)
    m32 = rng.standard_normal(20).astype(np.float32)
    s32 = np.abs(rng.standard_normal(20)).astype(np.float32)
    p = rng.random(1001)
    calls = [{"op": "normal", "mean": stored(m32), "std": 2.5},
             {"op": "normal", "mean": 0.5, "std": stored(s32)},
             {"op": "normal", "mean": stored(m32), "std": stored(s32)},
             {"op": "normal", "mean": stored(m32.astype(np.float64)),
              "std": stored(s32.astype(np.float64))},
             {"op": "normal", "mean": 0.5, "std": 2.0, "size": [5, 7]},
             {"op": "normal", "mean": 0.5, "std": 2.0, "size": [50, 7]},
             {"op": "bernoulli", "p": stored(p.astype(np.float32))},
             {"op": "bernoulli", "p": stored(p)},
             {"op": "bernoulli", "p": stored(p[:7].astype(np.float32)), "scalar_p": 0.7},
             {"op": "pos"}]
    for seed in SEEDS[:3]:
        case(f"distributions_seed{seed}", seed, calls)
    like = []
    for view, shape in ((None, [40, 4]), ([["t"]], [40, 4]), ([["slice", 1, 0, None, 2], ["t"]],
                                                               [40, 8]),
                        ([["permute", [2, 0, 1]]], [3, 4, 5])):
        for method in ("rand_like", "randn_like"):
            for dtype in ("float32", "float64"):
                like.append({"op": "like", "method": method, "shape": shape, "view": view,
                             "dtype": dtype})
    case("like", 21, like + [{"op": "pos"}])


def linear_cases() -> None:
    """``nn.Linear`` initialisation (kaiming_uniform_ and the bias)."""
    shapes = [(3, 5), (1, 1), (128, 10), (16, 33), (7, 1000), (2, 1)]
    for seed in (0, 42):
        big = [(784, 128)] if seed == 0 else []
        calls = [{"op": "linear", "in": i, "out": o, "dtype": "float32", "digest": i * o > 10**4}
                 for i, o in big + shapes]
        calls += [{"op": "linear", "in": 5, "out": 4, "dtype": "float64"}, {"op": "pos"}]
        case(f"linear_seed{seed}", seed, calls)


def generator_cases() -> None:
    """Explicit ``Generator`` objects and their states."""
    calls = [{"op": "state", "gen": True}, {"op": "randn", "size": [37], "gen": True},
             {"op": "randn", "size": [3], "gen": True}, {"op": "state", "gen": True},
             {"op": "rand", "size": [5], "gen": True}, {"op": "randn", "size": [5]},
             {"op": "randint", "low": 0, "high": 9, "size": [4], "dtype": "int64", "gen": True},
             {"op": "randperm", "n": 12, "dtype": "int64", "gen": True},
             {"op": "state", "gen": True}, {"op": "pos"}]
    case("generator_default_seed", 0, calls, gen_seed=67280421310721)
    case("generator_seeded", 0, calls, gen_seed=99)
    case("generator_big_seed", 0, calls, gen_seed=2**64 - 2)
    # States at the interesting positions: just seeded, mid-block, cached normal, block end.
    calls = [{"op": "state"}, {"op": "randn", "size": [3]}, {"op": "state"},
             {"op": "seed", "value": 5}, {"op": "rand", "size": [624]}, {"op": "state"},
             {"op": "rand", "size": [1]}, {"op": "state"}, {"op": "randn", "size": [1],
                                                             "dtype": "float64"},
             {"op": "state"}]
    case("state_bytes", 123, calls)
    # torch's own states loaded back: a cached normal, then a mid-block position.
    make = [{"op": "seed", "value": 77}, {"op": "randn", "size": [5]},
            {"op": "keep", "as": "cached"}, {"op": "rand", "size": [100]},
            {"op": "keep", "as": "mid"}, {"op": "seed", "value": 1}]
    calls = [{"op": "set_state", "kept": "cached"}, {"op": "randn", "size": [3]},
             {"op": "state"}, {"op": "set_state", "kept": "mid"},
             {"op": "randn", "size": [40]}, {"op": "state"},
             {"op": "set_state", "kept": "cached", "gen": True},
             {"op": "randn", "size": [1], "gen": True}, {"op": "state", "gen": True}]
    case("set_state_roundtrip", None, make + calls, gen_seed=1)
    # A state torch accepts but never makes itself: `left` and `next` out of step.
    calls = [{"op": "set_state", "kept": "cached", "left": 10, "next": 100}, {"op": "state"},
             {"op": "rand", "size": [4]}, {"op": "state"}, {"op": "rand", "size": [20]},
             {"op": "state"}]
    case("set_state_odd", None, make + calls)


def error_cases() -> None:
    """torch's errors for bad states and arguments: one call each."""
    errors: dict[str, dict[str, Any]] = {
        "set_state_size": {"op": "set_state", "state": stored(np.arange(10, dtype=np.uint8))},
        "set_state_dtype": {"op": "set_state", "state": stored(np.zeros(5056, np.int64))},
        "set_state_invalid": {"op": "set_state", "state": stored(np.zeros(5056, np.uint8))},
        "generator_float_seed": {"op": "gen_seed", "value": 1.5},
        "generator_seed_too_big": {"op": "gen_seed", "value": 2**64},
        "generator_seed_too_small": {"op": "gen_seed", "value": -2**63 - 1},
        "seed_too_big": {"op": "seed", "value": 2**64},
        "bernoulli_scalar_p": {"op": "fill", "method": "bernoulli_", "shape": [3],
                               "args": [1.5]},
        "bernoulli_tensor_p": {"op": "bernoulli",
                               "p": stored(np.array([0.2, 1.5], np.float32))},
        "bernoulli_int_p": {"op": "bernoulli", "p": stored(np.array([1, 0]))},
        "normal_negative_std": {"op": "fill", "method": "normal_", "shape": [3],
                                "args": [0.0, -1.0]},
        "normal_negative_std_tensor": {"op": "normal", "mean": 0.5,
                                       "std": stored(np.array([-1.0], np.float32))},
        "uniform_reversed": {"op": "fill", "method": "uniform_", "shape": [3],
                             "args": [2.0, 1.0]},
        "uniform_int": {"op": "fill", "method": "uniform_", "shape": [3], "dtype": "int64",
                        "args": [0.0, 1.0]},
        "rand_int": {"op": "rand", "size": [3], "dtype": "int64"},
        "randn_int": {"op": "randn", "size": [3], "dtype": "int64"},
        "randn_bool": {"op": "randn", "size": [3], "dtype": "bool"},
        "rand_negative_size": {"op": "rand", "size": [-1]},
        "randint_empty_range": {"op": "randint", "low": 5, "high": 5, "size": [3],
                                "dtype": "int64"},
        "randint_uint8_from": {"op": "randint", "low": -1, "high": 3, "size": [2],
                               "dtype": "uint8"},
        "randint_uint8_to": {"op": "randint", "low": 0, "high": 300, "size": [2],
                             "dtype": "uint8"},
        "randint_int16_to": {"op": "randint", "low": 0, "high": 2**20, "size": [2],
                             "dtype": "int16"},
        "randperm_negative": {"op": "randperm", "n": -1, "dtype": "int64"},
        "randperm_bool": {"op": "randperm", "n": 5, "dtype": "bool"},
        "randperm_int16_overflow": {"op": "randperm", "n": 70000, "dtype": "int16"},
        "randperm_half_too_big": {"op": "randperm", "n": 3000, "dtype": "float16"},
    }
    for name, call in errors.items():
        case(f"error_{name}", None, [call], raises=True)


KERNEL_FEEDS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    # second-half uniforms (k2) as a function of the first-half ones (k)
    "k_k": lambda k: k,
    "k_0": lambda k: np.zeros_like(k),
    "k_mix": lambda k: ((k.astype(np.uint64) * 2654435761 + 12345) % (1 << 24)).astype(np.uint32),
}

size_cases()
sequence_cases()
integer_cases()
fill_cases()
distribution_cases()
linear_cases()
generator_cases()
error_cases()
CASES += [{"name": f"kernel_{feed}", "kernel_feed": feed} for feed in KERNEL_FEEDS]


# ---- replay ---------------------------------------------------------------------------------

def _tensor(torch: Any, obj: Any) -> Any:
    return torch.from_numpy(decode(obj)) if isinstance(obj, dict) else obj


def _values(t: Any) -> np.ndarray:
    return np.ascontiguousarray(t.numpy())


def _view(t: Any, steps: list | None) -> Any:
    for step in steps or []:
        if step[0] == "t":
            t = t.t()
        elif step[0] == "permute":
            t = t.permute(*step[1])
        elif step[0] == "slice":
            _, dim, start, stop, every = step
            index = [slice(None)] * t.dim()
            index[dim] = slice(start, stop, every)
            t = t[tuple(index)]
    return t


def linear_by_module(torch: Any, fan_in: int, fan_out: int, dt: Any) -> np.ndarray:
    """``nn.Linear(fan_in, fan_out)``'s weight and bias, flat."""
    layer = torch.nn.Linear(fan_in, fan_out, dtype=dt)
    return np.concatenate([_values(layer.weight.detach()).reshape(-1),
                           _values(layer.bias.detach())])


def _fill(view: Any, method: str, args: list, generator: Any) -> None:
    getattr(view, method)(*args, generator=generator)


class _Run:
    """One case's generators, kept states and the ways it fills and builds layers."""

    def __init__(self, torch: Any, gen: Any, fill: Callable[..., None],
                 linear: Callable[..., np.ndarray]) -> None:
        self.torch, self.gen, self.fill, self.linear = torch, gen, fill, linear
        self.kept: dict[str, np.ndarray] = {}

    def call(self, call: dict[str, Any]) -> np.ndarray | None:
        """Make one call; its result as a numpy array (None: it has none)."""
        torch, op = self.torch, call["op"]
        dt = getattr(torch, call.get("dtype", "float32"))
        g = self.gen if call.get("gen") else None
        if op in ("rand", "randn"):
            return _values(getattr(torch, op)(*call["size"], dtype=dt, generator=g))
        if op == "randint":
            return _values(torch.randint(call["low"], call["high"], tuple(call["size"]),
                                         dtype=dt, generator=g))
        if op == "randperm":
            return _values(torch.randperm(call["n"], dtype=dt, generator=g))
        if op == "fill":
            view = _view(torch.empty(*call["shape"], dtype=dt), call.get("view"))
            self.fill(view, call["method"], [_tensor(torch, a) for a in call["args"]], g)
            return _values(view)
        if op == "like":
            src = _view(torch.zeros(*call["shape"], dtype=dt), call.get("view"))
            out = getattr(torch, call["method"])(src, **({} if g is None else {"generator": g}))
            return np.concatenate([_values(out).reshape(-1).astype(np.float64),
                                   np.array(out.stride(), np.float64)])
        if op == "normal":
            size = call.get("size")
            extra = {} if size is None else {"size": tuple(size)}
            return _values(torch.normal(_tensor(torch, call["mean"]),
                                        _tensor(torch, call["std"]), generator=g, **extra))
        if op == "bernoulli":
            p = _tensor(torch, call["p"])
            if "scalar_p" in call:
                return _values(torch.bernoulli(p, call["scalar_p"], generator=g))
            return _values(torch.bernoulli(p, generator=g))
        if op == "linear":
            return self.linear(torch, call["in"], call["out"], dt)
        if op == "gen_seed":
            torch.Generator().manual_seed(call["value"])
            return None
        return self.state_call(call, self.gen if call.get("gen") else torch.default_generator)

    def state_call(self, call: dict[str, Any], target: Any) -> np.ndarray | None:
        """The calls on a generator's seed and state."""
        op = call["op"]
        if op == "seed":
            target.manual_seed(call["value"])
            return None
        if op in ("state", "pos", "keep"):
            state = _values(target.get_state())
            if op == "keep":
                self.kept[call["as"]] = state.copy()
                return None
            if op == "state":
                return state
            return np.array([state[8:12].view(np.int32)[0], state[16:24].view(np.int64)[0],
                             state[5040:5044].view(np.int32)[0]], np.int64)
        if op == "set_state":
            state = decode(call["state"]) if "state" in call else self.kept[call["kept"]].copy()
            if "left" in call:
                state[8:12] = np.array([call["left"]], np.int32).view(np.uint8)
            if "next" in call:
                state[16:24] = np.array([call["next"]], np.int64).view(np.uint8)
            target.set_state(self.torch.from_numpy(state))
            return None
        raise ValueError(f"unknown op {op}")


def replay(torch: Any, case: dict[str, Any], *, fill: Callable[..., None] = _fill,
           linear: Callable[..., np.ndarray] = linear_by_module,
           normals: Callable[[Any, np.ndarray], np.ndarray] | None = None) -> dict[str, Any]:
    """Make the case's calls with ``torch`` (PyTorch or autograd_lab): results and warnings.

    ``fill(view, method, args, generator)`` runs the in-place samplers (default: the Tensor
    methods); ``linear(torch, in, out, dtype)`` gives an ``nn.Linear``'s initial values;
    ``normals(torch, draws)`` is how a ``kernel_feed`` case turns draws into normals.
    """
    if "kernel_feed" in case:
        return kernel_feed(torch, case["kernel_feed"], normals or normals_by_state_loading)
    if case["seed"] is not None:
        torch.manual_seed(case["seed"])
    gen = None if case["gen_seed"] is None else torch.Generator().manual_seed(case["gen_seed"])
    run = _Run(torch, gen, fill, linear)
    outputs: list[Any] = []
    warned: list[list[str]] = []
    error = None
    for call in case["calls"]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = run.call(call)
            except Exception as exc:  # noqa: BLE001  (the outcome of a ``raises`` case)
                if not case.get("raises"):
                    raise
                error = {"type": type(exc).__name__, "message": str(exc)}
                break
        outputs.append(None if out is None else digest(out) if call.get("digest")
                       else encode(out))
        warned.append([_TRIGGERED.sub("", str(w.message)) for w in caught])
    if case.get("raises"):
        return {"error": error}
    return {"outputs": outputs, "warnings": warned}


def untemper(y: np.ndarray) -> np.ndarray:
    """The mt19937 state words whose tempered outputs are ``y`` (uint32)."""
    u32 = np.uint32
    y = y.astype(u32)
    y ^= y >> u32(18)
    y ^= (y << u32(15)) & u32(0xEFC60000)
    x = y.copy()
    for _ in range(5):
        x = y ^ ((x << u32(7)) & u32(0x9D2C5680))
    y, x = x, x.copy()
    for _ in range(3):
        x = y ^ (x >> u32(11))
    return x


def normals_by_state_loading(torch: Any, draws: np.ndarray) -> np.ndarray:
    """``randn`` on chosen 32-bit draws: states whose next 608 outputs are those words are
    loaded one after the other (``left`` 624 and ``next`` 0 make the generator read
    ``state[0:623]`` before it regenerates), and 608 normals drawn from each."""
    torch.manual_seed(0)
    base = _values(torch.get_rng_state()).copy()
    base[8:12] = np.array([624], np.int32).view(np.uint8)
    base[16:24] = np.array([0], np.int64).view(np.uint8)
    words = base[24:24 + 8 * 624].view(np.uint64)
    raw = untemper(draws)
    out = np.empty(raw.size, np.float32)
    for start in range(0, raw.size, 608):  # 38 blocks a call; the last call has fewer
        chunk = raw[start:start + 608]
        words[:chunk.size] = chunk
        torch.set_rng_state(torch.from_numpy(base.copy()))
        out[start:start + chunk.size] = _values(torch.randn(chunk.size))
    return out


def kernel_feed(torch: Any, name: str,
                normals: Callable[[Any, np.ndarray], np.ndarray] = normals_by_state_loading
                ) -> dict[str, Any]:
    """``randn``'s 16-value block kernel on every float32 uniform it can be given.

    Each block's first 8 uniforms are ``k / 2**24`` for consecutive ``k`` (all 2**24 of them
    over the feed) and its last 8 are ``k2 / 2**24`` from ``KERNEL_FEEDS[name]``; ``normals``
    turns the 32-bit draws that give them into float32 normals (default:
    :func:`normals_by_state_loading`).
    """
    k = np.arange(1 << 24, dtype=np.uint32)
    draws = np.empty((1 << 21, 16), np.uint32)
    draws[:, :8] = k.reshape(-1, 8)
    draws[:, 8:] = KERNEL_FEEDS[name](k).reshape(-1, 8)
    return digest(normals(torch, draws.reshape(-1)))
