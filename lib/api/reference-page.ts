/**
 * The API reference page (/docs): Scalar rendering /api/openapi.json, with its script served by
 * this app (/docs/scalar.js) and nothing else fetched from anywhere: no web fonts, no telemetry,
 * no request proxy, and none of Scalar's add-ons (its API client, developer tools, AI agent, MCP,
 * "Powered by"), so the reference works offline and on a private network.
 */
export const SCALAR_CONFIGURATION = {
  url: "/api/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  showDeveloperTools: "never",
  showToolbar: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: "json",
  defaultOpenFirstTag: false,
  // System font stacks stand in for Scalar's web fonts.
  customCss: `
    :root { --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
            --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
    a[href="https://www.scalar.com"] { display: none; }`,
} as const;

export function referencePage(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Castline API reference</title>
  </head>
  <body>
    <div id="reference"></div>
    <script src="/docs/scalar.js"></script>
    <script>Scalar.createApiReference("#reference", ${JSON.stringify(SCALAR_CONFIGURATION).replaceAll("<", "\\u003c")});</script>
  </body>
</html>`;
}
