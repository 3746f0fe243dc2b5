"""kg_count: event-centric knowledge graphs from news, and counting questions answered over them."""

__version__ = "0.1.0"
