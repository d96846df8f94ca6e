"""torch's CPU random engine: a 32-bit Mersenne Twister with torch's seeding and state bytes.

torch seeds with the reference ``init_genrand(seed & 0xffffffff)`` and keeps the full 64-bit
seed for ``initial_seed()``.  The twister itself runs in numpy's ``MT19937`` bit generator,
whose key/position state maps one to one onto torch's ``(state, left, next)``:
torch's next output is ``temper(state[next])`` and it regenerates the block when ``left``
reaches 1, i.e. numpy's ``pos == next`` with ``left == 625 - pos``.

``get_state`` returns the bytes of torch's ``CPUGeneratorImplState`` (5056 bytes): the legacy
struct (seed, left, seeded, next, 624 state words widened to 64 bits, the cached double
normal in ``normal_y`` with ``normal_is_valid``) followed by the cached float normal and its
flag.  The same bytes load into torch and back.
"""

from __future__ import annotations

import numpy as np

N = 624
STATE_SIZE = 5056
_SEED, _LEFT, _SEEDED, _NEXT, _KEY = 0, 8, 12, 16, 24
_NORMAL_Y, _NORMAL_VALID = 5024, 5040  # double normal_x, normal_y, normal_rho from 5016
_FLOAT_NORMAL, _FLOAT_VALID = 5048, 5052
_U32 = np.uint32


def init_genrand(seed: int) -> np.ndarray:
    """The 624-word state ``init_genrand`` builds from the low 32 bits of ``seed``."""
    key = [seed & 0xFFFFFFFF]
    for j in range(1, N):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


def temper(y: np.ndarray) -> np.ndarray:
    """mt19937's output transform of state words."""
    y = y.astype(np.uint32)
    y ^= y >> _U32(11)
    y ^= (y << _U32(7)) & _U32(0x9D2C5680)
    y ^= (y << _U32(15)) & _U32(0xEFC60000)
    y ^= y >> _U32(18)
    return y


class MT19937:
    """One generator's stream: 32-bit draws, 64-bit draws, cached normals, torch state bytes.

    The numpy bit generator and the seeded state are made on first use, so that creating
    and seeding generators (and importing the package) stays cheap.
    """

    __slots__ = ("seed", "_gen", "_fresh", "_next_when_empty", "_pending", "double_normal",
                 "float_normal")

    def __init__(self, seed: int) -> None:
        self._gen: np.random.Generator | None = None
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> None:
        """Seed as ``mt19937(seed)``: next draw regenerates the block (left 1, next 0)."""
        self.seed = seed
        self._fresh = True  # the state is init_genrand(seed) at position 624, not yet loaded
        self._next_when_empty = 0  # what torch reports as `next` while numpy's pos is 624
        self._pending = (0, 0)  # (index, count) of state words to output before regenerating
        self.double_normal: float | None = None
        self.float_normal: float | None = None

    @property
    def _draw(self) -> np.random.Generator:
        """numpy's Generator over the bit generator holding this stream's state."""
        if self._gen is None:
            self._gen = np.random.Generator(np.random.MT19937(0))
        if self._fresh:
            self._fresh = False
            self._load(init_genrand(self.seed), N)
        return self._gen

    @property
    def _bits(self) -> np.random.MT19937:
        return self._draw.bit_generator

    def _load(self, key: np.ndarray, pos: int) -> None:
        if self._gen is None:
            self._gen = np.random.Generator(np.random.MT19937(0))
        self._fresh = False
        self._gen.bit_generator.state = {"bit_generator": "MT19937",
                                         "state": {"key": key, "pos": pos}}

    def random(self, n: int) -> np.ndarray:
        """``n`` successive 32-bit outputs (torch's ``random()``), as uint32."""
        start, count = self._pending
        if count:
            take = min(n, count)
            key = self._bits.state["state"]["key"]
            head = temper(key[start:start + take])
            self._pending = (start + take, count - take)
            self._next_when_empty = start + take
            if take == n:
                return head
            return np.concatenate([head, self.random(n - take)])
        if n <= 0:
            return np.empty(0, np.uint32)
        self._next_when_empty = N
        return self._draw.integers(0, 1 << 32, n, dtype=np.uint32)

    def random64(self, n: int) -> np.ndarray:
        """``n`` 64-bit draws ``(first << 32) | second`` (torch's ``random64()``), as uint64."""
        r = self.random(2 * n).astype("<u4", copy=False).view("<u8")  # (second << 32) | first
        out = r << np.uint64(32)
        r >>= np.uint64(32)
        out |= r
        return out

    # ---- torch's state bytes ---------------------------------------------------------------

    def get_state(self) -> np.ndarray:
        st = self._bits.state["state"]
        pos = int(st["pos"])
        start, count = self._pending
        if count:
            left, nxt = count + 1, start
        elif pos >= N:
            left, nxt = 1, self._next_when_empty
        else:
            left, nxt = N + 1 - pos, pos
        out = np.zeros(STATE_SIZE, np.uint8)
        out[_SEED:_SEED + 8] = np.array([self.seed], np.uint64).view(np.uint8)
        out[_LEFT:_LEFT + 4] = np.array([left], np.int32).view(np.uint8)
        out[_SEEDED:_SEEDED + 4] = np.array([1], np.int32).view(np.uint8)
        out[_NEXT:_NEXT + 8] = np.array([nxt], np.uint64).view(np.uint8)
        out[_KEY:_KEY + 8 * N] = st["key"].astype(np.uint64).view(np.uint8)
        if self.double_normal is not None:
            out[_NORMAL_Y:_NORMAL_Y + 8] = np.array([self.double_normal]).view(np.uint8)
            out[_NORMAL_VALID] = 1
        if self.float_normal is not None:
            out[_FLOAT_NORMAL:_FLOAT_NORMAL + 4] = (
                np.array([self.float_normal], np.float32).view(np.uint8))
            out[_FLOAT_VALID] = 1
        return out

    def set_state(self, raw: np.ndarray) -> None:
        """Load torch state bytes (already checked to be STATE_SIZE uint8)."""
        raw = np.ascontiguousarray(raw, dtype=np.uint8)
        seed = int(raw[_SEED:_SEED + 8].view(np.uint64)[0])
        left = int(raw[_LEFT:_LEFT + 4].view(np.int32)[0])
        seeded = int(raw[_SEEDED:_SEEDED + 4].view(np.int32)[0])
        nxt = int(raw[_NEXT:_NEXT + 8].view(np.uint64)[0]) & 0xFFFFFFFF
        if not (seeded and 0 < left <= N and nxt <= N):
            raise RuntimeError("Invalid mt19937 state")
        key = raw[_KEY:_KEY + 8 * N].view(np.uint64).astype(np.uint32)  # words truncate to 32 bits
        self.seed = seed
        if left == 1 or left + nxt == N + 1:
            self._load(key, N + 1 - left)
            self._pending = (0, 0)
        else:  # a state torch itself never produces: serve state[next:next+left-1] first
            self._load(key, N)
            self._pending = (nxt, max(0, min(left - 1, N - nxt)))
        self._next_when_empty = nxt
        self.double_normal = (float(raw[_NORMAL_Y:_NORMAL_Y + 8].view(np.float64)[0])
                              if raw[_NORMAL_VALID:_NORMAL_VALID + 4].any() else None)
        self.float_normal = (float(raw[_FLOAT_NORMAL:_FLOAT_NORMAL + 4].view(np.float32)[0])
                             if raw[_FLOAT_VALID] else None)

    def clone_from(self, other: MT19937) -> None:
        self.set_state(other.get_state())
