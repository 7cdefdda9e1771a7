"""The bottom layer: errors, the workspace and its storage, the note format, memory documents,
redaction and the write path. It imports nothing else of the package."""
