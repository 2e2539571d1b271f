"""`rulesdsl build`: outputs written once, in a transaction under a lock, stamped in a manifest."""
