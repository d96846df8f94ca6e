"""``nn.functional``: layers and losses as plain functions.

The graph each one records is PyTorch's: ``linear`` gives ``AddmmBackward0``,
``cross_entropy`` gives ``NllLossBackward0`` over ``LogSoftmaxBackward0``,
``mse_loss`` gives ``MseLossBackward0``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._dtype import dtype as DType
from .._messages import broadcast_error, scalar_name
from ..factories import check_number_arg, empty_like, zeros
from ..ops import activation as A
from ..ops import elementwise as U
from ..ops import losses as L
from ..ops import regression_losses as RL
from ..ops import softmax_family as R
from ..ops.arithmetic import div_scalar, mul_scalar
from ..ops.embedding import embedding as _embedding
from ..ops.indexing import one_hot as _one_hot
from ..ops.inplace import apply_inplace, masked_fill_
from ..ops.linalg import linear
from ..random.inplace import bernoulli_
from ..tensor import Tensor

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "dropout",
           "elu", "embedding", "gelu", "huber_loss", "kl_div", "l1_loss", "leaky_relu", "linear",
           "log_softmax", "mse_loss", "nll_loss", "one_hot", "relu", "relu_", "sigmoid", "silu",
           "smooth_l1_loss", "softmax", "softplus", "tanh"]


# ---- reductions (torch's _Reduction helpers) -------------------------------------------------

def _reduction_enum(reduction: str) -> int:
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "elementwise_mean":
        warnings.warn(
            "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
            stacklevel=3,
        )
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average: bool | None, reduce: bool | None,
                      emit_warning: bool = True) -> str:
    """The ``reduction`` string for the deprecated ``size_average``/``reduce`` arguments."""
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    ret = "mean" if (size_average and reduce) else ("sum" if reduce else "none")
    if emit_warning:
        warnings.warn(
            f"size_average and reduce args will be deprecated, please use reduction='{ret}' "
            "instead.", stacklevel=3,
        )
    return ret


# ---- activations ------------------------------------------------------------------------------

def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0)."""
    return input.relu_() if inplace else U.relu(input)


def relu_(input: Tensor) -> Tensor:
    """max(x, 0), in place."""
    return input.relu_()


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p) (training only).

    As torch's CPU kernel: Bernoulli(1-p) noise drawn into a tensor like ``input``, divided by
    1-p, then multiplied in (``MulBackward0``); out of training, or with p = 0, ``input`` itself.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        noise = zeros((), dtype=input.dtype)
    else:
        noise = bernoulli_(empty_like(input), 1 - p)
        noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + exp(-x))."""
    return U.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """tanh(x)."""
    return U.tanh(input)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.", stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: DType | None = None) -> Tensor:
    """exp(x_i) / sum_j exp(x_j) along ``dim``."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return R.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: DType | None = None) -> Tensor:
    """x_i - log(sum_j exp(x_j)) along ``dim``."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return R.log_softmax(input, dim, dtype=dtype)


# ---- losses -----------------------------------------------------------------------------------

def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             size_average: bool | None = None, ignore_index: int = -100,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """-input[i, target[i]], averaged (weighted) over the samples not ignored."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return L.nll_loss_nd(input, target, weight, _reduction_enum(reduction), ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """nll_loss(log_softmax(input, class dim), target); or, for a target of class
    probabilities (same shape as ``input``), -sum(target * log_softmax(input))."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    red = _reduction_enum(reduction)
    class_dim = 0 if input.dim() == 1 else 1
    if tuple(input.shape) == tuple(target.shape):
        return _cross_entropy_prob(input, target, weight, red, ignore_index, label_smoothing,
                                   class_dim)
    if not input.dtype.is_floating_point:
        kernel = "log_softmax_lastdim_kernel_impl" if input.dim() <= 2 else \
            "log_softmax_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{scalar_name(input.dtype)}'")
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(
                f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}"
            )
        return _cross_entropy_smoothed(input, target, weight, red, ignore_index,
                                       label_smoothing, class_dim)
    logp = R.log_softmax_keeping_exp(input, class_dim)
    loss = L.nll_loss_nd(logp, target, weight, red, ignore_index)
    node = loss.grad_fn
    # logp is private: a fused backward (the (N, C) form only; N-d inputs are viewed first)
    if type(node) is L.NllLossBackward0 and logp.grad_fn is not None:
        node.fused_with = logp.grad_fn
    return loss


def _cross_entropy_smoothed(input: Tensor, target: Tensor, weight: Tensor | None, red: int,
                            ignore_index: int, label_smoothing: float,
                            class_dim: int) -> Tensor:
    """(1 - s) * nll + s / C * (-sum of the log-probabilities), as torch composes it."""
    logp = R.log_softmax(input, class_dim)
    nll = L.nll_loss_nd(logp, target, weight, red, ignore_index)
    n_classes = input.shape[class_dim]
    ignore_mask = target == ignore_index
    if weight is not None:
        shape = [1] * logp.dim()
        shape[class_dim] = weight.shape[0]
        smooth = -(logp * weight.view(shape)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    masked_fill_(smooth, ignore_mask, 0.0)
    if red == 1:
        if weight is not None:
            kept = target[~ignore_mask].flatten()
            ret = smooth.sum() / weight[kept].sum()
        else:
            ret = smooth.sum() / (~ignore_mask).sum()
    elif red == 2:
        ret = smooth.sum()
    else:
        ret = smooth
    # torch's C++ ``(1 - s) * nll + ret * (s / C)`` evaluates the right operand first, so that
    # Mul node is the older one and runs second in backward
    smoothed = mul_scalar(ret, label_smoothing / n_classes)
    return mul_scalar(nll, 1 - label_smoothing) + smoothed


def _cross_entropy_prob(input: Tensor, target: Tensor, weight: Tensor | None, red: int,
                        ignore_index: int, label_smoothing: float, class_dim: int) -> Tensor:
    if not target.dtype.is_floating_point:
        raise RuntimeError("Expected floating point type for target with class probabilities, "
                           f"got {scalar_name(target.dtype)}")
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    n_classes = input.size(class_dim)  # torch's error for a 0-d input
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(
            f"cross_entropy: weight tensor should be defined either for all {n_classes} classes "
            f"or no classes but got weight tensor of shape: {list(weight.shape)}"
        )
    logp = R.log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(
                f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}"
            )
        target = mul_scalar(target, 1 - label_smoothing) + label_smoothing / n_classes
    prod = logp * target
    if weight is not None:
        shape = [1] * logp.dim()
        shape[class_dim] = n_classes
        prod = prod * weight.view(shape)
    if red == 1:
        if not logp.numel():  # torch: nothing to average, the sum is filled with nan
            return -prod.sum().fill_(float("nan"))
        return div_scalar(-prod.sum(), logp.numel() // n_classes)
    if red == 2:
        return -prod.sum()
    return -prod.sum(class_dim)


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean",
             weight: Tensor | None = None) -> Tensor:
    """mean((input - target)^2) (or sum, or elementwise with 'none')."""
    L.warn_size_mismatch(input, target, stacklevel=2)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        weighted = (input - target) ** 2 * weight
        if reduction == "none":
            return weighted
        if reduction == "sum":
            return weighted.sum()
        if reduction == "mean":
            return weighted.sum() / weight.sum()
        raise ValueError(
            f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'."
        )
    return L.mse_loss(input, target, _reduction_enum(reduction))



# ---- more activations, losses, one_hot, embedding ------------------------------------------

def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 rows with a 1 at each class index (``num_classes`` inferred when -1)."""
    return _one_hot(tensor, num_classes)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x if x > 0 else negative_slope * x."""
    check_number_arg("leaky_relu", "negative_slope", 2, negative_slope, max_dims=0)
    if inplace:
        return apply_inplace(input, lambda x: A.leaky_relu(x, negative_slope))
    return A.leaky_relu(input, negative_slope)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x), Phi the standard normal cdf (or its tanh approximation)."""
    return A.gelu(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x)."""
    if inplace:
        return apply_inplace(input, A.silu)
    return A.silu(input)


def softplus(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``softplus(input, beta=1.0, threshold=20.0)``: log(1 + exp(beta x)) / beta (x itself
    where beta x > threshold)."""
    values: dict[str, Any] = {"beta": 1.0, "threshold": 20.0}
    # torch's C++ binding names a position only for an argument given by position
    for i, (name, v) in enumerate(zip(values, args)):
        check_number_arg("softplus", name, i + 2, v, max_dims=0)
        values[name] = v
    for name, v in kwargs.items():
        if name not in values:
            raise TypeError(f"softplus() got an unexpected keyword argument '{name}'")
        check_number_arg("softplus", name, None, v, max_dims=0)
        values[name] = v
    return A.softplus(input, float(values["beta"]), float(values["threshold"]))


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x if x > 0 else alpha * (exp(x) - 1)."""
    check_number_arg("elu", "alpha", 2, alpha, max_dims=0)
    return A.elu(input, float(alpha))


def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
            reduce: bool | None = None, reduction: str = "mean",
            weight: Tensor | None = None) -> Tensor:
    """mean(|input - target|) (torch records it as sub, abs, mean)."""
    L.warn_size_mismatch(input, target, stacklevel=2)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    red = _reduction_enum(reduction)
    input, target = _broadcast(input, target)
    loss = (input - target).abs()
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        loss = loss * weight
        if red == 1:
            return loss.sum() / weight.sum()
    return loss if red == 0 else loss.mean() if red == 1 else loss.sum()


def _broadcast(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """``torch.broadcast_tensors(input, target)``: both expanded to one shape."""
    if input.shape == target.shape:
        return input, target
    try:
        shape = np.broadcast_shapes(tuple(input.shape), tuple(target.shape))
    except ValueError:
        raise broadcast_error(tuple(input.shape), tuple(target.shape)) from None
    return (input if input.shape == shape else input.expand(shape),
            target if target.shape == shape else target.expand(shape))


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target); L1 for
    beta = 0."""
    L.warn_size_mismatch(input, target, stacklevel=2)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    input, target = _broadcast(input, target)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    return RL.smooth_l1_loss(input, target, _reduction_enum(reduction), beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta) (d = input - target)."""
    L.warn_size_mismatch(input, target, stacklevel=2)
    input, target = _broadcast(input, target)
    if weight is None:
        return RL.huber_loss(input, target, _reduction_enum(reduction), delta)
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    loss = RL.huber_loss(input, target, 0, delta) * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    raise ValueError(
        f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'."
    )


def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None,
           reduce: bool | None = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """sum of target (log target - input): the KL divergence for log-probabilities ``input``
    ('batchmean': divided by the batch size; 'mean': by the number of elements)."""
    if size_average is not None or reduce is not None:
        red = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the "
                "support size.'batchmean' divides only by the batch size, and aligns with the "
                "KL div math definition.'mean' will be changed to behave the same as "
                "'batchmean' in the next major release.", stacklevel=2,
            )
        red = _reduction_enum("sum" if reduction == "batchmean" else reduction)
    if log_target:  # torch: exp(t) * (t - input)
        loss = target.exp() * (target - input)
    else:  # torch: xlogy(t, t) - t * input
        loss = RL.xlogy(target, target) - target * input
    loss = loss if red == 0 else loss.mean() if red == 1 else loss.sum()
    if reduction == "batchmean" and input.dim() != 0:
        loss = loss / input.size()[0]
    return loss


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """-(t log p + (1 - t) log(1 - p)) for probabilities p (each log clamped at -100)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    red = _reduction_enum(reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if weight is not None and weight.size() != input.size():
        weight = weight.expand(input.size())
    return L.binary_cross_entropy(input, target, weight, red)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None,
                                     size_average: bool | None = None,
                                     reduce: bool | None = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """BCE of sigmoid(input), computed stably from the logits."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    red = _reduction_enum(reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    return L.binary_cross_entropy_with_logits(input, target, weight, red, pos_weight)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of ``weight`` at the indices in ``input``."""
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding's max_norm, scale_grad_by_freq and sparse are not "
                                  "supported by autograd_lab")
    return _embedding(input, weight, padding_idx)
