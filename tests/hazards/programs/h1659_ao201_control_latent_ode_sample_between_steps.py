"""Control (for h1656-h1658): diffrax's latent ODE example in small. Between steps the
loop samples from the model: `model.sample` draws a latent of the size a field holds
(every construction gives a number), and solves an ODE whose vector field is an equinox
module of the file, built from an array and an `eqx.nn.MLP` by position, with
`diffrax.diffeqsolve`, which runs it on tracers and keeps nothing. Donating `model` and
`opt_state` to `make_step` keeps the losses and the samples."""

import diffrax
import equinox as eqx
import jax
import jax.nn as jnn
import jax.numpy as jnp
import jax.random as jr
import optax


class Func(eqx.Module):
    scale: jnp.ndarray
    mlp: eqx.nn.MLP

    def __call__(self, t, y, args):
        return self.scale * self.mlp(y)


class LatentODE(eqx.Module):
    func: Func
    latent_to_hidden: eqx.nn.MLP
    hidden_to_data: eqx.nn.Linear
    latent_size: int

    def __init__(self, *, hidden_size, latent_size, key):
        mkey, lhkey, hdkey = jr.split(key, 3)
        scale = jnp.ones(())
        mlp = eqx.nn.MLP(hidden_size, hidden_size, 8, 1, activation=jnn.softplus, key=mkey)
        self.func = Func(scale, mlp)
        self.latent_to_hidden = eqx.nn.MLP(latent_size, hidden_size, 8, 1, key=lhkey)
        self.hidden_to_data = eqx.nn.Linear(hidden_size, 2, key=hdkey)
        self.latent_size = latent_size

    def sample(self, ts, *, key):
        latent = jr.normal(key, (self.latent_size,))
        y0 = self.latent_to_hidden(latent)
        sol = diffrax.diffeqsolve(
            diffrax.ODETerm(self.func),
            diffrax.Tsit5(),
            ts[0],
            ts[-1],
            0.1,
            y0,
            saveat=diffrax.SaveAt(ts=ts),
        )
        return jax.vmap(self.hidden_to_data)(sol.ys)


def main(latent_size=2):
    model = LatentODE(hidden_size=4, latent_size=latent_size, key=jr.PRNGKey(0))
    optim = optax.adam(0.01)
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))

    @eqx.filter_value_and_grad
    def loss(model, ts):
        target = jnp.stack([jnp.sin(ts), jnp.cos(ts)], axis=-1)
        return jnp.mean((model.sample(ts, key=jr.PRNGKey(1)) - target) ** 2)

    @eqx.filter_jit
    def make_step(ts, model, opt_state):
        value, grads = loss(model, ts)
        updates, opt_state = optim.update(grads, opt_state)
        model = eqx.apply_updates(model, updates)
        return value, model, opt_state

    ts = jnp.linspace(0.0, 1.0, 5)
    losses, samples = [], []
    for step in range(4):
        value, model, opt_state = make_step(ts, model, opt_state)
        losses.append(value)
        if step % 2 == 0:
            samples.append(model.sample(ts, key=jr.PRNGKey(2)))
    return losses, samples


if __name__ == "__main__":
    main()
