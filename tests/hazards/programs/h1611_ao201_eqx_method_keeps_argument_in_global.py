"""equinox decoder trained by an `eqx.filter_jit` step that rebinds `model`; after each
step `model.sample(model.out.weight)` runs eagerly, and `sample` appends its argument, a
buffer of the model, to the module-level list `SEEN`, read at the end. Trap for AO201
(issue 26): the object's class is proven only through the step that rebuilds it, and its
method keeps what it is given: donating `model` deletes the arrays `SEEN` holds (the call
links more than its receiver)."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


class Decoder(eqx.Module):
    hidden: eqx.nn.MLP
    out: eqx.nn.Linear

    def __init__(self, key):
        hkey, okey = jax.random.split(key)
        self.hidden = eqx.nn.MLP(3, 4, 8, 1, activation=jax.nn.softplus, key=hkey)
        self.out = eqx.nn.Linear(4, 2, key=okey)

    def __call__(self, x):
        return self.out(self.hidden(x))

    def _decode(self, ts):
        return jax.vmap(self.out)(ts)

    def sample(self, ts):
        SEEN.append(ts)
        return self._decode(ts)


def loss_fn(model, xs, ys):
    return jnp.mean((jax.vmap(model)(xs) - ys) ** 2)


optim = optax.sgd(0.1)
SEEN = []


@eqx.filter_jit
def make_step(model, opt_state, xs, ys):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, xs, ys)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return loss, model, opt_state


def main():
    model = Decoder(jax.random.key(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))
    xs = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    ys = jnp.stack([xs.sum(axis=1), xs[:, 0] - xs[:, 2]], axis=1)
    for _ in range(3):
        loss, model, opt_state = make_step(model, opt_state, xs, ys)
        model.sample(model.out.weight)
    return [np.asarray(s).sum() for s in SEEN], loss
