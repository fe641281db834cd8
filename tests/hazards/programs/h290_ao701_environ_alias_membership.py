"""Start-up check that records whether the user configured the allocator, through an
alias of the environment (`from os import environ as ENV`) and a membership test (no
call); the program then sets the allocator fraction."""

import os
from os import environ as ENV

import jax.numpy as jnp

USER_SET = "XLA_PYTHON_CLIENT_MEM_FRACTION" in ENV
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".6"


def main():
    return jnp.ones(2), USER_SET
