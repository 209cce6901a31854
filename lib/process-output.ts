/**
 * A long-running process whose stdout or stderr lost its reader (the terminal closed, the
 * program reading its output died) gets EPIPE on every write. Unhandled, each is an uncaught
 * exception whose logging writes to the same broken pipe: the process spun at full CPU and
 * answered nothing. Output that cannot be written is dropped; the process goes on serving.
 */
export function dropOutputWithoutReader(): void {
  for (const stream of [process.stdout, process.stderr]) {
    // Whatever failed, nothing can be said about it but on these very streams.
    stream.on("error", () => {});
  }
}
