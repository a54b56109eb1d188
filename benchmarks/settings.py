"""Production settings with the floor views routed (benchmarks/floor.py): the benchmark's
server only."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.floor"
