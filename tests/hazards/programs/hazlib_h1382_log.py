"""A logger another module of the project defines (h1382): it keeps the list it is given
and prints its length and sum on every tick."""


class Log:
    def __init__(self):
        self.kept = []

    def keep(self, values):
        self.kept = values

    def tick(self):
        print(len(self.kept), round(sum(self.kept), 6))
