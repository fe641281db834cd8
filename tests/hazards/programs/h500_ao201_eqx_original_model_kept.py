"""Equinox fine-tuning that keeps the model it started from for a comparison after
training (`original_model = model`). Trap for AO201: `eqx.filter_jit(donate="all")`
would delete the buffers `original_model` still holds; only `"all-except-first"`
(the batches and the optimizer state) may be donated."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


def dataloader(arrays, size):
    perm = np.random.RandomState(0).permutation(arrays[0].shape[0])
    for start in range(0, arrays[0].shape[0], size):
        part = perm[start : start + size]
        yield tuple(array[part] for array in arrays)


@eqx.filter_jit
def make_step(model, x, y, opt_state):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


optim = optax.adam(0.05)


def main():
    xs = jnp.linspace(-1.0, 1.0, 32).reshape(32, 1)
    ys = 3.0 * xs + 1.0
    model = eqx.nn.Linear(1, 1, key=jax.random.key(0))
    original_model = model
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    for x, y in dataloader((xs, ys), 4):
        model, opt_state = make_step(model, x, y, opt_state)
    return model.weight, original_model.weight, original_model.bias
