"""What the Admin's commands do, one module a job: update, run, fetch, publish, replay and verify,
rulings, the roster, init, demo, todo, deadlines, rules coverage, scenarios, the settings check."""
