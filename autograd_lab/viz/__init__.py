"""Pictures of the autograd graph, driven by the real graph objects and engine events.

- :func:`make_dot` -- the graph as Graphviz (torchviz's look; ``view="value"`` for
  micrograd-style records, ``view="both"`` for tensors beside function nodes).
- :func:`record_backward` / :class:`BackwardStepper` -- a real backward pass, event by
  event, as frames and as a widget (Prev / Next / Play, ``.grad`` table, export to HTML).
- :func:`version_view` -- saved tensors with the version they were saved at; stale ones red,
  with the error backward will raise.
- :func:`trace_memory` / :func:`memory_timeline` -- ``memory_allocated()`` op by op through
  forward and backward, default vs ``retain_graph=True``.

The engine never imports this package. Drawing needs Graphviz's ``dot`` program.
"""

from .dot import GraphSpec, GraphTooLargeError, build_graph, make_dot
from ._graphviz import GraphvizNotFoundError
from .memory import MemoryTrace, memory_timeline, saved_bytes, saved_bytes_by_node, trace_memory
from .recording import Frame, Recording, record_backward
from .stepper import BackwardStepper
from .versions import VersionView, version_view

__all__ = [
    "BackwardStepper", "Frame", "GraphSpec", "GraphTooLargeError", "GraphvizNotFoundError",
    "MemoryTrace", "Recording", "VersionView", "build_graph", "make_dot", "memory_timeline",
    "record_backward", "saved_bytes", "saved_bytes_by_node", "trace_memory", "version_view",
]
