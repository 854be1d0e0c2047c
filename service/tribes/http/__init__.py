"""The HTTP door: REST/JSON from the annotations, SSE, CORS, OpenAPI, health."""
