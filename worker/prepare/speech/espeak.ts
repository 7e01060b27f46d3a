import { bundledEntry } from '../../../lib/bundled-entry.ts';
import { ownModule } from '../../../lib/module-path.ts';
import { SupervisedChild } from '../../../lib/process/supervised-child.ts';
import type { EspeakRequest, EspeakResult } from './espeak-child.ts';

const CHILD = ownModule('./espeak-child.ts', import.meta.url);

/**
 * Client of the espeak-ng child process (its entry bundled to plain JavaScript, see
 * lib/bundled-entry.ts), started on the first request and again after it died. Requests are calls
 * of a supervised child (lib/process/supervised-child.ts): when the child dies every pending
 * request is rejected with its stderr; a request it refused carries its errno as `code` (a full
 * disk is the platform's fault).
 */
export class EspeakClient {
  private child: SupervisedChild<EspeakRequest, EspeakResult> | undefined;

  /** Synthesises `text` with the espeak voice `voice`; writes s16le mono PCM to `pcmFile`. */
  synthesize(text: string, voice: string, pcmFile: string): Promise<EspeakResult> {
    if (!this.child || this.child.state === 'exited') {
      this.child = new SupervisedChild({ name: 'espeak-ng child', module: bundledEntry(CHILD), stderrChars: 4000 });
    }
    return this.child.call({ text, voice, pcmFile });
  }

  close(): void {
    this.child?.kill('SIGTERM');
    this.child = undefined;
  }
}
