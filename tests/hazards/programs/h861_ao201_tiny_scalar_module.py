"""An equinox module of one 0-d array and its optax momentum, replaced by a
`filter_jit` step: every donated leaf is 0-d. Trap for AO201's tiny-donation check: the
finding has no fix (donating saves nothing) and the program is left as it is."""

import equinox as eqx
import jax.numpy as jnp
import optax


class Decay(eqx.Module):
    rate: float


def loss(model, target):
    return (model.rate * 2.0 - target) ** 2


optim = optax.sgd(1e-2, momentum=0.7, nesterov=True)


@eqx.filter_jit
def make_step(model, opt_state, target):
    grads = eqx.filter_grad(loss)(model, target)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return model, opt_state


def main():
    model = Decay(jnp.array(0.0))
    target = jnp.array(0.76)
    opt_state = optim.init(model)
    for _ in range(5):
        model, opt_state = make_step(model, opt_state, target)
    return model.rate, target
