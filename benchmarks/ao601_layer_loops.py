"""AO601 module form: compiled temp memory of a layer loop before and after the rewrite.

Three programs whose module applies layers one after another in a Python loop under
`jax.grad`: a linen DenseNet block (`DenseLayer(...)(x, train=train)`, BatchNorm and
Conv, as in the uvadlc DenseNet tutorial), a linen residual MLP and an equinox residual
MLP (`for layer in self.layers: x = layer(x)`, as in equinox's BERT example). Each is
rewritten by AO601 (`--unsafe-fixes`: the fix of a Python loop is never safe), then
both versions are run and compiled: the jitted gradient's
`memory_analysis().temp_size_in_bytes` side by side, and the largest gradient
difference (recomputation may round differently).

Usage: python benchmarks/ao601_layer_loops.py [--layers 8] [--width 256] [--batch 512]
"""

from __future__ import annotations

import argparse
import sys
import types

import jax
import numpy as np

from autoopt import Settings, optimize_source

DENSENET = """
import jax
import jax.numpy as jnp
import flax.linen as nn

class DenseLayer(nn.Module):
    growth: int

    @nn.compact
    def __call__(self, x, train=True):
        z = nn.BatchNorm(use_running_average=not train)(x)
        z = nn.Conv(4 * self.growth, (1, 1), use_bias=False)(nn.relu(z))
        z = nn.BatchNorm(use_running_average=not train)(z)
        z = nn.Conv(self.growth, (3, 3), use_bias=False)(nn.relu(z))
        return jnp.concatenate([x, z], axis=-1)

class DenseBlock(nn.Module):
    @nn.compact
    def __call__(self, x, train=True):
        for _ in range(LAYERS):
            x = DenseLayer(WIDTH // 16)(x, train=train)
        return x

model = DenseBlock()
x = jax.random.normal(jax.random.PRNGKey(0), (BATCH // 32, 16, 16, 16))
variables = model.init(jax.random.PRNGKey(1), x)

def loss(params, batch_stats, x):
    y, _ = model.apply({"params": params, "batch_stats": batch_stats}, x, True,
                       mutable=["batch_stats"])
    return jnp.mean(y ** 2)

step = jax.jit(jax.grad(loss))
args = (variables["params"], variables["batch_stats"], x)
"""

LINEN_MLP = """
import jax
import jax.numpy as jnp
import flax.linen as nn

class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.gelu(nn.Dense(4 * WIDTH)(x))
        return x + jnp.tanh(nn.Dense(WIDTH)(h))

class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        for i in range(LAYERS):
            x = Block()(x)
        return x

model = Net()
x = jax.random.normal(jax.random.PRNGKey(0), (BATCH, WIDTH))
params = model.init(jax.random.PRNGKey(1), x)

def loss(params, x):
    return jnp.mean(model.apply(params, x) ** 2)

step = jax.jit(jax.grad(loss))
args = (params, x)
"""

EQUINOX_MLP = """
import equinox as eqx
import jax
import jax.numpy as jnp

class Block(eqx.Module):
    up: eqx.nn.Linear
    down: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.up = eqx.nn.Linear(WIDTH, 4 * WIDTH, key=k1)
        self.down = eqx.nn.Linear(4 * WIDTH, WIDTH, key=k2)

    def __call__(self, x):
        return x + jnp.tanh(self.down(jax.nn.gelu(self.up(x))))

class Net(eqx.Module):
    layers: list[Block]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

net = Net([Block(k) for k in jax.random.split(jax.random.PRNGKey(0), LAYERS)])
x = jax.random.normal(jax.random.PRNGKey(1), (BATCH, WIDTH))

def loss(net, x):
    return jnp.mean(jax.vmap(net)(x) ** 2)

params, static = eqx.partition(net, eqx.is_array)
step = jax.jit(lambda params, x: eqx.filter_grad(loss)(eqx.combine(params, static), x))
args = (params, x)
"""

PROGRAMS = {"linen DenseNet": DENSENET, "linen MLP": LINEN_MLP, "equinox MLP": EQUINOX_MLP}


def rewrite(code: str) -> str:
    settings = Settings(select=("AO601",), unsafe_fixes=True)
    new = optimize_source(code, settings=settings).new_source
    assert new != code, "AO601 did not rewrite the layer loop"
    return new


def run(code: str, sizes: dict[str, int]) -> tuple[int, list[np.ndarray]]:
    """Compiled temp bytes of the program's jitted gradient, and the gradient's leaves."""
    module = types.ModuleType("ao601_layer_loop")
    module.__dict__.update(sizes)
    sys.modules[module.__name__] = module  # flax's dataclasses look their module up
    try:
        exec(compile(code, "<ao601>", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    step, args = module.step, module.args
    grads = [np.asarray(g) for g in jax.tree.leaves(step(*args))]
    return step.lower(*args).compile().memory_analysis().temp_size_in_bytes, grads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--batch", type=int, default=512)
    ns = parser.parse_args()
    sizes = {"LAYERS": ns.layers, "WIDTH": ns.width, "BATCH": ns.batch}
    print(f"{jax.devices()[0].platform}, {sizes}")
    print("| program | temp original | temp rewritten | ratio | max grad diff (rel) |")
    print("|---|---|---|---|---|")
    for name, code in PROGRAMS.items():
        before, grads = run(code, sizes)
        after, grads_r = run(rewrite(code), sizes)
        scale = max(float(np.abs(g).max()) for g in grads) or 1.0
        diff = max(float(np.abs(a - b).max()) for a, b in zip(grads, grads_r, strict=True))
        mib = 2**20
        print(
            f"| {name} | {before / mib:.1f} MiB | {after / mib:.1f} MiB "
            f"| {before / max(after, 1):.2f}x | {diff / scale:.1e} |"
        )


if __name__ == "__main__":
    main()
