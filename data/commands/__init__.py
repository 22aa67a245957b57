"""The data layer's subcommands of `kingdoms`. Each module offers NAME, HELP, add_arguments, run."""
