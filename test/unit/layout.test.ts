import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

/**
 * The tree's runtimes stay apart: the media node (its own process, on machines without the
 * database) never reaches db/, and the web app never bundles the media node's program.
 * Imports are read as text (static `import … from`, `export … from`, `import("…")`), resolved
 * the way tsconfig's `@/*` and relative paths do.
 */
const root = process.cwd();
const EXTENSIONS = [".ts", ".tsx", ".d.ts", "/index.ts", "/index.tsx"];

function resolve(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@/") ? path.join(root, specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : undefined;
  if (!base) return undefined;
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext)]) {
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  throw new Error(`${path.relative(root, from)}: cannot resolve "${specifier}"`);
}

function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1]);
  return specifiers.map((s) => resolve(file, s)).filter((f): f is string => !!f);
}

/** Every file of the tree that `entry` reaches through its imports, as paths from the root. */
function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [path.join(root, entry)];
  for (let file = pending.pop(); file; file = pending.pop()) {
    const relative = path.relative(root, file);
    if (seen.has(relative)) continue;
    seen.add(relative);
    pending.push(...importsOf(file));
  }
  return seen;
}

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(file);
    else if (/\.tsx?$/.test(entry.name)) yield file;
  }
}

test("the media node's program reaches neither the database nor the web app", () => {
  const reached = [...closure("scripts/media.ts")];
  assert.ok(reached.includes(path.join("media-node", "node.ts")), "the entry reaches the node");
  const outside = reached.filter((file) => /^(db|app|inngest|components)\//.test(file.split(path.sep).join("/")));
  assert.deepEqual(outside, []);
});

test("the web app and its jobs never import the media node's program", () => {
  const offenders = ["app", "components", "lib", "db", "inngest"]
    .flatMap((dir) => [...sources(dir)])
    .filter((file) => importsOf(path.join(root, file)).some((target) => path.relative(root, target).startsWith(`media-node${path.sep}`)));
  assert.deepEqual(offenders, []);
});
