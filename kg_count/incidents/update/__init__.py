"""Bringing a store's incidents up to date: a whole grouping, or an incremental regrouping."""
