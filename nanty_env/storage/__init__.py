"""What is kept on disk: game records and the files they are written to.

- ``records``: one versioned JSON file per game, replayed and checked;
- ``recording``: a PettingZoo wrapper that records every game an AEC env plays;
- ``files``: atomic writes and size-capped reads, for every file the project writes or reads.
"""
