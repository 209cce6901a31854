import { z } from "zod";
import { SETTING_GROUPS, type SettingDoc } from "@/lib/config";

/** Where the configuration reference lives; `npm run docs:config` writes it, a unit test checks it. */
export const CONFIGURATION_DOC = "docs/configuration.md";

/** What a setting is when unset: its description's words, else its schema's default, else nothing. */
function whenUnset(setting: z.ZodType, meta: SettingDoc): string {
  if (meta.whenUnset) return meta.whenUnset;
  if (setting instanceof z.ZodDefault) return `\`${String(setting.def.defaultValue)}\``;
  return "unset";
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The configuration reference as markdown, from the config schema's descriptions (lib/config.ts). */
export function configurationReference(): string {
  const sections = Object.entries(SETTING_GROUPS).map(([group, settings]) => {
    const rows = Object.entries(settings).map(([name, setting]: [string, z.ZodType]) => {
      const meta = setting.meta() as SettingDoc | undefined;
      if (!meta?.description) throw new Error(`lib/config.ts: ${name} has no description`);
      return `| \`${name}\` | ${cell(whenUnset(setting, meta))} | ${cell(meta.description)} |`;
    });
    return [`## ${group}`, "", "| variable | when unset | meaning |", "|---|---|---|", ...rows].join("\n");
  });
  return [
    "# Configuration",
    "",
    "<!-- Written by `npm run docs:config` from the descriptions in lib/config.ts: edit them there. -->",
    "",
    "Castline reads its settings from the environment, once, at start-up (`lib/config.ts`); a bad",
    "value stops the process with a message naming it. An empty variable counts as unset. One",
    "environment serves every process: each reads what concerns it ([scaling](scaling.md) says who",
    "needs what in a cluster).",
    "",
    ...sections.flatMap((s) => [s, ""]),
  ].join("\n");
}
