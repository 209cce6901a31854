/**
 * The dashboard's theme: "system" follows the operating system (the CSS default, see
 * app/globals.css); "light" and "dark" are a stored choice, put on <html data-theme> before first
 * paint by THEME_SCRIPT so a dark page never flashes white.
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

const STORAGE_KEY = "castline-theme";

/** Puts the stored choice on <html>. It runs serialised in the page head too, so it stays self-contained. */
function applyStoredTheme(key: string) {
  try {
    const stored = localStorage.getItem(key);
    if (stored) document.documentElement.dataset.theme = stored;
    else delete document.documentElement.dataset.theme;
  } catch {
    // Storage refused (a sandboxed frame): the system's theme applies.
  }
}

export const THEME_SCRIPT = `(${applyStoredTheme.toString()})(${JSON.stringify(STORAGE_KEY)})`;

export function storedTheme(): Theme {
  try {
    return THEMES.find((theme) => theme === localStorage.getItem(STORAGE_KEY)) ?? "system";
  } catch {
    return "system";
  }
}

export function setTheme(theme: Theme) {
  try {
    if (theme === "system") localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    return;
  }
  applyStoredTheme(STORAGE_KEY);
}
