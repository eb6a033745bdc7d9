"""The Settings dialog."""
