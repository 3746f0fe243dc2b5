"""Each dataset's questions answered and scored (TORQUE, ESTER), and the `kg-count qa` commands."""
