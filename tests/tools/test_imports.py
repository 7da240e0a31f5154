"""tools/hzlib's modules import each other in layers: no import cycle, and
every import at the top of its module (an import inside a function is how
a cycle hides)."""

import ast
import pathlib
import unittest
from typing import Dict, List, Set

HZLIB = pathlib.Path(__file__).resolve().parents[2] / "tools" / "hzlib"


def module_imports(path: pathlib.Path) -> Set[str]:
    """The hzlib modules one file imports, wherever in the file."""
    names = {p.stem for p in HZLIB.glob("*.py")}
    out: Set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:  # from .x import y
                out.add(node.module.split(".")[0])
            else:  # from . import x, y (a name may be a constant of __init__)
                out |= {a.name for a in node.names if a.name in names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hzlib."):
            out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[1] for a in node.names if a.name.startswith("hzlib.")}
    return out - {path.stem}


def graph() -> Dict[str, Set[str]]:
    return {p.stem: module_imports(p) for p in sorted(HZLIB.glob("*.py"))}


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
        self.assertEqual(cycles(g), [])

    def test_cycle_is_found(self):
        self.assertEqual(cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}),
                         [["a", "b", "c", "a"]])
        self.assertEqual(cycles({"a": {"b"}, "b": set()}), [])

    def test_imports_at_the_top(self):
        for path in sorted(HZLIB.glob("*.py")):
            self.assertEqual(nested_imports(path), [], path.name)


if __name__ == "__main__":
    unittest.main()
