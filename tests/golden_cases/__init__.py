"""Golden parity cases: one module per area, each defining ``CASES: list[dict]``."""
