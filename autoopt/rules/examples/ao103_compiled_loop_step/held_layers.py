"""AO103 examples, steps that reach a linen layer through a module global the notebook
rebinds (`model = nn.Dense(...)` cell after cell): the binding that reaches a
module-level loop is the one its step reads while the loop runs
(`analysis/facts/held_globals.py`)."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE

_NOTEBOOK = """
import jax
import jax.numpy as jnp
from flax import linen as nn

xs = jnp.ones((8, 2))
ys = jnp.ones((8, 1))
model = nn.Dense(features=5)


def loss_fn(params):
    pred = model.apply(params, xs)
    return jnp.mean((pred - ys) ** 2)


grad_fn = jax.value_and_grad(loss_fn)
model = nn.Dense(features=1)
params = model.init(jax.random.key(0), xs)
for epoch in range(20):
    loss, grads = grad_fn(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.3 * g, params, grads)
    print(epoch, loss)
"""

REBOUND_LAYER = Invalid(
    _NOTEBOOK,
    """
import functools

import jax
import jax.numpy as jnp
from flax import linen as nn

xs = jnp.ones((8, 2))
ys = jnp.ones((8, 1))
model = nn.Dense(features=5)


def loss_fn(params):
    pred = model.apply(params, xs)
    return jnp.mean((pred - ys) ** 2)


grad_fn = jax.value_and_grad(loss_fn)
model = nn.Dense(features=1)
params = model.init(jax.random.key(0), xs)


@functools.partial(jax.jit, donate_argnames=("params",))
def _step(params):
    loss, grads = grad_fn(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.3 * g, params, grads)
    return grads, loss, params


for epoch in range(20):
    grads, loss, params = _step(params)
    print(epoch, loss)
""",
    message="compile it as one jitted step, `_step`, donating `params`",
)

_UNSEEN = "it is not pure: it calls `grad_fn`, which calls `model.apply`, code autoopt cannot see"

REBOUND_IN_LOOP = Invalid(
    _NOTEBOOK.replace(
        "    print(epoch, loss)\n", "    print(epoch, loss)\n    model = nn.Dense(1)\n"
    ),
    fix=_NONE,
    message=_UNSEEN + " (the loop rebinds or changes `model`)",
)

ALIAS_CHANGED = Invalid(
    _NOTEBOOK.replace(
        "params = model.init(", "alias = model\nalias.features = 2\nparams = model.init("
    ),
    fix=_NONE,
    message=_UNSEEN + " (line 18 reads `model` other than to call its `init` or `apply`, "
    "so the layer may be kept or changed)",
)

OWN_MODULE_CLASS = Invalid(
    _NOTEBOOK.replace(
        "model = nn.Dense(features=1)\n",
        "class Head(nn.Module):\n"
        "    @nn.compact\n"
        "    def __call__(self, x):\n"
        "        return nn.Dense(1)(x)\n\n\n"
        "model = Head()\n",
    ),
    fix=_NONE,
    message=_UNSEEN + " (the binding of `model` reaching the loop, at line 23, is not a "
    "linen layer autoopt lists, built from plain values)",
)

GIVEN_FUNCTION = Invalid(
    _NOTEBOOK.replace(
        "model = nn.Dense(features=1)", "model = nn.Dense(features=1, dot_general=my_dot)"
    ).replace("xs = jnp.ones", "my_dot = jax.lax.dot_general\nxs = jnp.ones", 1),
    fix=_NONE,
    message=_UNSEEN + " (the binding of `model` reaching the loop, at line 18, is not a "
    "linen layer autoopt lists, built from plain values)",
)

BRANCH_REBINDING = Invalid(
    _NOTEBOOK.replace(
        "params = model.init(", "if xs.shape[0] > 4:\n    model = nn.Dense(2)\nparams = model.init("
    ),
    fix=_NONE,
    message=_UNSEEN + " (no one binding of `model` reaches the loop on every path)",
)

_INLINE = """
import jax
import jax.numpy as jnp
from flax import linen as nn

xs = jnp.ones((8, 2))
model = nn.Dense(features=5)
print(model.init(jax.random.key(1), xs))
model = nn.Dense(features=1)
params = model.init(jax.random.key(0), xs)
for epoch in range(20):
    pred = model.apply(params, xs)
    params = jax.tree_util.tree_map(lambda p: p - 0.1 * jnp.mean(pred), params)
    print(epoch)
"""

#: The loop's own lines call `model.apply`: the step reads the held layer from the module
#: (a name the module binds twice is otherwise passed, and jit cannot trace a layer).
INLINE_APPLY = Invalid(
    _INLINE,
    _INLINE.replace("import jax\n", "import functools\n\nimport jax\n", 1).replace(
        "for epoch in range(20):\n"
        "    pred = model.apply(params, xs)\n"
        "    params = jax.tree_util.tree_map(lambda p: p - 0.1 * jnp.mean(pred), params)\n",
        '\n\n@functools.partial(jax.jit, donate_argnames=("params",))\n'
        "def _step(params):\n"
        "    pred = model.apply(params, xs)\n"
        "    params = jax.tree_util.tree_map(lambda p: p - 0.1 * jnp.mean(pred), params)\n"
        "    return pred, params\n\n\n"
        "for epoch in range(20):\n"
        "    pred, params = _step(params)\n",
    ),
    message="compile it as one jitted step, `_step`, donating `params`",
)

INVALID = (
    REBOUND_LAYER,
    INLINE_APPLY,
    REBOUND_IN_LOOP,
    ALIAS_CHANGED,
    OWN_MODULE_CLASS,
    GIVEN_FUNCTION,
    BRANCH_REBINDING,
)

VALID = (
    Valid(
        _NOTEBOOK.replace(
            "    pred = model.apply(params, xs)\n",
            "    pred = model.apply(params, xs)\n    print(pred)\n",
        ),
        "the loss function prints: traced, it would print once (a known impurity: AO103 "
        "leaves the loop to the other rules)",
    ),
    Valid(
        _NOTEBOOK.replace(
            "def loss_fn(params):\n",
            "losses = []\n\n\ndef loss_fn(params):\n    losses.append(params)\n",
        ),
        "the loss function appends to a global list every call: traced, it would append "
        "once (a known impurity: AO103 leaves the loop to the other rules)",
    ),
)
