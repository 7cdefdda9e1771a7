"""An AWS secret access key has no prefix of its own, so one written after its access key id
("AWS creds: AKIA… / wJalrXUtn…") reached the daily log in clear while ``rest --json`` said
``redacted: true`` (an exploratory test). It is hidden when an access key id is near it or a
word naming a secret comes just before it; a git SHA, a path, base64 of text or an identifier
of the same length is not."""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.core.redact import redact
from tests.conftest import run_cli

KEY_ID = "AKIAIOSFODNN7EXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"  # AWS's documented example
_rng = random.Random(26)
BASE64 = string.ascii_letters + string.digits + "/+"


def _secret() -> str:
    return "".join(_rng.choice(BASE64) for _ in range(40))


HIDDEN = [
    f"AWS creds: {KEY_ID} / {SECRET}",
    f"AWS {KEY_ID} secret {SECRET}",
    f"key {KEY_ID}\nsecret access key: {SECRET}",
    f"export AWS_ACCESS_KEY_ID=ASIAY34FZKBOKMUTVV7A\nexport AWS_SESSION_SECRET={SECRET}",
    "the deploy user's keys are ASIAY34FZKBOKMUTVV7A and /" + SECRET[1:] + ".",
    f"aws_secret_access_key {SECRET}",
    f"Secret: {SECRET}",
    # what ``aws iam create-access-key`` prints
    json.dumps(
        {
            "AccessKey": {
                "UserName": "deploy",
                "AccessKeyId": KEY_ID,
                "Status": "Active",
                "SecretAccessKey": SECRET,
                "CreateDate": "2026-12-05T06:38:00Z",
            }
        },
        indent=4,
    ),  # fmt: skip
]


@pytest.mark.parametrize("text", HIDDEN)
def test_an_aws_secret_near_its_key_id_or_named_is_hidden(text: str) -> None:
    out = redact(text)
    assert SECRET[1:] not in out and "[REDACTED:" in out, out
    assert redact(out) == out


def test_any_random_secret_beside_a_key_id_is_hidden() -> None:
    secrets = [_secret() for _ in range(300)]
    for s in secrets:
        assert redact(f"{KEY_ID} {s}") == "[REDACTED:aws-access-key] [REDACTED:aws-secret-key]"


def test_an_assignment_keeps_its_password_placeholder() -> None:
    assert redact(f"aws_secret_access_key = {SECRET}") == (
        "aws_secret_access_key = [REDACTED:password]"
    )


PASSED = [
    # a git SHA (lower-case hex) and an upper-case hex digest, even beside a key id
    "rotated in commit 3f2a9c1e4b5d6f708192a3b4c5d6e7f8091a2b3c, key [REDACTED:aws-access-key]",
    f"{KEY_ID} was revoked; digest 3F2A9C1E4B5D6F708192A3B4C5D6E7F8091A2B3C",
    # a path of words and an identifier of forty characters
    f"{KEY_ID} is read from /home/alice/projects/agent2/config/file1",
    f"{KEY_ID} src/Agent/Sleep/Core/Redact/Rules/Aws/V2",
    f"secret ThisIsAVeryLongJavaClassNameForFactories {KEY_ID}",
    # base64 of ordinary text, in code beside a key id
    f'{KEY_ID}; greeting = "{base64.b64encode(b"Deploy notes: run make then go").decode()}"',
    # a random token with no key id near and no secret named
    f"the cache key is {SECRET} for this run",
    f"{KEY_ID} " + "filler words here. " * 20 + SECRET,  # far from the key id
    # longer or shorter than forty characters
    f"{KEY_ID} {SECRET}Q",
    f"{KEY_ID} {SECRET[:-1]}",
]


@pytest.mark.parametrize("text", PASSED)
def test_tokens_of_the_same_shape_that_are_no_aws_secret_pass(text: str) -> None:
    assert redact(text) == text.replace(KEY_ID, "[REDACTED:aws-access-key]")


def test_rest_json_says_redacted_and_the_secret_is_not_on_disk(ws: Path) -> None:
    assert run_cli("init", "-w", str(ws)).returncode == 0
    note = f"AWS creds: {KEY_ID} / {SECRET}"
    r = run_cli("rest", "-w", str(ws), "--type", "W", "--json", "--note", note)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["redacted"] is True
    micro_rest(f"AWS {KEY_ID} secret {SECRET}", "W", workspace=ws, source=f"chat {KEY_ID}:{SECRET}")
    on_disk = "".join(p.read_text() for p in ws.rglob("*.md"))
    assert "wJalrXUtnFEMI" not in on_disk and KEY_ID not in on_disk
    assert on_disk.count("[REDACTED:aws-secret-key]") == 3
