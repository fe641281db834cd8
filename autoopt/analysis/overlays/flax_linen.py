"""Facts about flax.linen that the analyses rely on.

A linen module is an immutable description; its arrays live in the variables that
`init` returns and `apply` takes, so both are pure functions of their arguments. Its
lifted transforms take a module class or method. Qualified names as `ImportMap.qualify`
spells them; methods by the class that defines them. A name missing here is unknown.
"""

from __future__ import annotations

#: Lifted transforms that compile a module's method.
JIT_LIKE = frozenset({"flax.linen.jit"})
#: Lifted transforms that batch a module.
VMAP_LIKE = frozenset({"flax.linen.vmap"})
#: Lifted transforms that run a module as a `lax.scan` body.
SCAN_LIKE = frozenset({"flax.linen.scan"})
#: Lifted transforms that recompute a module's residuals in the backward pass.
REMAT_LIKE = frozenset({"flax.linen.remat", "flax.linen.checkpoint"})
#: Every transform that traces the functions handed to it.
TRANSFORMS = JIT_LIKE | VMAP_LIKE | SCAN_LIKE | REMAT_LIKE

#: The lifted checkpoint AO601 writes around a module class: `nn.remat(Cls)` is a new
#: class named `REMAT_PREFIX + "Cls"`, so an instance left to linen's automatic naming
#: is `CheckpointCls_0`, not `Cls_0`; given `name="Cls_0"` it keeps the parameter tree.
#: Its `static_argnums` count `self` as argument 0 and name positional arguments only.
REMAT = "flax.linen.remat"
REMAT_PREFIX = "Checkpoint"
#: Layers and functions a module's `__call__` may apply inside `nn.remat` with the same
#: outputs, gradients and collections (`BatchNorm`'s `batch_stats`; `Dropout`'s mask
#: comes from the same rng on recomputation) as without it.
REMAT_PURE = frozenset(
    {"flax.linen.Dense", "flax.linen.Conv", "flax.linen.BatchNorm", "flax.linen.LayerNorm",
     "flax.linen.Dropout", "flax.linen.relu", "flax.linen.gelu", "flax.linen.tanh",
     "flax.linen.sigmoid", "flax.linen.avg_pool", "flax.linen.max_pool"}
)  # fmt: skip
#: Methods of a linen module that write a variable collection it keeps (`self.sow`,
#: `self.variable(...).value = v`, `self.put_variable`).
WRITES_COLLECTIONS = frozenset({"sow", "variable", "put_variable"})

#: Methods that are pure functions of their arguments: `init(rngs, *args)` gives the
#: variables, `apply(variables, *args)` the output (and, with `mutable=`, the changed
#: collections, returned rather than written).
PURE_METHODS = frozenset({"flax.linen.Module.init", "flax.linen.Module.apply"})
#: Methods whose array leaves are new buffers, none of an argument's and none twice
#: (variables made by flax's initializers), on a module class deriving from
#: `MODULE_BASES`.
FRESH_RESULTS = frozenset({"flax.linen.Module.init"})
#: Layers whose instance, built from plain values (numbers, strings, shapes, dtypes), runs
#: no code but the library's: its `init` and `apply` (no `method=`, no
#: `capture_intermediates=`) are pure functions of their arguments, the same traced as
#: eager. `LAYER_METHODS` are those two. Any other layer, or one given a function, is
#: unknown.
APPLY_PURE_LAYERS = frozenset(
    {"flax.linen.Dense", "flax.linen.DenseGeneral", "flax.linen.Conv", "flax.linen.Embed",
     "flax.linen.LayerNorm", "flax.linen.BatchNorm", "flax.linen.Dropout"}
)  # fmt: skip
LAYER_METHODS = frozenset({"init", "apply"})
#: Layers whose output, in `apply` and built from plain values (`HYPERPARAMETERS`), holds
#: none of their variables' buffers: a new array computed from them (`Dropout` returns
#: its input, or a new array).
NEW_OUTPUT_LAYERS = APPLY_PURE_LAYERS | {"flax.linen.ConvTranspose"}
#: `apply(variables, *args)` drops `variables` once it returns: only what the module's
#: code returned or stored may hold them (no `mutable=`, which returns collections).
UNKEPT_APPLY = frozenset({"flax.linen.Module.apply"})
#: flax.linen names that are JAX's own array functions (`nn.gelu is jax.nn.gelu`).
JAX_FUNCTIONS = frozenset(
    {"flax.linen.relu", "flax.linen.gelu", "flax.linen.tanh", "flax.linen.sigmoid",
     "flax.linen.elu", "flax.linen.softplus", "flax.linen.silu", "flax.linen.swish",
     "flax.linen.log_softmax", "flax.linen.softmax", "flax.linen.leaky_relu"}
)  # fmt: skip
#: flax.linen's pooling functions: each returns a new array computed from the array it
#: is given (a window of one included), and keeps none.
POOLING = frozenset({"flax.linen.max_pool", "flax.linen.avg_pool"})
#: Those of a listed layer whose result is a pytree of JAX arrays (its variables).
ARRAYS_METHODS = frozenset({"init"})
#: Keywords of `init`/`apply` that run a function they are given inside the module.
RUNS_GIVEN_CODE = frozenset({"method", "capture_intermediates"})
#: Base classes of linen modules (immutable dataclasses; `setup` fields are not state).
MODULE_BASES = frozenset({"flax.linen.Module"})
#: Fields of flax.linen layers that only size, shape, scale or switch what the layer
#: computes: none becomes a variable (their variables come from the `*_init` fields).
HYPERPARAMETERS = frozenset(
    {"features", "rate", "kernel_size", "strides", "padding", "use_bias", "epsilon",
     "momentum", "num_embeddings", "dtype", "param_dtype", "use_running_average",
     "deterministic", "num_heads", "qkv_features", "out_features", "dropout_rate",
     "use_scale"}
)  # fmt: skip
#: The attributes of `flax.linen.Module` but `setup` (the one a module class is meant to
#: define) and the dunder ones: a class of the user's binding one (`init`,
#: `init_with_output`, `clone`, `_try_setup`) changes what `init` runs or returns, and
#: so may one binding a dunder name but `__call__`.
MODULE_ATTRIBUTES = frozenset(
    {"apply", "bind", "clone", "copy", "get_variable", "has_rng", "has_variable", "init",
     "init_with_output", "is_initializing", "is_mutable_collection", "lazy_init",
     "make_rng", "module_paths", "param", "path", "perturb", "put_variable", "sow",
     "tabulate", "unbind", "variable", "variables", "_call_wrapped_method",
     "_customized_dataclass_transform", "_find_compact_name_scope_methods",
     "_initialization_allowed", "_module_checks", "_name_taken", "_register_submodules",
     "_try_setup", "_validate_setup", "_wrap_module_attributes"}
)  # fmt: skip
#: Methods of a module that change none of its fields: a list a field holds keeps its
#: items (a field's list is the very list the constructor was given, which other code
#: holding it may change).
FIELD_KEEPING = frozenset({"init", "apply", "bind"})
#: Keywords of `init` that put what the module's methods return into the variables it
#: returns (the `intermediates` collection), an input returned as it is among them.
KEEPS_OUTPUTS = frozenset({"capture_intermediates"})
