"""AO601 remat-candidate: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

VALID = (
    Valid(
        """
import jax
import jax.numpy as jnp

def block(h, w):
    return jnp.tanh(h @ w), None

def forward(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return h
""",
        "not differentiated",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def block(h, w):
    return jnp.tanh(h @ w), None

def loss(ws, x):
    h, _ = jax.lax.scan(jax.checkpoint(block), x, ws)
    return jnp.sum(h)

g = jax.grad(loss)(ws, x)
""",
        "already checkpointed",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

@jax.checkpoint
def block(h, w):
    return jnp.tanh(h @ w), None

def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return jnp.sum(h)

g = jax.grad(loss)(ws, x)
""",
        "the layer is decorated with jax.checkpoint",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def layer(w, h):
    return jnp.tanh(h @ w)

def loss(w1, w2, x):
    for w in (w1, w2):
        x = layer(w, x)
    return jnp.sum(x)

g = jax.grad(loss)(w1, w2, x)
""",
        "a shallow model: two layers",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def layer(w, h):
    return jnp.tanh(h @ w)

def loss(ws, x):
    for i in range(2):
        x = layer(ws[i], x)
    return jnp.sum(x)

g = jax.grad(loss)(ws, x)
""",
        "a shallow model: range(2)",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def layer(w, h):
    return jnp.tanh(h @ w)

def loss(ws, x):
    outs = [layer(w, x) for w in ws]
    return sum(o.sum() for o in outs)

g = jax.grad(loss)(ws, x)
""",
        "not a chain of layers",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def loss(ws, x):
    h, _ = jax.lax.scan(lambda h, w: (jnp.tanh(h @ w), None), x, ws)
    return jnp.sum(h)

g = jax.grad(loss)(ws, x)
""",
        "a lambda body: autoopt cannot name it",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def layer(w, h):
    return jnp.tanh(h @ w)

def loss(ws, x):
    for w in ws:
        y = layer(w, x)
    return jnp.sum(y)

g = jax.grad(loss)(ws, x)
""",
        "the loop does not feed a layer its own output",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def gelu(x):
    return 0.5 * x * (1.0 + jnp.tanh(x))

def loss(params, x):
    for layer in params:
        x = gelu(x @ layer["w"] + layer["b"])
    return x.sum()

g = jax.grad(loss)(params, x)
""",
        "an activation, not a layer taking its weights",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import flax.linen as nn

class DenseLayer(nn.Module):
    growth: int

    @nn.compact
    def __call__(self, x, train=True):
        z = nn.BatchNorm(use_running_average=not train)(x)
        z = nn.Conv(self.growth, (3, 3))(nn.relu(z))
        return jnp.concatenate([x, z], axis=-1)

class DenseBlock(nn.Module):
    @nn.compact
    def __call__(self, x, train=True):
        for _ in range(2):
            x = DenseLayer(8)(x, train=train)
        return x

grads = jax.grad(loss)(params, x)
""",
        "a linen loop of 2 layers: too shallow to pay for recomputing",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import flax.linen as nn

class DenseLayer(nn.Module):
    growth: int

    @nn.compact
    def __call__(self, x, train=True):
        z = nn.BatchNorm(use_running_average=not train)(x)
        z = nn.Conv(self.growth, (3, 3))(nn.relu(z))
        return jnp.concatenate([x, z], axis=-1)

class DenseBlock(nn.Module):
    depth: int

    @nn.compact
    def __call__(self, x, train=True):
        for _ in range(self.depth):
            x = DenseLayer(8)(x, train=train)
        return x

y = DenseBlock(6).apply(variables, x, False)
""",
        "a linen loop of layers in a program that never differentiates",
    ),
    Valid(
        """
import equinox as eqx
import jax.numpy as jnp

class Block(eqx.Module):
    linear: eqx.nn.Linear

    def __call__(self, x):
        return x + jnp.tanh(self.linear(x))

class Net(eqx.Module):
    layers: list[Block]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

y = eqx.filter_jit(net)(x)
""",
        "an equinox loop of layers in a program that never differentiates",
    ),
)

INVALID = (
    Invalid(
        """
import jax
import jax.numpy as jnp

def block(h, w):
    return h + jnp.tanh(h @ w), None

def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return jnp.mean(h ** 2)

grads = jax.grad(loss)(ws, x)
""",
        """
import jax
import jax.numpy as jnp

def block(h, w):
    return h + jnp.tanh(h @ w), None

def loss(ws, x):
    block_remat = jax.checkpoint(
        block,
        prevent_cse=False,
        policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
    )
    h, _ = jax.lax.scan(block_remat, x, ws)
    return jnp.mean(h ** 2)

grads = jax.grad(loss)(ws, x)
""",
        doc=True,
    ),
    Invalid(
        """
import jax
from jax import lax
import jax.numpy as jnp

def loss(params, x):
    def body(h, p):
        return jax.nn.gelu(h @ p["w"] + p["b"]), None
    h, _ = lax.scan(body, x, params)
    return h.sum()

value, grads = jax.value_and_grad(loss)(params, x)
""",
        """
import jax
from jax import lax
import jax.numpy as jnp


def loss(params, x):
    def body(h, p):
        return jax.nn.gelu(h @ p["w"] + p["b"]), None
    body_remat = jax.checkpoint(
        body,
        prevent_cse=False,
        policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
    )
    h, _ = lax.scan(body_remat, x, params)
    return h.sum()

value, grads = jax.value_and_grad(loss)(params, x)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def block(h, w):
    return jnp.tanh(h @ w), h

def forward(ws, x):
    h, hs = jax.lax.scan(block, x, ws)
    return h

def loss(ws, x):
    return jnp.sum(forward(ws, x))

step = jax.jit(jax.grad(loss))
""",
        """
import jax
import jax.numpy as jnp

def block(h, w):
    return jnp.tanh(h @ w), h

def forward(ws, x):
    block_remat = jax.checkpoint(
        block,
        prevent_cse=False,
        policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
    )
    h, hs = jax.lax.scan(block_remat, x, ws)
    return h

def loss(ws, x):
    return jnp.sum(forward(ws, x))

step = jax.jit(jax.grad(loss))
""",
    ),
    Invalid(
        """
import jax as J
import jax.numpy as jnp

def block(h, w):
    return jnp.tanh(h @ w), None

def f(ws, x):
    h, _ = J.lax.scan(block, x, ws, unroll=2)
    return h

out, pullback = J.vjp(f, ws, x)
""",
        """
import jax as J
import jax.numpy as jnp

def block(h, w):
    return jnp.tanh(h @ w), None

def f(ws, x):
    block_remat = J.checkpoint(
        block,
        prevent_cse=False,
        policy=J.checkpoint_policies.dots_with_no_batch_dims_saveable,
    )
    h, _ = J.lax.scan(block_remat, x, ws, unroll=2)
    return h

out, pullback = J.vjp(f, ws, x)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def block(carry, w):
    h, n = carry
    return (jnp.tanh(h @ w), n + 1), None

def loss(ws, x):
    (h, _), _ = jax.lax.scan(block, (x, 0), ws)
    return h.sum()

jac = jax.jacrev(loss)(ws, x)
""",
        """
import jax
import jax.numpy as jnp

def block(carry, w):
    h, n = carry
    return (jnp.tanh(h @ w), n + 1), None

def loss(ws, x):
    block_remat = jax.checkpoint(
        block,
        prevent_cse=False,
        policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
    )
    (h, _), _ = jax.lax.scan(block_remat, (x, 0), ws)
    return h.sum()

jac = jax.jacrev(loss)(ws, x)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def layer(w, h):
    return h + jnp.tanh(h @ w)

def loss(ws, x):
    h = x
    for w in ws:
        h = layer(w, h)
    return jnp.mean(h ** 2)

grads = jax.grad(loss)(ws, x)
""",
        """
import jax
import jax.numpy as jnp

def layer(w, h):
    return h + jnp.tanh(h @ w)

def loss(ws, x):
    h = x
    layer_remat = jax.checkpoint(
        layer,
        policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
    )
    for w in ws:
        h = layer_remat(w, h)
    return jnp.mean(h ** 2)

grads = jax.grad(loss)(ws, x)
""",
        fix=Applicability.UNSAFE,
        message="on CPU",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def layer(w, h):
    return jnp.tanh(h @ w)

def loss(params, x):
    for i in range(16):
        x = layer(params[i], x)
    return x.sum()

value, grads = jax.value_and_grad(loss)(params, x)
""",
        """
import jax
import jax.numpy as jnp

def layer(w, h):
    return jnp.tanh(h @ w)

def loss(params, x):
    layer_remat = jax.checkpoint(
        layer,
        policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
    )
    for i in range(16):
        x = layer_remat(params[i], x)
    return x.sum()

value, grads = jax.value_and_grad(loss)(params, x)
""",
        fix=Applicability.UNSAFE,
        message="lax.scan",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def block(h, w):
    return jnp.maximum(h @ w, 0.0), None

def predict(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return h

def loss(ws, x, y):
    return jnp.mean((predict(ws, x) - y) ** 2)

def train(ws, x, y):
    for _ in range(10):
        ws = ws - 0.1 * jax.grad(loss)(ws, x, y)
    return ws
""",
        """
import jax
import jax.numpy as jnp

def block(h, w):
    return jnp.maximum(h @ w, 0.0), None

def predict(ws, x):
    block_remat = jax.checkpoint(
        block,
        prevent_cse=False,
        policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
    )
    h, _ = jax.lax.scan(block_remat, x, ws)
    return h

def loss(ws, x, y):
    return jnp.mean((predict(ws, x) - y) ** 2)

def train(ws, x, y):
    for _ in range(10):
        ws = ws - 0.1 * jax.grad(loss)(ws, x, y)
    return ws
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def block(h, w):
    print("layer")
    return jnp.tanh(h @ w), None

def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return h.sum()

g = jax.grad(loss)(ws, x)
""",
        fix=Applicability.NONE,
        message="not pure",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def layer(w, h, depth):
    for _ in range(depth):
        h = jnp.tanh(h @ w)
    return h

def loss(ws, x):
    for w in ws:
        x = layer(w, x, 2)
    return x.sum()

g = jax.grad(loss)(ws, x)
""",
        fix=Applicability.NONE,
        message="needs a Python value",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def block(h, w):
    h = h + jnp.tanh(h @ w)
    jax.debug.print("block norm {n:.3f}", n=jnp.linalg.norm(h))
    return h, None

def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return jnp.mean(h ** 2)

g = jax.grad(loss)(ws, x)
""",
        fix=Applicability.NONE,
        message="`block` prints from the trace (`jax.debug.print`), which recomputation",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
from jax.debug import print as show

def record(h):
    show("{}", h.sum())
    return h

def block(h, w):
    return record(jnp.tanh(h @ w)), None

def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return h.sum()

g = jax.grad(loss)(ws, x)
""",
        fix=Applicability.NONE,
        message="calls `record`, which prints from the trace",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import flax.linen as nn

class DenseLayer(nn.Module):
    growth: int

    @nn.compact
    def __call__(self, x, train=True):
        z = nn.BatchNorm(use_running_average=not train)(x)
        z = nn.Conv(self.growth, (3, 3))(nn.relu(z))
        return jnp.concatenate([x, z], axis=-1)

class DenseBlock(nn.Module):
    depth: int

    @nn.compact
    def __call__(self, x, train=True):
        for _ in range(self.depth):
            x = DenseLayer(8)(x, train=train)
        return x

def loss(params, batch_stats, x):
    y, _ = DenseBlock(6).apply(
        {"params": params, "batch_stats": batch_stats}, x, True, mutable=["batch_stats"]
    )
    return jnp.mean(y ** 2)

grads = jax.grad(loss)(params, batch_stats, x)
""",
        """
import jax
import jax.numpy as jnp
import flax.linen as nn

class DenseLayer(nn.Module):
    growth: int

    @nn.compact
    def __call__(self, x, train=True):
        z = nn.BatchNorm(use_running_average=not train)(x)
        z = nn.Conv(self.growth, (3, 3))(nn.relu(z))
        return jnp.concatenate([x, z], axis=-1)

class DenseBlock(nn.Module):
    depth: int

    @nn.compact
    def __call__(self, x, train=True):
        for layer_index in range(self.depth):
            x = nn.remat(DenseLayer, static_argnums=(2,))(
                8, name=f"DenseLayer_{layer_index}"
            )(x, train)
        return x

def loss(params, batch_stats, x):
    y, _ = DenseBlock(6).apply(
        {"params": params, "batch_stats": batch_stats}, x, True, mutable=["batch_stats"]
    )
    return jnp.mean(y ** 2)

grads = jax.grad(loss)(params, batch_stats, x)
""",
        fix=Applicability.UNSAFE,
        message="checkpoint each layer (`nn.remat(DenseLayer, static_argnums=(2,))`); unsafe",
    ),
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp

class Block(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __call__(self, x, *, key=None, train=False):
        h = self.dropout(self.linear(x), inference=not train, key=key)
        return x + jnp.tanh(h)

class Net(eqx.Module):
    layers: list[Block]

    def __call__(self, x, key):
        for layer in self.layers:
            key, sub = jax.random.split(key)
            x = layer(x, key=sub, train=True)
        return x

@eqx.filter_value_and_grad
def loss(net, x, key):
    return jnp.mean(jax.vmap(net, in_axes=(0, None))(x, key) ** 2)
""",
        """
import equinox as eqx
import jax
import jax.numpy as jnp

class Block(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __call__(self, x, *, key=None, train=False):
        h = self.dropout(self.linear(x), inference=not train, key=key)
        return x + jnp.tanh(h)

class Net(eqx.Module):
    layers: list[Block]

    def __call__(self, x, key):
        for layer in self.layers:
            key, sub = jax.random.split(key)
            x = eqx.filter_checkpoint(layer)(x, key=sub, train=True)
        return x

@eqx.filter_value_and_grad
def loss(net, x, key):
    return jnp.mean(jax.vmap(net, in_axes=(0, None))(x, key) ** 2)
""",
        fix=Applicability.UNSAFE,
        message="checkpoint each layer (`eqx.filter_checkpoint(layer)`); unsafe",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import flax.linen as nn

class Layer(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(x.shape[-1])(x)
        self.sow("intermediates", "h", h)
        return x + jnp.tanh(h)

class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        for i in range(8):
            x = Layer()(x)
        return x

grads = jax.grad(loss)(params, x)
""",
        fix=Applicability.NONE,
        message="but `Layer` writes a variable collection (`self.sow`)",
    ),
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp

class Block(eqx.Module):
    linear: eqx.nn.Linear

    def __call__(self, x):
        jax.debug.print("norm {n}", n=jnp.linalg.norm(x))
        return x + jnp.tanh(self.linear(x))

class Net(eqx.Module):
    layers: list[Block]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

grads = eqx.filter_grad(loss)(net, x)
""",
        fix=Applicability.NONE,
        message="but `Block` prints from the trace (`jax.debug.print`)",
    ),
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp

class Block(eqx.Module):
    linear: eqx.nn.Linear

    def __call__(self, x):
        print("layer")
        return x + jnp.tanh(self.linear(x))

class Net(eqx.Module):
    layers: list[Block]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

grads = eqx.filter_grad(loss)(net, x)
""",
        fix=Applicability.NONE,
        message="but `Block` prints",
    ),
    Invalid(
        """
import jax
import flax.linen as nn

class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        for i, feat in enumerate([8, 8, 8, 8, 8]):
            x = Layer(feat)(x)
        return x

class Layer(nn.Module):
    feat: int

    @nn.compact
    def __call__(self, x):
        return nn.relu(nn.Dense(self.feat)(x))

grads = jax.grad(loss)(params, x)
""",
        fix=Applicability.NONE,
        message="nn.remat would rename the parameters of `Layer` (`CheckpointLayer_0`)",
    ),
)
