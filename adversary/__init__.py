"""littlestone's adversary side: the game, its referee, search strategies and the CLI."""
