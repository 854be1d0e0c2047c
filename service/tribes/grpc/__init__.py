"""The gRPC door: the servicer over the core, the interceptor, reflection."""
