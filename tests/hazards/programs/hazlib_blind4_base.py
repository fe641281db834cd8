"""Base trainer of the blind4 hazards (h1245): a hook that keeps the parameters."""


class BaseTrainer:
    every = 2

    def after_step(self, step):
        if step % self.every == 0:
            self.snapshots.append(self.state["w"])
