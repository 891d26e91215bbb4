"""Bots that play Nanty Narking: random, heuristic, search and trained-policy adapters."""
