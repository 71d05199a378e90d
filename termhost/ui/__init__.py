"""The interactive side: one prompt_toolkit Application per attached client."""
