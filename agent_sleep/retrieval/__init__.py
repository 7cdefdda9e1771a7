"""The recall pipeline: recall units -> index (BM25 + vectors) -> fusion -> packing -> context."""
