"""Wrap a long line of generated code the way Ruff's formatter (and Black) would.

An expression becomes a document of text, line breaks and groups (Wadler's pretty
printer, as Ruff's formatter and Prettier build it): a group is printed on one line
when it fits up to the next possible break, else its breaks become newlines. A call's
arguments are a group inside the group of its parentheses (`f(\\n    a, b\\n)` first,
then one argument a line with a trailing comma, none after a sole argument); a tuple,
list, set or dict literal is one group (one element a line). An operation breaks before
its operators inside brackets; as an assigned, returned or tested value it does so in
added parentheses, unless its last operand has brackets of its own, which break instead
(as in a statement of its own). Nodes of other kinds are kept whole. A wrapped statement
is used only where it parses to the same syntax tree as the line it replaces.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

_EMPTY = cst.Module([])


@dataclass(frozen=True)
class Line:
    """A break: nothing (`soft`) or a space on one line, else a newline."""

    soft: bool


@dataclass(frozen=True)
class Indent:
    docs: list


@dataclass(frozen=True)
class Group:
    docs: list


@dataclass(frozen=True)
class IfBreak:
    """Text printed only where its group breaks (a trailing comma)."""

    text: str


SOFT, LINE = Line(soft=True), Line(soft=False)
FLAT, BREAK = False, True
Doc = str | Line | Indent | Group | IfBreak | list


def text(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


def render(doc: Doc, width: int, indent: str) -> str:
    """`doc` printed in `width` columns, continuation lines indented by `indent` each."""
    out: list[str] = []
    column = 0
    stack: list[tuple[int, bool, Doc]] = [(0, BREAK, doc)]
    while stack:
        depth, mode, item = stack.pop()
        if type(item) is str:
            out.append(item)
            column += len(item)
        elif type(item) is list:
            stack.extend((depth, mode, d) for d in reversed(item))
        elif type(item) is Indent:
            stack.append((depth + 1, mode, item.docs))
        elif type(item) is Group:
            flat = mode is FLAT or _fits([(depth, FLAT, item.docs)], stack, width - column)
            stack.append((depth, FLAT if flat else BREAK, item.docs))
        elif type(item) is IfBreak:
            if mode is BREAK:
                out.append(item.text)
                column += len(item.text)
        elif mode is BREAK:  # a Line
            out.append("\n" + indent * depth)
            column = len(indent) * depth
        elif not item.soft:  # type: ignore[union-attr]  # a Line
            out.append(" ")
            column += 1
    return "".join(out)


def _fits(todo: list[tuple[int, bool, Doc]], rest: list[tuple[int, bool, Doc]], room: int) -> bool:
    """Whether `todo`, then what follows it up to its first break, takes at most `room`
    columns (the groups that follow counted as broken, as Prettier and Ruff do)."""
    waiting = len(rest)
    while room >= 0:
        if not todo:
            if not waiting:
                return True
            waiting -= 1
            todo.append(rest[waiting])
            continue
        depth, mode, item = todo.pop()
        if type(item) is str:
            room -= len(item)
        elif type(item) is list:
            todo.extend((depth, mode, d) for d in reversed(item))
        elif type(item) in (Indent, Group):
            todo.append((depth, mode, item.docs))  # type: ignore[union-attr]  # both hold docs
        elif type(item) is IfBreak:
            room -= len(item.text) if mode is BREAK else 0
        elif mode is BREAK:
            return True
        else:
            room -= 0 if item.soft else 1  # type: ignore[union-attr]  # a Line
    return False


#: Where an expression is: the value of an assignment, `return`, `if` or `while`
#: (parentheses may be added to break it), a statement of its own, inside brackets.
VALUE, STATEMENT, INNER = "value", "statement", "inner"


def expression(node: cst.BaseExpression, where: str = INNER) -> Doc:
    """The document of an expression; whole text for kinds not modelled."""
    if type(node) is cst.Tuple and len(node.lpar) == 1:
        one = len(node.elements) == 1
        return _bracketed("(", [_element(e) for e in node.elements], ")", one)
    if node.lpar:
        return text(node)
    if type(node) is cst.Call:
        return [expression(node.func), _arguments(node)]
    if type(node) is cst.Attribute:
        return [expression(node.value), ".", node.attr.value]
    if type(node) is cst.Subscript:
        return [expression(node.value), text(node)[len(text(node.value)) :]]
    if type(node) is cst.List or type(node) is cst.Set:
        opening, closing = ("[", "]") if type(node) is cst.List else ("{", "}")
        return _bracketed(opening, [_element(e) for e in node.elements], closing)
    if type(node) is cst.Dict:
        return _bracketed("{", [_dict_element(e) for e in node.elements], "}")
    if type(node) in (cst.Comparison, cst.BinaryOperation, cst.BooleanOperation):
        return _operation(node, where)
    return text(node)


def _bracketed(opening: str, items: list[Doc], closing: str, one_tuple: bool = False) -> Doc:
    if not items:
        return opening + closing
    joined: list[Doc] = []
    for item in items:
        joined += [item, ",", LINE]
    joined[-2:] = [","] if one_tuple else [IfBreak(",")]
    return Group([opening, Indent([SOFT, *joined]), SOFT, closing])


def _element(element: cst.BaseElement) -> Doc:
    if type(element) is cst.StarredElement:
        return text(element.with_changes(comma=cst.MaybeSentinel.DEFAULT))
    return expression(element.value)


def _dict_element(element: cst.BaseDictElement) -> Doc:
    if type(element) is cst.DictElement:
        return [expression(element.key), ": ", expression(element.value)]
    return text(element.with_changes(comma=cst.MaybeSentinel.DEFAULT))


def _arguments(call: cst.Call) -> Doc:
    """`(args)`: the arguments' own group inside the parentheses' group."""
    args = call.args
    if not args:
        return "()"
    if len(args) == 1 and type(args[0].value) is cst.GeneratorExp and not args[0].value.lpar:
        return Group(["(", Indent([SOFT, _comprehension(args[0].value)]), SOFT, ")"])
    joined: list[Doc] = []
    for arg in args:
        head = (arg.keyword.value + "=") if arg.keyword else arg.star
        joined += [head, expression(arg.value), ",", LINE]
    joined[-2:] = [IfBreak(",")] if len(args) > 1 else []  # none after a sole argument
    return Group(["(", Indent([SOFT, Group(joined)]), SOFT, ")"])


def _comprehension(node: cst.GeneratorExp) -> Doc:
    """`elt for x in xs if c`, breaking before each `for` and `if`."""
    parts: list[Doc] = [expression(node.elt)]
    clause: cst.CompFor | None = node.for_in
    while clause is not None:
        if clause.asynchronous is not None:
            return text(node)
        parts += [LINE, f"for {text(clause.target)} in ", expression(clause.iter)]
        for test in clause.ifs:
            parts += [LINE, "if ", expression(test.test)]
        clause = clause.inner_for_in
    return Group(parts)


def _operation(node: cst.BaseExpression, where: str) -> Doc:
    """Operands and their operators: inside brackets a group breaking before each
    operator; as a value, the same in added parentheses unless the last operand has
    brackets of its own (those break instead), as in a statement of its own."""
    operands, operators = _flattened(node)
    pairs = list(zip(operators, operands[1:], strict=True))
    first = expression(operands[0])
    if where == INNER or (where == VALUE and not _bracketed_operand(operands[-1])):
        parts: list[Doc] = [first]
        for operator, operand in pairs:
            parts += [LINE, f"{operator} ", expression(operand)]
        if where == INNER:
            return Group(parts)
        return Group([IfBreak("("), Indent([SOFT, *parts]), SOFT, IfBreak(")")])
    return [first, *[[f" {operator} ", expression(operand)] for operator, operand in pairs]]


def _flattened(node: cst.BaseExpression) -> tuple[list[cst.BaseExpression], list[str]]:
    """The operands and operators of one comparison or operation, not of its operands."""
    if type(node) is cst.Comparison:
        targets = node.comparisons
        return [node.left, *(t.comparator for t in targets)], [
            text(t.operator).strip() for t in targets
        ]
    return [node.left, node.right], [text(node.operator).strip()]  # type: ignore[attr-defined]


def _bracketed_operand(node: cst.BaseExpression) -> bool:
    if node.lpar:
        return type(node) is cst.Tuple
    return type(node) in (cst.Call, cst.Subscript, cst.List, cst.Dict, cst.Set)


def same_code(old: str, new: str) -> bool:
    """Whether two statements' texts parse to the same syntax tree."""
    try:
        return ast.dump(ast.parse(old)) == ast.dump(ast.parse(new))
    except SyntaxError:
        return False
