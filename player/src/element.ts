/**
 * `<framewright-player>`: the player as a custom element, with its controls (play and pause, a
 * timeline to scrub, the time) in a shadow root.
 *
 *   <script type="module" src="https://api.example.com/player/framewright-player.js"></script>
 *   <framewright-player api="https://api.example.com" template="tpl_..." variables='{"name":"Ada"}'></framewright-player>
 *   <script type="module">
 *     const el = document.querySelector('framewright-player');
 *     el.token = async () => (await fetch('/my-server/preview-token')).text();
 *   </script>
 *
 * Attributes: `api` (the API's base URL), `template` (a template id) or the `movie` property (a
 * document), `variables` (JSON), `autoplay`. Properties: `token` (a preview token, or a function
 * returning one), `movie`, `variables`, `player` (the FramewrightPlayer, for its imperative API).
 * Setting any of them prepares the preview again (debounced).
 */
import { FramewrightPlayer } from './player.ts';
import type { PreviewRequest } from './preview-api.ts';

/** Edits in a row (typing in a variable) prepare once, this long after the last. */
const RELOAD_DELAY_MS = 300;

/** The element's style, adopted by each shadow root (no <style> element: pages with a strict CSP take it). */
const STYLE = `
:host { display: block; position: relative; background: #000; color: #fff; font: 13px system-ui, sans-serif; }
.stage { width: 100%; }
.bar { display: flex; align-items: center; gap: 8px; padding: 6px 8px; background: rgba(0,0,0,.8); }
button { font: inherit; color: inherit; background: #333; border: 1px solid #666; border-radius: 4px; padding: 2px 10px; cursor: pointer; }
button:focus-visible, input:focus-visible { outline: 2px solid #7aa7ff; outline-offset: 1px; }
input[type=range] { flex: 1; }
output { font-variant-numeric: tabular-nums; min-width: 9ch; text-align: right; }
.status { padding: 4px 8px; color: #ddd; }
.status:empty { display: none; }
`;

let sheet: CSSStyleSheet | undefined;

function clock(sec: number): string {
  const m = Math.floor(sec / 60);
  const s = sec - m * 60;
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}

export class FramewrightPlayerElement extends HTMLElement {
  static get observedAttributes(): string[] {
    return ['api', 'template', 'variables'];
  }

  #player: FramewrightPlayer | undefined;
  #token: string | (() => string | Promise<string>) | undefined;
  #movie: Record<string, unknown> | undefined;
  #variables: Record<string, unknown> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #scrubbing = false;
  readonly #stage: HTMLDivElement;
  readonly #button: HTMLButtonElement;
  readonly #range: HTMLInputElement;
  readonly #time: HTMLOutputElement;
  readonly #status: HTMLDivElement;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    sheet ??= new CSSStyleSheet();
    if (sheet.cssRules.length === 0) sheet.replaceSync(STYLE);
    root.adoptedStyleSheets = [sheet];
    this.#stage = document.createElement('div');
    this.#stage.className = 'stage';
    this.#stage.setAttribute('part', 'stage');
    const bar = document.createElement('div');
    bar.className = 'bar';
    bar.setAttribute('part', 'controls');
    this.#button = document.createElement('button');
    this.#button.type = 'button';
    this.#button.textContent = 'Play';
    this.#button.disabled = true;
    this.#range = document.createElement('input');
    this.#range.type = 'range';
    this.#range.min = '0';
    this.#range.max = '0';
    this.#range.step = 'any';
    this.#range.value = '0';
    this.#range.disabled = true;
    this.#range.setAttribute('aria-label', 'Time');
    this.#time = document.createElement('output');
    this.#time.textContent = clock(0);
    this.#status = document.createElement('div');
    this.#status.className = 'status';
    this.#status.setAttribute('role', 'status');
    bar.append(this.#button, this.#range, this.#time);
    root.append(this.#stage, bar, this.#status);
    this.#button.addEventListener('click', () => {
      const p = this.#player;
      if (!p) return;
      if (p.paused) p.play();
      else p.pause();
    });
    this.#range.addEventListener('input', () => {
      this.#scrubbing = true;
      this.#player
        ?.seek(Number(this.#range.value))
        .catch((err: Error) => {
          this.#status.textContent = `Could not show that frame: ${err.message}`;
        })
        .finally(() => {
          this.#scrubbing = false;
        });
    });
  }

  /** The FramewrightPlayer inside (made on first use). */
  get player(): FramewrightPlayer {
    if (!this.#player) {
      const player = new FramewrightPlayer(this.#stage, {
        apiUrl: this.getAttribute('api') ?? '',
        token: () => {
          const t = this.#token;
          if (t === undefined)
            throw new Error('Set the element’s token (a preview token, or a function returning one)');
          return typeof t === 'function' ? t() : t;
        },
      });
      player.addEventListener('timeupdate', () => this.#showTime());
      player.addEventListener('play', () => {
        this.#button.textContent = 'Pause';
      });
      for (const e of ['pause', 'ended']) {
        player.addEventListener(e, () => {
          this.#button.textContent = 'Play';
          this.#showTime();
        });
      }
      player.addEventListener('loaded', () => {
        this.#button.disabled = false;
        this.#range.disabled = false;
        this.#range.max = String(player.duration);
        this.#status.textContent = '';
        this.#showTime();
        if (this.hasAttribute('autoplay') && player.paused) player.play();
      });
      player.addEventListener('error', (e) => {
        const err = (e as CustomEvent).detail as Error;
        this.#status.textContent = `Preview failed: ${err.message}`;
      });
      this.#player = player;
    }
    return this.#player;
  }

  set token(value: string | (() => string | Promise<string>)) {
    this.#token = value;
    this.#schedule();
  }

  get movie(): Record<string, unknown> | undefined {
    return this.#movie;
  }

  set movie(value: Record<string, unknown> | undefined) {
    this.#movie = value;
    this.#schedule();
  }

  get variables(): Record<string, unknown> | undefined {
    return this.#variables ?? this.#attributeVariables();
  }

  set variables(value: Record<string, unknown> | undefined) {
    this.#variables = value;
    this.#schedule();
  }

  attributeChangedCallback(): void {
    this.#schedule();
  }

  connectedCallback(): void {
    this.#schedule();
  }

  disconnectedCallback(): void {
    clearTimeout(this.#timer);
    this.#player?.destroy();
    this.#player = undefined;
  }

  #attributeVariables(): Record<string, unknown> | undefined {
    const raw = this.getAttribute('variables');
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as Record<string, unknown>;
    } catch {
      this.#status.textContent = 'The variables attribute is not JSON.';
      return undefined;
    }
  }

  #schedule(): void {
    if (!this.isConnected || this.#token === undefined) return;
    const template = this.getAttribute('template');
    if (!this.#movie && !template) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#status.textContent = this.#player?.preview ? '' : 'Preparing the preview…';
      const variables = (this.variables ?? {}) as NonNullable<PreviewRequest['variables']>;
      const request: PreviewRequest = this.#movie
        ? { movie: this.#movie as PreviewRequest['movie'], variables }
        : { template_id: template!, variables };
      this.player.load(request).catch(() => {});
    }, RELOAD_DELAY_MS);
  }

  #showTime(): void {
    const p = this.#player;
    if (!p) return;
    if (!this.#scrubbing) this.#range.value = String(p.currentTime);
    this.#time.textContent = `${clock(p.currentTime)} / ${clock(p.duration)}`;
  }
}

/** Registers `<framewright-player>` (once; again is a no-op). */
export function definePlayerElement(name = 'framewright-player'): void {
  if (!customElements.get(name)) customElements.define(name, FramewrightPlayerElement);
}
