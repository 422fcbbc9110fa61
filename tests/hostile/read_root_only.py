"""Attacks the file system: reads files outside its folder that only their owners may read
(mode 0600): one of root's and one of another uid's."""

SECRETS = ("__SECRET__", "__OTHER_SECRET__")


def f(x):
    for secret in SECRETS:
        with open(secret) as handle:
            handle.read()
    return x + 1
