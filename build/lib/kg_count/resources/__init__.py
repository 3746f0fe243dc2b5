"""Data the project ships or provisions: WordNet 3.0 and its lexicographer file names."""
