"""Facts about flax.nnx that the analyses rely on.

nnx modules are mutable Python objects holding their arrays: its transforms split a
module argument into state, trace that, and write the state the function changed back
into the module, in place. `nnx.Optimizer.update` changes the model and the optimizer
in place. Qualified names as `ImportMap.qualify` spells them. A name missing here is
unknown.
"""

from __future__ import annotations

#: Transforms that compile the function; module arguments are updated in place.
JIT_LIKE = frozenset({"flax.nnx.jit"})
#: Jits whose wrapper keeps the compilations it makes (once per graph and array types).
CACHING_JITS = JIT_LIKE
#: Transforms that give the gradient (of the first argument's `nnx.Param` state).
GRAD_LIKE = frozenset({"flax.nnx.grad"})
#: Transforms that give the value and the gradient.
VALUE_AND_GRAD_LIKE = frozenset({"flax.nnx.value_and_grad"})
#: Transforms that batch the function.
VMAP_LIKE = frozenset({"flax.nnx.vmap"})
#: Transforms that run the function as a `lax.scan` body.
SCAN_LIKE = frozenset({"flax.nnx.scan"})
#: Transforms that recompute the function's residuals in the backward pass.
REMAT_LIKE = frozenset({"flax.nnx.remat"})
#: Every transform that traces the functions handed to it.
TRANSFORMS = JIT_LIKE | GRAD_LIKE | VALUE_AND_GRAD_LIKE | VMAP_LIKE | SCAN_LIKE | REMAT_LIKE
#: Transforms whose result calls the function with the arguments it is given, in order,
#: a module argument as a module of the same class (split, and merged again): whatever
#: the function calls of that argument is its class's code.
ARGUMENT_TRANSFORMS = JIT_LIKE | GRAD_LIKE | VALUE_AND_GRAD_LIKE | REMAT_LIKE
#: Transforms that write the state of their module arguments back into them, in place,
#: on every call, state the function left as it was included: a donated module keeps
#: working after the call (only other references to its old arrays are deleted).
UPDATES_MODULES = JIT_LIKE

#: jit-like transforms -> their options naming static arguments (jax.jit's spelling).
STATIC_OPTIONS = {"flax.nnx.jit": ("static_argnums", "static_argnames")}
#: jit-like transforms -> their options naming donated arguments (jax.jit's spelling).
DONATE_OPTIONS = {"flax.nnx.jit": ("donate_argnums", "donate_argnames")}

#: Jits whose body sees its graph-object arguments (modules, optimizers, wherever in an
#: argument) as copies, merged from their state (tracers for arrays), but every attribute
#: that is neither a variable nor a graph object (kept in the graphdef: a plain object of
#: the program, a list of them) as the caller's very object; the graph the body leaves (a
#: variable or a submodule moved from one argument to another) is written back into the
#: arguments, each variable then holding an output of the computation, a new buffer.
#: Every other leaf of an argument must be an array or a number, or the call raises.
STATICS_AS_IS = JIT_LIKE
#: Jits whose array outputs are new buffers, even an argument's or a global's array
#: returned as it is (a graph object the call was given comes back as the very object).
NEW_ARRAY_OUTPUTS = JIT_LIKE
#: Layer constructors whose object, built with sizes and options that hold no buffer
#: (numbers, strings, shapes, dtypes, None; `rngs`, which it keeps none of) and no
#: initializer, holds as attributes besides its variables only such values and flax's
#: and jax's own functions (`dot_general`, `promote_dtype`): nothing that carries a buffer.
BUFFERLESS_STATICS = frozenset(
    {"flax.nnx.Linear", "flax.nnx.Conv", "flax.nnx.LayerNorm", "flax.nnx.BatchNorm",
     "flax.nnx.Embed"}
)  # fmt: skip
#: Jits of `STATICS_AS_IS` whose body sees a JAX array stored as a module's attribute as a
#: leaf (a tracer), as it sees a variable's value: never the caller's array.
ARRAY_ATTRIBUTES = STATICS_AS_IS
#: Graph objects whose constructor, given only such values (by position or by keyword:
#: `nnx.Rngs(0, noise=1)`, seeds that are numbers; `nnx.metrics.Average("loss")`), holds
#: as attributes besides its variables only such values (its streams' or argument's
#: names).
BUFFERLESS_BUILT = frozenset(
    {"flax.nnx.Rngs", "flax.nnx.metrics.Accuracy", "flax.nnx.metrics.Average"}
)
#: Graph objects built of graph objects given by keyword (`nnx.MultiMetric(loss=...)`),
#: which they hold as they are, keeping nothing else outside their variables but the
#: keywords.
GRAPH_COLLECTIONS = frozenset({"flax.nnx.MultiMetric"})

#: Calls that compute on their arguments and touch nothing else: `split` and `state`
#: read a module's state, `merge` builds a new module from it.
PURE_CALLS = frozenset({"flax.nnx.split", "flax.nnx.merge", "flax.nnx.state", "flax.nnx.graphdef"})
#: Calls whose result holds the very buffers of their module argument -> which.
ALIASING = {
    "flax.nnx.state": "holds the arrays of its module argument",
    "flax.nnx.split": "holds the arrays of its module argument in the state it returns",
}
#: Calls and methods that change a module argument (or their receiver) in place -> what.
MUTATING = {
    "flax.nnx.update": "writes state into a module in place",
    "flax.nnx.Optimizer.update": "updates the model's parameters and its own state in place",
    "flax.nnx.ModelAndOptimizer.update": "updates its model's parameters and its state in place",
}
#: Constructors of graph objects, modules and the optimizer: each builds an instance of
#: one of MODULE_BASES.
MODULE_CLASSES = frozenset(
    {"flax.nnx.Linear", "flax.nnx.Conv", "flax.nnx.Embed", "flax.nnx.LayerNorm",
     "flax.nnx.BatchNorm", "flax.nnx.Dropout", "flax.nnx.Sequential", "flax.nnx.MultiHeadAttention",
     "flax.nnx.LSTMCell", "flax.nnx.GRUCell", "flax.nnx.Optimizer",
     "flax.nnx.ModelAndOptimizer"}
)  # fmt: skip
#: Constructors whose object nothing else keeps (no registry, no cache): dropped, it is
#: freed. It may hold what it is given.
UNKEPT_OBJECTS = MODULE_CLASSES | {"flax.nnx.Rngs"}
#: Names of modules, as imported (`from flax import nnx`): reading one reads a module.
IMPORTED_MODULES = frozenset({"flax.nnx"})
#: Variable types, passed as filters (`wrt=nnx.Param`, `nnx.state(m, nnx.Param)`):
#: classes, which hold no array; called (`nnx.Param(w)`), a variable holds the value
#: it is given, as given, and nothing else.
VARIABLE_TYPES = frozenset({"flax.nnx.Variable", "flax.nnx.Param", "flax.nnx.BatchStat"})
#: Base classes of mutable modules: an instance's arrays change in place.
MODULE_BASES = frozenset({"flax.nnx.Module", "flax.nnx.Optimizer"})
#: Bases of the module classes users write: an instance holds what its `__init__`
#: stores in its attributes, and nothing else (no array of its own).
USER_MODULE_BASES = frozenset({"flax.nnx.Module"})
#: Bases of the module classes users write whose objects keep an attribute holding a
#: plain Python function (a closure a method returned) as static graph data: the module's
#: state, and so the arrays `nnx.jit` passes and donates, holds none of the arrays or
#: variables the function closes over; called under `nnx.jit`, it reads them as they
#: are, and nothing is written back into them.
STATIC_FUNCTION_BASES = frozenset({"flax.nnx.Module"})
#: Layer constructors whose object holds new buffers (parameters drawn from `rngs`,
#: statistics made new; a `Dropout` keeps a fork of `rngs`, new keys), none of `rngs`'s
#: and none twice, and besides them only what its other arguments hold (a size given as
#: an array is kept as an attribute), unless given an initializer (an `*_init`
#: argument, keyword-only, may return an array it holds).
FRESH_LAYERS = frozenset(
    {"flax.nnx.Linear", "flax.nnx.Conv", "flax.nnx.Embed", "flax.nnx.LayerNorm",
     "flax.nnx.BatchNorm", "flax.nnx.Dropout", "flax.nnx.RMSNorm", "flax.nnx.GroupNorm"}
)  # fmt: skip
#: Layer constructors whose object, called on arrays, returns new arrays computed from
#: them and keeps no reference to them or to its own arrays -> how many of its
#: parameters may be given by position (sizes, shapes).
UNKEPT_LAYER_CALLS = {
    "flax.nnx.Linear": 2, "flax.nnx.Conv": 4, "flax.nnx.LayerNorm": 1, "flax.nnx.Embed": 2,
}  # fmt: skip
#: The attributes an object of `UNKEPT_LAYER_CALLS` holds (its variables, sizes, options
#: and the functions it runs when called, `dot_general`): set again after it is built,
#: its call may run other code.
LAYER_ATTRIBUTES = frozenset(
    {"axis_index_groups", "axis_name", "bias", "conv_general_dilated", "dot_general",
     "dtype", "embedding", "epsilon", "feature_axes", "feature_group_count", "features",
     "in_features", "input_dilation", "kernel", "kernel_dilation", "kernel_shape",
     "kernel_size", "mask", "num_embeddings", "num_features", "out_features", "padding",
     "param_dtype", "precision", "preferred_element_type", "promote_dtype",
     "reduction_axes", "scale", "strides", "use_bias", "use_fast_variance", "use_scale"}
)  # fmt: skip
#: The `nnx.Module` method that sets attributes of a module and its submodules by name.
SET_ATTRIBUTES = "set_attributes"
#: Layer constructors like those, but whose object, called on arrays in training mode,
#: also replaces its own running statistics with new arrays computed from them (it keeps
#: none of its input's buffers nor hands out its own) -> positional parameters, as above.
STATS_LAYER_CALLS = {"flax.nnx.BatchNorm": 1}
#: Their keyword options that run no code when the layer is called (an initializer runs
#: when it is built; `dot_general`, `promote_dtype`, `conv_general_dilated` run at every
#: call and are not listed), and their sizes given by keyword (`in_features=3`), as
#: plain as by position.
PLAIN_LAYER_OPTIONS = frozenset(
    {"in_features", "out_features", "num_features", "num_embeddings", "features",
     "use_bias", "dtype", "param_dtype", "precision", "kernel_init", "bias_init", "scale_init",
     "embedding_init", "rngs", "strides", "padding", "input_dilation", "kernel_dilation",
     "feature_group_count", "epsilon", "use_scale", "reduction_axes", "feature_axes",
     "use_fast_variance", "kernel_size", "momentum", "use_running_average", "axis"}
)  # fmt: skip
#: Pooling functions `flax.nnx` exports (`flax.linen.pooling`'s): each returns a new
#: array computed from the array it is given (`lax.reduce_window`), and keeps none.
POOLING = frozenset({"flax.nnx.max_pool", "flax.nnx.avg_pool", "flax.nnx.min_pool"})
#: Functions `flax.nnx` exports that are `jax.nn`'s own (`nnx.relu is jax.nn.relu`): each
#: returns new arrays computed from the arrays it is given, and keeps none.
JAX_FUNCTIONS = frozenset(
    f"flax.nnx.{name}"
    for name in (
        "celu", "elu", "gelu", "glu", "hard_sigmoid", "hard_silu", "hard_swish",
        "hard_tanh", "leaky_relu", "log_sigmoid", "log_softmax", "logsumexp", "one_hot",
        "relu", "relu6", "selu", "sigmoid", "silu", "soft_sign", "softmax", "softplus",
        "standardize", "swish", "tanh",
    )
)  # fmt: skip
#: The argument of `FRESH_LAYERS` they draw from and keep none of.
RNGS_ARGUMENT = "rngs"
#: The ending of the names of the initializer arguments of `FRESH_LAYERS`.
INITIALIZER_SUFFIX = "_init"
#: Optimizer constructors, called `C(model, tx, wrt=...)`: the object holds `model`
#: itself (`ModelAndOptimizer`: the very module, whose variables `nnx.jit` passes once
#: however many arguments reach them) or none of it (`Optimizer`), and besides only
#: `tx.init` of the model's state that `wrt` selects and a new step count.
OPTIMIZERS = frozenset({"flax.nnx.Optimizer", "flax.nnx.ModelAndOptimizer"})
#: The parameters of `OPTIMIZERS`, in order: the model and the optax transformation.
OPTIMIZER_PARAMETERS = ("model", "tx")
#: Their keyword-only filters, which select the state `tx.init` is given.
OPTIMIZER_FILTERS = frozenset({"wrt"})
#: Calls that render each argument before they return (printed outside IPython, drawn as
#: treescope's HTML inside) and return None, keeping none of them. Rendering runs the
#: hooks of every object it reaches (`__repr__`, `__treescope_repr__`, `_repr_html_`):
#: flax's own for its modules and variables, a class's own where it defines one.
RENDERING = frozenset({"flax.nnx.display"})
#: Layers whose objects render through flax's code alone when built of plain values (and
#: `rngs`): they hold their variables, flax's own objects and the values given.
RENDERED_LAYERS = FRESH_LAYERS
#: The container layer: it holds the layers it is given, in order, and renders each.
SEQUENTIAL = "flax.nnx.Sequential"
#: The random-stream holder layers are given (`rngs=nnx.Rngs(0)`).
RNGS = "flax.nnx.Rngs"
#: Methods `nnx.Module` defines and flax's layers inherit as they are: `model.eval()` and
#: `model.train()` set the flags `deterministic` and `use_running_average` of the module
#: and of its submodules that have them, and reach no namespace (not the builtin `eval`).
MODULE_METHODS = frozenset({"eval", "train"})
