"""Each scenario's host side (run=NAME): its tables, plots and compare rows."""
