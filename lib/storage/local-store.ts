import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { platformFault } from '../platform-fault.ts';
import { assertObjectKey, type ByteRange, type ObjectBody, type ObjectInfo, type ObjectStore } from './object-store.ts';

/**
 * Objects as files under `root` (DATA_DIR/objects). The content type lives in a `.meta` sidecar.
 * Writes go to a temporary name and are renamed into place, so readers never see half a file.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const;

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertObjectKey(key);
    return join(this.root, key);
  }

  private async commit(key: string, write: (tmp: string) => Promise<void>, contentType: string): Promise<ObjectInfo> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await write(tmp);
      await writeFile(`${path}.meta`, JSON.stringify({ contentType }));
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      // A full DATA_DIR is the platform's fault (INSUFFICIENT_STORAGE), not a bare 500.
      throw platformFault(err, 'storing an object') ?? err;
    }
    const { size } = await stat(path);
    return { size, contentType };
  }

  putFile(key: string, source: string, contentType: string): Promise<ObjectInfo> {
    return this.commit(key, (tmp) => copyFile(source, tmp), contentType);
  }

  putBuffer(key: string, data: Buffer, contentType: string): Promise<ObjectInfo> {
    return this.commit(key, (tmp) => writeFile(tmp, data), contentType);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const path = this.pathOf(key);
    try {
      const [{ size }, meta] = await Promise.all([stat(path), readFile(`${path}.meta`, 'utf8')]);
      return { size, contentType: (JSON.parse(meta) as { contentType: string }).contentType };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<ObjectBody | null> {
    const info = await this.head(key);
    if (!info) return null;
    const path = this.pathOf(key);
    if (range) return { ...info, range, body: createReadStream(path, { start: range.start, end: range.end }) };
    return { ...info, body: createReadStream(path) };
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await Promise.all([rm(path, { force: true }), rm(`${path}.meta`, { force: true })]);
  }
}
