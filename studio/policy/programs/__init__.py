"""What each program does with its arguments, judged rule by rule: readers, writers, wrappers,
runners, the network, repositories, destruction, skill folders, and the allowlist's last word."""
