"""The chat pane: trying skills with a local model, each tool run approved in the window."""
