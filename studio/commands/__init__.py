"""One module per `studio` subcommand; each exposes `register(subparsers)`."""
