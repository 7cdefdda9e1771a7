"""A search's numpy products run on one BLAS thread, and the caller's setting comes back."""

from __future__ import annotations

import threading

import pytest

from agent_sleep.retrieval import numpy_encoder
from agent_sleep.retrieval.numpy_encoder import one_blas_thread


def _api():  # type: ignore[no-untyped-def]
    api = numpy_encoder._openblas()
    if api is None:
        pytest.skip("numpy does not run on an OpenBLAS found here")
    return api


def test_one_thread_inside_and_the_callers_count_after() -> None:
    get, put = _api()
    before = get()
    put(2)
    try:
        with one_blas_thread():
            assert get() == 1
            with one_blas_thread():
                assert get() == 1
            assert get() == 1  # the inner block does not restore early
        assert get() == 2
    finally:
        put(before)


def test_concurrent_blocks_restore_once_the_last_ends() -> None:
    get, put = _api()
    before = get()
    put(2)
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with one_blas_thread():
            inside.set()
            release.wait(10)

    t = threading.Thread(target=other)
    try:
        t.start()
        assert inside.wait(10)
        with one_blas_thread():
            assert get() == 1
        assert get() == 1  # the other thread's block is still open
        release.set()
        t.join(10)
        assert get() == 2
    finally:
        release.set()
        put(before)


def test_a_search_of_a_large_index_computes_on_one_thread(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    from agent_sleep.retrieval import index_matrix

    get, _ = _api()
    seen: list[int] = []

    class Probe(np.ndarray):
        def __rmatmul__(self, other):  # type: ignore[no-untyped-def]
            seen.append(get())
            return np.asarray(other) @ np.asarray(self)

    rng = np.random.default_rng(1)
    vectors = index_matrix.Vectors([np.asfortranarray(rng.random((64, 8), dtype=np.float32))])
    query = rng.random(8, dtype=np.float32).view(Probe)
    vectors.cosines(query, 0, np.array([], dtype=np.int64))
    assert seen and set(seen) == {1}


def _cli_import(env_threads: str | None) -> str:
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = str(ROOT)
    if env_threads is not None:
        env["OPENBLAS_NUM_THREADS"] = env_threads
    code = (
        "import os\n"
        "from agent_sleep.cli.common import numpy_on_one_thread\n"
        "numpy_on_one_thread()\n"
        "from agent_sleep.retrieval import numpy_encoder\n"
        "numpy_encoder._blas = False  # look the library up again\n"
        "api = numpy_encoder._openblas()\n"
        "print(api[0]() if api else 'none', os.environ.get('OPENBLAS_NUM_THREADS'))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_the_search_commands_load_numpy_on_one_thread_and_leave_no_variable() -> None:
    _api()
    assert _cli_import(None) == "1 None"


def test_a_thread_count_the_user_set_is_kept() -> None:
    import os

    _api()
    if (os.cpu_count() or 1) < 2:
        pytest.skip("OpenBLAS runs one thread on one core whatever is asked")
    assert _cli_import("2") == "2 2"


def test_the_numpy_encoder_computes_on_one_thread(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from agent_sleep.retrieval.numpy_encoder import NumpyEncoder

    get, put = _api()
    before = get()
    seen: list[int] = []
    monkeypatch.setattr(NumpyEncoder, "_states", lambda self, ids: seen.append(get()))
    put(2)
    try:
        NumpyEncoder.states(object.__new__(NumpyEncoder), [101, 102])
        assert seen == [1] and get() == 2
    finally:
        put(before)
