"""The click application: parse arguments, call models and solvers, render the results."""
