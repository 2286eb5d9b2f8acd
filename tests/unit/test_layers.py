"""pellucid's layers (pellucid.LAYERS, lowest first): no module imports from a higher layer, and no modules
import one another in a circle. Every import counts, at a module's top and inside its functions."""

import ast
from pathlib import Path

import pellucid

PACKAGE = Path(pellucid.__file__).resolve().parent
FACADE = "pellucid"  # the package's __init__: it gathers the public names from every layer


def _module_name(path, package=PACKAGE):
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path, module):
    """The names `module` imports (modules, and the names imported from them), at any depth."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module or ""
            out.add(target)
            out.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def _graph(package=PACKAGE):
    """module -> the pellucid modules it imports (a package's __init__ importing its own parts left out:
    that is how a package gathers its names, not a dependency)."""
    modules = {_module_name(p, package): p for p in package.rglob("*.py")}
    graph = {}
    for module, path in modules.items():
        targets = {t for t in _imports(path, module) if t in modules and t != module}
        graph[module] = {t for t in targets if not t.startswith(module + ".")}
    return graph


def _layer(module):
    """The index of `module`'s layer in pellucid.LAYERS (the facade is above them all)."""
    if module == FACADE:
        return len(pellucid.LAYERS)
    return pellucid.LAYERS.index(module.split(".")[1])


def test_every_module_is_in_a_layer():
    unplaced = sorted(m for m in _graph() if m != FACADE and m.split(".")[1] not in pellucid.LAYERS)
    assert unplaced == [], f"modules in no layer of pellucid.LAYERS: {unplaced}"


def test_no_module_imports_from_a_higher_layer():
    upward = [f"{module} ({pellucid.LAYERS[_layer(module)]}) imports {target} "
              f"({pellucid.LAYERS[_layer(target)] if target != FACADE else 'the package facade'})"
              for module, targets in sorted(_graph().items()) if module != FACADE
              for target in sorted(targets) if _layer(target) > _layer(module)]
    assert upward == [], "imports from a higher layer:\n" + "\n".join(upward)


def test_no_modules_import_one_another_in_a_circle():
    graph = _graph()
    circles, state = [], {}

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                circles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == [], "import circles:\n" + "\n".join(circles)


def test_the_checks_see_an_upward_import_and_a_circle(tmp_path):
    # The checks themselves, on a made-up package: a lower layer importing a higher one inside a
    # function, and two modules importing each other.
    package = tmp_path / "pellucid"
    for folder in ("core", "learners"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "core" / "low.py").write_text("def f():\n    from ..learners import high\n")
    (package / "learners" / "high.py").write_text("from ..core import low\nfrom . import other\n")
    (package / "learners" / "other.py").write_text("from .high import something\n")
    graph = _graph(package)
    assert "pellucid.learners.high" in graph["pellucid.core.low"]
    assert _layer("pellucid.learners.high") > _layer("pellucid.core.low")
    assert "pellucid.learners.other" in graph["pellucid.learners.high"]
    assert "pellucid.learners.high" in graph["pellucid.learners.other"]
