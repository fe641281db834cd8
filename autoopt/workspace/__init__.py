"""Files on disk: finding them, reading and writing them safely, running over many."""
