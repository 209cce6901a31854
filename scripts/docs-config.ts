import fs from "node:fs";
import { CONFIGURATION_DOC, configurationReference } from "./config-reference";

/** `npm run docs:config`: writes the configuration reference from the config schema. */
fs.writeFileSync(CONFIGURATION_DOC, configurationReference());
console.log(`wrote ${CONFIGURATION_DOC}`);
