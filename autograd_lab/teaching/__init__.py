"""Teaching helpers for the notebooks.

``exercises``: the feedback primitives (``check_close`` ...); ``checks``: one module per notebook
with the check of each exercise (``checks.nb01`` ...); ``data``: small seeded data sets.

Not part of the PyTorch-shaped API; the engine never imports this package.
"""
