"""An equinox MLP whose two hidden layers are tied after construction with
`eqx.tree_at`, replacing the second layer's weight by the first layer's array. Trap
for AO201: `eqx.nn.MLP` builds distinct buffers, but the `tree_at` puts one of them in
two leaves; donating the model (`eqx.filter_jit(donate="all")`) donates it twice."""

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def sgd_step(model, x, y):
    def loss(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    value, grads = eqx.filter_value_and_grad(loss)(model)
    updates = jax.tree.map(lambda g: -0.05 * g, grads)
    return eqx.apply_updates(model, updates), value


def main():
    model = eqx.nn.MLP(3, 1, 3, 2, key=jax.random.key(2))
    model = eqx.tree_at(lambda m: m.layers[1].weight, model, model.layers[0].weight)
    x = jnp.linspace(-2.0, 2.0, 15).reshape(5, 3)
    y = jnp.sum(x**2, axis=1, keepdims=True)
    for epoch in range(6):
        model, value = sgd_step(model, x, y)
        if epoch % 2 == 0:
            print(f"epoch {epoch} loss {float(value):.5f}")
    return model.layers[0].weight, model.layers[1].weight, model.layers[2].bias
