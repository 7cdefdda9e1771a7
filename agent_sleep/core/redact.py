"""Credential redaction, applied to every text before it reaches disk.

Each match becomes a typed placeholder such as ``[REDACTED:aws-access-key]`` so the note
keeps its meaning ("rotated the AWS key") without the secret. Patterns are anchored on the
shapes providers give their credentials, so ordinary prose passes untouched.
"""

from __future__ import annotations

import base64
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

# an environment variable may glue a keyword to its prefix: PGPASSWORD=…, VAULTTOKEN=… (upper
# case only: camelCase code, "nextToken = tokens[i]", is not a credential)
_GLUED = r"(?-i:[A-Z0-9]+(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN))"

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
        # the user may be empty: redis://:pw@host
        re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]*:)([^\s@/]+)(@)"),
        lambda m: m.group(1) + _ph("url-password") + m.group(3),
    ),
    (
        "password",
        re.compile(
            rf"(?i)\b((?:[a-z0-9]+[_\-])*(?:{_GLUED}|{_KEYWORDS}))"
            r"(\"?\s*(?:=|:=|=>)\s*)([\"']?)(?!\[REDACTED)([^\s\"',;]+)(\3)"
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
# passphrase was changed to correct-horse-42", "my PIN is 4821", "the password for the NAS:
# Sup3rS3cret!". The word after "is" (or the colon) is a secret only when it looks like one (a
# digit, a symbol or mixed case inside, six characters or more; a PIN: four to eight digits),
# so "the password is expired" or "the token is in the vault" pass untouched; a template
# (``$VAR``, ``{name}``) never is. A bare "secret", "token" or "pwd" is a common word ("the
# secret is well-kept", "Next token: the", code's "token: Optional[str]"), so its value needs
# a digit or a symbol (not a hyphen, an apostrophe, a dot or an underscore), holds no bracket
# and is no path or colour.
_SAID = re.compile(
    r"(?i)\b((?:password|passwd|passphrase|passcode|secret(?:[ _-]access)?[ _-]key|api[ _-]?key"
    r"|access[ _-]token|auth[ _-]token|pin(?: code)?|(?P<bare>secret|token|pwd|pw))"
    r"(?: for [\w .'’-]{1,40}?)?"
    r"(?:\s+(?:is now|is|was (?:changed|set|reset) to|was|=|will be"
    r"|has been (?:changed|set|reset) to|(?:changed|set|reset) to)|\s*:)"
    r"\s+)([\"'“‘]?)(\S+?)([\"'”’]?)(?=[.,;:)]*(?:\s|$))"
)


def _looks_secret(value: str, strict: bool) -> bool:
    if value.startswith("[REDACTED"):
        return False
    value = value.rstrip(".,;:!?)\"'’”")  # "…no padding token is defined.")" ends a sentence
    if len(value) < 6 or value.startswith(("$", "{", "<", "%", "`")):  # a template, code
        return False
    if strict:  # a path, an identifier or a type ("token: Optional[str]") is no credential
        return (
            not value.startswith(("/", "~", ".", "#"))
            and not any(ch in "()[]{}<>`" for ch in value)
            and any(ch.isdigit() or not (ch.isalnum() or ch in "-'’._") for ch in value)
        )
    inner = value[1:]
    return (
        any(ch.isdigit() for ch in value)
        or any(not ch.isalnum() for ch in value)
        or (any(ch.isupper() for ch in inner) and any(ch.islower() for ch in value))
    )


# what "the password is …" says of a password rather than what it is, when that is one word
# closing the sentence: "The password is expired." (a word of these endings, or one of these)
_STATE_END = re.compile(r"(?:ed|ing|ly|able|ible|ive|ous|ful|less|ent|ant|al|ary|ory)$")
_STATE = frozenset(
    """secret secure insecure strong wrong unknown needed temporary default hidden inside
    somewhere nowhere there here below above elsewhere attached unchanged same different empty
    blank weak long short simple complex hashed known rotated correct incorrect valid invalid
    missing optional mandatory visible public private enough right""".split()  # noqa: SIM905
)


def _word_secret(m: re.Match[str], value: str) -> bool:
    """A password said as a lower-case word that closes its sentence ("The admin password is
    letmein."): six letters or more, not a word that says what state the password is in."""
    word = value.rstrip(".,;:!?)\"'’”")
    if not re.fullmatch(r"[a-z]{6,}", word) or word in _STATE or _STATE_END.search(word):
        return False
    rest = m.string[m.end() :]
    return re.match(r"[.,;:!?)\"'’”]*(?:\s*$|[.!?;]?\s*\n|\s+[A-Z])", rest) is not None


def _said(m: re.Match[str]) -> str:
    value = m.group(4)  # group 2 is the bare keyword
    if m.group(1).lower().startswith("pin"):
        secret = value.isdigit() and 4 <= len(value) <= 8
    else:
        bare = m.group("bare") is not None
        secret = _looks_secret(value, strict=bare) or (not bare and _word_secret(m, value))
    if not secret:
        return m.group(0)
    return m.group(1) + m.group(3) + _ph("password") + m.group(5)


_RULES.append(("password", _SAID, _said))

# Where a command line carries a password: "curl -u admin:S3cr3tPw", "mysql -u root -pS3cr3t"
# (the mysql family glues it to -p; elsewhere -p is a port), an environment variable named
# for it in upper case ("DB_PASS=…", "REDIS_PW=…"), and a lower-case "pass=" whose value looks
# like a secret ("user=app pass=S3cr3t!x"; not "first_pass=compute()").
_RULES += [
    (
        "password",
        re.compile(r"((?<!\S)(?:-u|--user)[ =]['\"]?[^\s:'\"@/]+:)(?![$%{<])([^\s'\"@]+)"),
        lambda m: m.group(1) + _ph("password"),
    ),
    (
        "password",
        re.compile(r"((?<!\S)--(?:password|passwd|requirepass|pass)\s+)(?![$%{<-])(\S+)"),
        lambda m: m.group(1) + _ph("password"),
    ),
    (
        "password",
        re.compile(r"(?i)(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p)([^\s-]\S*)"),
        lambda m: m.group(1) + _ph("password"),
    ),
    (
        "password",
        re.compile(r"(\b[A-Z][A-Z0-9_]*_(?:PASS|PW|PWD)\s*=\s*)([\"']?)(?!\[REDACTED)([^\s\"']+)"),
        lambda m: m.group(1) + m.group(2) + _ph("password"),
    ),
    (
        "password",
        re.compile(r"(?i)((?<![\w-])pass\s*=\s*)([\"']?)(?!\[REDACTED)([^\s\"',;]+)"),
        lambda m: (
            m.group(0)
            if not _looks_secret(m.group(3), strict=True)
            else m.group(1) + m.group(2) + _ph("password")
        ),
    ),
]


# A password named with no verb ("wifi: network WashPark5G, password sunflower42"): the next
# word is one only when it looks like one strictly (a digit or a symbol inside), so "password
# manager", "password reset" or "password is expired" pass. And webhook URLs, whose path is
# the credential (anyone holding one can post): Slack's and Discord's.
_RULES += [
    (
        "password",
        re.compile(
            r"(?i)\b((?:password|passwd|passphrase|passcode)\s+)([\"'“‘]?)(?!\[REDACTED)"
            r"(\S+?)([\"'”’]?)(?=[.,;:)]*(?:\s|$))"
        ),
        lambda m: (
            m.group(1) + m.group(2) + _ph("password") + m.group(4)
            if _looks_secret(m.group(3), strict=True)
            else m.group(0)
        ),
    ),
    (
        "webhook-url",
        re.compile(
            r"(?i)\b(https?://(?:hooks\.slack\.com/(?:services|workflows|triggers)"
            r"|(?:\w+\.)?discord(?:app)?\.com/api/webhooks)/)[A-Za-z0-9_/\-]{8,}"
        ),
        lambda m: m.group(1) + _ph("webhook-url"),
    ),
]


# An AWS secret access key has no prefix of its own: 40 characters of base64 (30 random bytes).
# It is one when its text says so: an access key id (AKIA…, ASIA…, or the placeholder an
# earlier rule left of one) within a few lines of it ("AWS creds: AKIA… / wJalrXUtn…", the JSON
# of ``aws iam create-access-key``), or a word naming a secret just before it ("secret
# wJalrXUtn…", "aws_secret_access_key wJalrXUtn…"). Even then the token must look random:
# both cases and a digit, "/" or "+" (a git SHA is lower-case hex, an identifier all letters),
# not a path of words ("/Users/Alice/Projects/Config2/Aws"), and not base64 of text.
_AWS_SECRET_RE = re.compile(r"(?<![\w/+=.~-])[A-Za-z0-9/+]{40}(?![\w/+=]|\.\w)")
_AWS_KEY_ID_RE = re.compile(
    r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b|\[REDACTED:aws-access-key\]"
)
_AWS_NEAR = 300  # characters either side: a credentials file, a JSON reply, one note
_SECRET_WORD_RE = re.compile(r"(?i)secret(?:[ _-]?access)?(?:[ _-]?key)?\b[^\n\w]{0,4}$")
_PATH_PART_RE = re.compile(r"[A-Z]?[a-z]*[0-9]*")  # "home", "Projects", "agent2", "V2", "11"


def _random_base64(token: str) -> bool:
    """Whether ``token`` reads as 40 characters of random base64 rather than a word, a path or
    encoded text ("SGVsbG8…" is "Hello…")."""
    if not (
        any(c.isupper() for c in token)
        and any(c.islower() for c in token)
        and any(c.isdigit() or c in "/+" for c in token)
    ):
        return False
    parts = token.strip("/").split("/")
    if "/" in token and all(p and _PATH_PART_RE.fullmatch(p) for p in parts):
        return False
    try:
        decoded = base64.b64decode(token, validate=True).decode("utf-8")
    except ValueError:  # not UTF-8 (a UnicodeDecodeError is a ValueError): random bytes
        return True
    return not all(c.isprintable() or c.isspace() for c in decoded)


def _aws_secret(m: re.Match[str]) -> str:
    text, start, end = m.string, m.start(), m.end()
    named = _SECRET_WORD_RE.search(text, max(0, start - 30), start) is not None
    near = _AWS_KEY_ID_RE.search(text, max(0, start - _AWS_NEAR), end + _AWS_NEAR) is not None
    if (named or near) and _random_base64(m.group(0)):
        return _ph("aws-secret-key")
    return m.group(0)


# after the rules above, so "aws_secret_access_key = …" stays a [REDACTED:password]
_RULES.append(("aws-secret-key", _AWS_SECRET_RE, _aws_secret))


# what :func:`redact` leaves in place of a credential
PLACEHOLDER_RE = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def redact(text: str) -> str:
    """Return ``text`` with every credential replaced by a typed placeholder."""
    args.text(text=text)
    for _kind, pattern, sub in _RULES:
        text = pattern.sub(sub, text)
    return text
