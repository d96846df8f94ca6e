"""Notebook 14's warnings, shown without the paths of the machine that ran them.
"""

from __future__ import annotations

import warnings

import pytest

import autograd_lab as torch
from autograd_lab.teaching.shown_warnings import format_warning, shown_warnings

# ---- shown_warnings: notebook warnings without machine paths --------------------------------

def _fake_cells(filename: str) -> str | None:
    return {"/tmp/ipykernel_1/11.py": "Cell In[3]", "/tmp/ipykernel_1/22.py": "Cell In[4]"}.get(
        filename)


def test_format_warning_renames_cells_and_counts_other_frames():
    message = ("Error detected in PowBackward0. Traceback of forward call that caused the error:\n"
               '  File "<frozen runpy>", line 198, in _run_module_as_main\n'
               '  File "/opt/venv/lib/site-packages/ipykernel/kernelapp.py", line 768, in start\n'
               "    self.io_loop.start()\n"
               '  File "/tmp/ipykernel_1/22.py", line 4, in <module>\n'
               "    loss = loss_fn(p, q)\n"
               '  File "/tmp/ipykernel_1/11.py", line 3, in distance\n'
               "    squared = diff**2")
    w = warnings.WarningMessage(UserWarning(message), UserWarning, "/tmp/ipykernel_1/22.py", 5)
    assert format_warning(w, _fake_cells) == (
        "Cell In[4], line 5: UserWarning: Error detected in PowBackward0. Traceback of forward "
        "call that caused the error:\n"
        "  ... 2 frames outside the notebook's cells ...\n"
        "  Cell In[4], line 4, in <module>\n"
        "    loss = loss_fn(p, q)\n"
        "  Cell In[3], line 3, in distance\n"
        "    squared = diff**2")
    w = warnings.WarningMessage(UserWarning("plain"), UserWarning, "/opt/venv/lib/x/mod.py", 7)
    assert format_warning(w, _fake_cells) == "mod.py:7: UserWarning: plain"


def test_shown_warnings_prints_even_when_the_block_raises(capsys):
    with pytest.raises(RuntimeError, match="returned nan values"):
        with shown_warnings():
            with torch.autograd.detect_anomaly():
                p = torch.tensor([1.0, 2.0], requires_grad=True)
                ((p - p.detach()) ** 2).sum().sqrt().backward()
    err = capsys.readouterr().err
    assert "UserWarning: Anomaly Detection has been enabled." in err
    assert "Error detected in PowBackward0. Traceback of forward call that caused the error:" in err
    assert "outside the notebook's cells" in err and 'File "' not in err
