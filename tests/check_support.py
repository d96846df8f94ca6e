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


SEEDS = (1, 7, 2026)  # the grader's variants: fresh inputs the notebooks never show


def through_registry(module: Any, exercise: str, ns: dict, seeds: tuple = SEEDS) -> list:
    """(status, message) of ``collect`` + ``judge`` for the fixed variant and each seed; the
    payload goes through JSON, as it does from a student's kernel to the grader."""
    import json

    from autograd_lab.teaching.grading import EXERCISES, Variant

    ex = EXERCISES[module.NOTEBOOK][exercise]
    out = []
    for v in [Variant(0, True)] + [Variant(s, False) for s in seeds]:
        payload = json.loads(json.dumps(ex.collect(dict(ns), v)))
        out.append(ex.judge(payload, v))
    return out


def passes(module: Any, exercise: str, ns: dict) -> None:
    """The answer in ``ns`` passes on the notebook's example and on every fresh variant."""
    got = through_registry(module, exercise, ns)
    assert all(s == "passed" for s, _ in got), got


def fails(module: Any, exercise: str, ns: dict, *words: str, fixed: bool = True) -> None:
    """The answer fails on every fresh variant (and on the notebook's example unless
    ``fixed=False``), with ``words`` in each message; no message counts wrong answers."""
    got = through_registry(module, exercise, ns)
    judged = got if fixed else got[1:]
    assert all(s in ("failed", "unanswered") for s, _ in judged), got
    for _, message in judged:
        for w in words:
            assert w in message, (w, message)
        assert " of the " not in message or "wrong" not in message, message
