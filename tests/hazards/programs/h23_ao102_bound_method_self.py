"""Berendsen-like thermostat as an object: the loop jits the bound method
`thermostat.force` each step and raises the target temperature between steps. Trap
for AO102: a new `jax.jit(bound method)` traces with the current `self`; one built
before the loop keeps the first trace and its frozen `self.target`."""

import jax
import jax.numpy as jnp


class Thermostat:
    def __init__(self, target, coupling):
        self.target = target
        self.coupling = coupling

    def force(self, v):
        temperature = jnp.mean(v**2)
        return self.coupling * (jnp.sqrt(self.target / temperature) - 1.0) * v

    def heat(self, amount):
        self.target = self.target + amount


def main():
    thermostat = Thermostat(target=1.0, coupling=0.5)
    v = jnp.linspace(-2.0, 2.0, 16)
    temps = []
    for _ in range(12):
        v = v + 0.1 * jax.jit(thermostat.force)(v)
        thermostat.heat(0.1)  # slow heating
        temps.append(jnp.mean(v**2))
    return jnp.stack(temps)
