"""PyTorch's OpInfo database as a conformance suite for autograd_lab.

    PYTHONPATH=$PWD $TORCH_PYTHON scripts/oracle/opinfo_conformance.py \\
        [--ops a,b] [--only forward|grad|errors] [--json out.json] [--worst 15]

Needs torch 2.13 with ``expecttest``/``hypothesis``/``pytest`` (``op_db`` imports them) and the
repository on ``PYTHONPATH``. Every OpInfo of ``op_db`` whose function autograd_lab exposes
under torch's name (``torch.X``, ``torch.nn.functional.X``, or OpInfo's own wrapper of a
``Tensor.X`` call) is run, and also its ``Tensor.X`` method variant as a row of its own.

For each, over ``reference_inputs`` (which include ``sample_inputs``) in float32, float64,
int64 and bool where the OpInfo supports the dtype:
- forward: dtype, shape and values (integers and bools exactly; floats both bit for bit and
  within rtol 1e-6 float32 / 1e-12 float64, NaN and inf where torch has them);
- gradients of every input that requires grad, by ``autograd.grad`` with a seeded cotangent,
  and second derivatives (a seeded cotangent of the first) where ``supports_gradgrad``;
- ``error_inputs``: the exception type torch raises, and OpInfo's regex matched against our
  message (torch's own message when the regex is for another device);
- samples on which autograd_lab raises where torch works.
Random ops are compared through calls seeded alike in both libraries (OpInfo's own reseeding
wrapper is replaced); ``empty*`` ops by dtype and shape only.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import time
import traceback
import types
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from opinfo_samples import Unconvertible, compare, describe, rebind, tensors_in, to_lab

DTYPES = ("float32", "float64", "int64", "bool")
SEED = 1234
TIMEOUT = 20.0
MAX_FAILURES = 40
TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)\s*$")
EMPTY = {"empty", "empty_like", "new_empty", "empty_strided", "new_empty_strided",
         "empty_permuted"}
COUNTS = ("samples", "fwd_ok", "fwd_bit", "ours_raised", "grad_n", "grad_ok", "gg_n", "gg_ok",
          "err_n", "err_ok", "torch_raised", "torch_raised_ours_worked", "unconvertible",
          "harness", "fail_big")
BIG = 32768  # autograd_lab's precision policy: torch's rounding replayed below this many elements


class Timeout(Exception):
    """A sample ran longer than ``TIMEOUT`` seconds."""


@dataclass
class Target:
    """One row of the table: an OpInfo called one way (function or ``Tensor`` method)."""

    key: str
    op: Any
    torch_call: Callable
    lab_call: Callable
    empty: bool = False
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTS, 0))
    failures: list[dict] = field(default_factory=list)
    unconvertible: dict[str, int] = field(default_factory=dict)

    def skip(self, e: Unconvertible) -> None:
        self.counts["unconvertible"] += 1
        self.unconvertible[str(e)] = self.unconvertible.get(str(e), 0) + 1

    big: bool = False  # the current sample has a tensor of at least BIG elements

    def fail(self, stage: str, dtype: str, idx: int, sample: str, detail: str) -> None:
        if stage in ("forward", "grad", "gradgrad") and self.big:
            self.counts["fail_big"] += 1
            detail = "[policy size] " + detail
        if len(self.failures) < MAX_FAILURES:
            self.failures.append({"stage": stage, "dtype": dtype, "index": idx,
                                  "sample": sample, "detail": detail[:600]})


def resolve(root: Any, path: str) -> Any:
    for part in path.split("."):
        root = getattr(root, part, None)
        if root is None:
            return None
    return root


def seeded(lib: Any) -> Callable:
    """OpInfo's ``wrapper_set_seed``, for ``lib``: seed, then call."""
    def wrapper(fn: Callable, *args: Any, **kwargs: Any) -> Any:
        lib.manual_seed(42)
        return fn(*args, **kwargs)
    return wrapper


def targets(op_db: list, torch: Any, lab: Any, only: set[str] | None) -> list[Target]:
    """The rows: every OpInfo autograd_lab exposes, as function and as method."""
    rows = []
    for op in op_db:
        key = op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")
        if only and op.name not in only and key not in only:
            continue
        empty = op.name in EMPTY
        lab_fn = resolve(lab, op.name)
        base = op.name.rsplit(".", 1)[-1]
        is_fn = (resolve(torch, op.name) is op.op and callable(lab_fn)
                 and not isinstance(lab_fn, type))
        if is_fn:
            rows.append(Target(key, op, rebind(op.op, torch), lab_fn, empty))
        elif isinstance(op.op, types.FunctionType) and op.op.__module__.startswith("torch.testing"):
            method = hasattr(lab.Tensor, base) or hasattr(lab.Tensor, base + "_")
            exposed = (callable(lab_fn) and not isinstance(lab_fn, (type, lab.dtype))) or (
                "." not in op.name and method)
            if exposed:
                rows.append(Target(key, op, rebind(op.op, torch, seeded(torch)),
                                   rebind(op.op, lab, seeded(lab)), empty))
        if (op.method_variant is not None and "." not in op.name and hasattr(lab.Tensor, op.name)
                and (is_fn or not isinstance(op.op, types.FunctionType))):
            name = op.name
            rows.append(Target(key + " (method)", op, op.method_variant,
                               # torch's method_variant is the unbound Tensor.X: called alike
                               lambda x, *a, _n=name, **k: getattr(lab.Tensor, _n)(x, *a, **k),
                               empty))
    return rows


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout(f"more than {TIMEOUT:.0f} s")


def _message(e: BaseException) -> str:
    return TRIGGERED.sub("", str(e))


def _draw(shapes_dtypes: list, rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.standard_normal(shape).astype(dt) for shape, dt in shapes_dtypes]


def _grad_stage(t: Target, torch: Any, lab: Any, s: Any, ref: Any, got: Any, memo: dict,
                dtype: str, idx: int, desc: str, only: str | None) -> None:
    """Compare first (and, where supported, second) derivatives of one sample."""
    c = t.counts
    # a view torch made of a grad-requiring leaf under no_grad requires grad but has no edge
    # back (its gradient is None); autograd_lab receives it as a plain leaf, so it is left out
    t_ins = [x for x in tensors_in((s.input, s.args, s.kwargs), torch.Tensor)
             if x.requires_grad and not (x._base is not None and x.grad_fn is None)]
    if not t_ins:
        return
    t_all = tensors_in(s.output_process_fn_grad(ref), torch.Tensor)
    picked = [k for k, x in enumerate(t_all) if x.requires_grad and x.is_floating_point()]
    if not picked:
        return
    c["grad_n"] += 1
    gg = t.op.supports_gradgrad
    rng = np.random.default_rng(SEED + idx)
    draws = _draw([(tuple(t_all[k].shape), t_all[k].detach().numpy().dtype) for k in picked], rng)
    t_outs = [t_all[k] for k in picked]
    t_v = [torch.from_numpy(v.copy()) for v in draws]
    try:
        l_all = tensors_in(rebind(s.output_process_fn_grad, lab)(got), lab.Tensor)
        l_ins = [memo[id(x)] for x in t_ins]
        if len(l_all) != len(t_all):
            raise AssertionError(f"{len(t_all)} output tensors in torch, {len(l_all)} in ours")
        l_outs = [l_all[k] for k in picked]
        lost = [k for k, x in zip(picked, l_outs) if not x.requires_grad]
        if lost:
            raise AssertionError(f"outputs {lost} do not require grad in ours")
    except Exception as e:  # noqa: BLE001
        t.fail("grad", dtype, idx, desc, f"{type(e).__name__}: {_message(e)}")
        if gg:
            c["gg_n"] += 1
        return
    try:
        tg = torch.autograd.grad(t_outs, t_ins, t_v, allow_unused=True, retain_graph=True)
    except Exception:  # noqa: BLE001  (a derivative torch does not implement)
        c["grad_n"] -= 1
        return
    try:
        lg = lab.autograd.grad(l_outs, l_ins, [lab.from_numpy(v.copy()) for v in draws],
                               allow_unused=True, retain_graph=True)
    except Exception as e:  # noqa: BLE001
        t.fail("grad", dtype, idx, desc, f"ours raised {type(e).__name__}: {_message(e)}")
        lg = None
    if lg is not None:
        diffs, _ = compare(tuple(tg), tuple(lg), torch, lab, "grad")
        if diffs:
            t.fail("grad", dtype, idx, desc, "; ".join(diffs[:3]))
        else:
            c["grad_ok"] += 1
    if not gg:
        return
    try:
        tg = torch.autograd.grad(t_outs, t_ins, t_v, allow_unused=True, create_graph=True)
    except Exception:  # noqa: BLE001
        return
    live = [k for k, g in enumerate(tg) if g is not None and g.requires_grad]
    if not live:
        return
    c["gg_n"] += 1
    try:
        lg = lab.autograd.grad(l_outs, l_ins, [lab.from_numpy(v.copy()) for v in draws],
                               allow_unused=True, create_graph=True)
        flags_t = [g is not None and g.requires_grad for g in tg]
        flags_l = [g is not None and g.requires_grad for g in lg]
        if flags_t != flags_l:
            raise AssertionError(f"first grads require grad: torch {flags_t}, ours {flags_l}")
        draws2 = _draw([(tuple(tg[k].shape), tg[k].detach().numpy().dtype) for k in live], rng)
        tgg = torch.autograd.grad([tg[k] for k in live], t_ins,
                                  [torch.from_numpy(v.copy()) for v in draws2], allow_unused=True)
        lgg = lab.autograd.grad([lg[k] for k in live], l_ins,
                                [lab.from_numpy(v.copy()) for v in draws2], allow_unused=True)
    except Exception as e:  # noqa: BLE001
        t.fail("gradgrad", dtype, idx, desc, f"{type(e).__name__}: {_message(e)}")
        return
    diffs, _ = compare(tuple(tgg), tuple(lgg), torch, lab, "gradgrad")
    if diffs:
        t.fail("gradgrad", dtype, idx, desc, "; ".join(diffs[:3]))
    else:
        c["gg_ok"] += 1


def run_sample(t: Target, torch: Any, lab: Any, s: Any, dtype: str, idx: int,
               only: str | None) -> None:
    """Forward (and gradients) of one sample under both libraries."""
    c = t.counts
    memo: dict[int, Any] = {}
    try:
        l_in, l_args, l_kwargs = to_lab((s.input, s.args, s.kwargs), torch, lab, memo)
    except Unconvertible as e:
        t.skip(e)
        return
    desc = describe(s.input, torch) + (f" args={describe(list(s.args), torch)}" if s.args else "") \
        + (f" kwargs={describe(s.kwargs, torch)}" if s.kwargs else "")
    t.big = any(x.numel() >= BIG for x in tensors_in((s.input, s.args, s.kwargs), torch.Tensor))
    torch.manual_seed(SEED)
    try:
        ref = t.torch_call(s.input, *s.args, **s.kwargs)
    except Exception:  # noqa: BLE001  (not a valid sample for torch on this build)
        c["torch_raised"] += 1
        lab.manual_seed(SEED)
        try:
            t.lab_call(l_in, *l_args, **l_kwargs)
            c["torch_raised_ours_worked"] += 1
            t.fail("torch_raised_ours_worked", dtype, idx, desc, "")
        except Exception:  # noqa: BLE001
            pass
        return
    c["samples"] += 1
    lab.manual_seed(SEED)
    try:
        got = t.lab_call(l_in, *l_args, **l_kwargs)
    except Timeout:
        raise
    except Exception as e:  # noqa: BLE001
        c["ours_raised"] += 1
        t.fail("ours_raised", dtype, idx, desc, f"{type(e).__name__}: {_message(e)}")
        return
    if only in (None, "forward"):
        diffs, exact = compare(ref, got, torch, lab, values=not t.empty)
        if diffs:
            t.fail("forward", dtype, idx, desc, "; ".join(diffs[:3]))
        else:
            c["fwd_ok"] += 1
            c["fwd_bit"] += exact
    if only in (None, "grad") and torch.is_grad_enabled():
        _grad_stage(t, torch, lab, s, ref, got, memo, dtype, idx, desc, only)


def run_errors(t: Target, torch: Any, lab: Any) -> None:
    """``error_inputs``: our exception's type and message against torch's."""
    c = t.counts
    if t.op.error_inputs_func is None:
        return
    try:
        errors = list(t.op.error_inputs("cpu"))
    except Exception as e:  # noqa: BLE001
        t.fail("harness", "-", -1, "error_inputs", f"{type(e).__name__}: {e}")
        c["harness"] += 1
        return
    for idx, ei in enumerate(errors):
        s = ei.sample_input
        try:
            l_in, l_args, l_kwargs = to_lab((s.input, s.args, s.kwargs), torch, lab, {})
        except Unconvertible as e:
            t.skip(e)
            continue
        desc = describe(s.input, torch) + (f" args={describe(list(s.args), torch)}" if s.args
                                           else "") + (f" kwargs={describe(s.kwargs, torch)}"
                                                       if s.kwargs else "")
        try:
            t.torch_call(s.input, *s.args, **s.kwargs)
            continue  # the error is for another device or build
        except Exception as e:  # noqa: BLE001
            theirs = e
        c["err_n"] += 1
        try:
            t.lab_call(l_in, *l_args, **l_kwargs)
            t.fail("errors", "-", idx, desc, f"ours did not raise; torch {type(theirs).__name__}: "
                   f"{_message(theirs)[:200]}")
            continue
        except Timeout:
            raise
        except Exception as e:  # noqa: BLE001
            ours = e
        regex = ei.error_regex
        want = (re.search(regex, _message(theirs)) is not None) if regex else False
        msg_ok = re.search(regex, _message(ours)) is not None if want else \
            _message(ours) == _message(theirs)
        type_ok = type(ours).__name__ == type(theirs).__name__
        if type_ok and msg_ok:
            c["err_ok"] += 1
        else:
            t.fail("errors", "-", idx, desc,
                   f"torch {type(theirs).__name__}: {_message(theirs)[:200]} | ours "
                   f"{type(ours).__name__}: {_message(ours)[:200]} | regex {regex!r}")


def _samples(op: Any, torch: Any, dtype: str, rg: bool) -> list:
    """``reference_inputs`` (seeded); without requires_grad when the OpInfo's generator
    refuses it (some make bool or integer tensors alongside)."""
    dt = getattr(torch, dtype)
    torch.manual_seed(0)
    try:
        return list(op.reference_inputs("cpu", dt, requires_grad=rg))
    except ValueError:
        if not rg:
            raise
    torch.manual_seed(0)
    return list(op.reference_inputs("cpu", dt, requires_grad=False))


def run_target(t: Target, torch: Any, lab: Any, only: str | None) -> None:
    supported = {str(d).removeprefix("torch.") for d in t.op.supported_dtypes("cpu")}
    if only in (None, "forward", "grad"):
        for dtype in DTYPES:
            if dtype not in supported:
                continue
            rg = t.op.supports_autograd and dtype.startswith("float") and only != "forward"
            try:
                samples = _samples(t.op, torch, dtype, rg)
            except Exception as e:  # noqa: BLE001
                t.counts["harness"] += 1
                t.fail("harness", dtype, -1, "reference_inputs", f"{type(e).__name__}: {e}")
                continue
            for idx, s in enumerate(samples):
                _guarded(t, dtype, idx, lambda s=s, idx=idx, dtype=dtype: run_sample(
                    t, torch, lab, s, dtype, idx, only))
    if only in (None, "errors"):
        _guarded(t, "-", -1, lambda: run_errors(t, torch, lab))


def _guarded(t: Target, dtype: str, idx: int, fn: Callable[[], None]) -> None:
    """Run ``fn`` under a timeout; whatever escapes is a harness failure, not a crash."""
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        t.counts["harness"] += 1
        tb = traceback.extract_tb(e.__traceback__)[-1]
        t.fail("harness", dtype, idx, "", f"{type(e).__name__}: {e} (at {tb.name}:{tb.lineno})")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _pct(a: int, n: int) -> str:
    return f"{a}/{n}" if n else "-"


def table(rows: list[Target], shown: list[Target], worst: int) -> str:
    head = (f"{'op':34} {'samples':>7} {'fwd ok':>11} {'fwd bit':>11} {'grad ok':>11} "
            f"{'gradgrad':>11} {'errors ok':>9} {'ours-raised':>11}")
    lines = [head, "-" * len(head)]
    for t in shown:
        c = t.counts
        n = c["samples"]
        lines.append(f"{t.key[:34]:34} {n:7} {_pct(c['fwd_ok'], n):>11} "
                     f"{_pct(c['fwd_bit'], n):>11} {_pct(c['grad_ok'], c['grad_n']):>11} "
                     f"{_pct(c['gg_ok'], c['gg_n']):>11} {_pct(c['err_ok'], c['err_n']):>9} "
                     f"{c['ours_raised']:11}")
    fns = [t for t in rows if not t.key.endswith("(method)")]
    lines += ["-" * len(head), "all rows: " + summary(totals(rows), len(rows)),
              "function rows only: " + summary(totals(fns), len(fns))]
    if worst:
        bad = sorted(rows, key=lambda t: -(t.counts["samples"] - t.counts["fwd_ok"]
                                           + t.counts["grad_n"] - t.counts["grad_ok"]
                                           + t.counts["gg_n"] - t.counts["gg_ok"]
                                           + t.counts["err_n"] - t.counts["err_ok"]))
        lines.append(f"worst {worst} (failed forward + grad + gradgrad + error samples):")
        for t in bad[:worst]:
            c = t.counts
            n = (c["samples"] - c["fwd_ok"] + c["grad_n"] - c["grad_ok"] + c["gg_n"] - c["gg_ok"]
                 + c["err_n"] - c["err_ok"])
            if n:
                lines.append(f"  {t.key:34} {n}")
    return "\n".join(lines)


def totals(rows: list[Target]) -> dict[str, int]:
    return {k: sum(t.counts[k] for t in rows) for k in COUNTS}


def summary(tot: dict[str, int], n_rows: int) -> str:
    def pct(a: int, n: int) -> str:
        return f"{a}/{n} ({100 * a / n:.2f}%)" if n else "-"
    return (f"rows {n_rows}; samples {tot['samples']}; forward {pct(tot['fwd_ok'], tot['samples'])}"
            f", bit-exact {pct(tot['fwd_bit'], tot['samples'])}; gradients "
            f"{pct(tot['grad_ok'], tot['grad_n'])}; gradgrad {pct(tot['gg_ok'], tot['gg_n'])}; "
            f"error inputs {pct(tot['err_ok'], tot['err_n'])}; ours raised where torch worked "
            f"{tot['ours_raised']}; torch raised, ours worked {tot['torch_raised_ours_worked']}"
            f"; unconvertible {tot['unconvertible']}; harness errors {tot['harness']}; failed "
            f"forward/grad/gradgrad checks on samples of >= {BIG} elements (numpy's rounding by "
            f"the precision policy) {tot['fail_big']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", help="comma-separated OpInfo names (or name.variant)")
    parser.add_argument("--only", choices=("forward", "grad", "errors"))
    parser.add_argument("--json", help="write counts and failing samples here")
    parser.add_argument("--worst", type=int, default=15, help="list the N worst rows")
    parser.add_argument("--quiet", action="store_true", help="print only failing rows and totals")
    args = parser.parse_args()

    import torch
    from torch.testing._internal.common_methods_invocations import op_db

    import autograd_lab as lab

    if not torch.__version__.startswith("2.13."):
        raise SystemExit(f"needs torch 2.13, found {torch.__version__}")
    torch.set_num_threads(1)
    signal.signal(signal.SIGALRM, _alarm)
    warnings.simplefilter("ignore")
    only = set(args.ops.split(",")) if args.ops else None
    rows = targets(op_db, torch, lab, only)
    start = time.time()
    for t in rows:
        run_target(t, torch, lab, args.only)
    shown = [t for t in rows if not args.quiet or t.failures]
    print(table(rows, shown, args.worst))
    print(f"({time.time() - start:.0f} s)")
    if args.json:
        fns = [t for t in rows if not t.key.endswith("(method)")]
        data = {"torch": torch.__version__, "totals": totals(rows),
                "summary": summary(totals(rows), len(rows)),
                "summary_functions": summary(totals(fns), len(fns)),
                "ops": {t.key: {**t.counts, "unconvertible_why": t.unconvertible,
                                 "failures": t.failures} for t in rows}}
        with open(args.json, "w") as f:
            json.dump(data, f, indent=1)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
