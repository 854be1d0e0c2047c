"""The application core, transport-free: every door (gRPC, HTTP) calls it.

``games`` (decode -> load -> play -> save -> snapshot -> notify), ``limits`` (every input
bound), ``status`` (THE error table), ``tokens`` (seat and page tokens), ``quotas``,
``cache``, ``records``, ``catalog``, ``snapshots``.
"""
