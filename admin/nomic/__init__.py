"""The Nomic half: proposals, votes, tallies and the ruleset with its history."""
