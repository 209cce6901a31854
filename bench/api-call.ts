/** One call of the app's API with an API key, its JSON answer parsed; an answer that is not 2xx throws (a bench must not measure refusals). */
export async function api(appUrl: string, key: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${appUrl}/api/${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
