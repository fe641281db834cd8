"""AO201 cases for an nnx training loop in the style of a diffusion tutorial: a module
class whose `__init__` stores closures its factory methods build over layers of their
own (`analysis/facts/closure_factories.py`), called eagerly once before training
(`unkept_arguments.visible_keeps_nothing` reads the closures), an optimizer of a chain
with a joined learning-rate schedule (`overlays/optax.py`, `BUFFERLESS_*`,
`SCHEDULE_JOINS`), data split by scikit-learn (`overlays/sklearn.py`), losses kept in a
list handed to code autoopt cannot see (the `nnx.jit` step returns the loss, a new
buffer: `facts/jit_outputs.py`), and a sampler nested in a later function whose closure
reads that function's own `model`. Appended to `ao201_missing_donation`'s; each case
edits one program, the rewrite the same way."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid
from autoopt.rules.examples import edited

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE

DIFFUSION = """
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import optax
from flax import nnx
from sklearn.model_selection import train_test_split


class UNet(nnx.Module):
    def __init__(self, width: int, *, rngs: nnx.Rngs):
        self.width = width
        self.time_mlp = nnx.Linear(in_features=8, out_features=width, rngs=rngs)
        self.down = self._block(width, rngs)
        self.up = self._block(width, rngs)

    def _block(self, channels: int, rngs: nnx.Rngs):
        conv = nnx.Linear(in_features=channels, out_features=channels, rngs=rngs)
        norm = nnx.LayerNorm(channels, rngs=rngs)

        def forward(x):
            return x + nnx.gelu(norm(conv(x)))

        return forward

    def _embed(self, t, dim: int):
        half = dim // 2
        freqs = jnp.exp(jnp.arange(half) * -0.5)
        angles = t[:, None] * freqs[None, :]
        return jnp.concatenate([jnp.sin(angles), jnp.cos(angles)], axis=1)

    def __call__(self, x, t):
        h = self.down(x) + self.time_mlp(self._embed(t, 8))
        return self.up(h)


def loss_fn(model, images, t, noise):
    predicted = model(images + noise, t)
    return jnp.mean((noise - predicted) ** 2)


@nnx.jit
def train_step(model, optimizer, images, t, noise):
    loss, grads = nnx.value_and_grad(loss_fn)(model, images, t, noise)
    optimizer.update(grads)
    return loss


images = jnp.linspace(0.0, 1.0, 64).reshape(16, 4)
images_train, images_test = train_test_split(images, test_size=0.25, random_state=0)
model = UNet(4, rngs=nnx.Rngs(0))
schedule = optax.join_schedules(
    schedules=[
        optax.linear_schedule(init_value=0.0, end_value=1e-3, transition_steps=10),
        optax.cosine_decay_schedule(init_value=1e-3, decay_steps=90, alpha=0.01),
    ],
    boundaries=[10],
)
optimizer = nnx.ModelAndOptimizer(
    model, optax.chain(optax.clip_by_global_norm(0.5), optax.adamw(learning_rate=schedule))
)
dummy = model(jnp.ones((1, 4)), jnp.zeros((1,), dtype=jnp.int32))
key = jax.random.PRNGKey(0)
losses = []
for epoch in range(20):
    key, k1, k2 = jax.random.split(key, 3)
    t = jax.random.randint(k1, (images_train.shape[0],), 0, 100)
    noise = jax.random.normal(k2, images_train.shape)
    loss = train_step(model, optimizer, images_train, t, noise)
    losses.append(loss)
plt.plot(losses)


def sample(model, x):
    def step(carry, i):
        return model(carry, jnp.full((carry.shape[0],), i)), None

    out, _ = jax.lax.scan(step, x, jnp.arange(3))
    return out


print(sample(model, images_test).sum())
"""
DIFFUSION_DONATED = "\nimport functools\n" + DIFFUSION.replace(
    "@nnx.jit\n", '@functools.partial(nnx.jit, donate_argnames=("model", "optimizer"))\n'
)


def _case(*pairs: tuple[str, str], fix: Applicability, message: str) -> Invalid:
    """`DIFFUSION` edited by `pairs`, and its rewrite (none where no fix is offered)."""
    expected = None if fix is _NONE else edited(DIFFUSION_DONATED, *pairs)
    return Invalid(edited(DIFFUSION, *pairs), expected, fix=fix, message=message)


_CALL = "        h = self.down(x) + self.time_mlp(self._embed(t, 8))\n"
_SCHEDULE = "optax.adamw(learning_rate=schedule)"

_SHARED = (
    "`optimizer` is built from `model` and passed in the same call: `nnx.jit` passes a "
    "module they share once, but not proven to share no array otherwise"
)
_JOINED = (
    "schedule = optax.join_schedules(\n    schedules=[",
    "parts = [",
)
_JOINED_END = (
    "    ],\n    boundaries=[10],\n)",
    "]\nschedule = optax.join_schedules(schedules=parts, boundaries=[10])",
)

INVALID: tuple[Invalid, ...] = (
    # safe: every premise proven, the eager call of the model included
    Invalid(DIFFUSION, DIFFUSION_DONATED),
    # unsafe: the model's `__call__`, run eagerly before training, keeps its kernel
    _case(
        ("import train_test_split\n", "import train_test_split\n\nSEEN = []\n"),
        (_CALL, "        SEEN.append(self.time_mlp.kernel.value)\n" + _CALL),
        fix=_UNSAFE,
        message="`model(jnp.ones((1, 4)), jnp.zeros((1,), dtype=jnp.int32))` at line 65 runs "
        "code that may keep `model`",
    ),
    # unsafe: a factory's closure given the model's own parameter value, a buffer it
    # holds outside its variables
    _case(
        (
            "        self.down = self._block(width, rngs)",
            "        self.gain = nnx.Param(jnp.ones(4))\n"
            "        self.down = self._block(width, rngs, self.gain.value)",
        ),
        ("rngs: nnx.Rngs):\n        conv", "rngs: nnx.Rngs, gain=1.0):\n        conv"),
        ("norm(conv(x)))\n", "norm(conv(x))) * gain\n"),
        fix=_UNSAFE,
        message="cannot prove the leaves of `model` are distinct buffers",
    ),
    # unsafe: the joined schedule keeps a list bound to a name (code may change it)
    _case(_JOINED, _JOINED_END, fix=_UNSAFE, message=_SHARED),
    # unsafe: a schedule holding an array
    _case(
        ("init_value=0.0, end_value", "init_value=jnp.asarray(0.0), end_value"),
        fix=_UNSAFE,
        message=_SHARED,
    ),
    # unsafe: a chain holding a user's transformation
    _case(
        (
            "optax.clip_by_global_norm(0.5)",
            "optax.GradientTransformation(lambda p: p, lambda u, s, p=None: (u, s))",
        ),
        fix=_UNSAFE,
        message=_SHARED,
    ),
    # unsafe: the step returns the loss's aux too (not proven one new array), and the list
    # holding it goes to code autoopt cannot see
    _case(
        ("predicted) ** 2)\n", "predicted) ** 2), predicted\n"),
        ("nnx.value_and_grad(loss_fn)(model", "nnx.value_and_grad(loss_fn, has_aux=True)(model"),
        fix=_UNSAFE,
        message=_SHARED,
    ),
    # unsafe: a split of a list, not of arrays
    _case(
        ("train_test_split(images, test_size", "train_test_split(list(images), test_size"),
        fix=_UNSAFE,
        message=_SHARED,
    ),
    # no fix: the sampler's closure reads the global `model`, whose buffers a donation
    # deletes
    _case(
        ("def sample(model, x):", "def sample(x):"),
        ("print(sample(model, images_test)", "print(sample(images_test)"),
        fix=_NONE,
        message="the function `step` reads `model`; donating it would delete a live buffer",
    ),
)
