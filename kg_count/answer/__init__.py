"""Answering the task's questions: the graph system (SPARQL over the incident graph, the answer prior),
the organisers' reference baseline, event coreference chains, and the batch job that runs either."""
