"""The Problems panel: the findings of the open skill or the library (a Qt-free index, a thin Qt
model over it), fixes one at a time or of many skills at once."""
