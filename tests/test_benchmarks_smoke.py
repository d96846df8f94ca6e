"""The benchmark workloads compute the right thing (tiny sizes, no timing assertions).

Each workload's autograd_lab runner is checked against its hand-written numpy
forward + backward: same losses, gradients and updated weights to float32 accuracy.
PyTorch is never imported here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import autograd_lab as al

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import cross_entropy, matmul_chain, mlp, relu_memory, scalar_chain  # noqa: E402
from benchmarks._env import MB  # noqa: E402
from benchmarks.harness import measure, steady_run  # noqa: E402
from benchmarks.import_time import ImportTime  # noqa: E402
from benchmarks.report import summary, table  # noqa: E402
from benchmarks.worker import Worker  # noqa: E402

# One float32 rounding step, relative; the numpy versions do the same arithmetic.
RTOL, ATOL = 1e-5, 1e-7


def close(a: object, b: object) -> None:
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=RTOL, atol=ATOL)


def test_w1_scalar_loop_matches_numpy():
    e, n = scalar_chain.LoopEngine(al, iters=200), scalar_chain.LoopNumpy(iters=200)
    out_e, out_n = e.run(), n.run()
    assert set(out_e) == set(out_n) == {"fwd", "bwd", "cpu_fwd", "cpu_bwd"}
    close(e.value, n.value)
    close(e.grad, n.grad)
    assert e.grad == pytest.approx(0.99 ** 200, rel=1e-4)  # x stays positive: relu passes all


def test_w2_chain_of_100000_nodes_survives_backward():
    e = scalar_chain.ChainEngine(al, nodes=100_000)
    out = e.run()
    assert out["ok"] == 1.0
    n = scalar_chain.ChainNumpy(nodes=100_000)
    n.run()
    np.testing.assert_allclose(e.value, n.value, rtol=1e-6)
    np.testing.assert_allclose(e.grad, n.grad, rtol=1e-6)


@pytest.mark.parametrize("by_hand", [False, True])
def test_w3_mlp_step_matches_numpy(by_hand):
    init = mlp.make_init(batch=16, n_in=20, hidden=12, n_out=5, seed=1)
    e, n = mlp.engine_step(al, init, by_hand=by_hand), mlp.StepNumpy(init)
    for _ in range(2):  # the second step starts from the updated weights
        close(float(e.step().detach()), n.step())
        for ge, gn in zip(e.grads(), n.grads()):
            close(ge, gn)
        for we, wn in zip(e.weights(), n.weights()):
            close(we, wn)
    assert "step" in e.run() and "step" in n.run()


def test_w4_matmul_chain_matches_numpy():
    mats = matmul_chain.make_mats(24, seed=2)
    e, n = matmul_chain.ChainEngine(al, mats), matmul_chain.ChainNumpy(mats)
    assert set(e.run()) == set(n.run()) == {"fwd", "bwd", "total"}
    np.testing.assert_allclose(e.value, n.value, rtol=1e-5, atol=1e-4)  # a sum of 576 values
    for ge, gn in zip(e.grads(), n.grads()):
        close(ge, gn)


def test_w5_relu_chain_memory_and_gradient():
    data = relu_memory.make_data(10_000)
    e = relu_memory.ReluEngine(al, data, depth=10, accounting=True)
    out = e.run()
    # x, the 10 relu outputs saved for backward, and the 0-d sum; after backward x and x.grad
    assert round(out["held"] * MB) == 11 * data.nbytes + 4
    assert round(out["live"] * MB) == 2 * data.nbytes
    n = relu_memory.ReluNumpy(data, depth=10)
    assert set(n.run()) == {"held_heap", "live_heap"}
    np.testing.assert_array_equal(e.grad, n.grad)
    np.testing.assert_array_equal(e.grad, (data > 0).astype(np.float32))


@pytest.mark.parametrize("by_hand", [False, True])
def test_w6_cross_entropy_matches_numpy(by_hand):
    logits, targets = cross_entropy.make_data(batch=16, classes=7, seed=3)
    e = cross_entropy.CEEngine(al, logits, targets, by_hand=by_hand)
    n = cross_entropy.CENumpy(logits, targets)
    e.run()
    n.run()
    close(e.value, n.value)
    close(e.grad, n.grad)


def test_harness_and_table_without_torch():
    w = scalar_chain.w1(al, None, iters=20)
    res = measure(w, rounds=3)
    assert res.present == ["autograd_lab", "numpy"] and not res.errors
    assert all(len(v) == 3 for v in res.samples["autograd_lab"].values())
    lines, rows = table(w, res)
    per_op = [r for r in rows if r["label"] == "steady: forward, µs/op"][0]
    assert per_op["values"]["torch"] is None and per_op["ratio"] is None
    assert per_op["result"] is None  # no torch: the target cannot be checked
    assert "1 iteration = 3 ops" in lines[0]
    assert summary(rows) == "targets: 0 pass, 0 miss, 2 not measured"


def test_steady_state_sample_runs_the_users_loop():
    logits, targets = cross_entropy.make_data(batch=16, classes=7, seed=3)
    e = cross_entropy.CEEngine(al, logits, targets)
    e.steady_steps = 4
    out = steady_run(e)
    assert set(out) == {"total", "fwd", "bwd", "mean_total", "cpu", "faults"}
    assert e.z.grad is None  # each step ends as the loop does: x.grad = None
    assert e.last.grad_fn is not None  # the loop's `loss` name holds the last loss
    n = cross_entropy.CENumpy(logits, targets)
    n.steady_steps = 4
    assert set(steady_run(n)) == set(out)
    np.testing.assert_allclose(n.loss, float(e.last.detach()), rtol=RTOL)
    ref = cross_entropy.CENumpy(logits, targets)
    ref.run()
    close(n.g, ref.grad)


def test_steady_and_isolated_samples_in_one_measurement():
    w = mlp.w3(al, None, batch=8, n_in=12, hidden=6, n_out=3)
    res = measure(w, rounds=2, warmup=0, iso_rounds=1)
    s = res.samples["autograd_lab"]
    assert len(s["step"]) == 2 and len(s["iso_step"]) == 1 and len(s["faults"]) == 2
    lines, rows = table(w, res)
    assert rows[0]["label"] == "steady: one step, ms/step" and rows[0]["ref"] == "torch"
    assert any(r["label"].startswith("isolated:") for r in rows)


def test_memory_targets_pass_at_small_size():
    w = relu_memory.w5(al, None, n=10_000, depth=10)
    lines, rows = table(w, measure(w, rounds=1, warmup=0))
    assert [r["result"] for r in rows[:2]] == ["pass", "pass"]


def test_worker_process_runs_a_workload():
    wk = Worker("numpy", by_hand=False)
    try:
        out = wk.setup("W1").run()
        assert set(out) == {"fwd", "bwd", "cpu_fwd", "cpu_bwd"} and out["fwd"] > 0
    finally:
        wk.close()


def test_import_time_runner():
    assert ImportTime("autograd_lab").run()["import"] > 0


def test_w3_phases_split_the_step_for_each_library():
    # the phase split of W3 (benchmarks/w3_phases.py): every phase timed, none negative, the
    # whole step their sum
    from benchmarks import w3_phases

    for lib in ("autograd_lab", "numpy"):
        phases = w3_phases._measure(lib, rounds=1, steps=2)
        assert set(phases) == {*w3_phases.PHASES, "whole step"}
        assert all(v >= 0 for v in phases.values())
        parts = sum(v for k, v in phases.items() if k != "whole step")
        assert phases["whole step"] == pytest.approx(parts)
