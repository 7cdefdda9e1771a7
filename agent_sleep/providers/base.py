"""Model providers behind one small interface: system prompt, payload (a dict), JSON schema in;
a JSON object and the token usage out.

- ``anthropic`` (:mod:`agent_sleep.providers.anthropic`): the official SDK with structured
  outputs, temperature 0, retries and a timeout; imported only when a call is made. Default
  when ``ANTHROPIC_API_KEY`` is set.
- ``openai`` (:mod:`agent_sleep.providers.openai`): any OpenAI-compatible server (Ollama,
  llama.cpp, vLLM, LM Studio) through the official SDK, with format fallbacks for small models.
- ``offline``: the deterministic consolidator in :mod:`agent_sleep.providers.offline`.
  Default otherwise.

:func:`ask` adds what every caller needs on top: schema validation and one repair retry.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from agent_sleep.core import schema as jsonschema
from agent_sleep.core.errors import AgentSleepError, BadInput

PROVIDER_ENV = "AGENT_SLEEP_PROVIDER"
MODEL_ENV = "AGENT_SLEEP_MODEL"
TIMEOUT_ENV = "AGENT_SLEEP_TIMEOUT"
RETRIES_ENV = "AGENT_SLEEP_MAX_RETRIES"

T = TypeVar("T")


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.calls + other.calls,
        )


class InvalidOutput(AgentSleepError):
    """The model answered, but not with a JSON object (worth one repair retry)."""

    def __init__(self, message: str, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()


class UnusableReply(AgentSleepError):
    """The model's reply was unusable twice; ``usage`` is what the attempts spent (a failed
    run's journal line reports it)."""

    def __init__(self, message: str, usage: Usage) -> None:
        super().__init__(message)
        self.usage = usage


class Provider(Protocol):
    name: str
    model: str
    max_notes: int

    def complete(
        self,
        system: str,
        payload: dict[str, Any],
        schema: dict[str, Any],
        *,
        repair: str | None = None,
    ) -> tuple[dict[str, Any], Usage]:
        """One JSON object for ``payload`` (the task and its fields, a dict), shaped by
        ``schema``; ``repair`` says what was wrong with the previous reply, on a retry."""
        ...


MAX_TIMEOUT = 1_000_000.0  # seconds; far larger values overflow the socket's timer


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    try:
        return float(raw) if raw else default
    except ValueError as e:
        raise BadInput(f"${name}={raw!r} is not a number") from e


def timeout_setting(value: float | None, default: float) -> float:
    """Seconds per call: ``value``, else ``$AGENT_SLEEP_TIMEOUT``, else ``default``; a finite
    number > 0 (at most :data:`MAX_TIMEOUT`), else :class:`BadInput` before any call is made."""
    seconds = env_float(TIMEOUT_ENV, default) if value is None else value
    if not (isinstance(seconds, int | float) and 0 < seconds <= MAX_TIMEOUT):
        given = (
            f"${TIMEOUT_ENV}={os.environ.get(TIMEOUT_ENV, '')!r}"
            if value is None
            else f"timeout={value!r}"
        )
        raise BadInput(
            f"{given} is not a valid timeout: give a number of seconds greater than 0 and at most "
            f"{MAX_TIMEOUT:.0f}"
        )
    return float(seconds)


def retries_setting(value: int | None, default: int) -> int:
    """Retries per call: ``value``, else ``$AGENT_SLEEP_MAX_RETRIES``, else ``default``; an
    integer >= 0, else :class:`BadInput` before any call is made."""
    count = env_float(RETRIES_ENV, default) if value is None else value
    whole = isinstance(count, int) or (isinstance(count, float) and count.is_integer())
    if not (whole and count >= 0):
        given = (
            f"${RETRIES_ENV}={os.environ.get(RETRIES_ENV, '')!r}"
            if value is None
            else f"max_retries={value!r}"
        )
        raise BadInput(f"{given} is not a valid retry count: give an integer >= 0")
    return int(count)


class CallTimedOut(Exception):  # noqa: N818 (internal: a provider turns it into its own error)
    """A call was still running at its deadline (:func:`within`)."""


def within(seconds: float, call: Callable[[], T], abandon: Callable[[], None]) -> T:
    """``call()``, given ``seconds`` in all: :class:`CallTimedOut` when it has not returned
    by then, however the server sends its bytes.

    The SDKs' own timeout applies to each read of the socket, so a server that trickles a byte
    now and then keeps a call alive for ever. The call runs in a daemon thread; at the deadline
    ``abandon()`` is called (it closes the client, so the abandoned request stops at its next
    read and a local server sees the connection go) and the call's result, if it ever comes,
    is dropped."""
    box: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as e:  # handed to the caller's thread below
            box["error"] = e
        finally:
            done.set()

    threading.Thread(target=run, name="agent-sleep-model-call", daemon=True).start()
    if not done.wait(seconds):
        with contextlib.suppress(Exception):  # closing a half-used client may fail
            abandon()
        raise CallTimedOut(f"no answer within {seconds:g}s")
    if "error" in box:
        raise box["error"]
    return box["value"]


def retryable(status: int | None) -> bool:
    """Whether a failed call is worth another try: no answer at all (a refused or dropped
    connection, ``status`` None), 429, or a 5xx (Anthropic's 529 included). Never a timeout:
    the caller does not get here for one."""
    return status is None or status == 429 or status >= 500


def after_retries(count: int) -> str:
    """``count`` retries as an error message says them: ``" after 2 retries"``,
    ``" after 1 retry"``, ``""`` for none."""
    if count <= 0:
        return ""
    return f" after {count} {'retry' if count == 1 else 'retries'}"


def describe(error: BaseException, size: int = 300) -> str:
    """An SDK error on one line, with its cause when the SDK's own words say little: "Connection
    error." is a refused connection ("[Errno 111] Connection refused") or a dropped one ("Server
    disconnected without sending a response.")."""
    text = " ".join(str(error).split())
    cause = error.__cause__
    if cause is not None:
        why = " ".join(str(cause).split())
        if why and why not in text:
            text = f"{text} {why}" if text else why
    return text[:size]


def snippet(text: str, size: int = 60) -> str:
    """The start of a server's unexpected answer, on one line, quoted (for error messages)."""
    return repr(" ".join(text[: size * 4].split())[:size])


def token_count(value: object) -> int:
    """A token count as a reply reports it; anything but a non-negative integer counts 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def get_provider(
    name: str | None = None,
    model: str | None = None,
    *,
    base_url: str | None = None,
    context_tokens: int | None = None,
) -> Provider:
    """``name`` (or ``$AGENT_SLEEP_PROVIDER``); by default openai when ``base_url`` is given,
    else anthropic when a key is set, else offline. ``context_tokens`` bounds what one call
    may hold (the sleep and flush batches); the offline provider has no such limit."""
    chosen = (name or os.environ.get(PROVIDER_ENV) or "").strip().lower()
    if not chosen:
        if base_url:
            chosen = "openai"
        else:
            chosen = "anthropic" if os.environ.get("ANTHROPIC_API_KEY") else "offline"
    if base_url and chosen != "openai":
        raise BadInput(f"--base-url is for --provider openai, not {chosen}")
    if chosen == "openai":
        from agent_sleep.providers.openai import OpenAIProvider

        return OpenAIProvider(model, base_url=base_url, context_tokens=context_tokens)
    if chosen == "anthropic":
        from agent_sleep.providers.anthropic import AnthropicProvider

        prov = AnthropicProvider(model)
        if context_tokens is not None:
            prov.context_tokens = context_tokens
        return prov
    if chosen == "offline":
        from agent_sleep.providers.offline import OfflineProvider

        return OfflineProvider()
    raise BadInput(f"unknown provider {chosen!r}: use anthropic, openai or offline")


@dataclass(frozen=True)
class Answer:
    data: dict[str, Any]
    usage: Usage
    repairs: int


def ask(
    provider: Provider,
    system: str,
    payload: dict[str, Any],
    schema: dict[str, Any],
    *,
    request_schema: dict[str, Any] | None = None,
) -> Answer:
    """One validated JSON answer; one repair retry; else an error and nothing written.

    ``request_schema`` (default ``schema``) is what the provider is sent, e.g. a copy bounded
    for one batch; the reply is validated against ``schema`` all the same."""
    sent = schema if request_schema is None else request_schema
    usage = Usage()
    problems = ""
    for attempt in range(2):
        try:
            data, used = provider.complete(
                system, payload, sent, repair=problems if attempt else None
            )
        except InvalidOutput as e:
            usage += e.usage
            problems = str(e)
            continue
        usage += used
        errs = jsonschema.errors(data, schema)
        if not errs:
            return Answer(data, usage, attempt)
        problems = "; ".join(errs[:8])
    raise UnusableReply(
        f"the {provider.name} model's reply was unusable twice ({problems}); nothing was written. "
        "Run again, or use --provider offline",
        usage,
    )
