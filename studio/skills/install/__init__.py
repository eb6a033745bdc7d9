"""Skills coming in and going out: installing from a URL, git or a folder (with the skills CLI's
lock file and placement), new skills from the template, and packing skills for where they go."""
