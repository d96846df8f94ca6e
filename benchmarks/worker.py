"""One process per implementation, so that no implementation runs next to another's heap.

(With torch imported, each full garbage collection of the Python heap walks torch's
objects too, which slows down an engine that creates Python objects per op: measured
in one process, autograd_lab would be charged for torch's presence.)

The main process sends one JSON line per command and reads one JSON line back:
``{"op": "setup", "key": "W1"}``, ``{"op": "run", "kind": "steady"}``, ``{"op": "drop"}``.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # started as a script: import the package from the repository root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks import _env  # noqa: E402,I001

if __name__ == "__main__":
    _env.single_thread()  # before numpy loads (inherited from run.py too; this is for safety)

import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import traceback  # noqa: E402
from typing import Any  # noqa: E402

from benchmarks.harness import SAMPLERS, RemoteError, take_fed_digest  # noqa: E402


class RemoteRunner:
    """A runner living in a worker process."""

    def __init__(self, worker: Worker, digest: str | None) -> None:
        self.worker = worker
        self.digest = digest  # of the arrays the remote runner was fed

    def run(self) -> dict[str, float]:
        return self.sample("plain")

    def sample(self, kind: str) -> dict[str, float]:
        """One sample of ``kind`` (``harness.SAMPLERS``), taken in the worker process."""
        return self.worker.call({"op": "run", "kind": kind})["out"]


class Worker:
    """The main side of one worker process."""

    def __init__(self, impl: str, by_hand: bool) -> None:
        self.impl = impl
        cmd = [sys.executable, str(Path(__file__).resolve()), impl] + (["--by-hand"] * by_hand)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.info = self._read()  # {"versions": ...} once the worker has imported everything

    def _read(self) -> dict[str, Any]:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.impl} worker exited (code {self.proc.wait()})")
        msg = json.loads(line)
        if "error" in msg:
            raise RemoteError(msg["error"])
        return msg

    def call(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def setup(self, key: str) -> RemoteRunner:
        self.call({"op": "drop"})
        return RemoteRunner(self, self.call({"op": "setup", "key": key}).get("digest"))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


def start(impls: list[str], by_hand: bool) -> tuple[dict[str, Worker], dict[str, str]]:
    """Workers that started, and the errors of those that did not (torch missing ...)."""
    workers, errors = {}, {}
    for impl in impls:
        try:
            workers[impl] = Worker(impl, by_hand)
        except RuntimeError as e:
            errors[impl] = str(e)
    return workers, errors


# ---- the worker process ----------------------------------------------------------------------

def _serve(impl: str, by_hand: bool) -> None:
    out = os.fdopen(os.dup(1), "w", buffering=1)
    sys.stdout = sys.stderr  # anything a workload prints stays off the protocol channel

    def send(msg: dict[str, Any]) -> None:
        out.write(json.dumps(msg) + "\n")

    try:
        import numpy as np

        import autograd_lab
        from benchmarks.suite import workloads

        torch = _env.load_torch() if impl == "torch" else None
        if impl == "torch" and torch is None:
            raise RuntimeError("torch is not importable")
    except Exception as e:
        send({"error": f"{type(e).__name__}: {e}"})
        return
    send({"versions": {"numpy": np.__version__, "autograd_lab": autograd_lab.__version__,
                       "torch": torch.__version__ if torch is not None else None},
          "env": _env.describe(torch, autograd_lab if impl == "autograd_lab" else None)})
    builders = workloads(autograd_lab, torch, by_hand)
    runner = None
    for line in sys.stdin:
        msg = json.loads(line)
        try:
            if msg["op"] == "setup":
                w = builders[msg["key"]]()
                if impl not in w.setups:
                    raise RuntimeError(f"{msg['key']} has no {impl} implementation")
                take_fed_digest()
                runner = w.setups[impl]()
                send({"ok": True, "digest": take_fed_digest()})
            elif msg["op"] == "run":
                if runner is None:
                    raise RuntimeError("not set up")
                send({"out": SAMPLERS[msg.get("kind", "plain")](runner)})
            elif msg["op"] == "drop":
                runner = None
                gc.collect()
                send({"ok": True})
        except Exception as e:
            traceback.print_exc()
            send({"error": f"{type(e).__name__}: {e}"})


if __name__ == "__main__":
    _serve(sys.argv[1], "--by-hand" in sys.argv[2:])
