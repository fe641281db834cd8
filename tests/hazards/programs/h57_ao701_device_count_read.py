"""Data-parallel sketch: the script asks for 4 host devices through XLA_FLAGS, but only
after `import jax` and after reading the device count, which starts the backend with
one device. The program's results are shaped by the count it read. Trap for AO701:
moving the setting above `import jax` makes the count 4 and changes every shape."""

import os

import jax
import jax.numpy as jnp

N_DEVICES = jax.local_device_count()
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"


def main():
    data = jnp.arange(16.0).reshape(N_DEVICES, -1)
    per_device = jax.pmap(lambda shard: jnp.sum(shard**2))(data)
    return per_device, N_DEVICES, jax.local_device_count()
