"""The size-aware precision policy: where autograd_lab rounds exactly as torch's CPU kernels
do, and where it takes numpy's faster arithmetic instead. The one place this is decided.

Teaching code prints small tensors to every digit, so below ``EXACT_BELOW`` elements (torch's
``GRAIN_SIZE``, 32768: above it torch itself splits the work over threads) autograd_lab
replays torch's arithmetic bit for bit:

* softmax, log_softmax and cross-entropy over the last dim: exp and log in double rounded to
  float32, row sums in torch's vector order (``ops.softmax_family``);
* optimizer updates: ``p + (-lr) * g`` and the other ``a * b + c`` of SGD, Adam, RMSprop and
  Adagrad rounded once, as the fused multiply-adds of torch's kernels (``optim.optimizer``).

At or above ``EXACT_BELOW`` elements, where a training loop spends its time and nobody compares
last bits, the same formulas run in numpy in the tensor's own dtype (float32 stays float32;
an update is rounded twice, a softmax uses numpy's exp). Results then agree with torch's to a
few units in the last place. One exception costs nothing: an update ``p + a * g`` with a number
``a`` (SGD's step, ``_fma`` with a scalar factor) runs as BLAS's ``axpy`` from numpy's own
OpenBLAS where numpy ships it (``_blas``), one pass with one rounding, so it matches torch's at
every size.

Matrix products round as no other library's: each entry is a sum of products in the order of a
BLAS kernel's blocking (numpy's OpenBLAS, or, for large float32 products where they are
faster, its AVX2 kernels from a private copy: ``_gemm``), and torch's MKL blocks differently.
Products of small integers, and other exact ones, agree everywhere.

Sums (``x.sum()``, means, the bias gradients of ``nn.Linear``) replay torch's order of
additions at every size (``ops.summation``): that replay costs little, and a sum is what a
loss printed to every digit is made of.
"""

from __future__ import annotations

EXACT_BELOW = 32768  # elements; torch's GRAIN_SIZE


def exact(size: int) -> bool:
    """Whether a kernel over ``size`` elements replays torch's rounding bit for bit."""
    return size < EXACT_BELOW
