"""Record PyTorch's CPU random numbers into ``tests/goldens/rng.json``.

Run with a Python that has torch and numpy installed::

    python scripts/oracle/record_rng_goldens.py

Each case is a list of calls made after ``torch.manual_seed(seed)`` (``seed`` null: no
seeding) and the raw bytes of every call's result, so the test can replay the calls on
``autograd_lab`` and compare bit for bit.  Arrays are stored as
``{"dtype", "shape", "data"}`` with ``data`` the base64 of the zlib-compressed little-endian
bytes.  A call is a dict with an ``op``:

* ``rand``/``randn``: ``size``, ``dtype``, optional ``gen`` (use the case's own Generator,
  seeded with ``gen_seed``);
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
  ``[left, next, normal_is_valid]``; ``set_state``: load ``state`` (a stored array);
  ``gen_seed``: ``Generator().manual_seed(value)``.

``warnings`` lists, per call, the warning messages torch gave (without its C++ "Triggered
internally at" suffix).  A call marked ``digest`` stores the SHA-256 of its result's bytes
and its first and last 32 values instead of the whole array.  Error cases hold one call and
the exception's type name and message instead of outputs.  ``kernel`` holds digests of
torch's float32 normal kernel over every uniform it can see (see ``kernel_digests``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import warnings
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import torch

OUTPUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "rng.json"
SEEDS = [0, 1, 42, 1234, 2**31 - 1, 2**32 + 5, 2**63 + 12345, 2**64 - 1]
DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
          "int64": torch.int64, "int32": torch.int32, "int16": torch.int16,
          "uint8": torch.uint8, "bool": torch.bool}

CASES: list[dict[str, Any]] = []
_TRIGGERED = re.compile(r"\s*\(Triggered internally at .*?\)\s*$", re.DOTALL)


def encode(array: np.ndarray) -> dict[str, Any]:
    """An array as JSON: dtype, shape and compressed base64 bytes."""
    array = np.ascontiguousarray(array)
    return {"dtype": array.dtype.name, "shape": list(array.shape),
            "data": base64.b64encode(zlib.compress(array.tobytes(), 9)).decode("ascii")}


def decode(obj: dict[str, Any]) -> np.ndarray:
    """The array ``encode`` stored."""
    raw = zlib.decompress(base64.b64decode(obj["data"]))
    return np.frombuffer(raw, dtype=obj["dtype"]).reshape(obj["shape"]).copy()


def _tensor(obj: Any) -> Any:
    return torch.from_numpy(decode(obj)) if isinstance(obj, dict) else obj


def _view(t: torch.Tensor, steps: list) -> torch.Tensor:
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


def run(call: dict[str, Any], gen: torch.Generator | None) -> np.ndarray | None:
    """Make one call on torch and return its result as a numpy array (None: no result)."""
    op = call["op"]
    dt = DTYPES.get(call.get("dtype", "float32"))
    g = gen if call.get("gen") else None
    if op in ("rand", "randn"):
        return getattr(torch, op)(*call["size"], dtype=dt, generator=g).numpy()
    if op == "randint":
        return torch.randint(call["low"], call["high"], tuple(call["size"]), dtype=dt,
                             generator=g).numpy()
    if op == "randperm":
        return torch.randperm(call["n"], dtype=dt, generator=g).numpy()
    if op == "fill":
        view = _view(torch.empty(*call["shape"], dtype=dt), call.get("view"))
        args = [_tensor(a) for a in call["args"]]
        getattr(view, call["method"])(*args, generator=g)
        return view.contiguous().numpy()
    if op == "like":
        src = _view(torch.zeros(*call["shape"], dtype=dt), call.get("view"))
        extra = {} if g is None else {"generator": g}
        out = getattr(torch, call["method"])(src, **extra)
        return np.concatenate([out.contiguous().numpy().reshape(-1).astype(np.float64),
                               np.array(out.stride(), np.float64)])
    if op == "normal":
        size = call.get("size")
        extra = {} if size is None else {"size": tuple(size)}
        return torch.normal(_tensor(call["mean"]), _tensor(call["std"]), generator=g,
                            **extra).numpy()
    if op == "bernoulli":
        p = _tensor(call["p"])
        if "scalar_p" in call:
            return torch.bernoulli(p, call["scalar_p"], generator=g).numpy()
        return torch.bernoulli(p, generator=g).numpy()
    if op == "linear":
        layer = torch.nn.Linear(call["in"], call["out"], dtype=dt)
        return np.concatenate([layer.weight.detach().numpy().reshape(-1),
                               layer.bias.detach().numpy()])
    if op == "seed":
        (gen if call.get("gen") else torch.default_generator).manual_seed(call["value"])
        return None
    if op in ("state", "pos"):
        state = (gen if call.get("gen") else torch.default_generator).get_state().numpy()
        if op == "state":
            return state
        return np.array([state[8:12].view(np.int32)[0], state[16:24].view(np.int64)[0],
                         state[5040:5044].view(np.int32)[0]], np.int64)
    if op == "set_state":
        (gen if call.get("gen") else torch.default_generator).set_state(
            torch.from_numpy(decode(call["state"])))
        return None
    if op == "gen_seed":
        torch.Generator().manual_seed(call["value"])
        return None
    raise ValueError(f"unknown op {op}")


def case(name: str, seed: int | None, calls: list[dict[str, Any]],
         gen_seed: int | None = None) -> None:
    """Run ``calls`` on torch (after ``manual_seed(seed)``) and record their results."""
    if any(c["name"] == name for c in CASES):
        raise ValueError(f"duplicate case name {name}")
    if seed is not None:
        torch.manual_seed(seed)
    gen = None if gen_seed is None else torch.Generator().manual_seed(gen_seed)
    outputs, warned = [], []
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            outputs.append(run(call, gen))
        warned.append([_TRIGGERED.sub("", str(w.message)) for w in caught])
    CASES.append({"name": name, "seed": seed, "gen_seed": gen_seed, "calls": calls,
                  "outputs": [None if o is None else digest(o) if c.get("digest") else encode(o)
                              for c, o in zip(calls, outputs)],
                  "warnings": warned})


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
    # torch's own state loaded back: a cached normal, then a mid-block position.
    torch.manual_seed(77)
    torch.randn(5)
    cached = torch.get_rng_state().numpy()
    torch.rand(100)
    mid = torch.get_rng_state().numpy()
    calls = [{"op": "set_state", "state": stored(cached)}, {"op": "randn", "size": [3]},
             {"op": "state"}, {"op": "set_state", "state": stored(mid)},
             {"op": "randn", "size": [40]}, {"op": "state"},
             {"op": "set_state", "state": stored(cached), "gen": True},
             {"op": "randn", "size": [1], "gen": True}, {"op": "state", "gen": True}]
    case("set_state_roundtrip", 1, calls, gen_seed=1)
    # A state torch accepts but never makes itself: `left` and `next` out of step.
    odd = cached.copy()
    odd[8:12] = np.array([10], np.int32).view(np.uint8)
    odd[16:24] = np.array([100], np.int64).view(np.uint8)
    calls = [{"op": "set_state", "state": stored(odd)}, {"op": "state"},
             {"op": "rand", "size": [4]}, {"op": "state"}, {"op": "rand", "size": [20]},
             {"op": "state"}]
    case("set_state_odd", 1, calls)


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


KERNEL_FEEDS = {  # second-half uniforms (k2) as a function of the first-half ones (k)
    "k_k": lambda k: k,
    "k_0": lambda k: np.zeros_like(k),
    "k_mix": lambda k: ((k.astype(np.uint64) * 2654435761 + 12345) % (1 << 24)).astype(np.uint32),
}


def kernel_digests() -> list[dict[str, Any]]:
    """torch.randn's 16-value block kernel on every float32 uniform it can be given.

    Each block's first 8 uniforms are ``k / 2**24`` for consecutive ``k`` (all 2**24 of them
    over the feed) and its last 8 are ``k2 / 2**24`` from ``KERNEL_FEEDS``.  The uniforms are fed
    by loading states whose next 608 outputs are chosen words: ``left`` 624 and ``next`` 0 make
    the engine read ``state[0:623]`` before it regenerates.
    """
    base = torch.get_rng_state().numpy().copy()
    base[8:12] = np.array([624], np.int32).view(np.uint8)
    base[16:24] = np.array([0], np.int64).view(np.uint8)
    words = base[24:24 + 8 * 624].view(np.uint64)
    k = np.arange(1 << 24, dtype=np.uint32)
    feeds = []
    for name, second in KERNEL_FEEDS.items():
        raw = np.empty((1 << 21, 16), np.uint32)
        raw[:, :8] = k.reshape(-1, 8)
        raw[:, 8:] = second(k).reshape(-1, 8)
        raw = untemper(raw.reshape(-1))
        out = np.empty(raw.size, np.float32)
        for start in range(0, raw.size, 608):  # 38 blocks a call; the last call has fewer
            chunk = raw[start:start + 608]
            words[:chunk.size] = chunk
            torch.set_rng_state(torch.from_numpy(base))
            out[start:start + chunk.size] = torch.randn(chunk.size).numpy()
        feeds.append({"name": name, **digest(out)})
    return feeds


ERRORS: list[dict[str, Any]] = []


def error_case(name: str, call: dict[str, Any]) -> None:
    """Record the exception torch raises for ``call``."""
    try:
        run(call, None)
    except Exception as exc:  # noqa: BLE001  (any torch error is the expected outcome)
        ERRORS.append({"name": name, "call": call, "type": type(exc).__name__,
                       "message": str(exc)})
        return
    raise AssertionError(f"{name}: torch raised nothing")


def error_cases() -> None:
    """torch's errors for bad states and arguments."""
    state = torch.get_rng_state().numpy()
    error_case("set_state_size", {"op": "set_state", "state": stored(state[:10])})
    error_case("set_state_dtype", {"op": "set_state", "state": stored(state.astype(np.int64))})
    error_case("set_state_invalid", {"op": "set_state", "state": stored(np.zeros_like(state))})
    error_case("generator_float_seed", {"op": "gen_seed", "value": 1.5})
    error_case("generator_seed_too_big", {"op": "gen_seed", "value": 2**64})
    error_case("generator_seed_too_small", {"op": "gen_seed", "value": -2**63 - 1})
    error_case("seed_too_big", {"op": "seed", "value": 2**64})
    error_case("bernoulli_scalar_p", {"op": "fill", "method": "bernoulli_", "shape": [3],
                                      "args": [1.5]})
    error_case("bernoulli_tensor_p", {"op": "bernoulli",
                                      "p": stored(np.array([0.2, 1.5], np.float32))})
    error_case("bernoulli_int_p", {"op": "bernoulli", "p": stored(np.array([1, 0]))})
    error_case("normal_negative_std", {"op": "fill", "method": "normal_", "shape": [3],
                                       "args": [0.0, -1.0]})
    error_case("normal_negative_std_tensor", {"op": "normal", "mean": 0.5,
                                              "std": stored(np.array([-1.0], np.float32))})
    error_case("uniform_reversed", {"op": "fill", "method": "uniform_", "shape": [3],
                                    "args": [2.0, 1.0]})
    error_case("uniform_int", {"op": "fill", "method": "uniform_", "shape": [3],
                               "dtype": "int64", "args": [0.0, 1.0]})
    error_case("rand_int", {"op": "rand", "size": [3], "dtype": "int64"})
    error_case("randn_int", {"op": "randn", "size": [3], "dtype": "int64"})
    error_case("randn_bool", {"op": "randn", "size": [3], "dtype": "bool"})
    error_case("rand_negative_size", {"op": "rand", "size": [-1]})
    error_case("randint_empty_range", {"op": "randint", "low": 5, "high": 5, "size": [3],
                                       "dtype": "int64"})
    error_case("randint_uint8_from", {"op": "randint", "low": -1, "high": 3, "size": [2],
                                      "dtype": "uint8"})
    error_case("randint_uint8_to", {"op": "randint", "low": 0, "high": 300, "size": [2],
                                    "dtype": "uint8"})
    error_case("randint_int16_to", {"op": "randint", "low": 0, "high": 2**20, "size": [2],
                                    "dtype": "int16"})
    error_case("randperm_negative", {"op": "randperm", "n": -1, "dtype": "int64"})
    error_case("randperm_bool", {"op": "randperm", "n": 5, "dtype": "bool"})
    error_case("randperm_int16_overflow", {"op": "randperm", "n": 70000, "dtype": "int16"})
    error_case("randperm_half_too_big", {"op": "randperm", "n": 3000, "dtype": "float16"})


def main() -> None:
    """Record every case family and write the goldens file."""
    size_cases()
    sequence_cases()
    integer_cases()
    fill_cases()
    distribution_cases()
    linear_cases()
    generator_cases()
    error_cases()
    OUTPUT.write_text(json.dumps({"torch": torch.__version__, "cases": CASES,
                                  "errors": ERRORS, "kernel": kernel_digests()}, indent=0) + "\n")
    print(f"wrote {len(CASES)} cases to {OUTPUT} ({OUTPUT.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
