"""``python -m admin`` is the same as the ``nomopoly`` command."""

from admin.cli.main import main

if __name__ == "__main__":
    main()
