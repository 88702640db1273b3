"""Everything that touches SQLite or memory files."""
