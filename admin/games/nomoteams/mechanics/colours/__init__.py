"""XIII.1-XIII.8: the colours. Thirteen colours exist (XIII.1): six Corporate, six Government and
White; every square is White until coloured (XIII.2, the board module's ``colour_of``). An owner
paints her square a Corporate Colour for $50 (XIII.3); Government Issue Paint comes in cans of a
Government Colour at $100, poured on the square one stands on (XIII.4), or carried by the GIPPer
to a square one owns for $50 more (XIII.5) or onto the Elephant for $1000 more, changing the
Elephant Skin Color (XIII.6). Nobody may give a square the colour of a block a player owns
(XIII.7), except the Elephant's and Sick players' involuntary colourings (XIII.8), which the Admin
carries out with a ruling. A Tefflon-coated square is never recoloured (XIII.9, the coatings
module's :func:`~admin.games.nomoteams.mechanics.coatings.coating_of`).

Every colouring goes through :func:`recolour`, the one place the protections are checked.

The section is three modules: :mod:`.state` (its commands, its state, the colours' names, the
cans a player holds), :mod:`.paint` (recolouring, the commands that paint, the Admin's colourings)
and :mod:`.mechanic` (the module)."""
