"""The library of mechanics that two or more games use: money, the board, turns, ownership, cards,
health, players, interactions, trading, payment, the schedule. A game lists the ones it enables in
its ``game.yaml``; :mod:`admin.games.registry` holds every mechanic by name."""
