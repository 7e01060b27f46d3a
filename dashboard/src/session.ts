/**
 * The signed-in key. It lives in sessionStorage: this tab only, gone when the tab closes, never
 * written to localStorage or a cookie, never put in a URL. Anything that can run script in this
 * origin could read it; the Content-Security-Policy (api/dashboard/routes.ts) allows no script but
 * the dashboard's own bundle.
 */
const STORAGE_KEY = 'framewright.apiKey';

/** The shape of an API key: fw_live_ or fw_test_ and 40 base62 characters (api/auth/api-key.ts). */
export const KEY_SHAPE = /^fw_(live|test)_[0-9A-Za-z]{40}$/;

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled: sign in again each load
  }
}

export function storeKey(key: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage disabled: the key stays in memory for this page only.
  }
}

export function forgetKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}
