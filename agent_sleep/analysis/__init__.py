"""Text analysis without a model: tokens and stopwords, temporal anchors, what a note says that
is worth keeping, the write gate and salience scoring. Imports only ``core``."""
