import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Signed links to the API's own content endpoints. `outputUrl` carries the render id, an expiry
 * and an HMAC over both, so it works without an API key (a browser, a CDN, a colleague) until
 * `expiresAt` and cannot be forged or extended. An asset's `url` is signed without expiry, so a
 * document that references it renders for as long as the asset exists.
 */
export class SignedLinks {
  constructor(
    private readonly secret: Buffer,
    private readonly publicBaseUrl: string,
  ) {}

  private mac(subject: string): string {
    return createHmac('sha256', this.secret).update(subject).digest('base64url');
  }

  private check(subject: string, sig: string): boolean {
    const want = Buffer.from(this.mac(subject));
    const got = Buffer.from(sig);
    return got.length === want.length && timingSafeEqual(got, want);
  }

  outputUrl(renderId: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.publicBaseUrl}/v1/outputs/${renderId}?expires=${expires}&sig=${this.mac(`${renderId}.${expires}`)}`;
  }

  /** True when `sig` is this service's signature of (renderId, expires); expiry is checked apart. */
  verifyOutput(renderId: string, expires: number, sig: string): boolean {
    return this.check(`${renderId}.${expires}`, sig);
  }

  /**
   * A finished render's poster or thumbnail (api/outputs/image-routes.ts): signed like its output
   * link, with the same expiry, over a subject of its own (an output link opens no image, and back).
   */
  imageUrl(renderId: string, image: RenderImage, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.publicBaseUrl}/v1/outputs/${renderId}/${image}?expires=${expires}&sig=${this.mac(`${image}.${renderId}.${expires}`)}`;
  }

  verifyImage(renderId: string, image: RenderImage, expires: number, sig: string): boolean {
    return this.check(`${image}.${renderId}.${expires}`, sig);
  }

  /** The asset's content URL: the prefix tells the asset links of this service from others. */
  assetUrl(assetId: string): string {
    return `${this.assetPrefix}${assetId}/content?sig=${this.mac(`asset.${assetId}`)}`;
  }

  verifyAsset(assetId: string, sig: string): boolean {
    return this.check(`asset.${assetId}`, sig);
  }

  /** A preview token's signature (api/previews/preview-token.ts): its key and expiry, a subject of its own. */
  previewTokenSig(keyId: string, expires: number): string {
    return this.mac(`preview.${keyId}.${expires}`);
  }

  verifyPreviewTokenSig(keyId: string, expires: number, sig: string): boolean {
    return this.check(`preview.${keyId}.${expires}`, sig);
  }

  /** Every asset URL starts with this; the worker may fetch it even where private URLs are refused. */
  get assetPrefix(): string {
    return `${this.publicBaseUrl}/v1/assets/`;
  }
}

/** The images of a finished render: a video's poster (JPEG), a video's or still's thumbnail (WebP). */
export type RenderImage = 'poster' | 'thumbnail';

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
