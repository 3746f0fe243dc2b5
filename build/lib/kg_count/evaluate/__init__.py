"""Scorers: the task's incident- and document-level measures, and mention-level coreference."""
