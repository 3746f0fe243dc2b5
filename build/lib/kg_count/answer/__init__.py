"""Answering the task's questions: the reference baseline (and, later, SPARQL over the incident graph)."""
