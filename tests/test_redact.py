from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.core.redact import redact

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared/data/locomo/locomo-dev.json"
_rng = random.Random(7)


def _r(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


# (secret embedded in a sentence, the secret itself, expected placeholder kind)
SECRETS = [
    ("sk-ant-api03-" + _r(60) + "AA", "anthropic-key"),
    ("sk-ant-admin01-" + _r(40), "anthropic-key"),
    ("sk-proj-" + _r(48), "openai-key"),
    ("sk-" + _r(48), "openai-key"),
    ("AKIA" + _r(16, string.ascii_uppercase + string.digits), "aws-access-key"),
    ("ASIA" + _r(16, string.ascii_uppercase + string.digits), "aws-access-key"),
    ("ghp_" + _r(36), "github-token"),
    ("gho_" + _r(36), "github-token"),
    ("github_pat_" + _r(22) + "_" + _r(59), "github-token"),
    ("glpat-" + _r(20), "gitlab-token"),
    ("xoxb-" + _r(12, string.digits) + "-" + _r(24), "slack-token"),
    ("AIza" + _r(35), "google-api-key"),
    ("sk_live_" + _r(24), "stripe-key"),
    ("hf_" + _r(34), "huggingface-token"),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + _r(43), "jwt"),
]
PAIRS = [
    ("password=" + _r(12), "password"),
    ("DB_PASSWORD='" + _r(14) + "'", "password"),
    ("aws_secret_access_key = " + _r(40, string.ascii_letters + string.digits + "/+"), "password"),
    ('"api_key": "' + _r(32) + '"', "password"),
    ("client_secret=" + _r(30), "password"),
    ("my password: " + _r(10), "password"),
    ("Authorization: Bearer " + _r(40) + ".x", "bearer-token"),
]


@pytest.mark.parametrize(("secret", "kind"), SECRETS)
def test_provider_credentials_become_typed_placeholders(secret: str, kind: str) -> None:
    text = f"rotated the key {secret} yesterday, see ticket 42"
    out = redact(text)
    assert secret not in out
    assert f"[REDACTED:{kind}]" in out
    assert out.startswith("rotated the key ") and out.endswith(" yesterday, see ticket 42")


@pytest.mark.parametrize(("text", "kind"), PAIRS)
def test_secret_pairs_keep_the_key_and_hide_the_value(text: str, kind: str) -> None:
    out = redact(text)
    assert f"[REDACTED:{kind}]" in out
    value = text.split("=", 1)[-1].split(":", 1)[-1].strip(" '\"").split()[-1].rstrip(".x\"'")
    assert value not in out


def test_url_password_and_private_key_block() -> None:
    url = "postgres://admin:" + _r(16) + "@db.internal:5432/app"
    out = redact(f"connect with {url} now")
    assert "admin:[REDACTED:url-password]@db.internal" in out
    key = (
        "-----BEGIN RSA PRIVATE KEY-----\n"
        + "\n".join(_r(64) for _ in range(5))
        + "\n-----END RSA PRIVATE KEY-----"
    )
    out = redact(f"key:\n{key}\nend")
    assert out == "key:\n[REDACTED:private-key]\nend"
    assert (
        redact("-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n(truncated") == "[REDACTED:private-key]"
    )


def test_redaction_is_idempotent() -> None:
    text = " ".join(s for s, _ in SECRETS + PAIRS)
    once = redact(text)
    assert redact(once) == once
    assert not [s for s, _ in SECRETS if s in once]


@pytest.mark.parametrize(
    "prose",
    [
        "The password is on the sticky note under the keyboard.",
        "We talked about tokens and API keys for an hour.",
        "Redis default port is 6379; Postgres uses 5432.",
        "Visit https://example.com/path?q=1 for details.",
        "I asked: secret? She said no.",
        "sk-8 is a ski model; AKIA is a name.",
        "Meeting at 10:30 with Dr. Smith about the AWS migration.",
    ],
)
def test_ordinary_prose_passes_untouched(prose: str) -> None:
    assert redact(prose) == prose


def test_micro_rest_never_writes_a_secret(ws: Path) -> None:
    for secret, _ in SECRETS + PAIRS:
        micro_rest(f"note with {secret}", "W", workspace=ws, source=f"src {secret}")
    on_disk = "".join(p.read_text() for p in ws.rglob("*.md"))
    for secret, _ in SECRETS:
        assert secret not in on_disk


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data is not on this machine")
def test_locomo_dialogue_is_a_zero_false_positive_corpus() -> None:
    data = json.loads(LOCOMO.read_text())
    changed, total = [], 0
    for sample in data:
        conv = sample["conversation"]
        for key, turns in conv.items():
            if not key.startswith("session_") or not isinstance(turns, list):
                continue
            for t in turns:
                for text in (t.get("text", ""), t.get("blip_caption", "")):
                    total += 1
                    if text and redact(text) != text:
                        changed.append(text)
    assert total > 2000
    assert changed == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("The staging DB password is Tr0ub4dor&3xyz and it rotates monthly", "Tr0ub4dor&3xyz"),
        ("Our wifi passphrase is correct-horse-battery-staple.", "correct-horse-battery-staple"),
        ("the password for the home router is hunter22.", "hunter22"),
        ("The vault password was changed to 'Blue-Falcon-77' today", "Blue-Falcon-77"),
        ("The password is now Summer2024!", "Summer2024"),
        ("My bank PIN is 4821, do not share it.", "4821"),
        ("The AWS secret key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"),
        ("publish with npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "a1B2c3D4e5F6"),
    ],
)
def test_a_credential_said_in_a_sentence_is_hidden(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out and "[REDACTED:" in out
    assert redact(out) == out


@pytest.mark.parametrize(
    "prose",
    [
        "The password is expired, reset it from the portal.",
        "The token is in the vault.",
        "The API key was rotated yesterday.",
        "The pin is 3 mm wide.",
        "Her password is required at login.",
    ],
)
def test_a_sentence_about_a_credential_without_one_passes(prose: str) -> None:
    assert redact(prose) == prose
