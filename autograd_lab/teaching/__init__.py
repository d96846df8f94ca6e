"""Teaching helpers for the notebooks.

``exercises``: the feedback primitives (``check_close`` ...); ``checks``: one module per notebook
with the check of each exercise (``checks.nb01`` ...); ``data``: small seeded data sets;
``shown_warnings``: a notebook's warnings printed without the paths of the machine that ran it.

Not part of the PyTorch-shaped API; the engine never imports this package.
"""

# In a notebook, graphs and figures drawn by the notebook's own code (a graphviz.Digraph, a
# matplotlib figure) get a text alternative that JupyterLab shows.
from ..viz.notebook_display import install as _install_text_alternatives

_install_text_alternatives()
