"""Shared test settings: hypothesis runs derandomized, so a CI run is repeatable."""

from hypothesis import HealthCheck, settings

settings.register_profile("solwidget", derandomize=True, deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("solwidget")
