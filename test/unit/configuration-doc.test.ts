import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import { CONFIGURATION_DOC, configurationReference } from "@/scripts/config-reference";
import { ConfigSchema } from "@/lib/config";

test("docs/configuration.md is what the config schema's descriptions make (run `npm run docs:config`)", () => {
  assert.equal(fs.readFileSync(CONFIGURATION_DOC, "utf8"), configurationReference());
});

test("the reference names every setting the config schema reads", () => {
  const doc = fs.readFileSync(CONFIGURATION_DOC, "utf8");
  for (const name of Object.keys(ConfigSchema.shape)) assert.match(doc, new RegExp(`^\\| \`${name}\` \\|`, "m"), name);
});
