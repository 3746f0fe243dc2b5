"""The incident graph in the store, its versions, and the grouping's saved files."""
