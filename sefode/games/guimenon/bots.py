"""Bots for Guimenon (filled in later)."""
