"""skills package."""
