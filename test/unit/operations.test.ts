import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { openApiDocument } from "@/lib/api/openapi";
import { operations, type Operation } from "@/lib/api/operations";

/** Routes under /api that are not Castline's API: other protocols' own endpoints. */
const NOT_OPERATIONS: Record<string, string> = {
  "/auth/[...nextauth]": "Auth.js's sign-in endpoints, for the dashboard",
  "/inngest": "the Inngest protocol, driven by an Inngest server",
  "/[[...path]]": "every path that names no operation: the API's JSON 404",
};

function* routeFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* routeFiles(file);
    else if (entry.name === "route.ts") yield file;
  }
}

const root = path.join(process.cwd(), "app", "api");
const bindings = [...routeFiles(root)].map((file) => {
  const folder = "/" + path.relative(root, path.dirname(file)).split(path.sep).join("/");
  const source = fs.readFileSync(file, "utf8");
  const exported = [...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)].map((m) => m[1]);
  const bound = Object.fromEntries([...source.matchAll(/export const (\w+) = (?:route|rawRoute)\(operations\.(\w+)/g)].map((m) => [m[1], m[2]]));
  return { file: path.relative(process.cwd(), file), folder, exported, bound };
});

/** Whether a declared path is served by a route folder: "/stream/[id]" serves "/stream/{id}"; an optional catch-all, its folder and one segment more. */
function serves(folder: string, declared: string): boolean {
  const template = folder.replace(/\[(\w+)\]/g, "{$1}");
  const catchAll = /^(.*)\/\[\[\.\.\.\w+\]\]$/.exec(template);
  if (!catchAll) return declared === template;
  return declared === catchAll[1] || new RegExp(`^${catchAll[1]}/\\{\\w+\\}$`).test(declared);
}

test("every method of every /api route is bound to its declared operation, at its path", () => {
  for (const { file, folder, exported, bound } of bindings) {
    if (NOT_OPERATIONS[folder]) continue;
    for (const method of exported) {
      if (method === "OPTIONS") continue; // CORS preflights (and tus's own), answered from the operations' policy
      const id = bound[method];
      assert.ok(id, `${file}: ${method} is not bound to a declaration in lib/api/operations.ts`);
      const op: Operation = operations[id as keyof typeof operations];
      assert.ok(op, `${file}: operations.${id} does not exist`);
      assert.equal(op.method, method, `${file}: ${method} bound to operations.${id}, a ${op.method}`);
      assert.ok(serves(folder, op.path), `${file}: operations.${id} is declared at ${op.path}`);
    }
  }
});

test("every declared operation has a route, and the public ones are in the OpenAPI document", () => {
  const boundIds = new Set(bindings.flatMap((b) => Object.values(b.bound)));
  const doc = openApiDocument("/api") as { paths: Record<string, Record<string, { operationId: string }>> };
  for (const [id, op] of Object.entries(operations) as [string, Operation][]) {
    assert.ok(boundIds.has(id), `operations.${id} (${op.method} ${op.path}) has no route`);
    const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
    if (op.internal) assert.equal(documented, undefined, `${id} is internal`);
    else assert.equal(documented?.operationId, id, `${op.method} ${op.path} is in the document`);
  }
  for (const path of [
    "/playback/{playbackId}",
    "/asset/upload/direct",
    "/asset/upload/url",
    "/asset/upload/tus",
    "/asset/upload/tus/{uploadId}",
    "/api-key",
    "/health",
  ]) {
    assert.ok(doc.paths[path], `${path} is documented`);
  }
});
