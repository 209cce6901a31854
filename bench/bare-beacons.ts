import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The floor for the beacon benchmark (bench/analytics.ts): plain node:http that reads each
 * beacon's body whole and answers 204, as the app does, with nothing done with it. Prints its URL.
 */
const server = http.createServer((req, res) => {
  req.on("data", () => {});
  req.on("end", () => res.writeHead(204, { "access-control-allow-origin": "*", "cache-control": "no-store" }).end());
});
server.keepAliveTimeout = 65_000; // as the app's front
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
