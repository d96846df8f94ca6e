"""Teaching helpers for the notebooks.

``exercises``: the feedback primitives (``check_close`` ...); ``checks``: one module per notebook
with the check of each exercise (``checks.nb01`` ...); ``data``: small seeded data sets;
``shown_warnings``: a notebook's warnings printed without the paths of the machine that ran it.

Not part of the PyTorch-shaped API; the engine never imports this package.
"""
