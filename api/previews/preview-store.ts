import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SupervisedChild } from '../../lib/process/supervised-child.ts';
import type { JobProgress, PreviewMessage, PreviewOutcome } from '../../worker/job-protocol.ts';
import { workerProcess } from '../execution/worker-process.ts';
import { canonicalJson } from '../http/canonical-json.ts';

/** A preparation that takes longer than this is stopped (its worker killed): PREVIEW_FAILED. */
const PREPARE_TIMEOUT_MS = 120_000;

/** A prepared preview: the plan the player draws, and the files it names. */
export interface Preview {
  id: string;
  accountId: string;
  /** The render plan (worker/plan/plan.ts) with every file named by its name under the files route. */
  plan: PreviewPlan;
  durationSec: number;
  /** The name of the mixed sound (AAC in MP4, loudness as the render's), when the movie has sound. */
  sound: string | undefined;
  /** Each servable name: its file and Content-Type. Nothing else under the directory is served. */
  files: Map<string, { path: string; type: string }>;
  /** Word timings of the subtitles, by element path (absolute seconds): what the captions show. */
  words: Record<string, { text: string; startSec: number; endSec: number }[]>;
  /** Bytes of its files on disk. */
  bytes: number;
  expiresAt: Date;
}

/** What the API reads of a preview's plan; the rest is the player's. */
interface PreviewPlan {
  width: number;
  height: number;
  fps: number;
  totalFrames: number;
}

export interface PreviewStoreOptions {
  /** Where each process's previews go (DATA_DIR/tmp/previews/<process>/<preview>); what a killed process left is swept. */
  dir: string;
  /** The environment of the worker process that prepares (the render workers' settings). */
  workerEnv: NodeJS.ProcessEnv;
  /** How long a preview's files are served after it was last asked for. */
  ttlMs: number;
  /** The most previews kept, and the most bytes of their files; the least recently asked for goes first. */
  maxEntries: number;
  maxBytes: number;
  logger?: Logger | undefined;
  now?: () => Date;
}

/**
 * The previews this API process prepared, by id and by content. A preview is the render's own
 * prepare step (worker/prepare/prepare.ts: assets fetched through the same SSRF-safe fetch, speech
 * synthesised and word-timed, text and shapes rasterised by the same Skia code, the sound mixed
 * and normalised) run on the document, with no frame drawn and nothing encoded but its sound: the
 * browser player draws the frames from it with the worker's frame graph. The same document of the
 * same account is prepared once (its content hash), and concurrent asks share the one preparation.
 * Files live on this process's disk: with several API replicas the chart's Service keeps a client
 * on one (session affinity), and a replica that lacks a preview answers 404 (the player prepares
 * again).
 */
export class PreviewStore {
  private readonly byId = new Map<string, Preview>();
  private readonly byContent = new Map<string, Promise<Preview>>();
  private readonly contentOf = new Map<string, string>();
  private readonly now: () => Date;
  /** This process's own directory under `dir` (several serves may share DATA_DIR). */
  private readonly root: string;
  private ready: Promise<void> | undefined;
  private worker: SupervisedChild<PreviewMessage, PreviewOutcome, JobProgress> | undefined;

  constructor(private readonly opts: PreviewStoreOptions) {
    this.now = opts.now ?? (() => new Date());
    this.root = join(opts.dir, randomBytes(8).toString('hex'));
  }

  /** The preview of `movie` for `accountId`, prepared now unless a live one has the same content. */
  async prepare(
    accountId: string,
    movie: unknown,
    watermark: boolean,
    /** Called before a fresh preparation (not for a cached one): throws to refuse it (the rate limit). */
    options: { admit?: () => Promise<void> } = {},
  ): Promise<{ preview: Preview; cached: boolean }> {
    this.sweep();
    const key = createHash('sha256')
      .update(`${accountId}\n${watermark}\n${canonicalJson(movie)}`)
      .digest('hex');
    const running = this.byContent.get(key);
    if (running) {
      const preview = await running;
      if (this.byId.has(preview.id)) {
        this.touch(preview);
        return { preview, cached: true };
      }
    }
    await options.admit?.();
    const made = this.make(accountId, movie, watermark);
    this.byContent.set(key, made);
    try {
      const preview = await made;
      this.contentOf.set(preview.id, key);
      this.byId.set(preview.id, preview);
      this.evictOverflow(preview.id);
      return { preview, cached: false };
    } catch (err) {
      this.byContent.delete(key);
      throw err;
    }
  }

  /** A live preview's servable file, or undefined (unknown, expired, or not one of its names). */
  file(id: string, name: string): { path: string; type: string } | undefined {
    this.sweep();
    const preview = this.byId.get(id);
    return preview?.files.get(name);
  }

  /** Removes every preview's files (the process is stopping). */
  async close(): Promise<void> {
    this.worker?.kill('SIGTERM');
    this.worker = undefined;
    const ids = [...this.byId.keys()];
    await Promise.all(ids.map((id) => this.drop(id)));
    await rm(this.root, { recursive: true, force: true });
  }

  private touch(preview: Preview): void {
    preview.expiresAt = new Date(this.now().getTime() + this.opts.ttlMs);
    // Map order is recency order: re-inserting moves it to the end.
    this.byId.delete(preview.id);
    this.byId.set(preview.id, preview);
  }

  private sweep(): void {
    const now = this.now().getTime();
    for (const [id, p] of this.byId) if (p.expiresAt.getTime() <= now) void this.drop(id);
  }

  /** The least recently asked for go while there are too many or they hold too much; never `keep`. */
  private evictOverflow(keep: string): void {
    let bytes = 0;
    for (const p of this.byId.values()) bytes += p.bytes;
    for (const [id, p] of this.byId) {
      if (this.byId.size <= this.opts.maxEntries && bytes <= this.opts.maxBytes) break;
      if (id === keep) continue;
      bytes -= p.bytes;
      void this.drop(id);
    }
  }

  private async drop(id: string): Promise<void> {
    const key = this.contentOf.get(id);
    this.byId.delete(id);
    this.contentOf.delete(id);
    if (key) this.byContent.delete(key);
    await rm(join(this.root, id), { recursive: true, force: true }).catch((err: unknown) =>
      this.opts.logger?.warn({ err, preview: id }, 'could not remove a preview'),
    );
  }

  private async make(accountId: string, movie: unknown, watermark: boolean): Promise<Preview> {
    this.ready ??= this.sweepStale();
    await this.ready;
    const id = newId('prv');
    const dir = join(this.root, id);
    await mkdir(dir, { recursive: true });
    try {
      const outcome = await this.call({ type: 'preview', movie, dir, watermark });
      if (outcome.type === 'failed') {
        const { code, message, path } = outcome.error;
        // What only the drawing and encoding of a render would say is, for a preview, the document's.
        if (code === 'RENDER_FAILED') throw new AppError('PREVIEW_FAILED', message, path ? { path } : {});
        throw new AppError(code, message, path ? { path } : {});
      }
      const sizes = await Promise.all(outcome.files.map((f) => stat(f.path).then((s) => s.size)));
      return {
        id,
        accountId,
        plan: outcome.plan as PreviewPlan,
        durationSec: outcome.durationSec,
        sound: outcome.sound,
        files: new Map(outcome.files.map((f) => [f.name, { path: f.path, type: f.type }])),
        words: outcome.words,
        bytes: sizes.reduce((a, b) => a + b, 0),
        expiresAt: new Date(this.now().getTime() + this.opts.ttlMs),
      };
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * The directories of processes that are gone (killed: no `close` ran): every other process's
   * directory not written to for two lifetimes of a preview, when all it held has expired.
   */
  private async sweepStale(): Promise<void> {
    const staleBefore = this.now().getTime() - 2 * this.opts.ttlMs;
    const names = await readdir(this.opts.dir).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(this.opts.dir, name);
      const at = await stat(path).then(
        (s) => s.mtimeMs,
        () => Number.POSITIVE_INFINITY,
      );
      if (at < staleBefore) await rm(path, { recursive: true, force: true });
    }
  }

  /**
   * One preparation in the worker process (started on first use, started again after it died):
   * a crash or a runaway preparation takes that process, never the API.
   */
  private async call(message: PreviewMessage): Promise<PreviewOutcome> {
    if (!this.worker || this.worker.state === 'exited') {
      this.worker = workerProcess<PreviewMessage, PreviewOutcome, JobProgress>('preview worker', this.opts.workerEnv);
    }
    const worker = this.worker;
    const timeout = AbortSignal.timeout(PREPARE_TIMEOUT_MS);
    try {
      return await worker.call(message, { signal: timeout });
    } catch (err) {
      if (timeout.aborted) {
        throw new AppError(
          'PREVIEW_FAILED',
          `Preparing the preview took over ${PREPARE_TIMEOUT_MS / 1000} s; render the movie instead.`,
        );
      }
      this.opts.logger?.warn({ err }, 'the preview worker stopped');
      throw new AppError('PREVIEW_FAILED', 'Preparing the preview failed: its worker stopped.');
    }
  }
}
