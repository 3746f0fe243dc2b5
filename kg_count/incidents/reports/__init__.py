"""What each document says, comparable: its report, the comparison of two reports, word rarity, title vectors."""
