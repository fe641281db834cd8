"""Monte Carlo prices and vegas of European calls over a grid of (volatility, strike) pairs.

Common random numbers: every contract is priced with the same standard-normal draws.
"""

import jax
import jax.numpy as jnp

S0, RATE, MATURITY = 100.0, 0.03, 1.0
N_PATHS = 20_000


def call_price(sigma, strike, z):
    drift = (RATE - 0.5 * sigma**2) * MATURITY
    s_t = S0 * jnp.exp(drift + sigma * jnp.sqrt(MATURITY) * z)
    payoff = jnp.maximum(s_t - strike, 0.0)
    return jnp.exp(-RATE * MATURITY) * payoff.mean()


def price_and_vega(contract, z):
    sigma, strike = contract[0], contract[1]
    price, vega = jax.value_and_grad(call_price)(sigma, strike, z)
    return jnp.stack([price, vega])


def main():
    key = jax.random.PRNGKey(0)
    z = jax.random.normal(key, (N_PATHS,))
    sigmas = jnp.linspace(0.1, 0.5, 6)
    strikes = jnp.linspace(80.0, 120.0, 9)
    contracts = jnp.stack(jnp.meshgrid(sigmas, strikes, indexing="ij"), -1).reshape(-1, 2)

    results = []
    for i in range(contracts.shape[0]):
        results.append(price_and_vega(contracts[i], z))
    table = jnp.stack(results)  # (n_contracts, 2)

    return {
        "contracts": contracts,
        "price": table[:, 0].reshape(6, 9),
        "vega": table[:, 1].reshape(6, 9),
    }


if __name__ == "__main__":
    print(main())
