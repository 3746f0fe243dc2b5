"""Incidents: cross-document coreference of the documents' reported events (pair features, the learned
coreference model, clustering), reconciled incidents written as the incident graph, and the models
read when answering (incident match with its answer prior, person status)."""
