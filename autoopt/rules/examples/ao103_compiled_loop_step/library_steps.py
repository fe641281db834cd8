"""AO103 examples, steps whose one obstacle is a library call the overlays know: an optax
optimizer bound once before the loop, which the step takes as a static argument."""

from autoopt.rules.base import Invalid, Valid

_LOOP = """
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x):
    return jnp.mean((x @ params - 1.0) ** 2)


def main():
    x = jnp.ones((4, 3))
    params = jnp.zeros(3)
    opt = optax.adam(0.05)
    opt_state = opt.init(params)
    for _ in range(20):
        loss, grads = jax.value_and_grad(loss_fn)(params, x)
        updates, opt_state = opt.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        print(loss)
    return params
"""

OPTAX_LOCAL = Invalid(
    _LOOP,
    """
import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x):
    return jnp.mean((x @ params - 1.0) ** 2)


@functools.partial(
    jax.jit, static_argnames=("opt",), donate_argnames=("opt_state", "params")
)
def _main_step(opt_state, params, x, opt):
    loss, grads = jax.value_and_grad(loss_fn)(params, x)
    updates, opt_state = opt.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return loss, opt_state, params


def main():
    x = jnp.ones((4, 3))
    params = jnp.zeros(3)
    opt = optax.adam(0.05)
    opt_state = opt.init(params)
    for _ in range(20):
        loss, opt_state, params = _main_step(opt_state, params, x, opt)
        print(loss)
    return params
""",
    message="compile it as one jitted step, `_main_step`, donating `opt_state`, `params`",
)

VALID = (
    Valid(
        _LOOP.replace(
            "        params = optax.apply_updates(params, updates)\n",
            "        params = optax.apply_updates(params, updates)\n"
            "        opt = optax.adam(0.05 / 2)\n",
        ),
        "the loop rebinds the optimizer: a static argument changing every iteration",
    ),
    Valid(
        _LOOP.replace(
            "        loss, grads = jax.value_and_grad(loss_fn)(params, x)\n",
            "        loss, grads = jax.value_and_grad(loss_fn)(params, x)\n"
            "        print(float(loss))\n",
        ),
        "a host value printed after the first line: the step would be one call, AO101's",
    ),
)
