"""Speed figures of the product, engine to dashboard: run by `make bench` and `kingdoms bench`,
kept out of the installed packages."""
