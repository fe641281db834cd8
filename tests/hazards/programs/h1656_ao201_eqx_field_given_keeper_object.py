"""An equinox model stores what its constructor is given (`self.tracker = tracker`);
the one construction gives it a tracker object, whose `record` keeps what it is handed.
Between steps the loop samples from the model, whose `sample` records its own weight
with the tracker. The field is no data: donating `model` to `make_step` would delete
the weights the tracker holds, and reading them after the loop would raise."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Tracker:
    def __init__(self):
        self.seen = []

    def record(self, value):
        self.seen.append(value)


class Model(eqx.Module):
    weight: jax.Array
    tracker: Tracker

    def __init__(self, tracker, key):
        self.weight = jax.random.normal(key, (3,))
        self.tracker = tracker

    def sample(self, x):
        self.tracker.record(self.weight)
        return jnp.tanh(self.weight * x)


def main():
    model = Model(Tracker(), jax.random.PRNGKey(0))
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
    return outs, [float(w.sum()) for w in model.tracker.seen]


if __name__ == "__main__":
    main()
