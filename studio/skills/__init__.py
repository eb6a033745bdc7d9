"""The skill core: model, parsing, validation, fixes, library and catalog. No Qt here."""
