import type { Server } from "node:http";

/**
 * Puts a test's fake pinning service on the app's PINNING_API_URL port. The app knows one such
 * URL and files run side by side: while another file's service holds the port, wait for it.
 */
export async function listenAsPinningService(server: Server, ms = 300_000): Promise<void> {
  const port = Number(new URL(process.env.PINNING_API_URL!).port);
  const deadline = Date.now() + ms;
  for (;;) {
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      server.once("error", resolve);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", resolve);
        resolve(undefined);
      });
    });
    if (!error) return;
    if (error.code !== "EADDRINUSE" || Date.now() > deadline) throw error;
    await new Promise((r) => setTimeout(r, 250));
  }
}
