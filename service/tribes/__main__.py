"""``python -m tribes`` and ``tribes-server``: run the server with settings from the
environment."""

import os

from tribes.settings import prepare_grpc


def run() -> None:
    prepare_grpc(os.environ)  # before gRPC is imported: its core reads its settings then
    from tribes.server import main

    main()


if __name__ == "__main__":
    run()
