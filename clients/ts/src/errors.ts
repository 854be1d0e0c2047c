/**
 * The SDK's one error type, {@link TribesError}, and how an HTTP answer becomes one.
 *
 * The service answers every failure with the HTTP status of its gRPC code and a
 * `google.rpc.Status` JSON body: `{code, message, details: [{"@type":
 * "type.googleapis.com/google.rpc.ErrorInfo", reason, domain, metadata}]}`. A frontend
 * switches on `reason` (e.g. `ILLEGAL_MOVE`, `STALE_VERSION`); `metadata` carries facts
 * such as `current_version`. Failures that never reached the service (a dropped
 * connection, a proxy's HTML error page, a timeout) become the same type, with the code
 * the HTTP status implies and one of the SDK's own reasons below, so callers have one
 * thing to catch.
 */

import { anyUnpack } from "@bufbuild/protobuf/wkt";

import { ErrorInfoSchema, type ErrorInfo } from "./gen/google/rpc/error_details_pb.js";
import type { Status } from "./gen/google/rpc/status_pb.js";

/** The canonical status codes (google/rpc/code.proto), as the service sends them. */
export const Code = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type CodeName = keyof typeof Code;
export type CodeNumber = (typeof Code)[CodeName];

const NAMES = new Map<number, CodeName>(
  Object.entries(Code).map(([name, value]) => [value, name as CodeName]),
);

/** The name of a numeric status code (`"UNKNOWN"` for a number outside the table). */
export function codeName(code: number): CodeName {
  return NAMES.get(code) ?? "UNKNOWN";
}

/** Reasons the SDK itself gives, for failures that carry no ErrorInfo of the service. */
export const ClientReason = {
  /** fetch failed: the server was not reached or the connection dropped. */
  NETWORK_ERROR: "NETWORK_ERROR",
  /** The call took longer than the client's `timeoutMs`. */
  TIMEOUT: "TIMEOUT",
  /** An error answer whose body is not a google.rpc.Status (e.g. a proxy's page). */
  HTTP_ERROR: "HTTP_ERROR",
  /** A 2xx answer whose body does not parse as the expected message. */
  BAD_RESPONSE: "BAD_RESPONSE",
  /** A watch stream or play session failed and could not be resumed. */
  STREAM_FAILED: "STREAM_FAILED",
  /** A play session was closed (by `close()`, its signal or leaving its loop) while the
   * move was unanswered: it may or may not have been played; retry with its requestId. */
  SESSION_CLOSED: "SESSION_CLOSED",
} as const;

const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";

export interface TribesErrorInit {
  httpStatus: number;
  code: number;
  reason: string;
  message: string;
  metadata?: Record<string, string>;
  domain?: string;
  requestId?: string;
  cause?: unknown;
}

/** A failed call: HTTP status, gRPC code, the service's reason, message and metadata. */
export class TribesError extends Error {
  override readonly name = "TribesError";
  /** The HTTP status of the answer; 0 when there was no answer. */
  readonly httpStatus: number;
  /** The gRPC status code (see {@link Code}). */
  readonly code: number;
  /** The ErrorInfo reason a client can switch on, e.g. `"ILLEGAL_MOVE"`. */
  readonly reason: string;
  /** The ErrorInfo metadata, e.g. `{current_version: "7"}` for `STALE_VERSION`. */
  readonly metadata: Readonly<Record<string, string>>;
  /** The ErrorInfo domain (`"tribes.v1"` for the service's own errors). */
  readonly domain: string;
  /** The idempotency key of the failed mutating call, to retry it by hand. */
  readonly requestId: string | undefined;

  constructor(init: TribesErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.httpStatus = init.httpStatus;
    this.code = init.code;
    this.reason = init.reason;
    this.metadata = Object.freeze({ ...(init.metadata ?? {}) });
    this.domain = init.domain ?? "";
    this.requestId = init.requestId;
  }

  /** The code's name, e.g. `"FAILED_PRECONDITION"`. */
  get codeName(): CodeName {
    return codeName(this.code);
  }

  override toString(): string {
    return `TribesError: ${this.codeName} ${this.reason}: ${this.message}`;
  }
}

/** google/rpc/code.proto's HTTP mapping, read backwards, for bodies without a Status. */
export function codeOfHttpStatus(status: number): number {
  switch (status) {
    case 400:
      return Code.INVALID_ARGUMENT;
    case 401:
      return Code.UNAUTHENTICATED;
    case 403:
      return Code.PERMISSION_DENIED;
    case 404:
      return Code.NOT_FOUND;
    case 409:
      return Code.ABORTED;
    case 429:
      return Code.RESOURCE_EXHAUSTED;
    case 499:
      return Code.CANCELLED;
    case 501:
      return Code.UNIMPLEMENTED;
    case 502:
    case 503:
      return Code.UNAVAILABLE;
    case 504:
      return Code.DEADLINE_EXCEEDED;
    default:
      return status >= 500 ? Code.INTERNAL : Code.UNKNOWN;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === "string") out[key] = item;
    }
  }
  return out;
}

/**
 * The error of a google.rpc.Status message (a binary play session's `rejected` or `error`
 * event): its ErrorInfo is unpacked from the details.
 */
export function errorOfStatusMessage(
  status: Status,
  httpStatus: number,
  requestId?: string,
): TribesError {
  let info: ErrorInfo | undefined;
  for (const detail of status.details) {
    if (detail.typeUrl === ERROR_INFO) {
      info = anyUnpack(detail, ErrorInfoSchema);
      if (info !== undefined) break;
    }
  }
  return new TribesError({
    httpStatus,
    code: status.code,
    reason: info?.reason ?? "",
    message: status.message,
    metadata: { ...(info?.metadata ?? {}) },
    domain: info?.domain ?? "",
    requestId,
  });
}

/**
 * The error of a google.rpc.Status JSON value, or undefined when `value` is not one.
 * Used for error answers and for the `error` event of a watch stream.
 */
export function errorOfStatus(
  value: unknown,
  httpStatus: number,
  requestId?: string,
): TribesError | undefined {
  if (!isObject(value) || typeof value["code"] !== "number") return undefined;
  let reason = "";
  let domain = "";
  let metadata: Record<string, string> = {};
  const details = Array.isArray(value["details"]) ? value["details"] : [];
  for (const detail of details) {
    if (isObject(detail) && detail["@type"] === ERROR_INFO) {
      reason = typeof detail["reason"] === "string" ? detail["reason"] : "";
      domain = typeof detail["domain"] === "string" ? detail["domain"] : "";
      metadata = stringMap(detail["metadata"]);
      break;
    }
  }
  const message = typeof value["message"] === "string" ? value["message"] : "";
  return new TribesError({
    httpStatus,
    code: value["code"],
    reason,
    message,
    metadata,
    domain,
    requestId,
  });
}

/** The error of a non-2xx answer, whatever its body. */
export function errorOfResponse(
  httpStatus: number,
  statusText: string,
  body: string,
  requestId?: string,
): TribesError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const known = errorOfStatus(parsed, httpStatus, requestId);
  if (known !== undefined) return known;
  return new TribesError({
    httpStatus,
    code: codeOfHttpStatus(httpStatus),
    reason: ClientReason.HTTP_ERROR,
    message: `HTTP ${httpStatus}${statusText ? ` ${statusText}` : ""}`,
    requestId,
  });
}
