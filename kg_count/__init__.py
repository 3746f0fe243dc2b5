"""kg_count: event-centric knowledge graphs from news, and counting questions answered over them.

The public API (``kg_count.api``) is importable from here: ``kg_count.open_archive``, ``kg_count.build_archive``,
``kg_count.Archive``, ``kg_count.Question`` ... (see ``__all__``); it is loaded on first use, so that
``import kg_count`` stays light.
"""

__version__ = "0.1.0"

__all__ = [  # the public API's names (kg_count.api), listed here only
    "Archive",
    "DocumentView",
    "IncidentGrouping",
    "IncidentView",
    "Question",
    "SystemAnswer",
    "archive_for",
    "build_archive",
    "open_archive",
    "parse_question",
    "read_questions",
    "__version__",
]


def __getattr__(name: str):
    """The public API's names, imported from ``kg_count.api`` when first asked for."""
    if name in __all__ and name != "__version__":
        from kg_count import api

        return getattr(api, name)
    raise AttributeError(f"module 'kg_count' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
