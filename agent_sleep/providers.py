"""Model providers behind one small interface: system prompt, user content, JSON schema in; a
JSON object and the token usage out.

- ``anthropic``: the official SDK with structured outputs, temperature 0, retries and a timeout;
  imported only when a call is made. Default when ``ANTHROPIC_API_KEY`` is set.
- ``offline``: the deterministic consolidator in :mod:`agent_sleep.offline`. Default otherwise.

:func:`ask` adds what every caller needs on top: schema validation and one repair retry.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Protocol

from agent_sleep import schema as jsonschema
from agent_sleep.errors import AgentSleepError, BadInput
from agent_sleep.prompts import REPAIR

PROVIDER_ENV = "AGENT_SLEEP_PROVIDER"
MODEL_ENV = "AGENT_SLEEP_MODEL"
TIMEOUT_ENV = "AGENT_SLEEP_TIMEOUT"
RETRIES_ENV = "AGENT_SLEEP_MAX_RETRIES"
DEFAULT_MODEL = "claude-haiku-4-5"
DEFAULT_TIMEOUT = 120.0
DEFAULT_RETRIES = 3
MAX_OUTPUT_TOKENS = 16000


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


class Provider(Protocol):
    name: str
    model: str
    max_notes: int

    def complete(
        self, system: str, user: str, schema: dict[str, Any]
    ) -> tuple[dict[str, Any], Usage]: ...


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    try:
        return float(raw) if raw else default
    except ValueError as e:
        raise BadInput(f"${name}={raw!r} is not a number") from e


class AnthropicProvider:
    """Claude through the official SDK; honours ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL."""

    name = "anthropic"
    max_notes = 300

    def __init__(
        self,
        model: str | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
    ) -> None:
        self.model = model or os.environ.get(MODEL_ENV) or DEFAULT_MODEL
        self.timeout = timeout if timeout is not None else _env_float(TIMEOUT_ENV, DEFAULT_TIMEOUT)
        retries = (
            max_retries if max_retries is not None else _env_float(RETRIES_ENV, DEFAULT_RETRIES)
        )
        self.max_retries = int(retries)
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
        self, system: str, user: str, schema: dict[str, Any]
    ) -> tuple[dict[str, Any], Usage]:
        import anthropic

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
        usage = Usage(msg.usage.input_tokens, msg.usage.output_tokens, 1)
        text = "".join(getattr(b, "text", "") for b in msg.content if b.type == "text")
        if msg.stop_reason == "max_tokens":
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


class OfflineProvider:
    """The deterministic consolidator; reads the JSON payload the prompts carry."""

    name = "offline"
    model = "offline-consolidator"
    max_notes = 5000

    def complete(
        self, system: str, user: str, schema: dict[str, Any]
    ) -> tuple[dict[str, Any], Usage]:
        from agent_sleep import offline

        start = user.find("{")
        data = json.loads(user[start : user.rindex("}") + 1])
        return offline.run(data["task"], data), Usage(calls=1)


def get_provider(name: str | None = None, model: str | None = None) -> Provider:
    """``name`` (or ``$AGENT_SLEEP_PROVIDER``); by default anthropic when a key is set."""
    chosen = (name or os.environ.get(PROVIDER_ENV) or "").strip().lower()
    if not chosen:
        chosen = "anthropic" if os.environ.get("ANTHROPIC_API_KEY") else "offline"
    if chosen == "anthropic":
        return AnthropicProvider(model)
    if chosen == "offline":
        return OfflineProvider()
    raise BadInput(f"unknown provider {chosen!r}: use anthropic or offline")


@dataclass(frozen=True)
class Answer:
    data: dict[str, Any]
    usage: Usage
    repairs: int


def ask(provider: Provider, system: str, user: str, schema: dict[str, Any]) -> Answer:
    """One validated JSON answer; one repair retry; else an error and nothing written."""
    usage = Usage()
    problems = ""
    for attempt in range(2):
        content = user if attempt == 0 else user + "\n\n" + REPAIR.format(problems=problems)
        try:
            data, used = provider.complete(system, content, schema)
        except InvalidOutput as e:
            usage += e.usage
            problems = str(e)
            continue
        usage += used
        errs = jsonschema.errors(data, schema)
        if not errs:
            return Answer(data, usage, attempt)
        problems = "; ".join(errs[:8])
    raise AgentSleepError(
        f"the {provider.name} model's reply was unusable twice ({problems}); nothing was written. "
        "Run again, or use --provider offline"
    )
