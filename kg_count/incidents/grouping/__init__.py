"""Pairs to incidents: clustering, reconciliation, and each incident's confidence and people's status."""
