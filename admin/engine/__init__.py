"""The pure, deterministic engine: ``run_update(state, submissions, rulings, dice)``."""
