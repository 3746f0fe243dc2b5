"""A passage as an event graph: parsed events, their relations and statuses, anchors and questions read."""
