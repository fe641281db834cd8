"""A base `Trainer` calls `self.after_step()` after each update; the subclass
`EMATrainer` overrides it to track an EMA of the parameters, started the first time as
the parameters themselves (`self.ema = self.params`). Trap for AO201: the EMA's first
value is the parameter buffer, which the next step would donate."""

import jax
import jax.numpy as jnp


@jax.jit
def update(params, x, y):
    g = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    return params - 0.2 * g


class Trainer:
    def __init__(self, params):
        self.params = params

    def after_step(self):
        pass

    def fit(self, data):
        for x, y in data:
            self.params = update(self.params, x, y)
            self.after_step()
        return self.params


class EMATrainer(Trainer):
    def __init__(self, params):
        super().__init__(params)
        self.ema = None

    def after_step(self):
        if self.ema is None:
            self.ema = self.params
        else:
            self.ema = 0.8 * self.ema + 0.2 * self.params


def main():
    xs = jnp.linspace(-1.0, 1.0, 24).reshape(4, 3, 2)
    data = [(x, x @ jnp.array([2.0, -1.0])) for x in xs]
    trainer = EMATrainer(jnp.zeros(2))
    params = trainer.fit(data)
    return params, trainer.ema
