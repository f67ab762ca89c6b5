"""The game folder on disk: its settings and paths, the YAML and JSON state files, the atomic
journal, the parsed-state cache, dataclasses to plain data and back, and migrations."""
