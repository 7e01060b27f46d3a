import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Signed download links: `outputUrl` points at the API's own endpoint with the render id, an
 * expiry and an HMAC over both, so the link works without an API key (a browser, a CDN, a
 * colleague) until `expiresAt`, and cannot be forged or extended.
 */
export class OutputLinks {
  constructor(
    private readonly secret: Buffer,
    private readonly publicBaseUrl: string,
  ) {}

  private mac(renderId: string, expiresSec: number): string {
    return createHmac('sha256', this.secret).update(`${renderId}.${expiresSec}`).digest('base64url');
  }

  url(renderId: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.publicBaseUrl}/v1/outputs/${renderId}?expires=${expires}&sig=${this.mac(renderId, expires)}`;
  }

  /** True when `sig` is this service's signature of (renderId, expires); expiry is checked apart. */
  verify(renderId: string, expires: number, sig: string): boolean {
    const want = Buffer.from(this.mac(renderId, expires));
    const got = Buffer.from(sig);
    return got.length === want.length && timingSafeEqual(got, want);
  }
}

/**
 * The signing secret: SIGNING_SECRET when set (every API replica of a cluster must share it),
 * else one generated on first start and kept under DATA_DIR, readable by the owner only.
 */
export async function loadSigningSecret(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, 'signing-secret');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(32);
  await mkdir(dataDir, { recursive: true });
  // 'wx' fails if another process created it first; then read theirs, so both agree.
  try {
    await writeFile(file, secret.toString('base64'), { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  }
}
