/**
 * Secrets the dashboard keeps for one browser tab (sessionStorage): gone when the tab closes or
 * its user signs out, never sent to the server. Only what the user typed or was shown in this tab.
 */
const TEST_TOKEN_KEY = "castline-test-token-private-key";

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    // Storage refused (a sandboxed frame, a private mode): nothing is kept.
    return undefined;
  }
}

/** The private key the test-token helper signs with, as last typed or created in this tab. */
export const testTokenKey = {
  load: (): string => storage()?.getItem(TEST_TOKEN_KEY) ?? "",
  save(value: string) {
    if (value.trim()) storage()?.setItem(TEST_TOKEN_KEY, value);
    else storage()?.removeItem(TEST_TOKEN_KEY);
  },
};

/** On sign-out: the next user of this tab finds none of them. */
export function forgetTabSecrets() {
  storage()?.removeItem(TEST_TOKEN_KEY);
}
