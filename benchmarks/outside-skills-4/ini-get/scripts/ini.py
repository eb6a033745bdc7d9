#!/usr/bin/env python3
import configparser
import sys

if not 3 <= len(sys.argv) <= 4:
    sys.exit("usage: ini.py FILE SECTION [KEY]")
path, section = sys.argv[1], sys.argv[2]
key = sys.argv[3] if len(sys.argv) == 4 else None
config = configparser.ConfigParser(interpolation=configparser.ExtendedInterpolation())
try:
    with open(path, encoding="utf-8") as handle:
        config.read_file(handle)
except OSError as exc:
    sys.exit(f"ini.py: cannot read {path}: {exc.strerror}")
except configparser.Error as exc:
    sys.exit(f"ini.py: {path} is not a valid INI file: {exc}")
if not config.has_section(section):
    sys.exit(f"ini.py: no section [{section}] in {path}; sections: {', '.join(config.sections())}")
if key is None:
    for name, value in config.items(section):
        print(f"{name} = {value}")
elif not config.has_option(section, key):
    keys = ", ".join(config.options(section))
    sys.exit(f"ini.py: no key {key!r} in [{section}]; keys: {keys}")
else:
    print(f"[{section}] {key} = {config.get(section, key)}")
