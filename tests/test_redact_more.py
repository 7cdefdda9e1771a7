"""Secret shapes the first redaction rules missed, and the prose they must leave alone.

A URL whose user is empty (``redis://:pw@host``), a keyword glued to an environment variable's
prefix (``PGPASSWORD=…``), a credential after "the password for X:", and a bare "secret",
"token" or "pwd" said with "is" or a colon. A bare keyword is a common word, so its value must
look like a credential (a digit or a symbol; no bracket, no path, no template).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sleep.core.redact import PLACEHOLDER_RE, redact
from tests.conftest import run_cli

# (text, the secret it holds)
POSITIVES = [
    ("Cache is redis://:s3cretpw@cache:6379/0", "s3cretpw"),
    ("connect to rediss://:Qw9-zz8Lk@redis.internal:6380", "Qw9-zz8Lk"),
    ("amqp://:guestpass@broker/vhost for the queue", "guestpass"),
    ("the password for the NAS: Sup3rS3cret!", "Sup3rS3cret"),
    ("The password for the staging db: 'xK2#pq9Lm' (rotate monthly)", "xK2#pq9Lm"),
    ("run PGPASSWORD=hunter22 psql -h db", "hunter22"),
    ("export MYSQL_PWD=abc123 before the dump", "abc123"),
    ("DJANGO_SECRET=kq8e3n1vx0 in the env file", "kq8e3n1vx0"),
    ("set VAULTTOKEN=s.Zx81Lmq0 then retry", "s.Zx81Lmq0"),
    ("APP_DB_PASSWORD=plainwords in .env", "plainwords"),
    ("CI_JOB_TOKEN=tok-41882 for the runner", "tok-41882"),
    ("the token is abc123def", "abc123def"),
    ("Token: 9f8e7d6c5b", "9f8e7d6c5b"),
    ("the secret is Xy7#abcd", "Xy7#abcd"),
    ("our pwd is hunter22 for now", "hunter22"),
    ("The webhook secret: whsec_81ab77", "whsec_81ab77"),
]

NEGATIVES = [
    "password reset flow is broken",
    "we rotated the password yesterday",
    "token bucket rate limiter",
    "the secret is to sleep early",
    "The secret is well-kept.",
    "The secret is out.",
    "Next token: the model predicts it",
    "The token is in the vault.",
    "pwd: /home/me/project",
    "token: ${GITHUB_TOKEN}",
    "Her password is required at login; the password for admins: unchanged.",
    "Reset the password for users: click the link in the email.",
    "The password for the wifi: ask Maria.",
    "the secret is McDonalds",
    "raise ValueError('no padding token is defined.')",
    "def detach(token: Token[Context]) -> None:",
    "nextToken = tokens[idx + 1]",
    "Token: '#cccccc', the default style",
    "token: torch.Tensor,",
    "max_tokens=500 and tokenizer=bert",
    "OLDPWD=/home/x is the previous directory",
    "Visit https://example.com:8080/path for details.",
    "ssh://git@github.com:22/org/repo.git",
]


@pytest.mark.parametrize(("text", "secret"), POSITIVES)
def test_credential_shapes_are_hidden(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out, out
    assert PLACEHOLDER_RE.search(out), out
    assert redact(out) == out  # idempotent


@pytest.mark.parametrize("text", NEGATIVES)
def test_prose_and_code_about_credentials_pass(text: str) -> None:
    assert redact(text) == text


def test_at_least_as_many_negatives_as_positives() -> None:
    assert len(NEGATIVES) >= len(POSITIVES)


def test_url_with_an_empty_user_keeps_its_shape() -> None:
    out = redact("Cache is redis://:s3cretpw@cache:6379/0")
    assert out == "Cache is redis://:[REDACTED:url-password]@cache:6379/0"
    assert redact("run PGPASSWORD=hunter22 psql") == "run PGPASSWORD=[REDACTED:password] psql"
    assert (
        redact("the password for the NAS: Sup3rS3cret!")
        == "the password for the NAS: [REDACTED:password]"
    )


def test_cli_rest_stores_none_of_them(tmp_path: Path) -> None:
    """Every way in (rest, flush, the memory tool, MCP) calls the same ``redact``; the CLI's
    ``rest`` and ``flush`` shown here."""
    ws = tmp_path / "e"
    assert run_cli("init", "-w", str(ws)).returncode == 0
    for text, _ in POSITIVES[:6]:
        r = run_cli("rest", "-w", str(ws), "--note", text, "--source", f"chat {text}")
        assert r.returncode == 0, r.stderr
    dump = "\n".join(f"User: remember that {t}" for t, _ in POSITIVES[6:10])
    r = run_cli("flush", "-w", str(ws), "-p", "offline", "--context-dump", "-", input=dump)
    assert r.returncode == 0, r.stderr
    stored = "".join(p.read_text() for p in ws.rglob("*") if p.is_file() and p.suffix == ".md")
    assert stored.count("[REDACTED:") >= 6
    for _, secret in POSITIVES[:10]:
        assert secret not in stored
