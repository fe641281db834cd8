"""AO103 examples, steps that call the function a factory of the module returns
(`mse_loss = make_loss(xs, ys)`) or a module-level transform of a function: followed,
the step is compiled only where what that function reads from outside is proven
unchanging (`analysis/facts/closures.py`)."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE

_FACTORY = """
import jax
import jax.numpy as jnp


def make_loss(xs, ys):
    def loss(w):
        return jnp.mean((xs @ w - ys) ** 2)

    return jax.jit(loss)

"""

#: The closure reads only the factory's arguments (arrays, bound once): the step is
#: compiled.
FACTORY_CLOSURE = Invalid(
    _FACTORY
    + """
mse_loss = make_loss(jnp.ones((4, 3)), jnp.arange(4.0))
value_and_grad_fn = jax.value_and_grad(mse_loss)
w = jnp.zeros(3)
for epoch in range(20):
    loss, grads = value_and_grad_fn(w)
    w = jax.tree.map(lambda p, g: p - 0.1 * g, w, grads)
    if epoch % 5 == 0:
        print(loss)
""",
    """
import functools

import jax
import jax.numpy as jnp


def make_loss(xs, ys):
    def loss(w):
        return jnp.mean((xs @ w - ys) ** 2)

    return jax.jit(loss)


mse_loss = make_loss(jnp.ones((4, 3)), jnp.arange(4.0))
value_and_grad_fn = jax.value_and_grad(mse_loss)
w = jnp.zeros(3)


@functools.partial(jax.jit, donate_argnames=("w",))
def _step(w):
    loss, grads = value_and_grad_fn(w)
    w = jax.tree.map(lambda p, g: p - 0.1 * g, w, grads)
    return grads, loss, w


for epoch in range(20):
    grads, loss, w = _step(w)
    if epoch % 5 == 0:
        print(loss)
""",
)

#: The closure reads a Python list it was given, which the loop changes in place: jit
#: would freeze it.
FACTORY_CLOSURE_LIST = Invalid(
    """
import jax
import jax.numpy as jnp


def make_loss(weights):
    def loss(w):
        return jnp.sum(jnp.asarray(weights) * w**2)

    return loss


WEIGHTS = [1.0, 2.0, 3.0]
grad_fn = jax.grad(make_loss(WEIGHTS))
w = jnp.ones(3)
for step in range(6):
    g = grad_fn(w)
    w = w - 0.05 * g
    w = w * 0.99
    WEIGHTS[step % 3] = WEIGHTS[step % 3] * 2.0
""",
    fix=_NONE,
    message="not compiled as one step: `loss` reads `weights` (a Python container) from "
    "outside; jit would freeze its value",
)

#: The closure draws from a host RNG the factory was given: not proven pure.
FACTORY_CLOSURE_HOST_RNG = Invalid(
    """
import jax
import jax.numpy as jnp
import numpy as np


def make_objective(rng):
    def objective(x):
        return jnp.sum((x + jnp.asarray(rng.normal(size=x.shape))) ** 2)

    return objective


grad_fn = jax.grad(make_objective(np.random.default_rng(3)))
x = jnp.ones(4)
for step in range(6):
    g = grad_fn(x)
    x = x - 0.1 * g
    x = x * 0.99
""",
    fix=_NONE,
    message="it is not pure: it calls `grad_fn`, which calls `rng.normal`, code autoopt cannot see",
)

#: A factory that returns one of two functions is not followed: the call stays unseen.
FACTORY_TWO_RETURNS = Invalid(
    """
import jax
import jax.numpy as jnp


def make_loss(xs, squared):
    def l2(w):
        return jnp.sum((xs @ w) ** 2)

    def l1(w):
        return jnp.sum(jnp.abs(xs @ w))

    if squared:
        return l2
    return l1


grad_fn = jax.grad(make_loss(jnp.ones((4, 3)), True))
w = jnp.ones(3)
for step in range(6):
    g = grad_fn(w)
    w = w - 0.1 * g
    w = w * 0.99
""",
    fix=_NONE,
    message="it is not pure: it calls `grad_fn`, code autoopt cannot see",
)

INVALID = (FACTORY_CLOSURE, FACTORY_CLOSURE_LIST, FACTORY_CLOSURE_HOST_RNG, FACTORY_TWO_RETURNS)

VALID = (
    Valid(
        """
import jax
import jax.numpy as jnp

STIFFNESS = 1.0


def energy(x):
    return 0.5 * STIFFNESS * jnp.sum(x**2) + jnp.sum(jnp.cos(x))


grad_fn = jax.grad(energy)
x = jnp.ones(6)
for step in range(8):
    g = grad_fn(x)
    x = x - 0.1 * g
    x = x * 0.99
    print(step)
    STIFFNESS = STIFFNESS * 1.5
""",
        why="`grad_fn`'s function reads `STIFFNESS`, which the loop rebinds: jit would freeze it",
    ),
    Valid(
        _FACTORY.replace("ys) ** 2)", "ys) ** 2) / TEMPERATURE")
        + """
TEMPERATURE = 2.0
value_and_grad_fn = jax.value_and_grad(make_loss(jnp.ones((4, 3)), jnp.arange(4.0)))
w = jnp.zeros(3)
for epoch in range(10):
    loss, grads = value_and_grad_fn(w)
    w = jax.tree.map(lambda p, g: p - 0.3 * g, w, grads)
    TEMPERATURE = TEMPERATURE * 0.7
""",
        why="the factory's closure reads the global `TEMPERATURE`, which the loop rebinds",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

SETTERS = []


def make_loss(target):
    scale = 1.0

    def loss(w):
        return scale * jnp.sum((w - target) ** 2)

    def set_scale(value):
        nonlocal scale
        scale = value

    SETTERS.append(set_scale)
    return loss


grad_fn = jax.grad(make_loss(jnp.arange(3.0)))
w = jnp.zeros(3)
for step in range(8):
    g = grad_fn(w)
    w = w - 0.05 * g
    w = w * 0.995
    SETTERS[0](1.0 + step)
""",
        why="the closure's `scale` is rebound with `nonlocal` by a setter the loop calls",
    ),
)
