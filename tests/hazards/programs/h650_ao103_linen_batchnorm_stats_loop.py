"""BatchNorm statistics re-estimated for a linen model: an eager loop over calibration
batches calls `model.apply(..., mutable=["batch_stats"])` and merges the new statistics
into the variables, then evaluates. Trap for AO103: the carry is a nested dict whose
leaves the step replaces; a compiled step must return the same statistics and the
final evaluation must read the last ones."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(3)(x)
        return nn.BatchNorm(use_running_average=not train, momentum=0.8)(x)


def main():
    model = Net()
    x0 = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    variables = model.init(jax.random.key(0), x0, train=False)
    params, stats = variables["params"], variables["batch_stats"]
    for k in range(5):
        batch = x0 * (1.0 + 0.5 * k) + 0.1 * k
        _, updates = model.apply(
            {"params": params, "batch_stats": stats}, batch, train=True, mutable=["batch_stats"]
        )
        stats = updates["batch_stats"]
    out = model.apply({"params": params, "batch_stats": stats}, x0, train=False)
    return stats, out
