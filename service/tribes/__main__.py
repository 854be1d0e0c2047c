"""``python -m tribes``: run the server with settings from the environment."""

from tribes.server import main

if __name__ == "__main__":
    main()
