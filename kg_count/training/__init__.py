"""Training the learned models from labelled data: orchestration above answering and scoring."""
