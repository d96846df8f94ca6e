"""Verdict helpers for the exercise-check tests: a check printed ✓, or ✗/… with given words."""

from __future__ import annotations

from typing import Any


def right(capsys: Any, fb: Any) -> None:
    """The check said correct."""
    out = capsys.readouterr().out
    assert fb and "✓" in out, out


def wrong(capsys: Any, fb: Any, *words: str) -> None:
    """The check said wrong (or unanswered), and its message holds ``words``."""
    out = capsys.readouterr().out
    assert not fb and ("✗" in out or "…" in out), out
    for w in words:
        assert w in out, out
