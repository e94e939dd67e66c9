"""The driver: turns a spec into whatever a command needs, through the stages in order."""
