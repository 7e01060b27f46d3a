import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { platformFault } from '../../lib/platform-fault.ts';

/**
 * What a refused upload may still read, past its limit, to let the client finish sending and read
 * the answer (a reply to a socket with unread bytes goes out as a reset connection); a client that
 * keeps sending after that has its connection closed.
 */
const DISCARD_SLACK_BYTES = 1024 * 1024;

/**
 * The raw body of one upload, read from the request as it arrives and never held whole: the first
 * bytes can be peeked (to sniff the type) and are then streamed on with the rest; every byte is
 * counted on the fly against `maxBytes`. Read through one async iterator, so an early refusal does
 * not destroy the request (and with it the socket the answer must go out on).
 */
export class UploadBody {
  private readonly chunks: AsyncIterator<Buffer>;
  private readonly head: Buffer[] = [];
  private ended = false;
  /** Bytes read from the client so far. */
  received = 0;

  constructor(
    private readonly source: Readable,
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  private async next(): Promise<Buffer | undefined> {
    if (this.ended) return undefined;
    const r = await this.chunks.next();
    if (r.done) {
      this.ended = true;
      return undefined;
    }
    const chunk = r.value;
    this.received += chunk.length;
    // The chunk that crosses the limit is never passed on: what was written stays within it.
    if (this.received > this.maxBytes) throw this.tooLarge();
    return chunk;
  }

  /** The first `n` bytes or more (fewer when the body is shorter); they stay first in `stream()`. */
  async peek(n: number): Promise<Buffer> {
    let have = this.head.reduce((sum, c) => sum + c.length, 0);
    while (have < n) {
      const chunk = await this.next();
      if (!chunk) break;
      this.head.push(chunk);
      have += chunk.length;
    }
    return Buffer.concat(this.head, have);
  }

  /** Every byte of the body, the peeked ones first; throws `tooLarge()` past `maxBytes`. */
  async *stream(): AsyncGenerator<Buffer> {
    for (let chunk = this.head.shift(); chunk; chunk = this.head.shift()) yield chunk;
    for (let chunk = await this.next(); chunk; chunk = await this.next()) yield chunk;
  }

  /**
   * Writes the whole body to a new file `file` (refused if it exists). A full or failing disk is
   * the platform's fault, an AppError (INSUFFICIENT_STORAGE, 507), so the caller refuses the upload
   * as it refuses a bad one and the client reads the answer; any other error is passed on.
   */
  async saveTo(file: string): Promise<void> {
    try {
      await pipeline(this.stream(), createWriteStream(file, { flags: 'wx' }));
    } catch (err) {
      throw platformFault(err, 'storing the upload') ?? err;
    }
  }

  /** Whether the client sent its last byte (a refused upload may not have). */
  get complete(): boolean {
    return this.ended;
  }

  /**
   * After a refusal: reads and drops, in the background, what the client still sends (bounded
   * memory: one chunk at a time), up to DISCARD_SLACK_BYTES past the limit.
   */
  discardRest(): void {
    if (this.ended) return;
    const budget = this.maxBytes + DISCARD_SLACK_BYTES;
    void (async () => {
      try {
        for (;;) {
          const r = await this.chunks.next();
          if (r.done) return;
          this.received += r.value.length;
          if (this.received > budget) {
            this.source.destroy();
            return;
          }
        }
      } catch {
        // The client went away: nothing left to discard.
      }
    })();
  }
}
