"""Exact analysis of a dealt round: the weights of ordered deals, and a round built from cards for the engine's rules."""


def falling(n, k):
    """n (n-1) … (n-k+1): ordered ways to deal k cards from n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def hand_round(engine, codes_by_hand):
    """An engine's Round holding the given cards (for the engine's rule functions)."""
    r = engine.Round()
    for hand, codes in zip(engine.HANDS, codes_by_hand):
        setattr(r, hand, list(codes))
    return r
