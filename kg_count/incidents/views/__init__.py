"""Incidents as a reader sees them: listings and explanations."""
