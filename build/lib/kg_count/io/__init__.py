"""Readers and writers for the task's formats: CoNLL documents, questions, answers."""
