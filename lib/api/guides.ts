import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ASSET_PHASES } from "@/lib/assets/schema";
import { PlaybackInfo, PlaybackSource } from "@/lib/playback/schema";
import { TASK_PHASES } from "@/lib/tasks/schema";
import { RETRY_SCHEDULE } from "@/lib/webhooks/delivery";
import { WEBHOOK_EVENTS, type WebhookEvent } from "@/lib/webhooks/events";
import { sampleEvent } from "@/lib/webhooks/samples";
import { signatureHeaders } from "@/lib/webhooks/signature";
import { PageQuery } from "@/lib/api/list-query";
import { ERROR_STATUSES } from "./errors";
import { operations, type Operation } from "./operations";

/**
 * The guides of the API reference, for what takes more than one call: markdown files in
 * lib/api/guides, in this order, with `{{fact}}` placeholders filled from the code that holds
 * each fact (event names, header names, retry schedule, limits, filters), so they cannot drift.
 */
export const GUIDES = ["uploads", "live", "playback", "analytics", "webhooks", "errors", "pagination"] as const;

/** When each event fires, and what its `payload` holds (besides `stream`, for stream events); none: a body of its own. */
const EVENTS: Record<WebhookEvent, { when: string; stream: boolean; payload: string }> = {
  "stream.started": { when: "a broadcast is live: every rendition has its first segment", stream: true, payload: "`session`" },
  "stream.idle": { when: "a live broadcast ended", stream: true, payload: "`session`" },
  "recording.started": { when: "a recorded broadcast started", stream: true, payload: "`session`" },
  "recording.waiting": {
    when: "a recorded broadcast ended; its recording is playable and waits for a reconnect",
    stream: true,
    payload: "`session` (with `recordingUrl`)",
  },
  "recording.ready": {
    when: "the recording plays: its asset is ready (after its `asset.ready`), once the reconnect window passed",
    stream: true,
    payload: "`session` (with `mp4Url`), `asset`",
  },
  "multistream.connected": { when: "a push to a multistream target connected", stream: true, payload: "`session`, `target` (`id`, `name`, `profile`)" },
  "multistream.error": {
    when: "a push failed; it is retried while the broadcast lasts",
    stream: true,
    payload: "`session`, `target`, `error` (never the target's key)",
  },
  "multistream.disconnected": { when: "a push ended", stream: true, payload: "`session`, `target`" },
  "asset.created": { when: "an asset was created (upload, import, recording, clip)", stream: false, payload: "`asset`" },
  "asset.ready": { when: "an asset is playable", stream: false, payload: "`asset`" },
  "asset.updated": { when: "an asset changed: renamed, its policy changed, a rendition published", stream: false, payload: "`asset`" },
  "asset.failed": { when: "an asset cannot be processed (`status.errorMessage` says why)", stream: false, payload: "`asset`" },
  "asset.deleted": { when: "an asset was deleted", stream: false, payload: "`asset`" },
  "task.spawned": { when: "a task was created", stream: false, payload: "`task`" },
  "task.updated": { when: "a task made progress", stream: false, payload: "`task`" },
  "task.completed": { when: "a task finished", stream: false, payload: "`task` (with its `output`)" },
  "task.failed": { when: "a task failed (`status.errorMessage` says why)", stream: false, payload: "`task`" },
  "playback.accessControl": { when: "a viewer of content with a webhook playback policy brings an access key", stream: false, payload: "" },
};

const code = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(", ");
const headerName = (lower: string) => lower.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => dash + c.toUpperCase());

function eventList(): string {
  return WEBHOOK_EVENTS.map((e) => {
    const { when, stream, payload } = EVENTS[e];
    return `- \`${e}\`: ${when}. ${payload ? `Body: ${stream ? "`stream`, " : ""}\`payload\` with ${payload}.` : "Its body is its own (below)."}`;
  }).join("\n");
}

/** A delivery's body as receivers get it (the test event's sample of `stream.started`), one field a line. */
function deliveryExample(): string {
  const time = 1795316498117;
  const { stream, payload } = sampleEvent("stream.started", "<your user id>");
  const { sample: _sample, ...objects } = payload;
  const body = {
    id: "<event id>",
    webhookId: "<webhook id>",
    createdAt: time,
    timestamp: time + 73,
    event: "stream.started",
    userId: "<your user id>",
    stream: { ...stream, createdAt: time, lastSeen: time },
    payload: objects,
  };
  return `{\n${Object.entries(body)
    .map(([key, value]) => `  "${key}": ${JSON.stringify(value)}`)
    .join(",\n")}\n}`;
}

/** Each list that searches and sorts: its filters and order keys, from its query schema. */
function listOfLists(): string {
  const rows = (Object.values(operations) as Operation[])
    .filter((op) => op.paged && op.query?.shape.order)
    .map((op) => {
      const query = z.toJSONSchema(op.query!, { io: "input", unrepresentable: "any" }) as {
        properties: Record<string, { enum?: string[]; description?: string }>;
      };
      const orders = (query.properties.order.enum ?? []).filter((o) => o.endsWith("-true")).map((o) => o.slice(0, -"-true".length));
      const filters = query.properties.filters?.description?.replace(/^URL-encoded JSON \[\{id, value\}\]: /, "") ?? "";
      return `- \`${op.method} ${op.path}\`: \`filters\` ${filters}; \`order\` by ${code(orders)}.`;
    });
  return rows.join("\n");
}

function statusTable(): string {
  return Object.entries(ERROR_STATUSES)
    .map(([status, text]) => `- **${status}**: ${text}`)
    .join("\n");
}

function facts(): Record<string, string> {
  const signed = signatureHeaders("secret", "{}", 0);
  const castline = Object.keys(signed).find((h) => h.startsWith("castline-"))!;
  const livepeer = Object.keys(signed).find((h) => h.startsWith("livepeer-"))!;
  const page = z.toJSONSchema(PageQuery, { io: "input" }) as unknown as { properties: { limit: { default: number; maximum: number } } };
  const sources = (PlaybackSource.shape.hrn.description ?? "").replace(/"([^"]+)"/g, "`$1`");
  return {
    taskPhases: code(TASK_PHASES),
    assetPhases: code(ASSET_PHASES.filter((p) => p !== "deleted")),
    playbackTypes: code(PlaybackInfo.shape.type.options),
    playbackSources: sources,
    deliveryExample: deliveryExample(),
    eventList: eventList(),
    retrySchedule: RETRY_SCHEDULE.join(", "),
    castlineHeader: headerName(castline),
    castlineHeaderLower: castline,
    livepeerHeader: headerName(livepeer),
    statusTable: statusTable(),
    limitDefault: String(page.properties.limit.default),
    limitMax: String(page.properties.limit.maximum),
    listOfLists: listOfLists(),
  };
}

/** The guides as one markdown text, their facts filled in; an unknown placeholder is an error, not a blank. */
export function guidesMarkdown(dir = path.join(process.cwd(), "lib/api/guides")): string {
  const known = facts();
  return GUIDES.map((name) =>
    fs.readFileSync(path.join(dir, `${name}.md`), "utf8").replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
      if (!(key in known)) throw new Error(`lib/api/guides/${name}.md: no fact named {{${key}}}`);
      return known[key];
    }),
  ).join("\n\n");
}
