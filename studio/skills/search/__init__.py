"""Finding skills: the full-text and semantic index, and the catalog an agent's prompt carries."""
