"""autograd_lab's random numbers against PyTorch's CPU generator, bit for bit.

The goldens are written by ``scripts/oracle/record_rng_goldens.py`` (see its docstring for the call
format); every case is replayed here on autograd_lab and each result compared on its raw bits.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import warnings
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import autograd_lab as lab
from autograd_lab import random as R

GOLDENS = json.loads((Path(__file__).resolve().parent / "goldens" / "rng.json").read_text())
CASES: list[dict[str, Any]] = GOLDENS["cases"]
ERRORS: list[dict[str, Any]] = GOLDENS["errors"]
DTYPES = {name: getattr(lab, name) for name in ("float32", "float64", "float16", "int64",
                                                "int32", "int16", "uint8")}
DTYPES["bool"] = lab.bool
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def decode(obj: dict[str, Any]) -> np.ndarray:
    raw = zlib.decompress(base64.b64decode(obj["data"]))
    return np.frombuffer(raw, dtype=obj["dtype"]).reshape(obj["shape"]).copy()


def _tensor(obj: Any) -> Any:
    return lab.from_numpy(decode(obj)) if isinstance(obj, dict) else obj


def _view(t: lab.Tensor, steps: list | None) -> lab.Tensor:
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


def _values(t: lab.Tensor) -> np.ndarray:
    return np.ascontiguousarray(t._data)


def _linear_by_uniform(fan_in: int, fan_out: int, dt: Any) -> np.ndarray:
    """nn.Linear's init, written out: kaiming_uniform_(W, a=sqrt(5)), then U(+-1/sqrt(in))."""
    weight, bias = lab.empty(fan_out, fan_in, dtype=dt), lab.empty(fan_out, dtype=dt)
    gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
    bound = math.sqrt(3.0) * (gain / math.sqrt(fan_in))
    R.uniform_(weight, -bound, bound)
    bound = 1 / math.sqrt(fan_in)
    R.uniform_(bias, -bound, bound)
    return np.concatenate([_values(weight).reshape(-1), _values(bias)])


def _linear_by_module(fan_in: int, fan_out: int, dt: Any) -> np.ndarray:
    layer = lab.nn.Linear(fan_in, fan_out, dtype=dt)
    return np.concatenate([_values(layer.weight).reshape(-1), _values(layer.bias)])


def run(call: dict[str, Any], gen: R.Generator | None, linear: Any = _linear_by_uniform
        ) -> np.ndarray | None:
    """Make one recorded call on autograd_lab; the result as a numpy array (None: none)."""
    op = call["op"]
    dt = DTYPES.get(call.get("dtype", "float32"))
    g = gen if call.get("gen") else None
    if op in ("rand", "randn"):
        return _values(getattr(lab, op)(*call["size"], dtype=dt, generator=g))
    if op == "randint":
        return _values(lab.randint(call["low"], call["high"], tuple(call["size"]), dtype=dt,
                                   generator=g))
    if op == "randperm":
        return _values(lab.randperm(call["n"], dtype=dt, generator=g))
    if op == "fill":
        view = _view(lab.empty(*call["shape"], dtype=dt), call.get("view"))
        args = [_tensor(a) for a in call["args"]]
        getattr(R, call["method"])(view, *args, generator=g)
        return _values(view)
    if op == "like":
        src = _view(lab.zeros(*call["shape"], dtype=dt), call.get("view"))
        out = getattr(lab, call["method"])(src, generator=g)
        return np.concatenate([_values(out).reshape(-1).astype(np.float64),
                               np.array(out.stride(), np.float64)])
    if op == "normal":
        size = call.get("size")
        extra = {} if size is None else {"size": tuple(size)}
        return _values(lab.normal(_tensor(call["mean"]), _tensor(call["std"]), generator=g,
                                  **extra))
    if op == "bernoulli":
        p = _tensor(call["p"])
        if "scalar_p" in call:
            return _values(lab.bernoulli(p, call["scalar_p"], generator=g))
        return _values(lab.bernoulli(p, generator=g))
    if op == "linear":
        return linear(call["in"], call["out"], dt)
    target = gen if call.get("gen") else lab.default_generator
    if op == "seed":
        lab.manual_seed(call["value"]) if target is lab.default_generator else (
            target.manual_seed(call["value"]))
        return None
    if op in ("state", "pos"):
        state = _values(target.get_state())
        if op == "state":
            return state
        return np.array([state[8:12].view(np.int32)[0], state[16:24].view(np.int64)[0],
                         state[5040:5044].view(np.int32)[0]], np.int64)
    if op == "set_state":
        target.set_state(lab.from_numpy(decode(call["state"])))
        return None
    if op == "gen_seed":
        R.Generator().manual_seed(call["value"])
        return None
    raise ValueError(f"unknown op {op}")


def assert_same_bits(got: np.ndarray, want: np.ndarray, where: str) -> None:
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"{where}: shape {got.shape} != {want.shape}"
    if want.dtype.kind == "f":
        got, want = got.view(_UINT[want.itemsize]), want.view(_UINT[want.itemsize])
    if not np.array_equal(got, want):
        bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
        raise AssertionError(f"{where}: {bad.size} of {want.size} values differ, first at "
                             f"flat index {bad[0]}")


def replay(case: dict[str, Any], linear: Any = _linear_by_uniform) -> None:
    if case["seed"] is not None:
        lab.manual_seed(case["seed"])
    gen = None if case["gen_seed"] is None else R.Generator().manual_seed(case["gen_seed"])
    for i, (call, want, warned) in enumerate(zip(case["calls"], case["outputs"],
                                                  case["warnings"])):
        where = f"{case['name']} call {i} ({call['op']} {call.get('size', '')})"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = run(call, gen, linear)
        assert [str(w.message) for w in caught] == warned, where
        if want is None:
            assert got is None, where
        elif "sha256" in want:  # a large result, stored as a digest plus its ends
            assert got is not None, where
            assert (got.dtype.name, list(got.shape)) == (want["dtype"], want["shape"]), where
            flat = got.reshape(-1)
            head, tail = decode(want["head"]), decode(want["tail"])
            assert_same_bits(flat[:head.size], head, where + " head")
            assert_same_bits(flat[flat.size - tail.size:], tail, where + " tail")
            assert hashlib.sha256(got.tobytes()).hexdigest() == want["sha256"], where
        else:
            assert got is not None, where
            assert_same_bits(got, decode(want), where)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_torch(case: dict[str, Any]) -> None:
    replay(case)


LINEAR_CASES = [c for c in CASES if c["name"].startswith("linear_")]


@pytest.mark.parametrize("case", LINEAR_CASES, ids=[c["name"] for c in LINEAR_CASES])
def test_nn_linear_init_matches_torch(case: dict[str, Any]) -> None:
    replay(case, linear=_linear_by_module)


@pytest.mark.parametrize("err", ERRORS, ids=[e["name"] for e in ERRORS])
def test_errors_match_torch(err: dict[str, Any]) -> None:
    with pytest.raises(Exception) as info:
        run(err["call"], None)
    assert type(info.value).__name__ == err["type"]
    assert str(info.value) == err["message"]


KERNEL: list[dict[str, Any]] = GOLDENS["kernel"]
KERNEL_FEEDS = {  # as in scripts/oracle/record_rng_goldens.py
    "k_k": lambda k: k,
    "k_0": lambda k: np.zeros_like(k),
    "k_mix": lambda k: ((k.astype(np.uint64) * 2654435761 + 12345) % (1 << 24)).astype(np.uint32),
}


@pytest.mark.slow
@pytest.mark.parametrize("feed", KERNEL, ids=[f["name"] for f in KERNEL])
def test_normal_kernel_on_every_float_uniform(feed: dict[str, Any]) -> None:
    """The float32 block kernel on all 2**24 uniforms a float draw can give, against torch."""
    from autograd_lab.random import normal_kernels as K

    sha = hashlib.sha256()
    step = 1 << 18  # blocks per slice
    out = np.empty((step, 16), np.float32)
    first = last = None
    for start in range(0, 1 << 24, 8 * step):
        k = np.arange(start, start + 8 * step, dtype=np.uint32)
        u = np.empty((step, 16), np.float32)
        u[:, :8] = k.reshape(-1, 8).astype(np.float32) * np.float32(2.0 ** -24)
        u[:, 8:] = KERNEL_FEEDS[feed["name"]](k).reshape(-1, 8).astype(np.float32) * np.float32(
            2.0 ** -24)
        K._fill_rows(u, out)
        np.add(out, np.float32(0), out=out)  # randn's * 1 + 0
        sha.update(out.tobytes())
        first = out.reshape(-1)[:32].copy() if first is None else first
        last = out.reshape(-1)[-32:].copy()
    assert_same_bits(first, decode(feed["head"]), "head")
    assert_same_bits(last, decode(feed["tail"]), "tail")
    assert sha.hexdigest() == feed["sha256"]


# ---- properties that need no golden ---------------------------------------------------------

def test_seed_is_reproducible() -> None:
    s = lab.seed()
    assert lab.initial_seed() == s
    first = _values(lab.randn(50))
    lab.manual_seed(s)
    assert np.array_equal(_values(lab.randn(50)), first)


def test_state_round_trip_mid_stream() -> None:
    lab.manual_seed(3)
    lab.randn(5)  # leaves a cached normal behind
    state = lab.get_rng_state()
    a = np.concatenate([_values(lab.randn(3)), _values(lab.rand(700))])
    lab.set_rng_state(state)
    b = np.concatenate([_values(lab.randn(3)), _values(lab.rand(700))])
    assert np.array_equal(a, b)


def test_generators_are_independent() -> None:
    g = R.Generator().manual_seed(5)
    lab.manual_seed(5)
    a = _values(lab.randn(20, generator=g))
    lab.randn(100)  # the global stream moves; g does not
    h = R.Generator().manual_seed(5)
    assert np.array_equal(_values(lab.randn(20, generator=h)), a)


def test_uniform_bumps_version_and_respects_leaf_rule() -> None:
    t = lab.empty(4)
    v = t._version
    R.uniform_(t, -1, 1)
    assert t._version == v + 1
    leaf = lab.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError):
        R.normal_(leaf)


def test_factories_return_fresh_versions() -> None:
    # torch builds these with an in-place sampler internally, yet reports version 0
    p = lab.rand(3)
    made = [lab.randn(3), lab.rand(3), lab.randn(20), lab.bernoulli(p), lab.bernoulli(p, 0.5),
            lab.normal(lab.zeros(3), 1.0), lab.normal(0.0, lab.ones(3)),
            lab.normal(0.0, 1.0, (3,)), lab.randn_like(p), lab.rand_like(p),
            lab.randint(0, 3, (3,)), lab.randperm(3)]
    assert [t._version for t in made] == [0] * len(made)
