"""Qt item models: thin adapters over the skill core's objects."""
