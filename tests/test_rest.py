from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest

from agent_sleep import micro_rest
from agent_sleep.core.errors import BadInput
from agent_sleep.core.notes import parse
from tests.conftest import ROOT, run_cli


def _files(root: Path) -> dict[str, bytes]:
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_micro_rest_appends_under_retain_and_returns_the_id(ws: Path) -> None:
    before = dt.date.today()  # the default is the clock's today (a midnight may fall between)
    nid = micro_rest("Redis default port is 6379", "W", workspace=ws, source="msg-7")
    (log,) = (ws / "memory").glob("*.md")
    assert log.name in {f"{before.isoformat()}.md", f"{dt.date.today().isoformat()}.md"}
    doc = parse(log.read_text())
    (note,) = doc.notes("Retain")
    assert (note.id, note.type, note.text, note.source) == (
        nid,
        "W",
        "Redis default port is 6379",
        "msg-7",
    )
    assert (ws / "MEMORY.md").is_file() and (ws / "bank/entities").is_dir()


def test_when_files_the_note_in_that_days_log(ws: Path) -> None:
    micro_rest("went hiking", workspace=ws, when=dt.datetime(2023, 5, 8, 13, 56))
    micro_rest("later that day", workspace=ws, when=dt.datetime(2023, 5, 8, 18, 5))
    log = ws / "memory" / "2023-05-08.md"
    notes = parse(log.read_text()).notes()
    assert [(n.time, n.text) for n in notes] == [
        ("13:56", "went hiking"),
        ("18:05", "later that day"),
    ]
    assert log.read_text().count("## Retain") == 1


def test_appending_after_another_section_opens_a_new_retain(ws: Path) -> None:
    micro_rest("first", workspace=ws)
    log = next((ws / "memory").glob("*.md"))
    with log.open("a") as f:
        f.write("\n## Dreams\n\n- S: a dream <!-- id=dddddddddd -->")  # no final newline
    micro_rest("second", workspace=ws)
    doc = parse(log.read_text())
    assert [n.text for n in doc.notes("Retain")] == ["first", "second"]
    assert [n.text for n in doc.notes("Dreams")] == ["a dream"]


def test_opinion_confidence_defaults_and_is_kept(ws: Path) -> None:
    micro_rest("prefers tabs", "O", workspace=ws, confidence=0.85)
    micro_rest("likes tea", "o", workspace=ws)
    notes = parse(next((ws / "memory").glob("*.md")).read_text()).notes()
    assert [n.confidence for n in notes] == [0.85, 0.7]


def test_hand_edited_lines_survive_an_append(ws: Path) -> None:
    micro_rest("first", workspace=ws)
    log = next((ws / "memory").glob("*.md"))
    edited = log.read_bytes() + b"stray prose \xff\xfe not utf-8\r\n"
    log.write_bytes(edited)
    micro_rest("second", workspace=ws)
    assert log.read_bytes().startswith(edited)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"note": "x", "type": "Q"}, "unknown note type"),
        ({"note": "x", "type": "O", "confidence": 1.5}, r"outside \[0, 1\]"),
        ({"note": "x", "type": "O", "confidence": -0.1}, r"outside \[0, 1\]"),
        ({"note": "x", "type": "W", "confidence": 0.5}, "O notes only"),
        ({"note": "   \n\t ", "type": "W"}, "empty"),
        ({"note": "x" * 5000, "type": "W"}, "flush"),
    ],
)
def test_bad_input_raises_and_writes_nothing(ws: Path, kwargs: dict, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        micro_rest(workspace=ws, **kwargs)
    assert not ws.exists()


CLI_BAD = [
    (["--note", "x", "--type", "Q"], "unknown note type"),
    (["--note", "x", "--type", "O", "--confidence", "2"], "outside [0, 1]"),
    (["--note", "x", "--type", "B", "--confidence", "0.2"], "O notes only"),
    (["--note", "  "], "empty"),
    (["--note", "y" * 5000], "cap"),
    (["--type", "W"], "Missing option"),
    (["--note", "x", "--confidence", "abc", "--type", "O"], "not a valid float"),
]


@pytest.mark.parametrize(("args", "message"), CLI_BAD)
def test_cli_bad_input_one_line_exit_2_nothing_written(
    ws: Path, args: list[str], message: str
) -> None:
    r = run_cli("rest", "--workspace", str(ws), *args)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert not ws.exists()


def test_workspace_that_is_a_file_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("not a folder")
    r = run_cli("rest", "--workspace", str(f), "--note", "x")
    assert r.returncode == 2 and "is a file" in r.stderr and len(r.stderr.splitlines()) == 1
    assert f.read_text() == "not a folder"
    r = run_cli("rest", "--workspace", str(f / "sub"), "--note", "x")
    assert r.returncode == 2 and r.stderr.startswith("Error: ")


def test_unwritable_workspace_is_refused(tmp_path: Path) -> None:
    target = "/proc/agent-sleep-test-ws"  # even root cannot create folders here
    r = run_cli("rest", "--workspace", target, "--note", "x")
    assert r.returncode == 2 and "not writable" in r.stderr and len(r.stderr.splitlines()) == 1
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        r = run_cli("rest", "--workspace", str(ro / "ws"), "--note", "x")
        assert r.returncode == 2 and "not writable" in r.stderr


def test_cli_prints_the_id_and_json(ws: Path) -> None:
    r = run_cli(
        "rest",
        "-w",
        str(ws),
        "--note",
        "User prefers TypeScript",
        "--type",
        "O",
        "--confidence",
        "0.9",
        "--source",
        "msg 1",
    )
    assert r.returncode == 0, r.stderr
    nid = r.stdout.strip()
    r = run_cli("rest", "-w", str(ws), "--note", "token sk-ant-api03-" + "a" * 40, "--json")
    data = json.loads(r.stdout)
    assert data["type"] == "B" and data["redacted"] is True
    text = Path(data["path"]).read_text()
    assert nid in text and "sk-ant-" not in text and "[REDACTED:anthropic-key]" in text


def test_workspace_from_env_and_tilde(tmp_path: Path) -> None:
    env_ws = tmp_path / "from-env"
    r = run_cli("rest", "--note", "x", env={"AGENT_SLEEP_WORKSPACE": str(env_ws)})
    assert r.returncode == 0 and (env_ws / "memory").is_dir()
    r = run_cli("rest", "--note", "y", "--workspace", "~/tilde-ws", env={"HOME": str(tmp_path)})
    assert r.returncode == 0 and (tmp_path / "tilde-ws" / "memory").is_dir()


def test_init_creates_the_layout(ws: Path) -> None:
    r = run_cli("init", "--workspace", str(ws), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["workspace"] == str(ws)
    for p in ("MEMORY.md", "memory", "bank/entities", "bank/concepts", ".agent-sleep"):
        assert (ws / p).exists(), p
    before = _files(ws)
    assert run_cli("init", "--workspace", str(ws)).returncode == 0
    assert _files(ws) == before


def test_literal_skill_command_from_the_skill_folder(ws: Path) -> None:
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [
            sys.executable,
            "scripts/micro_rest.py",
            "--note",
            "User prefers TypeScript; rejected Python suggestion",
            "--type",
            "O",
            "--workspace",
            str(ws),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    (note,) = parse(next((ws / "memory").glob("*.md")).read_text()).notes()
    assert note.id == r.stdout.strip() and note.type == "O"


def test_cli_note_from_stdin_and_when(ws: Path) -> None:
    r = run_cli(
        "rest",
        "-w",
        str(ws),
        "--note",
        "-",
        "--when",
        "2023-05-07T18:00",
        input='it\'s "quoted"\nand two lines\n',
    )
    assert r.returncode == 0, r.stderr
    (note,) = parse((ws / "memory" / "2023-05-07.md").read_text()).notes()
    assert (note.id, note.time, note.text) == (
        r.stdout.strip(),
        "18:00",
        'it\'s "quoted"\nand two lines',
    )
    r = run_cli("rest", "-w", str(ws), "--note", "x", "--when", "yesterday")
    assert r.returncode == 2 and "not an ISO date" in r.stderr
