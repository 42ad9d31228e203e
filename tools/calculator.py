"""`calculate`: arithmetic for the model, done in code by walking the expression's syntax tree.

Only numbers, + - * /, parentheses and unary signs are accepted; anything else (names,
calls, powers, attributes) is refused, so the expression can never run code.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from pydantic import Field

from contract.errors import ToolError
from tools.catalog import Catalog
from tools.fields import ToolArgs

MAX_LENGTH = 300
BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}
VALID = "use numbers, + - * /, parentheses and unary minus only"


def evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return evaluate(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)  # type: ignore[arg-type]
    if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
        left, right = evaluate(node.left), evaluate(node.right)
        if isinstance(node.op, ast.Div) and right == 0:
            raise ToolError("division by zero")
        return BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in UNARY:
        return UNARY[type(node.op)](evaluate(node.operand))
    raise ToolError(f"{ast.unparse(node)!r} is not allowed; {VALID}")


class CalculateArgs(ToolArgs):
    expression: str = Field(
        max_length=MAX_LENGTH,
        description="Arithmetic such as (182.5 - 175.25) / 175.25 * 100",
    )


def calculate(cat: Catalog, args: CalculateArgs) -> dict[str, Any]:
    """Evaluate arithmetic: numbers, + - * /, parentheses and unary minus."""
    try:
        tree = ast.parse(args.expression.strip(), mode="eval")
    except SyntaxError:
        raise ToolError(f"cannot parse {args.expression!r}; {VALID}") from None
    value = evaluate(tree)
    if not math.isfinite(value):
        raise ToolError("the result is not a finite number")
    return {"expression": args.expression, "value": round(value, 6)}
