"""Credential redaction, applied to every text before it reaches disk.

Each match becomes a typed placeholder such as ``[REDACTED:aws-access-key]`` so the note
keeps its meaning ("rotated the AWS key") without the secret. Patterns are anchored on the
shapes providers give their credentials, so ordinary prose passes untouched.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agent_sleep.core import args

_Sub = str | Callable[[re.Match[str]], str]


def _ph(kind: str) -> str:
    return f"[REDACTED:{kind}]"


_KEYWORDS = (
    r"password|passwd|passphrase|pwd|secret|secret[_-]?key|client[_-]?secret|api[_-]?key|apikey"
    r"|access[_-]?key(?:[_-]?id)?|secret[_-]?access[_-]?key|access[_-]?token|auth[_-]?token"
    r"|refresh[_-]?token|bearer[_-]?token|private[_-]?key|token"
)

_RULES: list[tuple[str, re.Pattern[str], _Sub]] = [
    (
        "private-key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*\Z)"
        ),
        _ph("private-key"),
    ),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{16,}"), _ph("anthropic-key")),
    (
        "openai-key",
        re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
        _ph("openai-key"),
    ),
    (
        "aws-access-key",
        re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"),
        _ph("aws-access-key"),
    ),
    (
        "github-token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
        _ph("github-token"),
    ),
    ("gitlab-token", re.compile(r"\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_\-]{20,}"), _ph("gitlab-token")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"), _ph("slack-token")),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), _ph("npm-token")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"), _ph("google-api-key")),
    ("stripe-key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}"), _ph("stripe-key")),
    (
        "huggingface-token",
        re.compile(r"\bhf_[A-Za-z0-9]{30,}"),
        _ph("huggingface-token"),
    ),
    (
        "jwt",
        re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
        _ph("jwt"),
    ),
    (
        "bearer-token",
        re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/\-]{20,}=*)"),
        lambda m: m.group(1) + _ph("bearer-token"),
    ),
    (
        "url-password",
        re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]+:)([^\s@/]+)(@)"),
        lambda m: m.group(1) + _ph("url-password") + m.group(3),
    ),
    (
        "password",
        re.compile(
            rf"(?i)\b((?:[a-z0-9]+[_\-])*(?:{_KEYWORDS}))(\"?\s*(?:=|:=|=>)\s*)([\"']?)(?!\[REDACTED)([^\s\"',;]+)(\3)"
        ),
        lambda m: m.group(1) + m.group(2) + m.group(3) + _ph("password") + m.group(5),
    ),
    (
        "password",
        re.compile(
            r"(?i)((?<![\w-])(?:[a-z0-9]+[_\-])*(?:password|passwd|passphrase|api[_ \-]?key"
            r"|secret[_\-]?key|client[_\-]?secret|access[_\-]?token|auth[_\-]?token|private[_\-]?key)"
            r"|\"(?:token|secret)\")(\"?\s*:\s*)([\"']?)(?!\[REDACTED)([^\s\"']{4,})(\3)"
        ),
        lambda m: m.group(1) + m.group(2) + m.group(3) + _ph("password") + m.group(5),
    ),
]


# A credential said in a sentence: "the staging DB password is Tr0ub4dor&3", "the wifi
# passphrase was changed to correct-horse-42", "my PIN is 4821". The word after "is" is a
# secret only when it looks like one (a digit, a symbol or mixed case inside, six characters
# or more; a PIN: four to eight digits), so "the password is expired" or "the token is in
# the vault" pass untouched.
_SAID = re.compile(
    r"(?i)\b((?:password|passwd|passphrase|passcode|secret(?:[ _-]access)?[ _-]key|api[ _-]?key"
    r"|access[ _-]token|auth[ _-]token|(?<!\w )token|pin(?: code)?)"
    r"(?: for [\w .'’-]{1,40}?)?"
    r"\s+(?:is now|is|was (?:changed|set|reset) to|was|=|will be|has been (?:changed|set|reset) to"
    r"|(?:changed|set|reset) to)"
    r"\s+)([\"'“‘]?)(\S+?)([\"'”’]?)(?=[.,;:)]*(?:\s|$))"
)


def _said(m: re.Match[str]) -> str:
    value = m.group(3)
    pin = m.group(1).lower().startswith("pin")
    if pin:
        secret = value.isdigit() and 4 <= len(value) <= 8
    else:
        inner = value[1:]
        secret = len(value) >= 6 and (
            any(ch.isdigit() for ch in value)
            or any(not ch.isalnum() for ch in value)
            or (any(ch.isupper() for ch in inner) and any(ch.islower() for ch in value))
        )
    if not secret or value.startswith("[REDACTED"):
        return m.group(0)
    return m.group(1) + m.group(2) + _ph("password") + m.group(4)


_RULES.append(("password", _SAID, _said))


def redact(text: str) -> str:
    """Return ``text`` with every credential replaced by a typed placeholder."""
    args.text(text=text)
    for _kind, pattern, sub in _RULES:
        text = pattern.sub(sub, text)
    return text
