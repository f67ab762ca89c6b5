"""Helpers for tests and benchmarks (real servers on loopback); not used by the game itself."""
