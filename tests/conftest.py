"""Puts tests/ on sys.path, so the shared fakes (``agent_fakes``) import from every test directory."""
