"""The nomoteams game: its data (``game.yaml``, ``rules_md/``, ``demo/``) and its own code (``mechanics/``)."""
