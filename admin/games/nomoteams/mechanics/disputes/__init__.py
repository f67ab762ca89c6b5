"""XXVII: disputes. A player (the Accuser) accuses another (the Defendant) with a charge, its
facts and a recognised Penalty (``ACCUSE``); the accusation is posted. During the following week
each may choose a way to settle it (``DISPUTE n COURT|TRIAL``), argue for a Government Court and
allot Extra Dice for a Corporate Trial. At the end of that week it is settled: by what both
chose, else by Court when exactly one of them stands on a Corporate Colour, else by Trial.

A Government Court (XXVII.2) costs each party $150 to The Government and goes to the Admin
(``ruling decide dispute dispute=N winner=NAME``); a Corporate Trial (XXVII.3) is two dice each
plus Extra Dice at $50, ties tried again. The loser suffers the Penalty: a payment (XXVII.4;
refused or unaffordable, Chains instead: 10 lb x the ceiling of its binary logarithm), at most
100 lb of Chains (XXVII.5), or the loss of Registered Voter status (XXVII.6).

The section is three modules: :mod:`.state` (its commands, a dispute, its state, the words of a
Penalty), :mod:`.mechanic` (the module: accusing, the parties' choices) and :mod:`.settle` (at the
end of the week: the Court's fees, the Trial, the Penalty)."""
