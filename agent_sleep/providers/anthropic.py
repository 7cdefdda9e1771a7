"""Claude through the official SDK, with structured outputs, temperature 0, retries and a
timeout. The SDK is imported only when a call is made (``import anthropic`` costs about 1.3 s).

Retries and the timeout are ours, as for the openai provider: the SDK's ``max_retries`` is 0
(it retries timeouts, so a hung endpoint held a run (retries + 1) x timeout). 429, 5xx (529
included) and connections refused or dropped are retried ``$AGENT_SLEEP_MAX_RETRIES`` times
with backoff honouring ``retry-after``; ``$AGENT_SLEEP_TIMEOUT`` is a deadline for the whole
call (:func:`agent_sleep.providers.base.within`), and a call past it is not retried. The reply
is read by :func:`agent_sleep.providers.replies.answer_object`, as the openai provider's is."""

from __future__ import annotations

import functools
import json
import logging
import os
import time
from typing import Any

from agent_sleep.core.errors import AgentSleepError
from agent_sleep.providers import prompts
from agent_sleep.providers.base import (
    MODEL_ENV,
    TIMEOUT_ENV,
    CallTimedOut,
    InvalidOutput,
    Usage,
    after_retries,
    describe,
    retries_setting,
    retryable,
    snippet,
    timeout_setting,
    token_count,
    within,
)
from agent_sleep.providers.replies import answer_object, backoff

log = logging.getLogger(__name__)

DEFAULT_MODEL = "claude-haiku-4-5"
DEFAULT_TIMEOUT = 120.0
DEFAULT_RETRIES = 3
MAX_OUTPUT_TOKENS = 16000


class AnthropicProvider:
    """Claude through the official SDK; honours ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL."""

    name = "anthropic"
    max_notes = 300
    context_tokens = 200_000  # sleep and flush split a larger backlog into batches that fit

    def __init__(
        self,
        model: str | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
    ) -> None:
        self.model = model or os.environ.get(MODEL_ENV) or DEFAULT_MODEL
        self.timeout = timeout_setting(timeout, DEFAULT_TIMEOUT)
        self.max_retries = retries_setting(max_retries, DEFAULT_RETRIES)
        self._client: Any = None
        self.temperature_ok = True

    def _create(self, client: Any, system: str, user: str, schema: dict[str, Any]) -> Any:
        return client.messages.create(
            model=self.model,
            max_tokens=MAX_OUTPUT_TOKENS,
            system=system,
            messages=[{"role": "user", "content": user}],
            output_config={"format": {"type": "json_schema", "schema": schema}},
            extra_body={"temperature": 0} if self.temperature_ok else None,
        )

    def _get_client(self) -> Any:
        if self._client is None:
            try:
                import anthropic
            except ImportError as e:
                raise AgentSleepError(
                    "the anthropic package is not installed: pip install 'anthropic>=2.14', "
                    "or use --provider offline"
                ) from e
            if not (os.environ.get("ANTHROPIC_API_KEY") or os.environ.get("ANTHROPIC_AUTH_TOKEN")):
                raise AgentSleepError(
                    "no API key: set ANTHROPIC_API_KEY, or use --provider offline"
                )
            # no SDK retries: it would retry a timeout (ours, below, never do)
            self._client = anthropic.Anthropic(timeout=self.timeout, max_retries=0)
        return self._client

    def _abandon(self) -> None:
        """Drop the client of a call past its deadline, closing its connections."""
        client, self._client = self._client, None
        if client is not None:
            client.close()

    def _send(self, system: str, user: str, schema: dict[str, Any]) -> Any:
        """One message: the temperature fallback, our retries, the deadline (module docstring)."""
        import anthropic

        attempt = 0
        while True:
            client = self._get_client()
            call = functools.partial(self._create, client, system, user, schema)
            try:
                return within(self.timeout, call, self._abandon)
            except (CallTimedOut, anthropic.APITimeoutError) as e:
                raise AgentSleepError(
                    f"the model call timed out after {self.timeout:g}s (a timeout is not "
                    f"retried); nothing was written (raise ${TIMEOUT_ENV}, or use --provider "
                    "offline)"
                ) from e
            except anthropic.BadRequestError as e:
                # SDK 1.x+ dropped the keyword; newer models refuse non-default sampling, so
                # temperature 0 is asked for through the body and given up when refused.
                if self.temperature_ok and "temperature" in str(e).lower():
                    self.temperature_ok = False
                    continue
                raise AgentSleepError(f"the Messages API refused the request: {e}") from e
            except anthropic.AuthenticationError as e:
                raise AgentSleepError("the API key was rejected: check ANTHROPIC_API_KEY") from e
            except (anthropic.APIStatusError, anthropic.APIConnectionError) as e:
                status = getattr(e, "status_code", None)
                if not retryable(status) or attempt >= self.max_retries:
                    raise _final_error(e, attempt) from e
                response = getattr(e, "response", None)
                wait = backoff(attempt, response.headers if response is not None else None)
                attempt += 1
                log.info("%s; retry %d in %.1fs", _failure(e), attempt, wait)
                time.sleep(wait)

    def complete(
        self,
        system: str,
        payload: dict[str, Any],
        schema: dict[str, Any],
        *,
        repair: str | None = None,
    ) -> tuple[dict[str, Any], Usage]:
        user = prompts.render(payload, repair)
        try:
            msg = self._send(system, user, schema)
        except json.JSONDecodeError as e:  # a 200 whose body claims to be JSON and is not
            raise InvalidOutput(
                f"the reply is not a Messages API message (not JSON: {snippet(e.doc)})",
                Usage(calls=1),
            ) from e
        text, tools, usage = _read_message(msg)
        data = answer_object(text, usage, stop=getattr(msg, "stop_reason", None), tools=tools)
        return data, usage


def _failure(error: Exception) -> str:
    """What went wrong with a call, for the retry line: "the Messages API answered 529", or
    "could not reach the Messages API (Connection error.)"."""
    status = getattr(error, "status_code", None)
    if status is None:
        return f"could not reach the Messages API ({describe(error)})"
    return f"the Messages API answered {status}"


def _final_error(error: Exception, retries: int) -> AgentSleepError:
    status = getattr(error, "status_code", None)
    if status is None:
        return AgentSleepError(
            f"{_failure(error)}{after_retries(retries)}; check ANTHROPIC_BASE_URL and the "
            "network, or use --provider offline"
        )
    return AgentSleepError(
        f"the Messages API answered {status}{after_retries(retries)}; nothing was written "
        "(try again later, or use --provider offline)"
    )


def _read_message(msg: Any) -> tuple[str, list[str], Usage]:
    """The text, the names of the tools called and the usage of a reply; :class:`InvalidOutput`
    when the server answered 200 with something other than a message (an HTML page, another
    JSON object), which the SDK hands over unchecked."""
    u = getattr(msg, "usage", None)
    usage = Usage(
        token_count(getattr(u, "input_tokens", 0)), token_count(getattr(u, "output_tokens", 0)), 1
    )
    content = getattr(msg, "content", None)
    if not isinstance(content, list):
        got = f"text {snippet(msg)}" if isinstance(msg, str) else "no content"
        raise InvalidOutput(f"the reply is not a Messages API message ({got})", usage)
    texts = (getattr(b, "text", None) for b in content if getattr(b, "type", None) == "text")
    names = (getattr(b, "name", None) for b in content if getattr(b, "type", None) == "tool_use")
    tools = [n if isinstance(n, str) else "?" for n in names]
    return "".join(t for t in texts if isinstance(t, str)), tools, usage
