"""``torch.utils.data``: datasets, samplers and the ``DataLoader`` that batches them.

With ``torch.manual_seed(s)`` a shuffling ``DataLoader`` yields the batches torch's does: the
samplers draw their seeds and permutations from torch's generator (:mod:`autograd_lab.random`)
exactly as torch's do (see :mod:`.sampler`).
"""

from .collate import default_collate, default_convert
from .dataloader import DataLoader
from .dataset import (
    ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split,
)
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler

__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler",
           "TensorDataset", "default_collate", "default_convert", "random_split"]
