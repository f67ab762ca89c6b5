"""Processes and the machine: forked children, the garbage collector's pauses, crash points for the
crash tests, and a throwaway Dovecot for tests and benchmarks."""
