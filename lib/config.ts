import path from "node:path";
import { z } from "zod";

/**
 * Every setting Castline reads from the environment, parsed once.
 * The README's configuration table mirrors this schema.
 */
const bool = z
  .enum(["true", "false", "1", "0"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  PUBLIC_URL: z.url({ message: "must be an absolute URL such as https://video.example.com" }).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ALLOW_SIGNUP: bool.default(true),
  ALLOW_PRIVATE_URLS: bool.default(false),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  JOB_WORKERS: z.coerce.number().int().min(0).max(32).default(1),
  MEDIA_NODE: bool.default(true),
  RTMP_PORT: z.coerce.number().int().min(1).max(65535).default(1935),
  RTMP_HOST: z.string().min(1).default("0.0.0.0"),
  HLS_SEGMENT_S: z.coerce.number().min(1).max(10).default(2),
  RECORDING_RECONNECT_WINDOW_S: z.coerce.number().min(0).max(86_400).default(360),
  MEDIA_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  APP_URL: z.url({ message: "must be the URL where media nodes reach the app, e.g. http://10.0.0.5:3000" }).optional(),
  FFMPEG_PATH: z.string().min(1).default("ffmpeg"),
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string };

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const parsed = ConfigSchema.safeParse(
    Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== "")),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  cached = { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
  return cached;
}
