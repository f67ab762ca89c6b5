"""The buildings section: its mechanic in ``mechanic.py`` and its parts beside it."""
