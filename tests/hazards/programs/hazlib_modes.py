import jax


def switch_to_double():
    jax.config.update("jax_enable_x64", True)
