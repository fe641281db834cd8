"""Whether a model's code makes its parameters with library initializers only.

A haiku function or a linen module makes each parameter by calling an initializer. One
the user writes, or a library initializer given an array, may return one buffer for two
parameters (`init=lambda *_: w` twice, `hk.initializers.Constant(w)`: it returns `w`
itself where the shapes match), so `init` would give the same buffer in two leaves. The
audit clears code that

- defines no function inside a function (no closure over an array), and no lambda but
  one that applies one of flax's JAX or pooling functions to its own parameters and
  constants only (`lambda x: nn.max_pool(x, (3, 3))`: it closes over nothing);
- names a function or a class of the module only to call it (no user callable handed to
  a layer or to `hk.get_parameter`; an attribute's name, `jax.nn.relu`, names none), a
  class as the first argument of the builtin `super` inside that class
  (`super(Encoder, self).__init__(name=name)`, the same as `super()`), as a class the
  builtin `isinstance` or `issubclass` tests against, or as an operand of `==`, `!=`,
  `is` or `is not` (`self.block_class == ResNetBlock`): a test, whose result is a bool;
- names no import but of JAX, NumPy, `math`, `dataclasses`, `typing` and the libraries
  the overlays know (`w_init=helpers.table_init`, another file's initializer, may return
  one array for two parameters);
- calls an initializer (`*.initializers.*`) with literal arguments only, gives no
  array to a layer that keeps one as a parameter (`hk.Embed(embedding_matrix=t)`), and
  gives each keyword `*_init` (`kernel_init=`) or `init` (`hk.get_parameter`) a library
  initializer, an attribute of `self` or None (not `kernel_init=x.init`, a function the
  input hands in);
- never stores a value as a parameter or a state itself (`hk.set_state`, `put_variable`,
  `sow`, a variable's `.value = x`, any attribute through `setattr`), makes each linen
  `self.param` with a library initializer and each `self.variable` with one or a NumPy
  or jax.numpy constructor (`jnp.zeros`; not `jnp.asarray`, which returns the array it
  is given), and uses no custom creator or getter, nor `functools` (`partial(jnp.full,
  w)`).

The rest is a fact about the libraries: their initializers, called with constants, make
a new buffer at each call (tests/analysis/overlays).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.overlays import flax_linen as linen_api
from autoopt.analysis.overlays import haiku as hk_api
from autoopt.analysis.overlays import jax as jax_api

_INITIALIZERS = ".initializers."
#: The keywords through which a layer is given a function that makes a parameter
#: (`kernel_init=`, `w_init=`; `hk.get_parameter(..., init=)`).
_INIT_SUFFIX = "_init"
_INIT = "init"
_STORES = frozenset({"set_state", "put_variable", "sow"})
#: The attribute through which a linen variable (`self.variable(...)`) is written.
_WRITTEN = "value"
#: Methods of a linen module making a variable -> the position of the function they call
#: to make it (`self.param(name, init_fn, *args)`, `self.variable(col, name, init_fn,
#: *args)`), and the keywords they keep.
_MAKERS = {"param": 1, "variable": 2}
_KEYWORDS = frozenset({"init_fn", "unbox"})
_CUSTOM = "custom_"
#: Builtins testing an object against classes, which they hand to nothing.
_TYPE_TESTS = ("isinstance", "issubclass")
#: Comparisons a class may be an operand of, handed to no layer.
_IDENTITY_TESTS = (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)
#: The packages whose initializers and layers the overlays describe, JAX, NumPy and
#: `math` (which make new arrays) and `dataclasses` and `typing` (which make none; the
#: values a dataclass field is given are audited where they are written): code of any
#: other import is not audited.
_LIBRARIES = frozenset(
    {"jax", "numpy", "math", "haiku", "flax", "equinox", "optax", "dataclasses", "typing"}
)


class InitializerAudit(cst.CSTVisitor):
    """Visits a model's code; `clean` stays true while every parameter comes from a
    library initializer built from constants."""

    def __init__(self, ctx: ModuleContext, initializers: frozenset[str] = frozenset()) -> None:
        self.ctx = ctx
        self.initializers = initializers  # module names holding library initializers
        self.clean = True
        self.callees: set[int] = set()
        self.functions = 0
        self.classes: list[str] = []  # the classes being visited, innermost last
        graph = ctx.graph
        self.module_code = {q for q in graph.functions if "." not in q} | set(graph.classes)
        self.builtins = {
            name
            for name in ("super", *_TYPE_TESTS)
            if name not in ctx.imports.bindings and not any(name in s.defs for s in graph.stmts)
        }

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        if self._array_function(node):
            return True  # its body's names are audited as any others
        self.clean = False
        return False

    def _array_function(self, node: cst.Lambda) -> bool:
        """`lambda x: nn.max_pool(x, (3, 3), strides=(2, 2))`: one of flax's JAX functions
        or pooling functions given only the lambda's own parameters (none with a default)
        and constants. It closes over nothing, so it returns a new array computed from
        what it is given, wherever it is called (an initializer's key included)."""
        params = node.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg:
            return False
        if params.posonly_params or params.kwonly_params:
            return False
        if any(p.default is not None for p in params.params):
            return False
        own = {p.name.value for p in params.params}
        body = node.body
        if type(body) is not cst.Call or any(a.star for a in body.args):
            return False
        qual = self.ctx.qualify(body.func) or ""
        if qual not in linen_api.JAX_FUNCTIONS | linen_api.POOLING:
            return False
        return all(
            (type(a.value) is cst.Name and a.value.value in own) or _constant(a.value)
            for a in body.args
        )

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.functions:
            self.clean = False  # a closure
        self.functions += 1
        self.callees.add(id(node.name))
        return True

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.callees.add(id(node.name))
        self.callees.update(id(b.value) for b in node.bases)
        self.classes.append(node.name.value)
        return True

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_Assign(self, node: cst.Assign) -> bool:
        self._stores([t.target for t in node.targets])
        return True

    def visit_AugAssign(self, node: cst.AugAssign) -> bool:
        self._stores([node.target])
        return True

    def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
        self._stores([node.target])
        return True

    def _stores(self, targets: list[cst.BaseAssignTargetExpression]) -> None:
        """`v.value = x` writes `x` into a variable (`v = self.variable(...)`): init's
        variables then hold it."""
        todo: list[cst.BaseExpression] = list(targets)
        while todo:
            target = todo.pop()
            if type(target) in (cst.Tuple, cst.List):
                todo += [e.value for e in target.elements]  # type: ignore[attr-defined]
            elif type(target) is cst.StarredElement:
                todo.append(target.value)
            elif type(target) is cst.Attribute and target.attr.value == _WRITTEN:
                self.clean = False

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False  # `encoder: Encoder`: a type, not a value

    def visit_Call(self, node: cst.Call) -> bool:
        self.callees.add(id(node.func))
        if self._own_super(node):
            self.callees.add(id(node.args[0].value))
        self.callees.update(self._tested_types(node))
        qual = self.ctx.qualify(node.func) or ""
        func = node.func
        last = func.attr.value if type(func) is cst.Attribute else qual.rsplit(".", 1)[-1]
        if last in _MAKERS and type(func) is cst.Attribute and not self._library_made(node, last):
            self.clean = False  # `self.variable(c, n, jnp.asarray, w)` holds `w` itself
        if (
            last in _STORES
            or (type(func) is cst.Name and func.value == "setattr")
            or _CUSTOM in qual
            or qual.startswith("functools.")
            or (_INITIALIZERS in qual and not all(_constant(a.value) for a in node.args))
            or (
                qual in hk_api.ARRAY_PARAMETERS
                and not _no_array(node, *hk_api.ARRAY_PARAMETERS[qual])
            )
            or not all(self._known_init(a) for a in node.args if a.keyword)
        ):
            self.clean = False
        return True

    def _known_init(self, arg: cst.Arg) -> bool:
        """A keyword `*_init` (`kernel_init=`, `w_init=`) or `init` names a library initializer
        (`nn.initializers.zeros`, or a call of one), an attribute of `self` (a field:
        `facts/linen_fields.py` asks where it comes from), or None: not a function the
        input hands in (`kernel_init=x.init`)."""
        assert arg.keyword is not None
        if not initializer_keyword(arg.keyword.value):
            return True
        value = arg.value
        if type(value) is cst.Name and value.value in self.initializers | {"None"}:
            return True
        based = type(value) is cst.Attribute and type(value.value) is cst.Name
        if based and value.value.value == "self":  # type: ignore[attr-defined]
            return True
        if type(value) is cst.Call:
            value = value.func
        return _INITIALIZERS in (self.ctx.qualify(value) or "")

    def _library_made(self, call: cst.Call, last: str) -> bool:
        """`self.param(name, init, ...)` or `self.variable(col, name, init, ...)` whose
        `init` is a library initializer (`*.initializers.*`) or, for a variable, a NumPy
        or jax.numpy constructor that makes a new array (`jnp.zeros`), and no keyword
        but `unbox` (the rest reach `init`: `copy=False`)."""
        position = _MAKERS[last]
        given = [a for a in call.args if a.keyword and a.keyword.value == "init_fn"]
        given += [a for a in call.args if a.keyword is None][position : position + 1]
        others = [a for a in call.args if a.keyword and a.keyword.value not in _KEYWORDS]
        if len(given) != 1 or others or any(a.star for a in call.args):
            return False
        init = given[0].value
        qual = self.ctx.qualify(init.func if type(init) is cst.Call else init) or ""
        module, _, name = qual.rpartition(".")
        fresh = module in ("numpy", "jax.numpy") and name in jax_api.FRESH_CONSTRUCTORS
        return _INITIALIZERS in qual or (last == "variable" and fresh)

    def visit_Comparison(self, node: cst.Comparison) -> bool:
        """`self.block_class == Block`: a class compared by identity or equality is handed
        to no layer."""
        if all(type(t.operator) in _IDENTITY_TESTS for t in node.comparisons):
            operands = [node.left, *(t.comparator for t in node.comparisons)]
            self.callees.update(id(o) for o in operands if type(o) is cst.Name)
        return True

    def _tested_types(self, call: cst.Call) -> list[int]:
        """The classes `isinstance(x, Block)` (the builtin) tests against, by node id."""
        func, args = call.func, call.args
        if type(func) is not cst.Name or func.value not in self.builtins - {"super"}:
            return []
        if len(args) != 2 or any(a.keyword is not None or a.star for a in args):
            return []
        types = args[1].value
        named = [e.value for e in types.elements] if type(types) is cst.Tuple else [types]
        return [id(n) for n in named if type(n) is cst.Name]

    def _own_super(self, call: cst.Call) -> bool:
        """`super(C, self)` in the class `C` being visited, `super` the builtin."""
        func, args = call.func, call.args
        if not ("super" in self.builtins and type(func) is cst.Name and func.value == "super"):
            return False
        if len(args) != 2 or any(a.keyword is not None or a.star for a in args):
            return False
        first = args[0].value
        return bool(self.classes) and type(first) is cst.Name and first.value == self.classes[-1]

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if self._foreign(node):
            self.clean = False
        node.value.visit(self)  # `nnx.selu`: its `selu` names no function of the module
        return False

    def visit_Name(self, node: cst.Name) -> bool:
        if node.value in self.module_code and id(node) not in self.callees:
            self.clean = False  # a module function or class handed on as a value
        if self._foreign(node):
            self.clean = False
        return False

    def _foreign(self, node: cst.Name | cst.Attribute) -> bool:
        """Imported code of no library the overlays know (`helpers.table_init`, a
        project file's initializer, may return one array for two parameters)."""
        qual = self.ctx.qualify(node)
        return qual is not None and qual.split(".", 1)[0] not in _LIBRARIES


def initializer_keyword(keyword: str) -> bool:
    """A keyword through which a layer is given a function that makes a parameter."""
    return keyword == _INIT or keyword.endswith(_INIT_SUFFIX)


def library_initializer(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """`expr` is a library initializer (`*.initializers.*` of a library the audit knows),
    named (`nn.initializers.zeros`) or called with constants only
    (`nn.initializers.normal(0.02)`, not `nn.initializers.constant(w)`)."""
    call = expr if type(expr) is cst.Call else None
    qual = ctx.qualify(call.func if call is not None else expr) or ""
    if _INITIALIZERS not in qual or qual.split(".", 1)[0] not in _LIBRARIES:
        return False
    return call is None or all(_constant(a.value) and not a.star for a in call.args)


def _no_array(call: cst.Call, keyword: str, position: int) -> bool:
    """Whether `call` passes nothing but a constant as its array parameter."""
    given = [a for i, a in enumerate(call.args)
             if (a.keyword is None and i == position) or (a.keyword and a.keyword.value == keyword)
             or a.star]  # fmt: skip
    return all(_constant(a.value) for a in given)


def _constant(expr: cst.BaseExpression) -> bool:
    """A number, a string, a constant name, or a tuple or list of them."""
    if type(expr) is cst.Tuple or type(expr) is cst.List:
        return all(_constant(e.value) for e in expr.elements)
    if type(expr) is cst.UnaryOperation:
        return _constant(expr.expression)
    if type(expr) is cst.Name:
        return expr.value in ("True", "False", "None")
    return isinstance(expr, cst.BaseNumber | cst.BaseString)
