"""Shared pytest configuration: the real-server fixtures live in ``tests/fixtures/``."""

pytest_plugins = ["fixtures.dovecot", "fixtures.smtp", "fixtures.games", "fixtures.browser", "fixtures.demos",
                  "fixtures.payments"]
