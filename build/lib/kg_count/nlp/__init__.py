"""The NLP pipeline: annotation, event mentions, time, places, participants and counts."""
