import http from "node:http";
import type { AddressInfo } from "node:net";
import { keyHolder } from "@/lib/api-keys/service";
import { createStream, getStream } from "@/lib/streams/service";

/**
 * The baseline for the API benchmark: plain node:http doing the same work as
 * the app's routes (API-key lookup, then the same service call and query on the
 * same database), without Next. Prints its URL on stdout.
 */
const server = http.createServer(async (req, res) => {
  const send = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };
  try {
    const key = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    const userId = key && (await keyHolder(key))?.userId;
    if (!userId) return send(401, { errors: ["invalid API key"] });
    const match = /^\/api\/stream(?:\/([\w-]+))?$/.exec(req.url ?? "");
    if (req.method === "GET" && match?.[1]) return send(200, await getStream(userId, match[1]));
    if (req.method === "POST" && match && !match[1]) {
      let text = "";
      for await (const chunk of req) text += chunk;
      return send(201, await createStream(userId, JSON.parse(text)));
    }
    send(404, { errors: ["not found"] });
  } catch (err) {
    send(500, { errors: [String(err)] });
  }
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
