"""The sleep pipeline: gather -> provider -> validate -> plan -> apply -> journal; and flush."""
