"""The learned parts of reading: the scorer set, the ESTER answer ranker, TORQUE thresholds, and their training."""
