"""equinox: a toy decoder's `sample(key)` method remembers the first decoder weight
it sampled with on a module-level tracker (`FIRST.weight = self.w`, set once) to
report how far training moved it; the loop samples after each `eqx.filter_jit` step
with a new key and returns the remembered weight. Trap for AO201
(`donate="all-except-first"`): donating the model at the next step deletes the
array the tracker holds."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Tracker:
    def __init__(self):
        self.weight = None


FIRST = Tracker()


class Decoder(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (2, 3))
        self.b = jnp.zeros(3)

    def __call__(self, z):
        return jnp.tanh(z @ self.w + self.b)

    def sample(self, key):
        if FIRST.weight is None:
            FIRST.weight = self.w
        return self(jax.random.normal(key, (2,)))


OPT = optax.adam(0.05)


@eqx.filter_jit
def make_step(model, opt_state, z, target):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(z) - target) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = Decoder(jax.random.PRNGKey(0))
    z = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    target = jnp.array([[0.5, -0.5, 0.0], [0.0, 0.5, -0.5], [0.5, 0.0, -0.5]])
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    key = jax.random.PRNGKey(1)
    samples = []
    for _ in range(4):
        model, opt_state, _ = make_step(model, opt_state, z, target)
        key, sub = jax.random.split(key)
        samples.append(float(jnp.sum(model.sample(sub))))
    return samples, FIRST.weight, jnp.sum(jnp.abs(model.w - FIRST.weight))
