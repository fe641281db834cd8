"""A factory returns a loss closure over its own `scale` and hands a setter that
rebinds `scale` with `nonlocal` to a module list; the loop anneals the scale through
it after every step. Trap for AO103 following a factory's closure: `scale` is bound
once in the factory, but the setter rebinds the closure's cell; compiled, the step
would freeze the first scale."""

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


loss_fn = make_loss(jnp.arange(3.0, dtype=jnp.float32))
grad_fn = jax.grad(loss_fn)


def main():
    w = jnp.zeros(3, dtype=jnp.float32)
    for step in range(8):
        g = grad_fn(w)
        w = w - 0.05 * g
        w = w * 0.995
        SETTERS[0](1.0 + step)
    return w
