"""The library panel: its roots, its skills tree and filter, search, installs, and the operations
on skills (new, rename, delete)."""
