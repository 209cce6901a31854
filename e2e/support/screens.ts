import type { Page } from "@playwright/test";

/** Screenshots for a person to look at the layout, when SCREENSHOT_DIR is set. */
export const SHOTS = process.env.SCREENSHOT_DIR;

export async function shoot(page: Page, name: string, { fullPage = false } = {}) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

/** The widths a layout is checked at: a desktop's and a phone's. */
export const VIEWPORTS = [
  ["1440 px", { width: 1440, height: 900 }],
  ["390 px", { width: 390, height: 844 }],
] as const;
