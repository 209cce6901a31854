import { z } from "zod";
import { ERROR_STATUSES } from "./errors";
import { guidesMarkdown } from "./guides";
import { operations, type Operation } from "./operations";
import { OPERATIONS, TAGS, type Tag } from "./reference";

/**
 * The OpenAPI 3.1 document, generated from the operations' declarations
 * (lib/api/operations.ts) and the zod schemas they name: the same ones that
 * validate requests and check responses. Internal operations are left out.
 */
const ErrorBody = z.object({ errors: z.array(z.string()) }).meta({ id: "Error" });
const capitalised = (text: string) => text[0].toUpperCase() + text.slice(1);

/** Named schemas (zod `.meta({ id })`) are hoisted into components and referenced. */
function schemaCollector() {
  const components: Record<string, unknown> = {};
  const schemaOf = (schema: z.ZodType, io: "input" | "output") => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
    const defs = (json.$defs ?? {}) as Record<string, unknown>;
    delete json.$defs;
    delete json.$schema;
    const rewrite = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
    for (const [name, def] of Object.entries(defs)) components[name] ??= rewrite(def);
    return rewrite(json);
  };
  return { components, schemaOf };
}

export function openApiDocument(serverUrl: string) {
  const { components, schemaOf } = schemaCollector();
  const paths: Record<string, Record<string, unknown>> = {};
  const operation = ([id, op]: [keyof typeof OPERATIONS, Operation]) => {
    const reference = OPERATIONS[id];
    const body = op.response && (op.paged ? z.array(op.response) : op.response);
    const responses: Record<string, unknown> = {
      [op.status]: body
        ? { description: "Success", content: { "application/json": { schema: schemaOf(body, "output") } } }
        : { description: op.raw ? `Success (${op.raw})` : "No content" },
    };
    for (const code of [...(op.auth === "none" ? [] : [401]), ...(op.errors ?? [])]) {
      responses[code] = { description: capitalised(ERROR_STATUSES[code]), content: { "application/json": { schema: schemaOf(ErrorBody, "output") } } };
    }
    const querySchema = op.query ? (schemaOf(op.query, "input") as { properties?: Record<string, unknown> }) : undefined;
    const requestBody = op.body
      ? {
          required: true,
          content: { "application/json": { schema: schemaOf(op.body, "input"), ...(reference.example ? { example: reference.example } : {}) } },
        }
      : op.raw && ["PUT", "POST", "PATCH"].includes(op.method)
        ? { description: op.raw, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } }
        : undefined;
    return {
      operationId: id,
      tags: [op.tag],
      summary: op.summary,
      description: reference.description,
      ...(op.auth === "none" ? { security: [] } : {}),
      parameters: [
        ...[...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } })),
        ...Object.entries(querySchema?.properties ?? {}).map(([name, schema]) => ({ name, in: "query", schema })),
      ],
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  };
  for (const entry of Object.entries(operations) as [keyof typeof OPERATIONS, Operation][]) {
    if (entry[1].internal) continue;
    (paths[entry[1].path] ??= {})[entry[1].method.toLowerCase()] = operation(entry);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Castline API",
      version: "1.0.0",
      description: `Live streaming and video on demand. Authenticate with \`Authorization: Bearer <API key>\` (create keys in the dashboard, or with \`POST /api-key\`). The guides below cover what takes more than one call; each operation follows, by tag.\n\n${guidesMarkdown()}`,
    },
    tags: (Object.entries(TAGS) as [Tag, string][]).map(([name, description]) => ({ name, description })),
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: { schemas: components, securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    paths,
  };
}
