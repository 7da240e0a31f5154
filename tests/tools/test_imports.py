"""tools/hzlib's modules import each other in layers: no import cycle, and
every import at the top of its module (an import inside a function is how
a cycle hides)."""

import ast
import pathlib
import unittest
from typing import Dict, List, Set

HZLIB = pathlib.Path(__file__).resolve().parents[2] / "tools" / "hzlib"


def module_name(path: pathlib.Path) -> str:
    """'report', 'scenarios' (its __init__.py), 'scenarios.clear'."""
    parts = list(path.relative_to(HZLIB).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> List[pathlib.Path]:
    return sorted(HZLIB.rglob("*.py"))


def module_imports(path: pathlib.Path) -> Set[str]:
    """The hzlib modules one file imports, wherever in the file, by
    module_name(). A module of a package imported from outside it also
    runs the package's __init__.py: that is an import of the package too."""
    names = {module_name(p) for p in modules()}
    me = module_name(path)
    package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
    out: Set[str] = set()

    def add(name: str) -> None:
        top = name.split(".")[0]
        if "." in name and package[:1] != [top]:
            out.add(top)  # the package's __init__ runs first
        out.add(name)

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            base = package[:len(package) - (node.level - 1)]
            mod = base + (node.module.split(".") if node.module else [])
            if node.module and ".".join(mod) in names:  # from .x import y
                add(".".join(mod))
            # from . import x, y (a name may be a constant of __init__)
            for a in node.names:
                if ".".join(mod + [a.name]) in names:
                    add(".".join(mod + [a.name]))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hzlib."):
            add(node.module[len("hzlib."):])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("hzlib."):
                    add(a.name[len("hzlib."):])
    return out - {me}


def graph() -> Dict[str, Set[str]]:
    return {module_name(p): module_imports(p) for p in modules()}


def cycles(g: Dict[str, Set[str]]) -> List[List[str]]:
    """One cycle (as a path back to its start) per strongly connected
    part of g that has one."""
    found: List[List[str]] = []
    done: Set[str] = set()

    def walk(node: str, path: List[str]) -> None:
        if node in path:
            found.append(path[path.index(node):] + [node])
            return
        if node in done:
            return
        for nxt in sorted(g.get(node, ())):
            walk(nxt, path + [node])
        done.add(node)

    for n in sorted(g):
        walk(n, [])
    return found


def nested_imports(path: pathlib.Path) -> List[int]:
    """Lines of imports that are not at a module's top level."""
    tree = ast.parse(path.read_text(), str(path))
    top = set(map(id, tree.body))
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in top]


class ImportTest(unittest.TestCase):
    def test_no_cycle(self):
        g = graph()
        self.assertIn("qemurun", g["probe"])  # the graph is read at all
        self.assertIn("scenarios.clear", g["scenarios"])  # and the package's
        self.assertIn("compare_rows", g["scenarios.clear"])
        self.assertTrue({"scenarios", "scenarios.clear"} <= g["report_text"])
        self.assertEqual(cycles(g), [])

    def test_cycle_is_found(self):
        self.assertEqual(cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}),
                         [["a", "b", "c", "a"]])
        self.assertEqual(cycles({"a": {"b"}, "b": set()}), [])

    def test_imports_at_the_top(self):
        for path in modules():
            self.assertEqual(nested_imports(path), [], module_name(path))


if __name__ == "__main__":
    unittest.main()
