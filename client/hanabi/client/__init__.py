"""Terminal client for the Hanabi REST game service (work in progress)."""
