"""A library of skills: roots walked for skills, scanned (in a child process, with a cache),
kept in a Qt-free `Library` that tells listeners what changed; archives and zipped skills; the
fixes applied to skills on disk."""
