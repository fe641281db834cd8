"""diffrax's latent ODE example run at the top level of a script: the vector field,
an equinox module of the file, logs the scale of the global `model` whenever the solve
traces it (the model of that moment, a concrete array, not a tracer: a global is no
argument of the solve's jit). Donating `model` to `make_step` would delete the scales
the log holds, and reading them after the loop would raise."""

import diffrax
import equinox as eqx
import jax
import jax.nn as jnn
import jax.numpy as jnp
import jax.random as jr

LOG = []


class Func(eqx.Module):
    scale: jnp.ndarray
    mlp: eqx.nn.MLP

    def __call__(self, t, y, args):
        LOG.append(model.func.scale)
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


@eqx.filter_value_and_grad
def loss(model, ts):
    target = jnp.stack([jnp.sin(ts), jnp.cos(ts)], axis=-1)
    return jnp.mean((model.sample(ts, key=jr.PRNGKey(1)) - target) ** 2)


@eqx.filter_jit
def make_step(ts, model):
    value, grads = loss(model, ts)
    model = eqx.apply_updates(model, jax.tree.map(lambda g: -0.01 * g, grads))
    return value, model


model = LatentODE(hidden_size=4, latent_size=2, key=jr.PRNGKey(0))


def main():
    global model
    ts = jnp.linspace(0.0, 1.0, 5)
    losses, samples = [], []
    for step in range(4):
        value, model = make_step(ts, model)
        losses.append(value)
        if step % 2 == 0:
            samples.append(model.sample(ts, key=jr.PRNGKey(2)))
    return losses, samples, [float(s) for s in LOG]


if __name__ == "__main__":
    main()
