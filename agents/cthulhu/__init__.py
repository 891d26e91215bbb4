"""The bots' side of *The Rise of Cthulhu* expansion: an objective-aware evaluation
(:mod:`agents.cthulhu.evaluation`) and the public features that role inference reads to guess
the other players' secret objectives (:mod:`agents.cthulhu.roles`)."""
