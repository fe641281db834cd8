"""diffrax: a neural-ODE module's `trajectory(ts, y0)` method solves with `diffeqsolve`
and appends `(self.func.rates, sol.ys)` to a module-level list of curves to plot, so
each curve is labelled with the rates that drew it; the loop draws a trajectory on a
fresh plotting grid after each `eqx.filter_jit` training step and returns the curves.
Trap for AO201 (`donate="all-except-first"`): donating the model at the next step
deletes the rates arrays the plot list holds."""

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import optax

CURVES = []


class Func(eqx.Module):
    rates: jax.Array

    def __call__(self, t, y, args):
        return -self.rates * y


class NeuralODE(eqx.Module):
    func: Func

    def __init__(self):
        self.func = Func(jnp.array([0.5, 1.5]))

    def __call__(self, ts, y0):
        sol = diffrax.diffeqsolve(
            diffrax.ODETerm(self.func),
            diffrax.Euler(),
            ts[0],
            ts[-1],
            0.25,
            y0,
            saveat=diffrax.SaveAt(ts=ts),
        )
        return sol.ys

    def trajectory(self, ts, y0):
        ys = self(ts, y0)
        CURVES.append((self.func.rates, ys))
        return ys


OPT = optax.sgd(0.2)


@eqx.filter_jit
def make_step(model, opt_state, ts, y0, target):
    def loss_fn(m):
        return jnp.mean((m(ts, y0) - target) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = NeuralODE()
    ts = jnp.linspace(0.0, 1.0, 3)
    y0 = jnp.array([1.0, 1.0])
    target = jnp.stack([jnp.exp(-ts), jnp.exp(-ts)], axis=1)
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    finals = []
    for _ in range(2):
        model, opt_state, _ = make_step(model, opt_state, ts, y0, target)
        ys = model.trajectory(jnp.linspace(0.0, 1.0, 3), jnp.array([2.0, 2.0]))
        finals.append(float(ys[-1, 0]))
    return finals, CURVES
