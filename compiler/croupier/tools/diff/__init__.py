"""`croupier diff`: what changed between two versions of a spec, in rules, rounds, money and reference cases."""
