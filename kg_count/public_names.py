"""The names of the public Python API (``kg_count.api``), listed once: the API's ``__all__`` and the ones the
package's top level offers lazily."""

PUBLIC_NAMES = (
    "Archive",
    "DocumentView",
    "IncidentView",
    "Question",
    "SystemAnswer",
    "build_archive",
    "open_archive",
    "parse_question",
    "read_questions",
)
