"""A SKILL.md's frontmatter as YAML: loading it (libyaml, or the plain reader for the common
shapes), editing one field while keeping every other byte, and offsets to lines and columns."""
