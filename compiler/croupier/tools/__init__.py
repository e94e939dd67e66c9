"""Tools that run engines: analysis reports, simulation, replay, explanations."""
