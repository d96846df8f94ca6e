"""``DataLoader``: batches of a dataset, in order or shuffled, collated into tensors.

Each pass (``iter(loader)``) first draws a 64-bit base seed from the loader's generator (torch
seeds its worker processes with it; here batches are made in this process, but the draw is
kept so that the global random stream stays in step with torch's), then walks the batch
sampler. A shuffling loader's ``RandomSampler`` draws its own seed when the first batch is
taken.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Callable

from ...random import Generator
from .collate import default_collate, default_convert
from .dataset import Dataset, IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, random_int64

__all__ = ["DataLoader"]


class DataLoader:
    """Iterates over ``dataset`` in batches of ``batch_size`` (``None``: sample by sample)."""

    def __init__(self, dataset: Dataset, batch_size: int | None = 1,
                 shuffle: bool | None = None, sampler: Any = None, batch_sampler: Any = None,
                 num_workers: int = 0, collate_fn: Callable | None = None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable | None = None, multiprocessing_context: Any = None,
                 generator: Generator | None = None, *, prefetch_factor: int | None = None,
                 persistent_workers: bool = False, pin_memory_device: str = "",
                 in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if isinstance(dataset, IterableDataset):
            if shuffle not in (None, False):
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None and not isinstance(dataset, IterableDataset):
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None and sampler is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.generator = generator
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.prefetch_factor = prefetch_factor
        self.persistent_workers = persistent_workers
        self.in_order = in_order
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Iterator:
        indices = iter(self._index_sampler) if self._index_sampler is not None else None
        random_int64(self.generator)  # torch's base seed for its workers
        if isinstance(self.dataset, IterableDataset):
            return self._iterable(iter(self.dataset))
        return self._batches(indices)

    def _batches(self, indices: Iterator) -> Iterator:
        for idx in indices:
            if self._auto_collation:
                getitems = getattr(self.dataset, "__getitems__", None)
                data = getitems(idx) if getitems else [self.dataset[i] for i in idx]
            else:
                data = self.dataset[idx]
            yield self.collate_fn(data)

    def _iterable(self, it: Iterator) -> Iterator:
        if not self._auto_collation:
            for sample in it:
                yield self.collate_fn(sample)
            return
        batch: list = []
        for sample in it:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)  # type: ignore[arg-type]
            if self.batch_size is not None:
                full, rest = divmod(n, self.batch_size)
                return full if self.drop_last or not rest else full + 1
            return n
        return len(self._index_sampler)


DataLoader.__module__ = "torch.utils.data.dataloader"
Sampler.__module__ = "torch.utils.data.sampler"
