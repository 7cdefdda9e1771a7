"""The package's layers, kept honest by walking every module's AST (function-level imports too).

core < analysis < retrieval < providers < consolidation < {cli, integrations, sync}: a module
imports its own package and the layers below it only. integrations and sync sit above the
library beside cli and never import cli. No private name crosses a package, and only the CLI
prints: the library reports through callbacks and ``logging``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "agent_sleep"
LAYERS = {
    "core": 0,
    "analysis": 1,
    "retrieval": 2,
    "providers": 3,
    "consolidation": 4,
    "integrations": 5,
    "sync": 5,
    "cli": 6,
}
TOP = {"integrations", "sync", "cli"}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _package_of(path: Path) -> str | None:
    """The subpackage a module belongs to; None for the package root's own modules."""
    rel = path.relative_to(PACKAGE).parts
    return rel[0] if len(rel) > 1 else None


def _imports(tree: ast.AST) -> list[tuple[int, str, list[str]]]:
    """Every import of the package in ``tree``: line, dotted module, names imported from it."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "agent_sleep":
                    found.append((node.lineno, alias.name, []))
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative imports hide the layer an import crosses"
            if node.module and node.module.split(".")[0] == "agent_sleep":
                found.append((node.lineno, node.module, [a.name for a in node.names]))
    return found


def _target(module: str, names: list[str]) -> list[str]:
    """The subpackages an import reaches (``from agent_sleep import core`` reaches core)."""
    parts = module.split(".")
    if len(parts) > 1:
        return [parts[1]]
    return [n for n in names if n in LAYERS]


def layer_violations() -> list[str]:
    bad = []
    for path in _modules():
        rel = path.relative_to(ROOT)
        own = _package_of(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(rel))
        for line, module, names in _imports(tree):
            for target in _target(module, names):
                if target not in LAYERS:
                    continue  # a root module such as agent_sleep.__init__
                if own is None:
                    continue  # the root's lazy exports and __main__ may reach any layer
                if own not in LAYERS:
                    bad.append(f"{rel}: package {own!r} has no layer in tests/test_layers.py")
                elif target == own:
                    pass
                elif target == "cli" or (own in TOP and target in TOP and own != "cli"):
                    bad.append(
                        f"{rel}:{line} imports {module} (nothing imports cli; "
                        "integrations and sync stay independent)"
                    )
                elif LAYERS[target] >= LAYERS[own]:
                    bad.append(f"{rel}:{line} imports {module}, a layer above or beside {own}")
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            crossing = module.split(".")[1:2] != ([own] if own else [])
            if private and crossing:
                bad.append(f"{rel}:{line} imports private {', '.join(private)} from {module}")
    return bad


def print_calls() -> list[str]:
    bad = []
    for path in _modules():
        if _package_of(path) == "cli":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "print"
            ):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} prints")
    return bad


def test_every_import_follows_the_layers() -> None:
    assert layer_violations() == []


def test_only_the_cli_prints() -> None:
    assert print_calls() == []


def test_every_subpackage_has_a_layer() -> None:
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert packages <= set(LAYERS), packages - set(LAYERS)


@pytest.mark.parametrize(
    ("package", "source", "expect"),
    [
        ("core", "from agent_sleep.retrieval.recall import recall", "a layer above"),
        ("core", "def f():\n    from agent_sleep.consolidation import sleep", "a layer above"),
        ("retrieval", "import agent_sleep.providers.base", "a layer above"),
        ("providers", "from agent_sleep.cli.app import main", "nothing imports cli"),
        ("sync", "from agent_sleep.integrations import mcp_server", "stay independent"),
        ("consolidation", "from agent_sleep.core.notes import _private", "private"),
        ("analysis", "print('x')", "prints"),
    ],
)
def test_the_walker_catches_each_kind_of_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str, source: str, expect: str
) -> None:
    """The rules above would pass vacuously if the walker saw nothing: plant one violation."""
    fake_root = tmp_path / "root"
    pkg = fake_root / "agent_sleep" / package
    pkg.mkdir(parents=True)
    (fake_root / "agent_sleep" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "planted.py").write_text(source + "\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "ROOT", fake_root)
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "PACKAGE", fake_root / "agent_sleep")
    found = layer_violations() + print_calls()
    assert len(found) == 1 and expect in found[0], found
