"""AO201 cases for a model handed to `nnx.display` before its loop
(`analysis/facts/rendering.py`): the call renders what it is given and keeps none of
it where flax's code alone renders the model; for `model.eval()`, flax's method, not
the builtin that may read the module's namespace (`analysis/facts/reflection.py`); and
for the model called, or a method of its class, eagerly, whose code may keep the
model's own buffers (`analysis/facts/aliases.py`, `unkept_arguments.py`). Appended to
`ao201_missing_donation`'s. Each case edits one program, the rewrite the same way."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid
from autoopt.rules.examples import edited

_UNSAFE = Applicability.UNSAFE

#: An nnx model displayed as soon as it is built, then trained by an `nnx.jit` step.
DISPLAYED = """
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, n_in: int = 3, *, rngs: nnx.Rngs):
        self.n_in = n_in
        self.hidden = nnx.Linear(n_in, 8, rngs=rngs)
        self.out = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


model = MLP(rngs=nnx.Rngs(0))
nnx.display(model)
optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))


@nnx.jit
def train_step(model, optimizer, data, labels):
    def loss_fun(model):
        logits = model(data)
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    optimizer.update(nnx.grad(loss_fun)(model))


data = jnp.ones((4, 3))
labels = jnp.zeros(4, dtype=jnp.int32)
for _ in range(6):
    train_step(model, optimizer, data, labels)
print(model.out.bias.value.sum())
"""
DONATED = "\nimport functools\n" + DISPLAYED.replace(
    "@nnx.jit\n", '@functools.partial(nnx.jit, donate_argnames=("model", "optimizer"))\n'
)
_KEPT = "`model` is handed to `nnx.display`, which may keep it"
_HOOK = (
    "        return self.out(nnx.relu(self.hidden(x)))\n",
    "        return self.out(nnx.relu(self.hidden(x)))\n\n"
    "    def __repr__(self):\n"
    "        SEEN.append(self.out.bias.value)\n"
    '        return "MLP"\n',
)
_LIST = ("\n\nclass MLP", "\nSEEN = []\n\n\nclass MLP")
_CALLED = ("labels = jnp.zeros(", "print(model(data).sum())\nlabels = jnp.zeros(")
_MODES = (
    (
        "for _ in range(6):\n    train_step(",
        "for _ in range(6):\n    model.train()\n    train_step(",
    ),
    ("print(model.out.bias.value.sum())", "model.eval()\nprint(model.out.bias.value.sum())"),
)


def _case(*pairs: tuple[str, str], message: str = _KEPT) -> Invalid:
    """`DISPLAYED` edited by `pairs`, an unsafe fix, and its rewrite."""
    return Invalid(edited(DISPLAYED, *pairs), edited(DONATED, *pairs), fix=_UNSAFE, message=message)


INVALID: tuple[Invalid, ...] = (
    # safe: flax alone renders the model (layers of sizes and `rngs`, a number), and
    # nothing runs between its construction and the display
    Invalid(DISPLAYED, DONATED),
    # safe: a layer of flax's, displayed as soon as it is built
    Invalid(
        edited(DISPLAYED, ("model = MLP(rngs=", "model = nnx.Linear(3, 2, rngs=")),
        edited(DONATED, ("model = MLP(rngs=", "model = nnx.Linear(3, 2, rngs=")),
    ),
    # unsafe: the model class renders itself, and keeps its bias as it does
    _case(_LIST, _HOOK),
    # unsafe: a statement runs between the construction and the display (a call that
    # may change the model; here a print, which does not, but only adjacency is read)
    _case(("nnx.display(model)\n", 'print("built")\nnnx.display(model)\n')),
    # safe: `model.train()` and `model.eval()` are flax's methods of the model, not the
    # builtin `eval`, which may read the module's globals
    Invalid(
        edited(DISPLAYED, *_MODES),
        edited(DONATED, *_MODES),
    ),
    # unsafe: the builtin `eval` besides may read `model`, a global, at any time
    _case(
        *_MODES,
        ("print(model.out.bias.value.sum())", 'print(eval("model.out.bias.value.sum()"))'),
        message="`model` is a global and the module may hand out its own namespace (`eval`)",
    ),
    # safe: the model called eagerly before training, its `__call__` keeping nothing
    Invalid(edited(DISPLAYED, _CALLED), edited(DONATED, _CALLED)),
    # unsafe: a method of the model's class keeps its bias, called before training
    _case(
        _LIST,
        (_HOOK[0], _HOOK[0] + "\n    def keep(self):\n        SEEN.append(self.out.bias.value)\n"),
        ("data = jnp.ones((4, 3))\n", "data = jnp.ones((4, 3))\nmodel.keep()\n"),
        message="`model` is handed to `model.keep`, which may keep it",
    ),
)
