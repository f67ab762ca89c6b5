"""Shared pytest configuration: the real-server fixtures live in ``tests/fixtures/``."""

pytest_plugins = ["fixtures.dovecot", "fixtures.smtp", "fixtures.games", "fixtures.browser", "fixtures.demos",
                  "fixtures.payments"]

#: the files whose tests take a minute or more each (a process killed at every crash point, axe on every
#: page of every demo): started first, so that with two workers the rest of the suite runs beside them
#: instead of one worker finishing them alone at the end (measured: the last 2 % of the run took ~5 min)
LONG_FIRST = ("test_crash.py", "test_site_phone.py", "test_reliability.py", "test_site_browser.py",
              "test_statecache.py", "test_admin_safety.py")


def pytest_collection_modifyitems(items):
    """Run the long files first, each file's tests still together and in order."""
    items.sort(key=lambda item: item.nodeid.split("::")[0].rsplit("/", 1)[-1] not in LONG_FIRST)
