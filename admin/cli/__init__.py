"""The command line: thin commands that parse options, call one job and map errors to exit codes.
``nomopoly`` is :func:`admin.cli.main.main`."""
