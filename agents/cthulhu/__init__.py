"""The bots' tables for *The Rise of Cthulhu*: what its evaluation
(:mod:`agents.cthulhu.evaluation`) and its role features (:mod:`agents.cthulhu.roles`) change
in the base game's skeletons (:mod:`agents.evaluation`, :mod:`agents.roles`)."""
