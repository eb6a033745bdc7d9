"""What makes a skill valid or worth a warning: the rules (spec, body, evals, threats), the
clients and the fields each reads, names, and the eval files' format the rules check."""
