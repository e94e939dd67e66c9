"""Back end: the conformance tests compiled from the reference cases."""
