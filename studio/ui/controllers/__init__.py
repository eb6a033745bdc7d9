"""The window's controllers, one job each: editor tabs, autosaves, the library's roots, the
operations on skills, and the problems list. Each is given only what it needs; the main window
builds them and wires their signals, and none of them knows the window."""
