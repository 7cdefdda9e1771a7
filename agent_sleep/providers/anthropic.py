"""Claude through the official SDK, with structured outputs, temperature 0, retries and a
timeout. The SDK is imported only when a call is made (``import anthropic`` costs about 1.3 s)."""

from __future__ import annotations

import json
import os
from typing import Any

from agent_sleep.core.errors import AgentSleepError
from agent_sleep.providers import prompts
from agent_sleep.providers.base import (
    MODEL_ENV,
    TIMEOUT_ENV,
    InvalidOutput,
    Usage,
    retries_setting,
    snippet,
    timeout_setting,
    token_count,
)

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
            self._client = anthropic.Anthropic(timeout=self.timeout, max_retries=self.max_retries)
        return self._client

    def complete(
        self,
        system: str,
        payload: dict[str, Any],
        schema: dict[str, Any],
        *,
        repair: str | None = None,
    ) -> tuple[dict[str, Any], Usage]:
        import anthropic

        user = prompts.render(payload, repair)
        client = self._get_client()
        try:
            try:
                msg = self._create(client, system, user, schema)
            except anthropic.BadRequestError as e:
                # SDK 1.x+ dropped the keyword; newer models refuse non-default sampling, so
                # temperature 0 is asked for through the body and given up when refused.
                if not self.temperature_ok or "temperature" not in str(e).lower():
                    raise
                self.temperature_ok = False
                msg = self._create(client, system, user, schema)
        except anthropic.APITimeoutError as e:
            raise AgentSleepError(
                f"the model call timed out after {self.timeout:g}s and {self.max_retries} retries; "
                f"nothing was written (raise ${TIMEOUT_ENV}, or use --provider offline)"
            ) from e
        except anthropic.BadRequestError as e:
            raise AgentSleepError(f"the Messages API refused the request: {e}") from e
        except anthropic.AuthenticationError as e:
            raise AgentSleepError("the API key was rejected: check ANTHROPIC_API_KEY") from e
        except anthropic.APIStatusError as e:
            raise AgentSleepError(
                f"the Messages API answered {e.status_code} after {self.max_retries} retries; "
                "nothing was written (try again later, or use --provider offline)"
            ) from e
        except anthropic.APIConnectionError as e:
            raise AgentSleepError(
                f"could not reach the Messages API ({e}); check ANTHROPIC_BASE_URL and the "
                "network, or use --provider offline"
            ) from e
        except json.JSONDecodeError as e:  # a 200 whose body claims to be JSON and is not
            raise InvalidOutput(
                f"the reply is not a Messages API message (not JSON: {snippet(e.doc)})",
                Usage(calls=1),
            ) from e
        text, usage = _read_message(msg)
        if getattr(msg, "stop_reason", None) == "max_tokens":
            raise InvalidOutput("the reply was cut off at the output token limit", usage)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidOutput(f"the reply is not valid JSON ({e.msg} at {e.pos})", usage) from e
        except RecursionError as e:
            raise InvalidOutput("the reply's JSON is nested too deeply", usage) from e
        if not isinstance(data, dict):
            raise InvalidOutput("the reply is not a JSON object", usage)
        return data, usage


def _read_message(msg: Any) -> tuple[str, Usage]:
    """The text and usage of a reply; :class:`InvalidOutput` when the server answered 200 with
    something other than a message (an HTML page, another JSON object), which the SDK hands over
    unchecked."""
    u = getattr(msg, "usage", None)
    usage = Usage(
        token_count(getattr(u, "input_tokens", 0)), token_count(getattr(u, "output_tokens", 0)), 1
    )
    content = getattr(msg, "content", None)
    if not isinstance(content, list):
        got = f"text {snippet(msg)}" if isinstance(msg, str) else "no content"
        raise InvalidOutput(f"the reply is not a Messages API message ({got})", usage)
    texts = (getattr(b, "text", None) for b in content if getattr(b, "type", None) == "text")
    return "".join(t for t in texts if isinstance(t, str)), usage
