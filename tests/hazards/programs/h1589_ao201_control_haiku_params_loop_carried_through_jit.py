"""Control (for h1587): haiku parameters from `model.init` and an adam state, both
replaced every step by a plain `jax.jit` step's output, while an eager compiled loss is
given the parameters and a batch of the user's own loader every other step. Every
binding of `params` reaching the loss is haiku's `init` (dicts of dicts) or the step's
`optax.apply_updates(params, grads)`, shaped like the `params` given: no node carries
an object of the caller into the loss's body, so donating `params` and `opt_state` to
`update` keeps the losses."""

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax


class Loader:
    def __init__(self, xs):
        self.xs = xs
        self.i = 0

    def __next__(self):
        x = self.xs[self.i % len(self.xs)]
        self.i += 1
        return x, x * 2.0


def forward(x):
    return hk.Linear(1)(x)


model = hk.transform(forward)


def main():
    rng = jax.random.PRNGKey(0)
    opt = optax.adam(1e-2)
    loader = Loader(np.linspace(0.0, 1.0, 24, dtype=np.float32).reshape(6, 2, 2))

    @jax.jit
    def loss(params, x, y):
        return jnp.mean(jnp.square(model.apply(params, None, x) - y))

    @jax.jit
    def update(params, opt_state, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        grads, opt_state = opt.update(grads, opt_state)
        params = optax.apply_updates(params, grads)
        return value, params, opt_state

    sample, _ = next(loader)
    params = model.init(rng, sample)
    opt_state = opt.init(params)
    seen = []
    for step in range(6):
        if step % 2 == 0:
            x, y = next(loader)
            seen.append(float(loss(params, x, y)))
        x, y = next(loader)
        value, params, opt_state = update(params, opt_state, x, y)
        seen.append(float(value))
    return params, seen
