"""The package's layering: imports follow the layer order of the README's table (which names
every module), no import cycle between modules (imports inside functions count too), and no
module over 600 lines.

Every module of ``autograd_lab`` is parsed (not imported); each ``import`` and ``from ...
import`` anywhere in it, relative or absolute, becomes an edge to the package module it
names (``from . import x`` names the submodule ``x`` when there is one). Imports under
``if TYPE_CHECKING:`` are left out: they never run.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "autograd_lab"
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth, except those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` or its closest enclosing package module (None: outside the package)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (anywhere in its body)."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        is_pkg = path.name == "__init__.py"
        base = mod.split(".") if is_pkg else mod.split(".")[:-1]
        for node in _imports(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    anchor = base[: len(base) - (node.level - 1)]
                    prefix = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                for a in node.names:  # ``from pkg import submodule`` names the submodule
                    sub = f"{prefix}.{a.name}"
                    targets.append(sub if sub in modules else prefix)
            for t in targets:
                r = _resolve(t, modules)
                if r is not None and r != mod:
                    graph[mod].add(r)
    return graph


def _package_of(child: str, parent: str) -> bool:
    """A package's ``__init__`` runs before its submodules: importing it is not a cycle."""
    return child.startswith(parent + ".")


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a list of modules (first == last), or None."""
    color: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m: str) -> list[str] | None:
        color[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if _package_of(m, n):
                continue
            if color.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in color:
                found = dfs(n)
                if found:
                    return found
        stack.pop()
        color[m] = 2
        return None

    for m in sorted(graph):
        if m not in color:
            found = dfs(m)
            if found:
                return found
    return None


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_module_over_600_lines() -> None:
    long = {m: n for m, p in _modules().items()
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_the_checker_sees_function_local_imports(tmp_path: Path) -> None:
    tree = ast.parse("def f():\n    from .b import g\nif TYPE_CHECKING:\n    import c\n")
    names = [n.module for n in _imports(tree) if isinstance(n, ast.ImportFrom)]
    assert names == ["b"]
    assert find_cycle({"p.a": {"p.b"}, "p.b": {"p.a"}}) == ["p.a", "p.b", "p.a"]
    assert find_cycle({"p": {"p.a"}, "p.a": {"p"}}) is None


# ---- the README's layer order -------------------------------------------------------------------

README = PACKAGE.parent / "README.md"


def readme_layers(text: str) -> list[tuple[str, list[str], str]]:
    """The rows of the layer table under "## The engine": (layer, module entries, what they
    hold). An entry is ``x.py`` (a module, ``__init__.py`` the package itself) or ``pkg/``
    (a package and all its modules)."""
    section = text.split("\n## The engine\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("layer", "---") or not line.startswith("|"):
            continue
        rows.append((cells[0], re.findall(r"`([^`]+)`", cells[1]), cells[2]))
    return rows


def layer_of(rows: list[tuple[str, list[str], str]], modules: list[str]) -> dict[str, int]:
    """Module -> the index of its row in the table (modules the table misses are left out)."""
    out = {}
    for rank, (_, entries, _) in enumerate(rows):
        for e in entries:
            if e == "__init__.py":
                names = {"autograd_lab"}
            elif e.endswith(".py"):
                names = {"autograd_lab." + e[:-3].replace("/", ".")}
            else:
                pkg = "autograd_lab." + e.rstrip("/").replace("/", ".")
                names = {m for m in modules if m == pkg or m.startswith(pkg + ".")}
            for m in names & set(modules):
                out[m] = rank
    return out


def upward_imports(graph: dict[str, set[str]], rank: dict[str, int]) -> list[str]:
    """Imports of a module from a later row of the table than its own."""
    return sorted(f"{m} -> {t}" for m, ts in graph.items() for t in ts
                  if m in rank and t in rank and rank[t] > rank[m])


def test_readme_names_every_module_in_one_layer() -> None:
    modules = sorted(_modules())
    rows = readme_layers(README.read_text())
    assert [r[0] for r in rows][:5] == ["1. basics", "2. data and graph", "3. operations",
                                        "4. backward", "5. the API"]
    rank = layer_of(rows, modules)
    missing = [m for m in modules if m not in rank]
    assert not missing, f"modules the README's layer table does not name: {missing}"
    entries = [e for _, es, _ in rows for e in es]
    assert len(entries) == len(set(entries)), "a module named in two layers"


def test_imports_follow_the_readme_layer_order() -> None:
    modules = sorted(_modules())
    rank = layer_of(readme_layers(README.read_text()), modules)
    wrong = upward_imports(import_graph(), rank)
    assert not wrong, "imports of a later layer: " + ", ".join(wrong)


def test_the_operations_row_names_each_ops_module() -> None:
    rows = readme_layers(README.read_text())
    (held,) = [what for _, entries, what in rows if entries == ["ops/"]]
    named = {n.split(".")[0] for n in re.findall(r"`([^`]+)`", held)}
    ops = {m.split(".")[2] for m in _modules() if m.startswith("autograd_lab.ops.")}
    assert not ops - named, f"ops modules the table's operations row leaves out: {ops - named}"


def test_the_layer_checker_flags_an_upward_import() -> None:
    table = ("\n## The engine\n\n| layer | modules | what they hold |\n| --- | --- | --- |\n"
             "| 1. low | `a.py` | a |\n| 2. high | `b.py`, `p/` | b |\n\n## Next\n")
    rows = readme_layers(table)
    mods = ["autograd_lab.a", "autograd_lab.b", "autograd_lab.p", "autograd_lab.p.q"]
    rank = layer_of(rows, mods)
    assert rank == {"autograd_lab.a": 0, "autograd_lab.b": 1, "autograd_lab.p": 1,
                    "autograd_lab.p.q": 1}
    graph = {"autograd_lab.a": {"autograd_lab.p.q"}, "autograd_lab.b": {"autograd_lab.a"}}
    assert upward_imports(graph, rank) == ["autograd_lab.a -> autograd_lab.p.q"]
