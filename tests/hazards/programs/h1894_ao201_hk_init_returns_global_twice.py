"""haiku MLP whose two hidden layers start from one shared orthogonal-ish matrix: a custom
initializer returns the module-level `BASIS` for both `w` parameters, so the params pytree
holds the same array twice. The jitted update replaces params and opt_state every step;
donating `params` donates one buffer twice (and deletes `BASIS`, read after training)."""

import haiku as hk
import jax
import jax.numpy as jnp
import optax

BASIS = jnp.eye(4) * 0.8 + 0.05


def basis_init(shape, dtype):
    return BASIS


def forward(x):
    for name in ("layer_a", "layer_b"):
        w = hk.get_parameter(f"{name}_w", (4, 4), jnp.float32, init=basis_init)
        x = jnp.tanh(x @ w)
    return hk.Linear(1)(x)[:, 0]


net = hk.without_apply_rng(hk.transform(forward))
opt = optax.adam(0.05)


@jax.jit
def update(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((net.apply(p, x) - y) ** 2))(params)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    x = jnp.linspace(-1.0, 1.0, 16).reshape(4, 4)
    y = jnp.array([0.5, -0.5, 1.0, 0.0])
    params = net.init(jax.random.PRNGKey(0), x)
    opt_state = opt.init(params)
    losses = []
    for _ in range(5):
        params, opt_state, loss = update(params, opt_state, x, y)
        losses.append(float(loss))
    drift = jnp.abs(params["~"]["layer_a_w"] - BASIS).max()
    return params, losses, drift
