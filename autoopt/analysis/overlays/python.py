"""Facts about Python's builtins and standard library that the analyses rely on.

Builtins are named bare (`len`), other names qualified (`math.`, `pickle.`). A name
missing from these tables is unknown: never pure, never a Python number.
"""

from __future__ import annotations

#: Builtins that compute a value from their arguments and touch nothing else.
PURE_BUILTINS = frozenset(
    {
        "abs", "all", "any", "bool", "complex", "dict", "divmod", "enumerate", "filter",
        "float", "frozenset", "getattr", "hasattr", "int", "isinstance", "issubclass",
        "len", "list", "map", "max", "min", "pow", "range", "reversed", "round", "set",
        "slice", "sorted", "str", "sum", "tuple", "type", "zip",
    }
)  # fmt: skip
#: Builtins that do I/O -> what they do.
IO_BUILTINS = {"print": "prints", "open": "opens a file", "input": "reads input"}
#: Pure builtins from numbers to numbers (of PURE_BUILTINS, those a loop condition on
#: counters may call).
NUMERIC_BUILTINS = frozenset({"abs", "min", "max", "round", "int", "bool"})
#: Builtins that give a Python number, whatever their arguments.
SCALAR_BUILTINS = frozenset({"int", "float", "bool", "len", "round", "complex", "isinstance"})
#: Builtins that give a string.
STRING_BUILTINS = frozenset({"str", "repr", "format"})
#: Builtins whose result is a Python value even of a traced argument (its type or size).
CONCRETE_BUILTINS = frozenset({"len", "isinstance", "type"})
#: Builtins that compare or convert their arguments in Python (a traced one fails).
FORCING_BUILTINS = frozenset(
    {"bool", "int", "float", "range", "complex", "max", "min", "sorted", "any", "all"}
)
#: Builtins whose result holds no object of their arguments.
FRESH_BUILTINS = frozenset(
    {"float", "int", "bool", "str", "repr", "len", "round", "format", "hash", "print",
     "isinstance", "range", "sum", "complex"}
)  # fmt: skip
#: Builtins that make a new container (its elements may still be shared).
NEW_OBJECT_CALLS = frozenset({"list", "dict", "set", "bytearray"})
#: Methods of Python containers that hash or compare their first argument with the
#: elements: a traced value cannot be looked up (a tracer is unhashable, `==` gives no bool).
KEY_METHODS = frozenset({"get", "pop", "setdefault", "index", "count", "remove", "__contains__"})
#: Builtins that read their arguments without changing them (print included).
READ_ONLY_BUILTINS = frozenset({"print", "len", "float", "int", "bool", "str", "repr"})
#: Builtins that hand an array's value to the host: convert it, or print it.
HOST_BUILTINS = frozenset({"float", "int", "bool", "complex", "print", "str", "repr"})
#: Builtins through which their argument may be kept or changed later (attributes,
#: iterators).
KEEPING_BUILTINS = frozenset({"getattr", "setattr", "vars", "iter"})
#: Builtins that give a module's namespace dict (`vars()` and `locals()` at module level).
NAMESPACE_BUILTINS = frozenset({"globals", "vars", "locals"})
#: Builtins that run code given as text, in the calling module's namespace by default.
CODE_BUILTINS = frozenset({"exec", "eval"})
#: Calls that give the module named by their first argument (`sys.modules` indexed alike;
#: `__import__`, of a dotted name, its top-level package).
MODULE_LOOKUPS = frozenset({"sys.modules.get", "importlib.import_module", "__import__"})
#: Attributes holding the namespace of the module a function or a frame runs in.
GLOBALS_ATTRIBUTES = frozenset({"__globals__", "f_globals"})
#: Functions of `inspect` that read only the object they are given (no frame, no
#: module namespace, no global by name), called directly without the keywords of
#: `INSPECT_EVALUATING` (`signature(f, eval_str=True)` evaluates string annotations in
#: `f`'s globals).
INSPECT_LOCAL = frozenset({"signature", "isclass", "isfunction", "ismethod", "cleandoc"})
#: Keywords through which an `inspect` function evaluates text in a namespace.
INSPECT_EVALUATING = frozenset({"eval_str", "globals", "locals"})
#: Builtins that read an object (a module) without keeping or changing it.
OBJECT_READERS = frozenset(
    {"hasattr", "isinstance", "id", "type", "dir", "callable", "print", "repr", "str"}
)
#: Builtins that read a dict (a namespace) without keeping or changing it.
DICT_READERS = frozenset(
    {"len", "dict", "list", "tuple", "set", "frozenset", "sorted", "print", "repr", "str", "id"}
)

#: Builtins that change their first argument (its attributes).
WRITING_BUILTINS = frozenset({"setattr", "delattr"})
#: Builtins that call a function they are given (`map(f, xs)`, `sorted(xs, key=f)`).
CALLING_BUILTINS = frozenset({"map", "filter", "sorted", "min", "max", "iter", "next"})
#: Builtins that iterate their arguments (an iterator's or a generator's code runs).
ITERATING_BUILTINS = frozenset(
    {"list", "tuple", "set", "frozenset", "dict", "sum", "min", "max", "sorted", "any", "all",
     "zip", "enumerate", "map", "filter", "reversed", "iter", "next"}
)  # fmt: skip
#: Builtins -> the special method they call on each argument (`len(x)`: `x.__len__`);
#: code of the argument's type, which may be the program's own (`facts/writes.py`).
IMPLICIT_BUILTINS = {
    **dict.fromkeys(ITERATING_BUILTINS | {"bytes", "bytearray"}, "__iter__"),
    "next": "__next__", "len": "__len__", "bool": "__bool__", "str": "__str__",
    "print": "__str__", "repr": "__repr__", "format": "__format__", "hash": "__hash__",
    "int": "__int__", "float": "__float__", "complex": "__complex__", "abs": "__abs__",
    "round": "__round__", "range": "__index__", "divmod": "__divmod__", "pow": "__pow__",
    "getattr": "__getattr__", "hasattr": "__getattr__", "setattr": "__setattr__",
    "delattr": "__delattr__", "dir": "__dir__",
}  # fmt: skip
#: Builtins whose first argument is a function they call, not a value they iterate.
CALLING_FIRST_BUILTINS = frozenset({"map", "filter"})
#: Builtins that ask a special method of their first argument only (`getattr(obj, "k")`).
OBJECT_FIRST_BUILTINS = frozenset(
    {"getattr", "hasattr", "setattr", "delattr", "format", "round", "next", "iter"}
)
#: Builtins whose result is of a builtin type, whose special methods only read (what
#: `enumerate(x)` iterates is `x`: its own `__iter__`, `IMPLICIT_BUILTINS`).
BUILTIN_RESULTS = frozenset(
    {"list", "tuple", "set", "frozenset", "dict", "enumerate", "zip", "map", "filter",
     "reversed", "range", "sorted", "len", "bool", "str", "repr", "format", "hash",
     "globals", "locals"}
)  # fmt: skip
#: Decorators that return a function behaving as the one they are given (a cache of its
#: results, a method kind).
TRANSPARENT_DECORATORS = frozenset(
    {"functools.lru_cache", "functools.cache", "functools.wraps", "staticmethod",
     "classmethod", "property", "typing.overload", "abc.abstractmethod"}
)  # fmt: skip
#: Builtins that read variables by name, unseen by the dataflow graph.
INTROSPECTION_BUILTINS = frozenset({"globals", "locals", "vars", "eval", "exec"})
#: `operator` functions that change their first argument in place.
WRITING_OPERATORS = frozenset(
    {"operator.setitem", "operator.delitem", "operator.iadd", "operator.iand",
     "operator.iconcat", "operator.ifloordiv", "operator.ilshift", "operator.imatmul",
     "operator.imod", "operator.imul", "operator.ior", "operator.ipow", "operator.irshift",
     "operator.isub", "operator.itruediv", "operator.ixor"}
)  # fmt: skip

#: Methods that change the list, dict or set they are called on.
MUTATING_METHODS = frozenset(
    {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update",
     "setdefault", "sort", "reverse", "add", "discard", "__setitem__"}
)  # fmt: skip
#: Methods of lists and dicts that read their receiver without changing it.
READ_METHODS = frozenset({"keys", "values", "items", "get", "copy", "index", "count"})
#: Methods that take over construction or attribute reads of a class.
TAKEN_OVER = frozenset({"__init__", "__new__", "__post_init__", "__getattr__", "__getattribute__"})
#: Base classes that make a class a `NamedTuple` (an immutable pytree).
NAMEDTUPLE_BASES = frozenset({"NamedTuple", "typing.NamedTuple"})

#: Standard modules whose calls are side effects or host randomness -> what they do.
IMPURE_MODULES = {
    "random": "draws host random numbers with the random module",
    "logging": "logs",
    "time": "reads the clock",
    "os": "calls the operating system",
    "sys": "touches interpreter state",
    "pickle": "does I/O",
    "json": "does I/O",
    "subprocess": "starts processes",
    "shutil": "touches files",
    "pathlib": "touches files",
}
#: Prefixes of calls that compute on their arguments and touch nothing else.
PURE_PREFIXES = ("math.", "functools.partial", "operator.")
#: Standard modules whose functions convert their arguments to Python numbers (a traced
#: value fails there: `math.exp(t)` under jit).
HOST_NUMBER_MODULES = frozenset({"math", "cmath", "statistics"})
#: Decorators that cache by their arguments: they hash them (a tracer is unhashable).
CACHING_DECORATORS = frozenset({"functools.lru_cache", "functools.cache"})
#: Standard modules whose functions keep no state (`operator.add(...)` calls a function).
MODULES = frozenset({"math", "operator"})
#: Calls that pickle a function or run it in another process (cloudpickle and Ray alike).
PICKLING_PREFIXES = ("pickle.", "cloudpickle.", "multiprocessing.", "concurrent.futures.", "ray.")
#: Methods of pools, executors and Ray functions that send a function to another process.
PICKLING_METHODS = frozenset({"map", "imap", "starmap", "submit", "apply_async", "remote"})
#: Calls that start a pool of worker processes.
PROCESS_POOLS = (
    "multiprocessing.Pool", "multiprocessing.pool.Pool", "concurrent.futures.ProcessPoolExecutor",
)  # fmt: skip
#: Calls that run a command in a new process.
COMMAND_CALLS = (
    "subprocess.run", "subprocess.Popen", "subprocess.call", "subprocess.check_call",
    "subprocess.check_output", "os.system",
)  # fmt: skip
#: Standard modules that read no JAX or XLA setting of the environment when imported.
ENV_BLIND_MODULES = frozenset(
    {"__future__", "abc", "argparse", "collections", "contextlib", "copy", "csv",
     "dataclasses", "datetime", "enum", "functools", "itertools", "json", "logging", "math",
     "operator", "os", "pathlib", "pickle", "random", "re", "statistics", "string", "sys",
     "textwrap", "time", "typing", "warnings"}
)  # fmt: skip
#: Builtins that run none of the program's code when called (no callback argument, no
#: attribute fetched by name) and read no environment.
ENV_BLIND_BUILTINS = frozenset(
    {"abs", "bool", "complex", "dict", "divmod", "enumerate", "float", "format", "frozenset",
     "hash", "int", "isinstance", "issubclass", "len", "list", "pow", "print", "range", "repr",
     "reversed", "round", "set", "slice", "str", "tuple", "type", "zip"}
)  # fmt: skip
#: Top-level modules whose calls may start processes (Ray's included).
LAUNCHER_MODULES = frozenset({"multiprocessing", "concurrent", "subprocess", "ray"})
