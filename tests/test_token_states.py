"""Reading stored token states: the fast header match, its fallback and damaged files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agent_sleep.retrieval.token_states import TokenStates, dequantize, quantize, read_states


def _states(seed: int, rows: int, dim: int = 384) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _reference(path: Path) -> np.ndarray:
    """What a state file holds, read the plain way (np.load)."""
    return np.load(path, allow_pickle=False)


def test_stored_states_read_back_bit_for_bit(tmp_path: Path) -> None:
    cache = TokenStates()
    fresh = {f"m|h{i}": _states(i, rows) for i, rows in enumerate((1, 7, 40, 128))}
    cache.write(tmp_path, fresh)
    got = read_states(tmp_path, list(fresh))
    assert set(got) == set(fresh)
    for key in fresh:
        want = _reference(tmp_path / f"{key.split('|')[1]}.npy")
        assert got[key].dtype == np.int8
        assert got[key].tobytes() == want.tobytes() and got[key].shape == want.shape
        assert got[key].base is None  # a copy: not a view of the bytes read
        assert float((dequantize(got[key]) * fresh[key]).sum(1).min()) > 0.999


def test_other_npy_layouts_go_through_numpy(tmp_path: Path) -> None:
    """A file of another .npy version or order is read by np.load, not refused."""
    packed = quantize(_states(3, 9))
    with open(tmp_path / "v2.npy", "wb") as f:
        np.lib.format.write_array(f, packed, version=(2, 0), allow_pickle=False)
    np.save(tmp_path / "fortran.npy", np.asfortranarray(packed))
    got = read_states(tmp_path, ["m|v2", "m|fortran"])
    for key in ("m|v2", "m|fortran"):
        assert np.array_equal(got[key], packed) and got[key].dtype == np.int8


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[:-5],  # cut short
        lambda b: b + b"\0" * 3,  # too long
        lambda b: b[:20],  # header cut
        lambda b: b"",
        lambda b: b"\x93NUMPY\x01\x00\xff\xff" + b[10:],  # header length past the end
        lambda b: b.replace(b"'|i1'", b"'<f8'"),  # another dtype than its bytes hold
    ],
)
def test_a_damaged_state_file_is_a_miss(tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    cache = TokenStates()
    cache.write(tmp_path, {"m|good": _states(1, 5), "m|bad": _states(2, 6)})
    bad = tmp_path / "bad.npy"
    bad.write_bytes(damage(bad.read_bytes()))
    got = read_states(tmp_path, ["m|good", "m|bad", "m|absent"])
    assert list(got) == ["m|good"]


def test_states_of_another_width_do_not_spoil_the_others(tmp_path: Path) -> None:
    cache = TokenStates()
    cache.write(tmp_path, {"m|a": _states(1, 4), "m|b": _states(2, 3, dim=8)})
    got = read_states(tmp_path, ["m|a", "m|b"])
    assert got["m|a"].shape == (4, 384) and got["m|b"].shape == (3, 8)
    assert np.array_equal(got["m|b"], _reference(tmp_path / "b.npy"))
