import type { ChildProcess } from 'node:child_process';
import { bundledEntry } from '../../lib/bundled-entry.ts';
import { ownModule } from '../../lib/module-path.ts';
import { forkTied } from '../tied-child.ts';
import type { EspeakReply, EspeakRequest, EspeakWord } from './espeak-child.ts';

const CHILD = ownModule('./espeak-child.ts', import.meta.url);

export interface EspeakResult {
  sampleRate: number;
  samples: number;
  words: EspeakWord[];
}

/**
 * Client of the espeak-ng child process (its entry bundled to plain JavaScript, see
 * lib/bundled-entry.ts). Requests are answered in order; when the child dies every pending request is
 * rejected with its stderr.
 */
export class EspeakClient {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private pending = new Map<number, { resolve: (r: EspeakResult) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  /** Bumped by close(), so a child still being bundled is never started. */
  private generation = 0;
  private stderr = '';

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const generation = this.generation;
    const ready = bundledEntry(CHILD).then((entry) => {
      if (generation !== this.generation) throw new Error('espeak-ng client closed');
      return this.spawn(entry);
    });
    this.ready = ready;
    ready.catch(() => {
      if (this.ready === ready) this.ready = undefined;
    });
    return ready;
  }

  private spawn(entry: string): Promise<void> {
    const child = forkTied(entry, [], { execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.child = child;
    child.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    return new Promise<void>((resolve, reject) => {
      child.on('message', (m: EspeakReply | { ready: true }) => {
        if ('ready' in m) return resolve();
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve({ sampleRate: m.sampleRate, samples: m.samples, words: m.words });
        else p.reject(Object.assign(new Error(m.message), m.errno ? { code: m.errno } : {}));
      });
      let ended = false;
      const end = (how: string) => {
        if (ended) return;
        ended = true;
        const err = new Error(`espeak-ng child ${how}: ${this.stderr.trim().slice(-1500)}`);
        reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
        }
      };
      child.once('exit', (code, sig) => end(`exited (${sig ?? code})`));
      // A request sent while the child exits, or a child that could not start: an 'error' event,
      // which must not become an uncaught exception. The exit that follows answers what waits;
      // a child that never started has no exit to wait for.
      child.on('error', (err) => {
        this.stderr = `${this.stderr}\n${err.message}`.slice(-4000);
        if (child.pid === undefined) end('could not start');
      });
    });
  }

  /** Synthesises `text` with the espeak voice `voice`; writes s16le mono PCM to `pcmFile`. */
  async synthesize(text: string, voice: string, pcmFile: string): Promise<EspeakResult> {
    await this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child?.send({ id, text, voice, pcmFile } satisfies EspeakRequest);
    });
  }

  close(): void {
    this.generation++;
    this.child?.kill('SIGTERM');
    this.child = undefined;
    this.ready = undefined;
  }
}
