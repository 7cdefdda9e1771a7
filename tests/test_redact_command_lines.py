"""Passwords on command lines, in upper-case environment variables named for them, after a
lower-case ``pass=``, and said as one word closing a sentence, reached the daily log in clear:
"export DB_PASS=…", "curl -u admin:…", "mysql -u root -p…", "user=app pass=…", "The admin
password is letmein"; then "password sunflower42", "pw: …" and Slack webhook URLs (an
exploratory test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.core.redact import redact

HIDDEN = [
    ("export DB_PASS=Xk9vQ2mLp7", "export DB_PASS=[REDACTED:password]"),
    ("REDIS_PW='Xk9vQ2mLp7' make up", "REDIS_PW='[REDACTED:password]' make up"),
    ("DB creds: user=app pass=S3cr3t!x", "DB creds: user=app pass=[REDACTED:password]"),
    ("curl -u admin:S3cr3tPw https://api.internal",
     "curl -u admin:[REDACTED:password] https://api.internal"),
    ("curl --user admin:S3cr3tPw https://x", "curl --user admin:[REDACTED:password] https://x"),
    ("mysql -u root -pS3cr3tPw shop", "mysql -u root -p[REDACTED:password] shop"),
    ("redis-server --requirepass S3cr3tPw", "redis-server --requirepass [REDACTED:password]"),
    ("The admin password is letmein", "The admin password is [REDACTED:password]"),
    ("The admin password is letmein. Ask Bob.",
     "The admin password is [REDACTED:password]. Ask Bob."),
    # named with no verb, or as "pw"; a webhook URL's path is its credential
    ("wifi: network WashPark5G, password sunflower42",
     "wifi: network WashPark5G, password [REDACTED:password]"),
    ("wifi pw: sunflower42", "wifi pw: [REDACTED:password]"),
    ("Alerts go to https://hooks.slack.com/services/T0A1B2C3D/B0A1B2C3D/abcdefghijklmnopqrstuvwx",
     "Alerts go to https://hooks.slack.com/services/[REDACTED:webhook-url]"),
    ("Post to https://discord.com/api/webhooks/123456789/abcDEF-ghi_jkl now",
     "Post to https://discord.com/api/webhooks/[REDACTED:webhook-url] now"),
]  # fmt: skip

KEPT = [
    "mysql -u root -p shop",  # -p alone: mysql asks for it
    "ssh -p 2222 deploy@host",  # elsewhere -p is a port
    "docker run -p8080:80 nginx",
    "first_pass = compute()",
    "pass=true",
    "the bypass=on switch",
    "curl -u $USER:$TOKEN https://x",  # a template
    "app --password $PW",
    "The password is expired.",
    "The password is correct",
    "The password is stored in the vault.",
    "the password is required for every login",
    "The password is secret.",
    "The password manager is 1Password.",
    "Use the password manager 1Password",
    "password reset link expired",
    "reset the password 3 times",
    "pw is in the vault",
    "See https://api.slack.com/messaging/webhooks for setup",
]


@pytest.mark.parametrize(("text", "shown"), HIDDEN)
def test_the_password_is_hidden(text: str, shown: str) -> None:
    assert redact(text) == shown


@pytest.mark.parametrize("text", KEPT)
def test_prose_and_commands_without_a_password_are_kept(text: str) -> None:
    assert redact(text) == text


def test_it_never_reaches_the_log(tmp_path: Path) -> None:
    for text, _shown in HIDDEN:
        micro_rest(text, "W", workspace=tmp_path)
    log = next((tmp_path / "memory").glob("*.md")).read_text()
    for secret in ("Xk9vQ2mLp7", "S3cr3t!x", "S3cr3tPw", "letmein", "sunflower42", "B0A1B2C3D"):
        assert secret not in log
