import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Runs node:test files as separate processes, `concurrency` at a time, the longest-known first.
 * Each file's spec output is kept and printed whole when it ends (files never interleave), with
 * its time; the TAP counts are summed. Most integration files spend their time waiting on real
 * things (an encoder in real time, a lease to expire, a retry's back-off), not on the CPU, so a
 * few at once fill the machine without starving each other.
 */

/** Longer than any file takes on a loaded 2-core machine (the slowest, about 8 minutes). */
const FILE_LIMIT_MS = 20 * 60_000;

export interface FileResult {
  file: string;
  ms: number;
  passed: number;
  failed: number;
  /** Each failed test's name and the first lines of its error. */
  failures: string[];
}

export interface PoolOptions {
  files: string[];
  /** Files at once: a number, or asked again (told how many run) as files end and every second (it may change while the pool runs). */
  concurrency: number | ((running: number) => number);
  env: NodeJS.ProcessEnv;
  /** Where each file's TAP and spec output go. */
  outDir: string;
  /** node --test-name-pattern, when only some tests are wanted. */
  namePattern?: string;
  /** Known durations (ms) of files from earlier runs: the longest start first. */
  known?: Record<string, number>;
  /** Told as each file starts. */
  onStart?: () => void;
}

/**
 * The tests a TAP report passed and failed, counted from its test lines (suites, whose YAML
 * block says `type: 'suite'`, left out): --test-force-exit may end a file before the summary.
 */
export function tapCounts(file: string) {
  const lines = (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "").split("\n");
  let passed = 0;
  let failed = 0;
  const failures: string[] = [];
  lines.forEach((line, i) => {
    const result = /^\s*(not )?ok \d+ - /.exec(line);
    // Tests a name pattern left out are reported as skipped: neither passed nor failed.
    if (!result || / # SKIP\b/.test(line)) return;
    const end = lines.findIndex((l, j) => j > i && /^\s*\.\.\.$/.test(l));
    const block = lines.slice(i + 1, end < 0 ? i + 1 : end);
    if (block.some((l) => /^\s*type: 'suite'$/.test(l))) return;
    if (!result[1]) return void passed++;
    failed++;
    const from = block.findIndex((l) => /^\s*error: /.test(l));
    const error = from < 0 ? [] : block.slice(from, from + 8).map((l) => `    ${l.trim()}`);
    failures.push([line.trim().replace(/^not ok \d+ - /, ""), ...error].join("\n"));
  });
  // The root plan (`1..N`, unindented) is the reporter's last line: without it the report was
  // cut short, and verdicts may be missing (a passed one or a failed one alike).
  const complete = lines.some((line) => /^1\.\.\d+$/.test(line));
  return { passed, failed, failures, complete };
}

export const nodeTestArgs = (tap: string, spec: string, files: string[], namePattern?: string) => [
  // A file whose tests are done exits even if something it started holds the event loop.
  "--import",
  "tsx",
  "--test",
  "--test-force-exit",
  "--test-reporter=spec",
  `--test-reporter-destination=${spec}`,
  "--test-reporter=tap",
  `--test-reporter-destination=${tap}`,
  ...(namePattern ? [`--test-name-pattern=${namePattern}`] : []),
  ...files,
];

/**
 * node's --test-force-exit can end a file before its reporters have written its last verdicts
 * (nodejs/node#54327, #64833: the file then exits 0 whatever they were): a file whose report
 * was cut short runs once more, and that run's verdicts count.
 */
function runFile(file: string, opts: PoolOptions, attempt = 1): Promise<FileResult> {
  const base = path.join(opts.outDir, file.replace(/[\\/]/g, "_"));
  const tap = `${base}.tap`;
  const spec = `${base}.out`;
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeTestArgs(tap, spec, [file], opts.namePattern), { env: opts.env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    // A file that hangs must not hold the whole run (CI stops at 90 minutes): it fails instead.
    const limit = setTimeout(() => {
      stderr += `\n${file} still running after ${FILE_LIMIT_MS / 60_000} minutes: stopped\n`;
      child.kill("SIGKILL");
    }, FILE_LIMIT_MS);
    child.on("exit", (code) => {
      clearTimeout(limit);
      const ms = performance.now() - started;
      const counts = tapCounts(tap);
      if (code === 0 && !counts.complete && attempt === 1) {
        process.stdout.write(`\n── ${file}: its report was cut short (${counts.passed} verdicts read): running it again\n`);
        return resolve(runFile(file, opts, attempt + 1));
      }
      // A file that died before reporting (a syntax error, a crash) still counts as failed.
      const failed = counts.failed || (code !== 0 ? 1 : 0);
      const failures = (
        counts.failures.length ? counts.failures : failed ? [`exited with ${code}: ${stderr.trim().split("\n").slice(-6).join("\n    ")}`] : []
      ).map((f) => `${file} ${f}`);
      const mark = failed ? "✖" : "✔";
      const output = fs.existsSync(spec) ? fs.readFileSync(spec, "utf8") : "";
      // When it started, in seconds since `npm test` did: where each file sat in the run's timeline.
      process.stdout.write(
        `\n── ${mark} ${file} (${(ms / 1000).toFixed(1)} s, from ${(started / 1000).toFixed(0)} s)\n${output}${failed && stderr ? `\n${stderr}` : ""}`,
      );
      resolve({ file, ms, passed: counts.passed, failed, failures });
    });
  });
}

export function runPool(opts: PoolOptions): Promise<FileResult[]> {
  const queue = [...opts.files].sort((a, b) => (opts.known?.[b] ?? 0) - (opts.known?.[a] ?? 0));
  const limit = typeof opts.concurrency === "number" ? () => opts.concurrency as number : opts.concurrency;
  const results: FileResult[] = [];
  let running = 0;
  return new Promise((resolve) => {
    const fill = () => {
      while (queue.length && running < Math.max(1, limit(running))) {
        running++;
        opts.onStart?.();
        void runFile(queue.shift()!, opts).then((result) => {
          results.push(result);
          running--;
          fill();
        });
      }
      if (!queue.length && !running) {
        clearInterval(recheck);
        resolve(results);
      }
    };
    const recheck = setInterval(fill, 1000);
    fill();
  });
}
