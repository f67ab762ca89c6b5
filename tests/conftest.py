"""Shared pytest configuration: the real-server fixtures live in ``tests/fixtures/``."""

pytest_plugins = ["fixtures.dovecot", "fixtures.smtp", "fixtures.games", "fixtures.browser",
                  # stand-ins for sections not merged yet (no-ops once they are)
                  "fixtures.n2_stand_ins"]
