"""``python -m admin`` is the same as the ``nomopoly`` command."""

from admin.cli import main

if __name__ == "__main__":
    main()
