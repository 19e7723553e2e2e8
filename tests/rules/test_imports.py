"""Module structure (issue 12 §4): no game imports another, no import cycle inside a package, and the
core (shapes, errors, spec, base) imports in one direction (DESIGN 4.8)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from rules.registry import ENGINES

RULES = Path(__file__).resolve().parents[2] / "rules"
GAME_MODULES = {type(e).__module__.split(".")[1] for e in ENGINES.values()}


def _imports(path: Path, package: str, submodules: bool = False) -> set[str]:
    """Every module the file imports, at module level or inside a function (an import moved
    into a function to dodge a cycle is still a cycle), as dotted names."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                out.add(f"{base}.{node.module}" if node.module else base)
                out.update(f"{base}.{alias.name}" for alias in node.names if not node.module)
            elif node.module:
                out.add(node.module)
                if submodules:  # ``from rules import shapes`` imports rules.shapes
                    out.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def _module_name(path: Path) -> str:
    rel = path.relative_to(RULES.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_no_game_imports_another():
    assert len(GAME_MODULES) == len(ENGINES)
    for path in RULES.rglob("*.py"):
        name = _module_name(path)
        own = name.split(".")[1] if name.count(".") else None
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for imported in _imports(path, package):
            parts = imported.split(".")
            if parts[0] == "rules" and len(parts) > 1 and parts[1] in GAME_MODULES:
                assert parts[1] == own, f"{name} imports the game module {imported}"


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the directed graph, or None."""
    seen: set[str] = set()
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in stack:
            return [*stack[stack.index(node):], node]
        if node in seen:
            return None
        stack.append(node)
        for nxt in graph.get(node, ()):
            found = visit(nxt)
            if found:
                return found
        stack.pop()
        seen.add(node)
        return None

    return next((c for c in map(visit, graph) if c), None)


def test_the_cycle_finder_finds_cycles():
    assert _cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_inside_a_package():
    packages = [p for p in RULES.iterdir() if (p / "__init__.py").exists()]
    assert packages
    for package_dir in packages:
        package = f"rules.{package_dir.name}"
        graph = {_module_name(path): {m for m in _imports(path, package) if m.startswith(package + ".")}
                 - {_module_name(path)} for path in package_dir.glob("*.py")}
        assert _cycle(graph) is None, f"import cycle in {package}: {' -> '.join(_cycle(graph) or [])}"


#: the core, each module importing only those before it (DESIGN 4.8)
CORE = ("rules.jsontypes", "rules.shapes", "rules.errors", "rules.spec", "rules.base")


def _graph() -> dict[str, set[str]]:
    """Which module of rules/ imports which (module level, inside functions, under TYPE_CHECKING)."""
    paths = {_module_name(path): path for path in RULES.rglob("*.py")}
    graph = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        # a submodule's own packages are loaded before it anyway (``from . import x`` names them)
        graph[name] = {m for m in _imports(path, package, submodules=True)
                       if m in paths and not name.startswith(f"{m}.")} - {name}
    return graph


def test_no_module_of_rules_imports_one_that_imports_it_back():
    graph = _graph()
    assert set(CORE) <= set(graph)
    assert _cycle(graph) is None, f"import cycle: {' -> '.join(_cycle(graph) or [])}"


def test_the_core_imports_one_way():
    """shapes <- errors <- spec <- base: each imports none of those after it, and, imported alone in
    a fresh interpreter, loads none of them."""
    graph = _graph()
    for i, module in enumerate(CORE):
        later = set(CORE[i + 1:])
        assert not graph[module] & later, f"{module} imports {sorted(graph[module] & later)}"
        code = f"import sys, {module}; print(sorted(m for m in {sorted(later)!r} if m in sys.modules))"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              cwd=RULES.parent, timeout=60)
        assert done.stdout.strip() == "[]", f"importing {module} loads {done.stdout.strip()}"
