"""The Interchange family: Triple Interchange (seed), Interchange, Unlimited, Single and Quadruple Interchange."""

from . import profile, rules  # noqa: F401 - importing them registers the games and their profile
