"""Teaching helpers for the notebooks.

``exercises``: the checks that answer each exercise; ``data``: small seeded data sets.

Not part of the PyTorch-shaped API; the engine never imports this package.
"""
