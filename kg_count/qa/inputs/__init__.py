"""Reading the datasets' released files: TORQUE and ESTER questions, TimeML documents with MATRES relations."""
