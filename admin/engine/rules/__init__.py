"""Rule modules: one per mechanic, each naming the rule ids it implements."""
