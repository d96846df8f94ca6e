"""version_view: saved tensors with saved/current versions; stale ones red, with torch's error."""

from __future__ import annotations

import re

import pytest

import autograd_lab as torch
from autograd_lab.viz import version_view
from autograd_lab.viz.graph_spec import STALE


def saved_nodes(source: str) -> list[str]:
    return [line for line in source.splitlines() if "saved at v" in line]


def test_fresh_graph_has_nothing_stale():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    view = version_view(y, dict(x=x))
    assert view.stale == [] and view.error is None
    lines = saved_nodes(view.dot.source)
    assert len(lines) == 3 and all("saved at v0, now v0" in s for s in lines)
    assert STALE not in view.dot.source and "label=<backward()" not in view.dot.source
    assert repr(view) == "VersionView: every saved tensor is at the version it was saved at"
    y.backward()  # and backward indeed works


def test_stale_saved_output_marked_before_backward_raises():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a.sigmoid()
    c = (b * b).sum()
    b.mul_(3)
    view = version_view(c, dict(a=a))  # drawn before backward raises
    (stale,) = [s for s in view.stale if s.node.name() == "SigmoidBackward0"]
    assert (stale.name, stale.saved_version, stale.current_version) == ("result", 0, 1)
    # the MulBackward0 of b * b saved b twice: both stale too
    assert sorted(s.name for s in view.stale if s.node.name() == "MulBackward0") == \
        ["other", "self"]
    src = view.dot.source
    stale_lines = [s for s in saved_nodes(src) if "STALE" in s]
    assert len(stale_lines) == 3 and all(f"fillcolor=\"{STALE}\"" in s for s in stale_lines)
    assert all("saved at v0, now v1" in s for s in stale_lines)
    with pytest.raises(RuntimeError) as err:
        c.backward()
    # the text shown is what backward raises (computed by unpacking, not re-written)
    assert str(err.value) in [s.error for s in view.stale]
    assert view.error == str(err.value)
    assert "is at version 1; expected version 0 instead" in view.error
    words = re.sub(r"<[^>]+>", " ", src)
    assert "modified by an inplace" in words
    svg = view.svg()
    assert "<svg" in svg and "STALE" in svg
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"].startswith("VersionView: 3 stale saved tensor(s)")


def test_stale_saved_input_names_its_producer():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y.exp()
    w = (z * y).sum()
    y.add_(1)
    view = version_view(w)
    stale = {(s.node.name(), s.name) for s in view.stale}
    assert stale == {("MulBackward0", "other")}
    with pytest.raises(RuntimeError) as err:
        w.backward()
    assert view.error == str(err.value)


def test_stale_leaf_used_by_a_saved_tensor():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    x = torch.tensor([3.0, 4.0])
    y = (w * x).sum()
    x.add_(1)  # a plain tensor saved by MulBackward0 (as other)
    view = version_view(y, dict(w=w, x=x))
    (stale,) = view.stale
    assert stale.name == "other"
    assert "other (x)" in view.dot.source
    with pytest.raises(RuntimeError) as err:
        y.backward()
    assert stale.error == str(err.value)
