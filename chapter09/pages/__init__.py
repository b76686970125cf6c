"""One module per widget page: the numbers it glues, its claims and its controls."""
