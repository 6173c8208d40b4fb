"""Issue 21, the client shell: no function of the shell's JavaScript (``sefode/web/static/js/``) is over 200 lines.

The files are parsed with tree-sitter's JavaScript grammar (a dev dependency, installed with ``.[dev]``), so a brace in
a string, a template or a regular expression cannot fool the count. Every kind of function counts: declarations,
expressions, arrows and methods, nested ones on their own (a nested function's lines count in its parent too). A
function's length is from the line of its first character to the line of its last.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import tree_sitter_javascript
from tree_sitter import Language, Node, Parser

import sefode

SHELL = Path(sefode.__file__).parent / "web" / "static" / "js"
MOST_LINES = 200
FUNCTION_NODES = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",  # older grammars' name for a function expression
        "generator_function_declaration",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)


@dataclass(frozen=True)
class Function:
    where: str
    name: str
    line: int
    lines: int


def _parser() -> Parser:
    return Parser(Language(tree_sitter_javascript.language()))


def _name(node: Node) -> str:
    named = node.child_by_field_name("name")
    if named is None and node.parent is not None and node.parent.type == "variable_declarator":
        named = node.parent.child_by_field_name("name")
    if named is None and node.parent is not None and node.parent.type == "pair":
        named = node.parent.child_by_field_name("key")
    return named.text.decode() if named is not None and named.text is not None else "(anonymous)"


def functions(source: bytes, where: str) -> list[Function]:
    """Every function of one file's source, with its length in lines. A file that does not parse is an error."""
    tree = _parser().parse(source)
    assert not tree.root_node.has_error, f"{where}: tree-sitter could not parse it"
    found: list[Function] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_named and node.type in FUNCTION_NODES:
            first, last = node.start_point[0], node.end_point[0]
            found.append(Function(where, _name(node), first + 1, last - first + 1))
        stack.extend(node.children)
    return found


def too_long(found: list[Function]) -> list[Function]:
    return sorted((f for f in found if f.lines > MOST_LINES), key=lambda f: (f.where, f.line))


def _shell_files() -> list[Path]:
    return sorted(SHELL.rglob("*.js"))


def test_no_shell_function_is_over_200_lines() -> None:
    files = _shell_files()
    assert len(files) > 20, files  # the shell is where this test looks
    found = [f for path in files for f in functions(path.read_bytes(), str(path.relative_to(SHELL)))]
    assert any(f.name == "renderRoom" for f in found) and any(f.name == "renderHome" for f in found)
    long = too_long(found)
    assert not long, "\n".join(f"{f.where}:{f.line} {f.name} is {f.lines} lines (at most {MOST_LINES})" for f in long)


def _body(lines: int) -> str:
    """A function of exactly ``lines`` lines whose body holds braces in strings, a template and a regex."""
    inner = ['  const a = "}}}";', "  const b = `${a} }`;", "  const c = /}{/g;"]
    inner += [f"  let x{i} = {i};" for i in range(lines - 2 - len(inner))]
    return "\n".join(["{", *inner, "}"])


@pytest.mark.parametrize(
    ("form", "kind"),
    [
        ("function big() BODY", "function_declaration"),
        ("const big = function () BODY;", "function_expression"),
        ("const big = async () => BODY;", "arrow_function"),
        ("class K { big() BODY }", "method_definition"),
        ("function* big() BODY", "generator_function_declaration"),
    ],
)
def test_the_checker_finds_a_long_function_of_every_kind(form: str, kind: str) -> None:
    """201 lines is too long and 200 is not, whatever the kind of function and whatever its strings hold."""
    for lines, flagged in ((MOST_LINES, False), (MOST_LINES + 1, True)):
        source = form.replace("BODY", _body(lines)).encode()
        found = functions(source, "probe.js")
        assert [f.lines for f in found] == [lines], (kind, found)
        assert found[0].name == "big"
        assert bool(too_long(found)) is flagged, (kind, lines)


def test_a_nested_function_counts_on_its_own() -> None:
    source = ("function outer() {\n  const inner = () => " + _body(MOST_LINES + 1) + ";\n}\n").encode()
    long = too_long(functions(source, "probe.js"))
    assert sorted(f.name for f in long) == ["inner", "outer"]
