"""The arena: tournaments between bots, their statistics, ratings, paired comparisons and plots,
and the accuracy of hidden-role inference measured over many seeded games."""
