"""AO201 cases on methods jitted with a static `self`
(`functools.partial(jax.jit, static_argnums=0)`), called through the one instance of
their class (issue 26: dm-haiku's GAN example). `ao201_missing_donation` lists them
after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_UNSAFE = Applicability.UNSAFE

#: The GAN shape: the state comes from another jitted method of the same instance.
GAN = """
import functools

import jax
import jax.numpy as jnp


class GAN:
    def __init__(self, width):
        self.width = width

    @functools.partial(jax.jit, static_argnums=0)
    def initial_state(self, rng):
        return jax.random.normal(rng, (self.width,))

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, rng, state, batch):
        rng, sub = jax.random.split(rng)
        return rng, state * 0.9 + batch + jax.random.normal(sub, (self.width,))


gan = GAN(4)
rng, first = jax.random.split(jax.random.key(0))
state = gan.initial_state(first)
for step in range(3):
    rng, state = gan.update(rng, state, jnp.full((4,), float(step)))
print(state)
"""


def _donated(code: str) -> str:
    return code.replace(
        "static_argnums=0)\n    def update",
        'static_argnums=0, donate_argnames=("rng", "state"))\n    def update',
    )


#: A plain method returning the instance's own attribute gives the first state.
HELD = (
    GAN.replace(
        "    @functools.partial(jax.jit, static_argnums=0)\n    def initial_state(self, rng):\n"
        "        return jax.random.normal(rng, (self.width,))",
        "    def initial_state(self, rng):\n        return self.start",
    )
    .replace("self.width = width", "self.width = width\n        self.start = jnp.zeros(width)")
    .replace("print(state)", "print(state, gan.start)")
)
#: The caller's array stored on the instance between calls.
STORED = GAN.replace("for step in range(3):", "gan.anchor = state\nfor step in range(3):")
#: Another method calls the jitted one with arrays its caller keeps.
INSIDE = GAN.replace(
    "\n\ngan = GAN(4)",
    "\n\n    def fit(self, rng, state, batches):\n        for batch in batches:\n"
    "            rng, state = self.update(rng, state, batch)\n        return state\n\n\n"
    "gan = GAN(4)",
)

VALID = (
    Valid(
        GAN.replace("rng, state = gan.update(rng, state,", "key, new = gan.update(rng, state,"),
        "neither the key nor the state is replaced by the output (`key`, `new`)",
    ),
    Valid(
        GAN.replace("static_argnums=0)\n    def update", "static_argnames=())\n    def update"),
        "`self` is not static: jit traces the instance, not a method with a static `self`",
    ),
)

INVALID = (
    Invalid(GAN, _donated(GAN)),
    Invalid(
        HELD,
        _donated(HELD),
        fix=_UNSAFE,
        message="cannot prove the leaves of `state` are distinct buffers (`gan.initial_state(",
    ),
    # `rng` only, unsafe: the instance is used other than to call its methods
    Invalid(
        STORED,
        STORED.replace(
            "static_argnums=0)\n    def update",
            'static_argnums=0, donate_argnames=("rng",))\n    def update',
        ),
        fix=_UNSAFE,
        message="not donated: `gan` may hold the buffers of `state` and is passed in the same call",
    ),
    Invalid(
        INSIDE,
        _donated(INSIDE),
        fix=_UNSAFE,
        message="`GAN.fit` reads `self.update`",
    ),
)
