"""The results table (text) and its JSON form."""

from __future__ import annotations

import math
import statistics
from typing import Any

from .harness import IMPLS, Result, Row, Workload

COLS = (38, 13, 10, 10, 27, 16, 8)  # label, 3 implementations, ratio, target, result


def fmt(v: float | None, unit: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if unit == "bool":
        return "yes" if v >= 1 else "NO"
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3f}"


def row_data(w: Workload, res: Result, row: Row) -> dict[str, Any]:
    """Numbers of one row: value per implementation, ratio, target and verdict."""
    values: dict[str, float | None] = {}
    for impl in IMPLS:
        m = res.median(impl, row.metric)
        values[impl] = None if m is None else m * row.scale
    ratio = spread = None
    if row.ref is not None:
        # Ratios are taken within each round (the two ran moments apart), then the median.
        per_round = res.ratios("autograd_lab", row.ref, row.metric)
        if per_round:
            ratio, spread = statistics.median(per_round), (min(per_round), max(per_round))
    verdict = None
    if row.target is not None:
        ok = row.target.check(values["autograd_lab"], ratio)
        verdict = None if ok is None else ("pass" if ok else "MISS")
    ranges = {impl: res.spread(impl, row.metric) for impl in IMPLS}
    ranges = {impl: None if r is None else (r[0] * row.scale, r[1] * row.scale)
              for impl, r in ranges.items()}
    return {"label": row.label, "unit": row.unit, "values": values, "ranges": ranges,
            "ratio": ratio, "ratio_range": spread,
            "ref": row.ref, "target": row.target.text if row.target else None,
            "result": verdict}


def _cell(w: Workload, res: Result, impl: str, v: float | None, unit: str) -> str:
    if impl not in res.present:
        return "-"
    if impl in res.errors and v is None:
        return "err"
    return fmt(v, unit)


def _line(cells: list[str]) -> str:
    label, *rest = cells
    return "  " + label.ljust(COLS[0]) + "".join(c.rjust(n) for c, n in zip(rest, COLS[1:]))


def header() -> str:
    return _line(["", *IMPLS, "ratio", "target", "result"])


def table(w: Workload, res: Result) -> tuple[list[str], list[dict[str, Any]]]:
    """Lines of text for one workload, and its rows as data."""
    lines, rows = [w.title], []
    for row in w.rows:
        d = row_data(w, res, row)
        rows.append(d)
        ratio = "-" if d["ratio"] is None else (
            f"{d['ratio']:.2f}x {row.ref} ({d['ratio_range'][0]:.2f}..{d['ratio_range'][1]:.2f})")
        if row.ref is None:
            ratio = ""
        lines.append(_line([
            row.label,
            *(_cell(w, res, impl, d["values"][impl], row.unit) for impl in IMPLS),
            ratio, d["target"] or "", d["result"] or ("-" if row.target else ""),
        ]))
    if row_ranges := [d for d in rows if d["unit"] not in ("bool", "MB")]:
        spans = []
        for impl in IMPLS:
            r = row_ranges[0]["ranges"].get(impl)
            if r is not None:
                spans.append(f"{impl} {fmt(r[0], row_ranges[0]['unit'])}..{fmt(r[1], row_ranges[0]['unit'])}")
        if spans:
            lines.append(f"    min..max of '{row_ranges[0]['label'].strip()}' over the rounds: "
                         + ", ".join(spans))
    for impl, err in res.errors.items():
        lines.append(f"  ! {impl} failed: {err[:200]}")
    return lines, rows


def summary(rows: list[dict[str, Any]]) -> str:
    verdicts = [r["result"] for r in rows if r["target"] is not None]
    return (f"targets: {verdicts.count('pass')} pass, {verdicts.count('MISS')} miss, "
            f"{verdicts.count(None)} not measured")
