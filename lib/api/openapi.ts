import { z } from "zod";
import { operations, type Operation } from "./operations";

/**
 * The OpenAPI 3.1 document, generated from the operations' declarations
 * (lib/api/operations.ts) and the zod schemas they name: the same ones that
 * validate requests and check responses. Internal operations are left out.
 */
const ErrorBody = z.object({ errors: z.array(z.string()) }).meta({ id: "Error" });
const ERROR_TEXT: Record<number, string> = {
  400: "Business rule violated",
  401: "Missing or invalid API key",
  403: "Not allowed",
  404: "Unknown id (or another user's object)",
  409: "Conflicts with the object's state",
  413: "Too large",
  415: "Unsupported content type",
  422: "Schema validation failed, or content (a file) that cannot be used",
  503: "Unavailable",
};

/** Named schemas (zod `.meta({ id })`) are hoisted into components and referenced. */
function schemaCollector() {
  const components: Record<string, unknown> = {};
  const schemaOf = (schema: z.ZodType, io: "input" | "output") => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
    const defs = (json.$defs ?? {}) as Record<string, unknown>;
    delete json.$defs;
    delete json.$schema;
    const rewrite = (value: unknown) =>
      JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
    for (const [name, def] of Object.entries(defs)) components[name] ??= rewrite(def);
    return rewrite(json);
  };
  return { components, schemaOf };
}

export function openApiDocument(serverUrl: string) {
  const { components, schemaOf } = schemaCollector();
  const paths: Record<string, Record<string, unknown>> = {};
  const operation = ([id, op]: [string, Operation]) => {
    const body = op.response && (op.paged ? z.array(op.response) : op.response);
    const responses: Record<string, unknown> = {
      [op.status]: body
        ? { description: "Success", content: { "application/json": { schema: schemaOf(body, "output") } } }
        : { description: op.raw ? `Success (${op.raw})` : "No content" },
    };
    for (const code of [...(op.auth === "none" ? [] : [401]), ...(op.errors ?? [])]) {
      responses[code] = { description: ERROR_TEXT[code], content: { "application/json": { schema: schemaOf(ErrorBody, "output") } } };
    }
    const querySchema = op.query ? (schemaOf(op.query, "input") as { properties?: Record<string, unknown> }) : undefined;
    const requestBody = op.body
      ? { required: true, content: { "application/json": { schema: schemaOf(op.body, "input") } } }
      : op.raw && ["PUT", "POST", "PATCH"].includes(op.method)
        ? { description: op.raw, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } }
        : undefined;
    return {
      operationId: id,
      tags: [op.tag],
      summary: op.summary,
      ...(op.auth === "none" ? { security: [] } : {}),
      parameters: [
        ...[...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } })),
        ...Object.entries(querySchema?.properties ?? {}).map(([name, schema]) => ({ name, in: "query", schema })),
      ],
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  };
  for (const entry of Object.entries(operations) as [string, Operation][]) {
    if (entry[1].internal) continue;
    (paths[entry[1].path] ??= {})[entry[1].method.toLowerCase()] = operation(entry);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Castline API",
      version: "1.0.0",
      description: "Live streaming and video on demand. Authenticate with `Authorization: Bearer <API key>`.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: { schemas: components, securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    paths,
  };
}
