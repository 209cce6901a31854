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
  const base = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
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

test("the routes that take an upload's bytes reach no ffmpeg: the jobs that process the file run it", () => {
  // Why lib/assets/processing/store-source.ts stands apart from the pipeline.
  for (const entry of ["app/api/asset/upload/direct/route.ts", "app/api/asset/upload/tus/[[...path]]/route.ts"]) {
    assert.ok(!closure(entry).has(path.join("lib", "av", "ffmpeg.ts")), entry);
  }
});

/** What a file imports for its running code: `import type` is erased by the compiler and pulls in nothing. */
function runtimeSpecifiers(file: string): string[] {
  const source = fs.readFileSync(file, "utf8").replace(/^\s*(?:import|export)\s+type\s[^;]*;/gm, "");
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1]);
}

/** Modules that only a server has or may hold: Node's own, the database driver and ORM, the object store's SDK. */
const SERVER_ONLY = /^(node:|(fs|path|os|child_process|crypto|net|http|https|stream|zlib)$|postgres$|drizzle-orm|@aws-sdk\/|@tus\/|prom-client$|inngest)/;

test("the browser's code (each \"use client\" file and what it imports) reaches no server module: not db/ or inngest/, nor Node's own or the database's", () => {
  // In place of the `server-only` package: it throws when imported outside Next's server build, and
  // these server modules also run in plain Node (the launcher, job workers, the CLI, the tests).
  const clientEntries = ["app", "components", "lib"]
    .flatMap((dir) => [...sources(dir)])
    .filter((file) => /^\s*["']use client["']/.test(fs.readFileSync(path.join(root, file), "utf8")));
  assert.ok(clientEntries.length > 20, `the dashboard's client components were found (${clientEntries.length})`);
  const offenders = new Set<string>();
  const seen = new Set<string>();
  const pending = clientEntries.map((file) => path.join(root, file));
  for (let file = pending.pop(); file; file = pending.pop()) {
    const relative = path.relative(root, file).split(path.sep).join("/");
    if (seen.has(relative)) continue;
    seen.add(relative);
    if (/^(db|inngest|media-node)\//.test(relative)) offenders.add(relative);
    for (const specifier of runtimeSpecifiers(file)) {
      if (SERVER_ONLY.test(specifier)) offenders.add(`${relative} imports ${specifier}`);
      const target = resolve(file, specifier);
      if (target) pending.push(target);
    }
  }
  assert.deepEqual([...offenders].sort(), []);
});

test("the operation declarations and the API client, which every dashboard page bundles, load only schemas and zod: the common-password list (380 kB) only when a password is checked", () => {
  const modules = new Set<string>();
  const seen = new Set<string>();
  const pending = ["lib/api/client.ts", "lib/api/operations.ts"].map((file) => path.join(root, file));
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    // Static imports only: an `import()` is a chunk of its own, fetched when it runs.
    const source = fs.readFileSync(file, "utf8").replace(/^\s*(?:import|export)\s+type\s[^;]*;/gm, "");
    for (const [, specifier] of source.matchAll(/\bfrom\s*["']([^"']+)["']/g)) {
      const target = resolve(file, specifier);
      if (target) pending.push(target);
      else modules.add(specifier);
    }
  }
  assert.deepEqual([...modules], ["zod"]);
  assert.ok(
    [...seen].every((file) => /^lib\//.test(path.relative(root, file))),
    "no db/, inngest/ or media-node/ module",
  );
});
