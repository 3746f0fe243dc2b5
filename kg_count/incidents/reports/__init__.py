"""What each document says, comparable: its report, the evidence two reports share, word rarity, title vectors."""
