"""autograd_lab's random numbers against PyTorch's CPU generator, bit for bit.

The cases and their replay are ``tests/golden_cases/rng.py`` (see its docstring for the call
format); ``scripts/oracle/record_goldens.py rng`` recorded torch's results, and every case is
replayed here on autograd_lab with the same function and each result compared on its raw bits.
"""

from __future__ import annotations

import base64
import math
import zlib
from typing import Any

import golden_cases as G
import numpy as np
import pytest
from golden_cases.rng import replay

import autograd_lab as lab
from autograd_lab import random as R

CASES = G.cases("rng")
CALLS = [c for c in CASES if "calls" in c]
KERNEL = [c for c in CASES if "kernel_feed" in c]
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def decode(obj: dict[str, Any]) -> np.ndarray:
    raw = zlib.decompress(base64.b64decode(obj["data"]))
    return np.frombuffer(raw, dtype=obj["dtype"]).reshape(obj["shape"]).copy()


def _values(t: lab.Tensor) -> np.ndarray:
    return np.ascontiguousarray(t._data)


def _fill_by_samplers(view: lab.Tensor, method: str, args: list, generator: Any) -> None:
    """The in-place samplers of ``autograd_lab.random`` (``bernoulli_`` is no Tensor method)."""
    getattr(R, method)(view, *args, generator=generator)


def _linear_by_uniform(torch: Any, fan_in: int, fan_out: int, dt: Any) -> np.ndarray:
    """nn.Linear's init, written out: kaiming_uniform_(W, a=sqrt(5)), then U(+-1/sqrt(in))."""
    weight, bias = lab.empty(fan_out, fan_in, dtype=dt), lab.empty(fan_out, dtype=dt)
    gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
    bound = math.sqrt(3.0) * (gain / math.sqrt(fan_in))
    R.uniform_(weight, -bound, bound)
    bound = 1 / math.sqrt(fan_in)
    R.uniform_(bias, -bound, bound)
    return np.concatenate([_values(weight).reshape(-1), _values(bias)])


def assert_same_bits(got: np.ndarray, want: np.ndarray, where: str) -> None:
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"{where}: shape {got.shape} != {want.shape}"
    if want.dtype.kind == "f":
        got, want = got.view(_UINT[want.itemsize]), want.view(_UINT[want.itemsize])
    if not np.array_equal(got, want):
        bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
        raise AssertionError(f"{where}: {bad.size} of {want.size} values differ, first at "
                             f"flat index {bad[0]}")


def assert_same_result(got: Any, want: Any, where: str) -> None:
    """One recorded result: none, an array, or a digest of a large one (with its ends)."""
    if want is None:
        assert got is None, where
        return
    assert got is not None, where
    if "sha256" in want:
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), where
        assert_same_bits(decode(got["head"]), decode(want["head"]), where + " head")
        assert_same_bits(decode(got["tail"]), decode(want["tail"]), where + " tail")
        assert got["sha256"] == want["sha256"], where
    else:
        assert_same_bits(decode(got), decode(want), where)


def check(case: dict[str, Any], **hooks: Any) -> None:
    """Replay ``case`` on autograd_lab and compare every call with torch's."""
    want = G.recorded("rng", case)
    got = replay(lab, case, fill=_fill_by_samplers, **hooks)
    if case.get("raises"):
        assert got["error"] is not None, f"{case['name']}: nothing raised, torch raised " \
            f"{want['error']}"
        assert got["error"] == want["error"]
        return
    assert len(got["outputs"]) == len(want["outputs"]) == len(case["calls"])
    for i, call in enumerate(case["calls"]):
        where = f"{case['name']} call {i} ({call['op']} {call.get('size', '')})"
        assert got["warnings"][i] == want["warnings"][i], where
        assert_same_result(got["outputs"][i], want["outputs"][i], where)


@pytest.mark.golden
@pytest.mark.parametrize("case", CALLS, ids=[c["name"] for c in CALLS])
def test_matches_torch(case: dict[str, Any]) -> None:
    check(case, linear=_linear_by_uniform)


LINEAR_CASES = [c for c in CALLS if c["name"].startswith("linear_")]


@pytest.mark.golden
@pytest.mark.parametrize("case", LINEAR_CASES, ids=[c["name"] for c in LINEAR_CASES])
def test_nn_linear_init_matches_torch(case: dict[str, Any]) -> None:
    check(case)  # the default replay builds nn.Linear


def _normals_by_kernel(torch: Any, draws: np.ndarray) -> np.ndarray:
    """randn's float32 block kernel straight on the uniforms of ``draws`` (as fast as numpy
    goes; loading a state per 608 values, as the recording does, takes minutes here)."""
    from autograd_lab.random import normal_kernels as K

    out = np.empty((draws.size // 16, 16), np.float32)
    step = 1 << 18  # blocks per slice
    for start in range(0, out.shape[0], step):
        rows = draws[16 * start:16 * (start + step)].reshape(-1, 16)
        u = (rows & np.uint32((1 << 24) - 1)).astype(np.float32) * np.float32(2.0 ** -24)
        K._fill_rows(u, out[start:start + step])
    np.add(out, np.float32(0), out=out)  # randn's * 1 + 0
    return out.reshape(-1)


@pytest.mark.slow
@pytest.mark.golden
@pytest.mark.parametrize("case", KERNEL, ids=[c["name"] for c in KERNEL])
def test_normal_kernel_on_every_float_uniform(case: dict[str, Any]) -> None:
    """The float32 block kernel on all 2**24 uniforms a float draw can give, against torch."""
    got = replay(lab, case, normals=_normals_by_kernel)
    assert_same_result(got, G.recorded("rng", case), case["name"])


def test_state_loading_and_kernel_agree() -> None:
    """The two ways of turning chosen draws into normals (the recording's, one state loaded
    per 608 draws through ``set_rng_state`` and ``randn``, and the kernel's) agree."""
    from golden_cases.rng import normals_by_state_loading

    draws = np.random.default_rng(0).integers(0, 2**32, 16 * 81, dtype=np.uint32)
    assert_same_bits(normals_by_state_loading(lab, draws), _normals_by_kernel(lab, draws),
                     "normals")


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
