"""What the checks of notebooks 11, 14 and 15 share: recognising an answer that is not there yet."""

from __future__ import annotations

from typing import Any

from ..exercises import Feedback, check_true


def no_answer(name: str, *answers: Any) -> bool:
    """True (and says so) when any answer is still the placeholder ``...`` or None."""
    if any(a is Ellipsis or a is None for a in answers):
        check_true(name, ...)
        return True
    return False


def not_a_function(name: str, answer: Any, what: str) -> Feedback | None:
    """The feedback for a function-valued answer that is missing or not callable, else None."""
    if no_answer(name, answer):
        return Feedback(False)
    if not callable(answer):
        return check_true(name, False, hint=f"{what} must be a function")
    return None
