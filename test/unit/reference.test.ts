import assert from "node:assert/strict";
import { test } from "node:test";
import { ERROR_STATUSES, REFUSAL_STATUS } from "@/lib/api/errors";
import { GUIDES } from "@/lib/api/guides";
import { openApiDocument } from "@/lib/api/openapi";
import { operations, type Operation } from "@/lib/api/operations";
import { OPERATIONS } from "@/lib/api/reference";

const doc = openApiDocument("/api");

test("every request example fits its operation's body schema (no 422 from the reference's own examples)", async () => {
  for (const [id, op] of Object.entries(operations) as [keyof typeof OPERATIONS, Operation][]) {
    if (op.internal || !op.body) continue;
    const example = OPERATIONS[id].example;
    assert.ok(example, `${id} has a body but no example`);
    const parsed = await op.body.safeParseAsync(example);
    assert.ok(parsed.success, `${id}'s example: ${parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
});

test("the document carries each example, description and tag description", () => {
  const tags = new Map<string, string>(doc.tags.map((t) => [t.name, t.description]));
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods) as [
      string,
      { description?: string; tags: string[]; requestBody?: { content: Record<string, { example?: unknown }> } },
    ][]) {
      assert.ok(op.description?.trim(), `${method} ${path}: no description`);
      assert.ok(tags.get(op.tags[0])?.trim(), `${method} ${path}: tag ${op.tags[0]} has no description`);
      const json = op.requestBody?.content["application/json"];
      if (json) assert.ok(json.example, `${method} ${path}: no request example`);
    }
  }
});

test("the guides are in the description, every placeholder filled from the code", () => {
  const text = doc.info.description;
  assert.equal(text.match(/^## /gm)?.length, GUIDES.length);
  assert.doesNotMatch(text, /\{\{\w+\}\}/);
  for (const fact of ["`stream.started`", "`playback.accessControl`", "Castline-Signature", "Livepeer-Signature", "`videoSpec.duration`", "`pending`"]) {
    assert.ok(text.includes(fact), `the guides should mention ${fact}`);
  }
});

test("every error status the API answers is explained", () => {
  const used = new Set<number>([...Object.values(REFUSAL_STATUS), 401, 415, 422, 429]);
  for (const op of Object.values(operations) as Operation[]) for (const status of op.errors ?? []) used.add(status);
  for (const status of used) assert.ok(ERROR_STATUSES[status], `status ${status} is not in ERROR_STATUSES`);
});
