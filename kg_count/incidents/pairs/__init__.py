"""Which pairs of reports are compared, their features, bounds and probabilities, and the saved pair state."""
