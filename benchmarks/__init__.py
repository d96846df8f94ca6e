"""Speed and memory comparisons of autograd_lab with PyTorch and hand-written numpy.

Run ``python benchmarks/run.py`` (see ``benchmarks/README.md``).
"""
