"""Checks for notebook 00 · Start here (the two warm-up exercises)."""

from __future__ import annotations

from typing import Any

from ..exercises import Feedback, check_close
from ._payloads import value_spec

NOTEBOOK = "00_start_here"


def ex1_total(total: Any) -> Feedback:
    """The sum of torch.arange(10)."""
    return check_close("total", total, 45,
                       hint="torch.arange(10) counts from 0 to 9; .sum() adds them")


def ex2_grad(grad: Any) -> Feedback:
    """x.grad of (x ** 3).sum() at [1, 2, 3]."""
    return check_close("x.grad", grad, [3.0, 12.0, 27.0], hint="the derivative of x**3 is 3 * x**2")


EXERCISES = {
    "ex1": value_spec(["total"], ex1_total),
    "ex2": value_spec(["grad"], ex2_grad),
}
