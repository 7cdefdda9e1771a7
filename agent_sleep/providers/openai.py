"""Any OpenAI-compatible server (Ollama, llama.cpp's server, vLLM, LM Studio, OpenAI itself)
through the Chat Completions API of the official ``openai`` SDK, imported only when a call is
made.

What small local models need, on top of what :mod:`agent_sleep.providers.anthropic` does:

- Structured output falls back: ``json_schema`` (strict), the same schema without its
  ``maxLength`` / ``maxItems`` bounds, ``json_object``, then plain prompting, each step taken
  when the server answers 400 naming the format or the schema, and remembered for
  the provider's lifetime (one run). The schema is stated in the system prompt as well, since
  llama.cpp constrains the grammar without showing the schema to the model.
- Reasoning output: a ``<think>…</think>`` preamble is stripped; an answer found only in a
  ``reasoning_content`` / ``reasoning`` field is used; ``$AGENT_SLEEP_EXTRA_BODY`` (a JSON
  object merged into every request) turns thinking off where a server wants that
  (references/providers.md lists the switches).
- Our own retries (the SDK's are off): 429 and 5xx answers and refused or dropped connections
  are retried with exponential backoff honouring ``Retry-After``; a timeout is never retried,
  because a single-slot local server keeps generating for an abandoned request. The timeout
  is a deadline for the whole call (:func:`agent_sleep.providers.base.within`), not for each
  read: a server trickling bytes cannot hold a call past it.
- ``max_tokens`` is always sent; ``finish_reason="length"`` is an invalid reply, and so is
  ``content_filter`` (or a ``message.refusal``): the model refused. The reply is read by
  :func:`agent_sleep.providers.replies.answer_object`, as the anthropic provider's is.
- The context window: ``--context-tokens``, else what ``/v1/models`` reports (llama.cpp's
  ``meta.n_ctx``, vLLM's ``max_model_len``, ``context_length``), else 8,192.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import time
from typing import Any

from agent_sleep.core.errors import AgentSleepError, BadInput
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
from agent_sleep.providers.replies import (
    MAX_REPLY_CHARS,
    PROSE_CHARS,
    answer_object,
    backoff,
    estimate_tokens,
    schema_instruction,
    unbounded,
)

log = logging.getLogger(__name__)

BASE_URL_ENV = "OPENAI_BASE_URL"
KEY_ENV = "OPENAI_API_KEY"
EXTRA_BODY_ENV = "AGENT_SLEEP_EXTRA_BODY"
DEFAULT_CONTEXT = 8192
DEFAULT_TIMEOUT = 300.0  # a local model on a CPU is slow; a timeout is not retried
DEFAULT_RETRIES = 3
MAX_OUTPUT_TOKENS = 4096
MIN_OUTPUT_TOKENS = 256
MODES = ("json_schema", "json_schema_unbounded", "json_object", "plain")
_CONTEXT_KEYS = ("n_ctx", "max_model_len", "context_length", "max_context_length", "context_window")


def _extra_body() -> dict[str, Any]:
    raw = os.environ.get(EXTRA_BODY_ENV, "").strip()
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise BadInput(f"${EXTRA_BODY_ENV} is not JSON ({e.msg}); give a JSON object") from e
    if not isinstance(data, dict):
        raise BadInput(f"${EXTRA_BODY_ENV} must be a JSON object")
    return data


class OpenAIProvider:
    """Chat Completions of an OpenAI-compatible server; see the module docstring."""

    name = "openai"
    max_notes = 300
    batch_notes = 24  # notes per call: small batches give structural conclusions
    bounded_schemas = True  # request schemas with maxLength / maxItems / enum (llama.cpp honours)

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        context_tokens: int | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
    ) -> None:
        self.base_url = (base_url or os.environ.get(BASE_URL_ENV) or "").strip() or None
        if self.base_url is None and not os.environ.get(KEY_ENV):
            raise BadInput(
                "no server for --provider openai: pass --base-url (e.g. "
                "http://localhost:11434/v1 for Ollama) or set OPENAI_BASE_URL"
            )
        if context_tokens is not None and context_tokens < 512:
            raise BadInput(f"--context-tokens {context_tokens} is too small: give 512 or more")
        self._model = model or os.environ.get(MODEL_ENV) or None
        self._context = context_tokens
        self.timeout = timeout_setting(timeout, DEFAULT_TIMEOUT)
        self.max_retries = retries_setting(max_retries, DEFAULT_RETRIES)
        self.extra_body = _extra_body()
        self.mode = MODES[0]
        self._client: Any = None
        self._models: list[dict[str, Any]] | None = None

    # -- the server: client, models, context window --------------------------------------------

    def _get_client(self) -> Any:
        if self._client is None:
            try:
                import openai
            except ImportError as e:
                raise AgentSleepError(
                    "the openai package is not installed: pip install 'agent-sleep[openai]', "
                    "or use --provider offline"
                ) from e
            self._client = openai.OpenAI(
                base_url=self.base_url,
                # local servers take any key or none; the SDK insists on one
                api_key=os.environ.get(KEY_ENV) or "not-needed",
                timeout=self.timeout,
                max_retries=0,  # ours, below: the SDK would also retry timeouts
            )
        return self._client

    def _list_models(self) -> list[dict[str, Any]]:
        """``/v1/models`` as dicts, each with a string ``id``. The body is read here, not by the
        SDK, which fails on a body that is not a JSON object (an HTML page, a list)."""
        if self._models is None:
            import openai

            where = self.base_url or "the server"
            try:
                listing = self._get_client().models.with_raw_response.list
                raw = within(self.timeout, listing, self._abandon)
                self._models = _models_of(raw.text)
            except (openai.APIConnectionError, CallTimedOut) as e:  # a timeout is one too
                raise AgentSleepError(
                    f"could not reach {where} to list its models ({_short(e)}); check "
                    "--base-url / OPENAI_BASE_URL and that the server runs, or use "
                    "--provider offline"
                ) from e
            except (openai.APIError, ValueError) as e:
                raise AgentSleepError(
                    f"could not list the models of {where} ({_short(e)}); pass --model (or set "
                    "AGENT_SLEEP_MODEL) and check --base-url"
                ) from e
        return self._models

    def _abandon(self) -> None:
        """Drop the client of a call past its deadline, closing its connections."""
        client, self._client = self._client, None
        if client is not None:
            client.close()

    @property
    def model(self) -> str:
        """``--model`` / ``$AGENT_SLEEP_MODEL``, else the server's only model."""
        if self._model is None:
            ids = [m["id"] for m in self._list_models()]
            if len(ids) != 1:
                listed = ", ".join(ids[:5]) + (", …" if len(ids) > 5 else "")
                raise BadInput(
                    f"the server offers {len(ids)} models ({listed or 'none'}): "
                    "pick one with --model or AGENT_SLEEP_MODEL"
                )
            self._model = ids[0]
        return self._model

    @model.setter
    def model(self, value: str) -> None:
        self._model = value

    @property
    def context_tokens(self) -> int:
        """``--context-tokens``, else the window the server reports for the model, else 8,192."""
        if self._context is None:
            try:
                models = self._list_models()
            except AgentSleepError as e:
                if self._model is None:  # the model is unknown too: say it once, as an error
                    raise
                log.info("context window unknown, using %d: %s", DEFAULT_CONTEXT, e)
                models = []
            self._context = DEFAULT_CONTEXT
            for m in models:
                if self._model is not None and m["id"] != self._model:
                    continue
                found = _reported_context(m)
                if found:
                    self._context = found
                    break
        return self._context

    # -- one call -------------------------------------------------------------------------------

    def _request(self, system: str, user: str, schema: dict[str, Any]) -> dict[str, Any]:
        system = system + schema_instruction(schema)
        budget = (
            self.context_tokens - estimate_tokens(system, PROSE_CHARS) - estimate_tokens(user) - 64
        )
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            "max_tokens": max(MIN_OUTPUT_TOKENS, min(MAX_OUTPUT_TOKENS, budget)),
            "temperature": 0,
        }
        if self.mode.startswith("json_schema"):
            sent = schema if self.mode == "json_schema" else unbounded(schema)
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "agent_sleep_reply", "schema": sent, "strict": True},
            }
        elif self.mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        if self.extra_body:
            body["extra_body"] = self.extra_body
        return body

    def _refuses_format(self, error: Exception) -> bool:
        text = str(error).lower()
        words = ("response_format", "json_schema", "schema", "json_object", "grammar")
        return self.mode != "plain" and any(w in text for w in words)

    def _create(self, system: str, user: str, schema: dict[str, Any]) -> Any:
        """One completion, with the format fallback and our retries (see the module docstring)."""
        import openai

        attempt = 0
        while True:
            body = self._request(system, user, schema)
            call = functools.partial(self._get_client().chat.completions.create, **body)
            try:
                return within(self.timeout, call, self._abandon)
            except json.JSONDecodeError as e:  # a 200 whose body claims to be JSON and is not
                raise InvalidOutput(
                    f"the reply is not a chat completion (not JSON: {snippet(e.doc)})",
                    Usage(calls=1),
                ) from e
            except (CallTimedOut, openai.APITimeoutError) as e:
                raise AgentSleepError(
                    f"the model call timed out after {self.timeout:g}s (a timeout is not "
                    "retried); nothing was written "
                    f"(raise ${TIMEOUT_ENV}, give a smaller --context-tokens, or use "
                    "--provider offline)"
                ) from e
            except openai.BadRequestError as e:
                if not self._refuses_format(e):
                    raise AgentSleepError(f"the server refused the request: {_short(e)}") from e
                self.mode = MODES[MODES.index(self.mode) + 1]
                if self.mode == "json_schema_unbounded" and unbounded(schema) == schema:
                    self.mode = "json_object"
                log.info("the server refused the response format; falling back to %s", self.mode)
            except openai.AuthenticationError as e:
                raise AgentSleepError("the API key was rejected: check OPENAI_API_KEY") from e
            except openai.NotFoundError as e:
                raise AgentSleepError(
                    f"the server has no such model or endpoint ({_short(e)}): check --model "
                    "and that --base-url ends in /v1"
                ) from e
            except (openai.APIStatusError, openai.APIConnectionError) as e:
                status = getattr(e, "status_code", None)
                if not retryable(status) or attempt >= self.max_retries:
                    raise _final_error(e, self.base_url, attempt) from e
                response = getattr(e, "response", None)
                wait = backoff(attempt, response.headers if response is not None else None)
                attempt += 1
                log.info("%s; retry %d in %.1fs", _failure(e, self.base_url), attempt, wait)
                time.sleep(wait)

    def complete(
        self,
        system: str,
        payload: dict[str, Any],
        schema: dict[str, Any],
        *,
        repair: str | None = None,
    ) -> tuple[dict[str, Any], Usage]:
        reply = self._create(system, prompts.render(payload, repair), schema)
        u = getattr(reply, "usage", None)
        usage = Usage(
            token_count(getattr(u, "prompt_tokens", 0)),
            token_count(getattr(u, "completion_tokens", 0)),
            1,
        )
        # the SDK hands over a 200's body unchecked: any attribute may be missing or of any type
        if isinstance(reply, str):  # a body that is not JSON (an HTML page)
            got = f"text {snippet(reply)}"
            raise InvalidOutput(f"the reply is not a chat completion ({got})", usage)
        choices = getattr(reply, "choices", None)
        if not isinstance(choices, list) or not choices:
            raise InvalidOutput("the reply is not a chat completion (no choices)", usage)
        choice = choices[0]
        message = getattr(choice, "message", None)
        extra = getattr(message, "model_extra", None)
        extra = extra if isinstance(extra, dict) else {}
        reasoning = next(
            (str(extra[k]) for k in ("reasoning_content", "reasoning") if extra.get(k)), ""
        )
        calls = getattr(message, "tool_calls", None)
        tools = [
            str(getattr(getattr(c, "function", None), "name", None) or "?")
            for c in (calls if isinstance(calls, list) else [])
        ]
        data = answer_object(
            getattr(message, "content", None),
            usage,
            stop=getattr(choice, "finish_reason", None),
            refusal=getattr(message, "refusal", None),
            tools=tools,
            fallback=reasoning,  # the answer may sit in the reasoning field
            limit=MAX_REPLY_CHARS,
        )
        return data, usage


def _models_of(body: str) -> list[dict[str, Any]]:
    """The entries of a ``/v1/models`` body; ValueError unless it is ``{"data": [{"id": …}]}``."""
    shown = snippet(body, 80)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as e:
        raise ValueError(f"the answer is not JSON: {shown}") from e
    models = data.get("data", ()) if isinstance(data, dict) else None
    if models is None and isinstance(data, dict):
        models = []  # {"data": null}: Ollama with no model pulled
    if not isinstance(models, list) or not all(
        isinstance(m, dict) and isinstance(m.get("id"), str) for m in models
    ):
        raise ValueError(f"the answer is not a model list: {shown}")
    return models


def _reported_context(model: dict[str, Any]) -> int | None:
    for source in (model.get("meta") or {}, model):
        if not isinstance(source, dict):
            continue
        for key in _CONTEXT_KEYS:
            value = source.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 512:
                return value
    return None


def _short(error: Exception) -> str:
    return describe(error)


def _failure(error: Exception, base_url: str | None) -> str:
    """What went wrong with a call, for the retry line: "the server answered 503", or "could
    not reach http://… (Connection error.)" (a refused or dropped connection)."""
    status = getattr(error, "status_code", None)
    if status is None:
        return f"could not reach {base_url or 'the server'} ({_short(error)})"
    return f"the server answered {status}"


def _final_error(error: Exception, base_url: str | None, retries: int) -> AgentSleepError:
    status = getattr(error, "status_code", None)
    if status is None:
        return AgentSleepError(
            f"could not reach {base_url or 'the server'}{after_retries(retries)} "
            f"({_short(error)}); check --base-url / OPENAI_BASE_URL and that the server runs, "
            "or use --provider offline"
        )
    return AgentSleepError(
        f"the server answered {status}{after_retries(retries)}; nothing was written "
        "(try again later, or use --provider offline)"
    )
