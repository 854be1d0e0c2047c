/**
 * Protobuf's canonical JSON mapping, both ways, by protobuf-es and the generated schemas.
 *
 * The service prints JSON with `google.protobuf.json_format` (lowerCamelCase names,
 * 64-bit integers as strings, enums by name, defaults included). Parsing it with
 * protobuf-es `fromJson` gives typed messages with `bigint` for 64-bit fields and enum
 * numbers, exactly what a binary client would see. Two choices make a client last:
 *
 * - unknown fields and enum names are ignored, so a newer server that adds a field does
 *   not break an older client;
 * - a `google.protobuf.Any` (the `plugin` arm of `Move`/`View`: a plugin game's own
 *   message) whose type is not in the client's registry still parses: it becomes an Any
 *   with its `typeUrl` and an empty `value`, so a generic client can play a plugin game by
 *   move id without knowing its messages. Give the plugin's schemas in the `registry`
 *   option to get their contents (and to send typed plugin moves).
 */

import {
  create,
  createFileRegistry,
  createRegistry,
  fromJson,
  toJson,
  type DescMessage,
  type JsonValue,
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";

/** Every object with an `@type` key in `value` (in protobuf JSON only an Any has one). */
function typeUrls(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) typeUrls(item, out);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "@type" && typeof item === "string") out.add(item);
      else typeUrls(item, out);
    }
  }
  return out;
}

function typeNameOf(typeUrl: string): string {
  const slash = typeUrl.lastIndexOf("/");
  return slash >= 0 ? typeUrl.slice(slash + 1) : typeUrl;
}

/** A message type of that name with no fields: what an Any of an unknown type parses as. */
function placeholder(typeName: string): DescMessage | undefined {
  const dot = typeName.lastIndexOf(".");
  const name = typeName.slice(dot + 1);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
  const file = create(FileDescriptorProtoSchema, {
    name: `tribes-sdk/unregistered/${typeName}.proto`,
    package: dot >= 0 ? typeName.slice(0, dot) : "",
    syntax: "proto3",
    messageType: [{ name }],
  });
  try {
    return createFileRegistry(file, () => undefined).getMessage(typeName);
  } catch {
    return undefined;
  }
}

/** Reads and writes the API's JSON with the caller's registry of plugin message types. */
export class JsonCodec {
  readonly registry: Registry;
  private readonly placeholders = new Map<string, DescMessage | undefined>();

  constructor(registry?: Registry) {
    // The API's own messages never travel inside an Any: only plugin games' need a registry.
    this.registry = registry ?? createRegistry();
  }

  /** The registry for one value: the client's, plus placeholders for unknown Any types. */
  private registryFor(json: unknown): Registry {
    const missing: DescMessage[] = [];
    for (const url of typeUrls(json, new Set())) {
      const typeName = typeNameOf(url);
      if (typeName.startsWith("google.protobuf.") || this.registry.getMessage(typeName)) continue;
      if (!this.placeholders.has(typeName)) this.placeholders.set(typeName, placeholder(typeName));
      const desc = this.placeholders.get(typeName);
      if (desc) missing.push(desc);
    }
    return missing.length ? createRegistry(this.registry, ...missing) : this.registry;
  }

  /** A typed message from a parsed JSON value (throws when it does not fit the schema). */
  parse<Desc extends DescMessage>(schema: Desc, json: JsonValue): MessageShape<Desc> {
    return fromJson(schema, json, {
      ignoreUnknownFields: true,
      registry: this.registryFor(json),
    });
  }

  /** A message as JSON, in the form the service reads (defaults left out). */
  write<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): JsonValue {
    return toJson(schema, message, { registry: this.withPlaceholders() });
  }

  /** The client's registry and every placeholder made so far (to echo such an Any back). */
  private withPlaceholders(): Registry {
    const made = [...this.placeholders.values()].filter((d): d is DescMessage => d !== undefined);
    return made.length ? createRegistry(this.registry, ...made) : this.registry;
  }
}
