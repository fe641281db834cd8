"""An equinox model stores what its constructor is given (`self.history = history`);
the one construction gives it a list, which `sample` fills with the model's own weight
between steps. A list is no data its methods leave alone: donating `model` to
`make_step` would delete the weights the list holds, and reading them after the loop
would raise."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Model(eqx.Module):
    weight: jax.Array
    history: list

    def __init__(self, history, key):
        self.weight = jax.random.normal(key, (3,))
        self.history = history

    def sample(self, x):
        self.history.append(self.weight)
        return jnp.tanh(self.weight * x)


def main():
    model = Model([], jax.random.PRNGKey(0))
    optim = optax.sgd(0.1)
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))

    @eqx.filter_jit
    def make_step(x, model, opt_state):
        grads = eqx.filter_grad(lambda m: jnp.sum((m.weight * x) ** 2))(model)
        updates, opt_state = optim.update(grads, opt_state)
        return eqx.apply_updates(model, updates), opt_state

    x = jnp.arange(3.0)
    outs = []
    for step in range(4):
        model, opt_state = make_step(x, model, opt_state)
        if step % 2 == 0:
            outs.append(model.sample(x))
    return outs, [float(w.sum()) for w in model.history]


if __name__ == "__main__":
    main()
