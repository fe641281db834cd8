"""AO103 examples, eager loops that change an nnx module in place: no `jax.jit` step
carries that, so the finding names the call and the nnx spelling, with no fix; a counted
loop of an `nnx.jit` step read at an interval runs the steps between the reads as one
`nnx.fori_loop` under `@nnx.jit` (the nnx whole-loop form)."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE

_LOOP = """
import jax.numpy as jnp
import optax
from flax import nnx


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x, y = jnp.ones((8, 3)), jnp.ones((8, 1))
    for _ in range(10):
        loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
        optimizer.update(model, grads)
    return loss
"""

OPTIMIZER_UPDATE = Invalid(
    _LOOP,
    fix=_NONE,
    message="`optimizer.update(model, grads)` changes an nnx module in place",
)

NNX_UPDATE = Invalid(
    """
import jax
from flax import nnx


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    for _ in range(10):
        state = nnx.state(model)
        nnx.update(model, jax.tree.map(lambda v: v * 0.5, state))
    return model.kernel[...]
""",
    fix=_NONE,
    message="`nnx.update(model, jax.tree.map(lambda v: v * 0.5, state))` changes an nnx module",
)

_JIT_STEP = """
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x, y = jnp.ones((8, 3)), jnp.ones((8, 1))
    for i in range(300):
        train_step(model, optimizer, x, y)
        if i % 50 == 0:
            print(i, jnp.mean((model(x) - y) ** 2))
    return model.kernel[...]
"""


def _looped(code: str) -> str:
    """`code` with its loop of `train_step` read every 50 steps run as `_main_loop`."""
    return (
        code.replace(
            "\n\ndef main():",
            "\n\n@nnx.jit\ndef _main_loop(model, optimizer, x, y, steps):\n"
            "    def body(_, carry):\n"
            "        model, optimizer = carry\n"
            "        train_step(model, optimizer, x, y)\n"
            "        return model, optimizer\n\n"
            "    nnx.fori_loop(0, steps, body, (model, optimizer))\n\n\ndef main():",
        )
        .replace(
            "    for i in range(300):\n"
            "        train_step(model, optimizer, x, y)\n"
            "        if i % 50 == 0:\n",
            "    _main_pending = 0\n"
            "    for i in range(300):\n"
            "        _main_pending += 1\n"
            "        if i % 50 == 0:\n"
            "            _main_loop(model, optimizer, x, y, _main_pending)\n"
            "            _main_pending = 0\n",
        )
        .replace(
            "    return model.kernel[...]\n",
            "    if _main_pending:\n"
            "        _main_loop(model, optimizer, x, y, _main_pending)\n"
            "    return model.kernel[...]\n",
        )
    )


#: A counted loop of one dispatch of a small `nnx.jit` step read every 50 steps: the
#: steps between the reads can run as one `nnx.fori_loop` under `nnx.jit`, but the step
#: calls the model (`m(x)`), whose `__call__` autoopt does not follow: unsafe.
JIT_STEP_LOOP = Invalid(
    _JIT_STEP,
    expected=_looped(_JIT_STEP),
    fix=Applicability.UNSAFE,
    message=(
        "run the `nnx.jit` steps between the reads of `if i % 50 == 0:` as one compiled "
        "loop, `_main_loop` (`nnx.fori_loop` under `@nnx.jit`, which writes the nnx modules "
        "back), the block kept eager at the same iterations; unsafe: `train_step` runs "
        "again when the compiled loop is traced"
    ),
)

_NNX_LOOP = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    scale = jnp.mean(x) - jnp.mean(y)
    grads = jax.tree.map(lambda p: p * scale + 0.01, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 2.0, 24).reshape(8, 3)
    y = jnp.ones((8, 1))
    for i in range(300):
        train_step(model, optimizer, x, y)
        if i % 50 == 0:
            print(i, jnp.sum(model.kernel[...]))
    return model.kernel[...]
"""

#: Every premise proven: the steps between the reads run as one `nnx.fori_loop` under
#: `@nnx.jit`, which carries the modules' state and writes it back; the block stays
#: eager, run at the same iterations after the same steps.
NNX_LOOP = Invalid(
    _NNX_LOOP,
    expected=_looped(_NNX_LOOP),
    message="as one compiled loop, `_main_loop`",
)


_NNX_STEP = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def decay(model, optimizer, scale):
    grads = jax.tree.map(lambda p: p * scale, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model.kernel[...])


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.ones(3)
    for _ in range(10):
        scale = jnp.cos(x[0]) * 0.5 + 0.5
        total = decay(model, optimizer, scale)
        x = jnp.sin(x) * total
    return x, model.kernel[...]
"""

#: The step calls an `nnx.jit` function that changes the modules in place, and its own
#: lines are pure: compiled with `nnx.jit`, the modules passed as its arguments.
NNX_STEP = Invalid(
    _NNX_STEP,
    expected=_NNX_STEP.replace(
        "\n\ndef main():",
        "\n\n@nnx.jit\ndef _main_step(x, model, optimizer):\n"
        "    scale = jnp.cos(x[0]) * 0.5 + 0.5\n"
        "    total = decay(model, optimizer, scale)\n"
        "    x = jnp.sin(x) * total\n"
        "    return scale, x\n\n\ndef main():",
    ).replace(
        "        scale = jnp.cos(x[0]) * 0.5 + 0.5\n"
        "        total = decay(model, optimizer, scale)\n"
        "        x = jnp.sin(x) * total\n",
        "        scale, x = _main_step(x, model, optimizer)\n",
    ),
    message="compile it as one `nnx.jit` step, `_main_step`",
)

#: Eager host code writes the module from NumPy among the step's lines: the lines
#: before it are one statement, no step of them.
NNX_HOST_WRITE = Invalid(
    _NNX_STEP.replace(
        "        total = decay(model, optimizer, scale)\n",
        "        model.kernel.value = np.zeros((3, 1)) + np.asarray(scale)\n"
        "        total = decay(model, optimizer, scale)\n",
    ).replace("import optax\n", "import numpy as np\nimport optax\n"),
    fix=_NONE,
    message="not compiled as one step",
)

#: The `nnx.jit` function calls the module (`m(x)`), whose `__call__` may print: it
#: would run again when the step is traced, so the step stays eager.
NNX_MODULE_CALL = Invalid(
    _NNX_STEP.replace(
        "grads = jax.tree.map(lambda p: p * scale, nnx.state(model, nnx.Param))",
        "grads = nnx.grad(lambda m: jnp.sum(m(jnp.ones(3)) * scale))(model)",
    ),
    fix=_NONE,
    message="`decay` runs again when the step is traced",
)

VALID = (
    Valid(
        _JIT_STEP.replace(
            "    for i in range(300):\n        train_step(model, optimizer, x, y)\n"
            "        if i % 50 == 0:\n            print(i, jnp.mean((model(x) - y) ** 2))\n",
            "    for xb, yb in [(x, y)] * 300:\n        train_step(model, optimizer, xb, yb)\n",
        ),
        "an `nnx.jit` step over a host list of batches: not a counted loop to compile",
    ),
    Valid(
        _LOOP.replace("optimizer = nnx.Optimizer(model,", "optimizer = make(model,").replace(
            "import optax\n", "import optax\nfrom helpers import make\n"
        ),
        "`optimizer` comes from code autoopt cannot see: not proven an nnx optimizer",
    ),
    Valid(
        _LOOP.replace("def main():", "@nnx.jit\ndef main():"),
        "the loop runs traced, inside `nnx.jit`: compiled already",
    ),
    Valid(
        """
import jax.numpy as jnp
import optax

optimizer = optax.sgd(0.1)


def main():
    params = jnp.ones(3)
    state = optimizer.init(params)
    for _ in range(10):
        updates, state = optimizer.update(params * 2.0, state, params)
    return updates, state
""",
        "an optax optimizer's `update` is pure: it changes nothing in place",
    ),
)
