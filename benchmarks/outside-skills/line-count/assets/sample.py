# a sample
import os


def f():
    # inner
    return os.sep
