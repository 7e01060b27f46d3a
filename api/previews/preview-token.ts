import type { AuthContext } from '../auth/auth-context.ts';
import type { SignedLinks } from '../outputs/output-links.ts';

/** How long a preview token lives: a page asks its server for a new one as it runs out. */
export const PREVIEW_TOKEN_TTL_SEC = 900;

/** `fwpt_<key id>.<expiry, Unix seconds>.<HMAC-SHA256, base64url>` */
const TOKEN = /^fwpt_(key_[0-9a-z]{26})\.([0-9]{10})\.([A-Za-z0-9_-]{43})$/;

/**
 * A preview-only token for the key of `auth`: it names the key, not the account, so revoking the
 * key ends its tokens too (auth looks the key up as for the key itself). Signed with the service's
 * signing secret (SIGNING_SECRET: every replica shares it), over a subject no link uses.
 */
export function issuePreviewToken(
  links: Pick<SignedLinks, 'previewTokenSig'>,
  auth: AuthContext,
  now: Date,
): { token: string; expiresAt: Date } {
  const expires = Math.floor(now.getTime() / 1000) + PREVIEW_TOKEN_TTL_SEC;
  return {
    token: `fwpt_${auth.keyId}.${expires}.${links.previewTokenSig(auth.keyId, expires)}`,
    expiresAt: new Date(expires * 1000),
  };
}

/** True when `token` looks like a preview token (the auth plugin then verifies it as one). */
export function isPreviewToken(token: string): boolean {
  return token.startsWith('fwpt_');
}

/** The key a valid, unexpired preview token names, or undefined (its signature compared in constant time). */
export function verifyPreviewToken(
  links: Pick<SignedLinks, 'verifyPreviewTokenSig'>,
  token: string,
  now: Date,
): { keyId: string; expiresAtMs: number } | undefined {
  const m = TOKEN.exec(token);
  if (!m) return undefined;
  const keyId = m[1]!;
  const expires = Number(m[2]);
  if (!links.verifyPreviewTokenSig(keyId, expires, m[3]!)) return undefined;
  if (expires * 1000 <= now.getTime()) return undefined;
  return { keyId, expiresAtMs: expires * 1000 };
}
