"""Server reflection under both names clients ask for: ``grpc.reflection.v1`` and
``v1alpha`` (grpcurl and grpcui try v1 first).

grpcio-reflection implements v1alpha; the v1 protocol is the same messages under a new
package (field for field, so the same bytes), so the library's servicer answers both.
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer

V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"


def enable(service_names: Sequence[str], server: grpc.aio.Server) -> None:
    names = (*service_names, reflection.SERVICE_NAME, V1_SERVICE_NAME)
    servicer = ReflectionServicer(names)
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        tuple(
            grpc.method_handlers_generic_handler(name, {"ServerReflectionInfo": handler})
            for name in (reflection.SERVICE_NAME, V1_SERVICE_NAME)
        )
    )
