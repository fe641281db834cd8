"""A class attribute holds the empty board (`Board.EMPTY`); each game starts from it and
places stones with `.at[].set`.
"""

import jax.numpy as jnp


class Board:
    EMPTY = jnp.zeros((9,), dtype=jnp.int32)

    @staticmethod
    def play(moves):
        board = Board.EMPTY
        for turn, m in enumerate(moves):
            board = board.at[m].set(1 if turn % 2 == 0 else -1)
        return board


def main():
    g1 = Board.play([4, 0, 8])
    g2 = Board.play([0, 1, 2, 3])
    return g1, g2, Board.EMPTY
