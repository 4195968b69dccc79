"""stratagem: optimal lines and proofs for five tabletop games."""

__version__ = "0.1.0"
