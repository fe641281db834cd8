"""haiku: an `Evaluator(params, state)` built after the first training step keeps the
params and the BatchNorm state it was given to report a baseline later; a jitted
`update` replaces both. Trap for AO201: donating `params` and `state` deletes the
arrays the evaluator holds."""

import haiku as hk
import jax
import jax.numpy as jnp


def forward(x, is_training):
    x = hk.Linear(3)(x)
    return hk.BatchNorm(True, True, 0.9)(x, is_training)


net = hk.without_apply_rng(hk.transform_with_state(forward))


class Evaluator:
    def __init__(self, params, state):
        self.params = params
        self.state = state

    def baseline(self, x):
        out, _ = net.apply(self.params, self.state, x, False)
        return jnp.sum(out)


@jax.jit
def update(params, state, x):
    def loss_fn(p):
        out, new_state = net.apply(p, state, x, True)
        return jnp.mean(out**2), new_state

    (loss, state), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    return params, state, loss


def main():
    x = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    params, state = net.init(jax.random.PRNGKey(0), x, True)
    evaluator = None
    for i in range(4):
        params, state, loss = update(params, state, x)
        if i == 0:
            evaluator = Evaluator(params, state)
    return loss, evaluator.baseline(x)
