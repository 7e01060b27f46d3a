// The web dashboard in a real browser: Debian's Chromium driven by playwright-core against a real
// `framewright serve` on its embedded defaults (PGlite, local disk, renders in worker processes).
// One person's session, step by step: sign in, create a key and use it, render a template and
// watch it finish and play, a validation finding at its path, a failed render's error, copy as
// curl, as TypeScript and as Python (and run each), roll and revoke, the keyboard, the phone size, axe-core, the CSP, and no
// request leaving the origin. DASHBOARD_SCREENSHOTS=docs/images also writes the screenshots the
// README and docs/dashboard.md show.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { freePort } from '../services/free-port.ts';
import { spawnServe, stopServe, untilReady } from '../services/serve-process.ts';
import { browserMissing, launchChromium } from './browser.ts';

const run = promisify(execFile);
const SHOTS = process.env.DASHBOARD_SCREENSHOTS;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A template that renders in a second or two on 2 cores: 320x180, 15 fps, 1 s. */
const TINY_TEMPLATE = {
  schema: 'v1',
  width: 320,
  height: 180,
  fps: 15,
  variables: {
    name: { type: 'string', default: 'world', description: 'Who is greeted.' },
    tone: { type: 'enum', options: ['calm', 'bold'], default: 'calm' },
  },
  scenes: [
    {
      id: 'intro',
      duration: 1,
      background: '#1a2238',
      elements: [{ id: 'title', type: 'text', text: 'Hi {{name}}, {{tone}}', fontSize: 28, color: '#ffffff' }],
    },
  ],
};

/** Evaluates `expression` in the page (a string: this file is type-checked without the DOM). */
function inPage(page: Page, expression: string): Promise<unknown> {
  return page.evaluate(expression);
}

/** Polls `check` (every 50 ms, up to 10 s) until it holds. */
async function until(check: () => Promise<boolean>, what = 'the condition'): Promise<void> {
  for (const deadline = Date.now() + 10_000; !(await check()); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > deadline) assert.fail(`${what} did not hold within 10 s`);
  }
}

/** Polls `expression` in the page (every 100 ms, up to `ms`) until it is truthy. */
async function untilInPage(page: Page, expression: string, what: string, ms = 90_000): Promise<void> {
  for (
    const deadline = Date.now() + ms;
    !(await inPage(page, expression));
    await new Promise((r) => setTimeout(r, 100))
  ) {
    if (Date.now() > deadline) assert.fail(`${what} did not hold within ${ms / 1000} s`);
  }
}

/**
 * Frame `frame` of a live player (the element `selector`'s `player`): sought to as the timeline
 * would (the player's controls follow), then read back exactly from the canvas the page shows.
 */
async function liveFrame(page: Page, selector: string, frame: number): Promise<LiveFrame> {
  const got = (await inPage(
    page,
    `(async () => {
      const p = document.querySelector(${JSON.stringify(selector)}).player;
      await p.seek(${frame} / p.fps);
      const rgba = await p.frameRgba(${frame}, 'canvas');
      let s = '';
      for (let i = 0; i < rgba.length; i += 0x8000) s += String.fromCharCode.apply(null, rgba.subarray(i, i + 0x8000));
      return { width: p.preview.width, height: p.preview.height, data: btoa(s) };
    })()`,
  )) as { width: number; height: number; data: string };
  const data = Buffer.from(got.data, 'base64');
  assert.equal(data.length, got.width * got.height * 4);
  return new LiveFrame(got.width, got.height, data);
}

/** RGBA rows as the frame graph reads them back: bottom-up. Coordinates here are top-down. */
class LiveFrame {
  constructor(
    readonly width: number,
    readonly height: number,
    readonly data: Buffer,
  ) {}

  pixel(x: number, y: number): number[] {
    assert.ok(
      x >= 0 && x < this.width && y >= 0 && y < this.height,
      `${x},${y} is outside ${this.width}x${this.height}`,
    );
    const i = ((this.height - 1 - y) * this.width + x) * 4;
    return [...this.data.subarray(i, i + 3)];
  }

  /** The brightest red value in rows [fromY, toY) (the watermark sits in the top-right corner). */
  brightest(fromY: number, toY = this.height): number {
    let max = 0;
    for (let y = fromY; y < toY; y++) for (let x = 0; x < this.width; x++) max = Math.max(max, this.pixel(x, y)[0]!);
    return max;
  }

  /** How many pixels of rows [fromY, toY) differ from `other`'s. */
  differences(other: LiveFrame, fromY: number, toY: number): number {
    let n = 0;
    for (let y = fromY; y < toY; y++) {
      for (let x = 0; x < this.width; x++) if (this.pixel(x, y).join() !== other.pixel(x, y).join()) n++;
    }
    return n;
  }
}

/** Whether `rgb` is `want` give or take `tolerance` per channel. */
function near(rgb: number[], want: number[], tolerance: number): boolean {
  return want.every((v, i) => Math.abs((rgb[i] ?? -999) - v) <= tolerance);
}

/** The scene background of TINY_TEMPLATE, #1a2238. */
const BACKGROUND = [0x1a, 0x22, 0x38];

async function axeViolations(page: Page, axeSource: string): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a <script>
  // tag would be refused by it, as it should be).
  const results = (await page.evaluate(`${axeSource}
    axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('the dashboard in Chromium', { skip: browserMissing(), timeout: 240_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-dashboard-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const served = spawnServe({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: base,
    RENDER_CONCURRENCY: '1',
    // The session packs minutes of a person's clicks (and the preview's still renders, each a POST
    // and its polls) into seconds, with the test's own calls on the same key: more than the trial
    // plan's 60 requests a minute. The limiter itself is tested in api/rate-limit.
    PLAN_RATE_LIMITS: 'trial=600',
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
    REDIS_URL: '',
    S3_BUCKET: '',
  });
  let closeBrowser: (() => Promise<void>) | undefined;
  // In this order (node:test runs after-hooks first to last): the browser first, as a media stream
  // it keeps open would hold the server's drain; then the server; then its data directory.
  t.after(async () => {
    await closeBrowser?.();
    const stopping = Date.now();
    await stopServe(served);
    t.diagnostic(`serve stopped in ${Date.now() - stopping} ms`);
    await rm(dataDir, { recursive: true, force: true });
  });
  await untilReady(served, base, 60_000);
  const firstKey = /API key \(shown once, store it now\): (\S+)/.exec(served.log())?.[1];
  assert.ok(firstKey, served.log());

  const { context, close } = await launchChromium();
  closeBrowser = close;
  const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const problems: string[] = [];
  const offOrigin: string[] = [];
  context.on('request', (r) => {
    if (!r.url().startsWith(`${base}/`)) offOrigin.push(r.url());
  });
  const page = await context.newPage();
  /**
   * The live preview's refusals the browser logged (a document it cannot prepare answers 422, which
   * the browser logs as a failed resource), counted only while a step provokes one on purpose.
   */
  const refusedPreviews = { expected: false, seen: 0 };
  const networkChanges: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // A refused key's 401 is logged by the browser as a failed resource; everything else is a fault.
    if (/status of 401/.test(m.text())) return;
    // Not the product's: Chromium drops its requests when the machine's network changes, which the
    // real-node tests running beside this one do as they start and stop pods (their interfaces).
    // The player asks again (player/src/preview-api.ts); a request that still fails fails a step.
    if (/net::ERR_NETWORK_CHANGED/.test(m.text())) {
      networkChanges.push(m.location().url);
      return;
    }
    if (refusedPreviews.expected && /status of 422/.test(m.text()) && m.location().url === `${base}/v1/previews`) {
      refusedPreviews.seen++;
      return;
    }
    problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const shot = async (name: string, p: Page = page) => {
    if (!SHOTS) return;
    await mkdir(SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(SHOTS, `dashboard-${name}.png`), fullPage: true });
  };
  const api = (key: string, url: string, init: RequestInit = {}) =>
    fetch(`${base}${url}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });
  /** What a preview must not change: how many renders the account has, and its credits. */
  const ledger = async (key: string) => {
    const renders = (await (await api(key, '/v1/renders?page_size=1')).json()) as { total: number };
    const usage = (await (await api(key, '/v1/usage')).json()) as { credits: { reserved: number; balance: number } };
    return { renders: renders.total, credits: usage.credits };
  };

  await t.test('served with a strict Content-Security-Policy and no third-party files', async () => {
    for (const url of ['/dashboard', '/dashboard/app.js', '/dashboard/app.css']) {
      const res = await fetch(`${base}${url}`);
      assert.equal(res.status, 200, url);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /style-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    }
    const html = await (await fetch(`${base}/dashboard`)).text();
    assert.doesNotMatch(html, /<script>|<style|\sstyle=|\son[a-z]+=/i, 'no inline script or style');
    assert.doesNotMatch(html, /https?:\/\//, 'no absolute (third-party) URL in the page');
  });

  let signedInKey = firstKey;
  await t.test('sign in: a refused key says so; the key stays in this tab only', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('API key').fill(`fw_live_${'x'.repeat(40)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'UNAUTHORIZED' }).waitFor();
    assert.equal(await page.getByLabel('API key').getAttribute('aria-invalid'), 'true');
    await shot('signin');
    await page.getByLabel('API key').fill(firstKey);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Renders', level: 1 }).waitFor();
    const storage = await inPage(
      page,
      `({ session: sessionStorage.getItem('framewright.apiKey'), local: localStorage.length,
          cookie: document.cookie, url: location.href })`,
    );
    assert.deepEqual(storage, { session: firstKey, local: 0, cookie: '', url: `${base}/dashboard#/renders` });
    await page.reload();
    await page.getByRole('heading', { name: 'Renders', level: 1 }).waitFor();
    // Another tab has its own session: it asks for a key.
    const other = await context.newPage();
    await other.goto(`${base}/dashboard`);
    await other.getByLabel('API key').waitFor();
    await other.close();
  });

  let created = '';
  await t.test('create a key: the secret shown once, copied, and it works', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByLabel('Mode').selectOption('live');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByLabel('Secret');
    await secret.waitFor();
    created = await secret.inputValue();
    assert.match(created, /^fw_live_[0-9A-Za-z]{40}$/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await inPage(page, 'navigator.clipboard.readText()'), created);
    await shot('keys-new');
    assert.equal((await api(created, '/v1/usage')).status, 200, 'the new key authenticates');
    await page.getByRole('button', { name: 'Done, I stored it' }).click();
    await page.reload();
    const row = page.locator('tr', { hasText: created.slice(0, 12) });
    await row.waitFor();
    assert.doesNotMatch((await row.textContent()) ?? '', /never/, 'its last use is shown');
    assert.equal(await page.getByText(created).count(), 0, 'the secret is not shown again');
  });

  let renderId = '';
  await t.test('a validation finding is shown at its path as the person types', async () => {
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { name: 'New template' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Tiny greeting');
    const doc = page.getByLabel('Document (JSON)');
    const broken = JSON.stringify(TINY_TEMPLATE, null, 2).replace('"duration": 1', '"duration": -1');
    await doc.fill(broken);
    const finding = page.locator('#findings li[data-path="scenes[0].duration"]');
    await finding.waitFor();
    assert.match(
      (await finding.textContent()) ?? '',
      /line \d+ · scenes\[0\]\.duration VALIDATION_ERROR: duration must be/,
    );
    assert.equal(await doc.getAttribute('aria-invalid'), 'true');
    await finding.getByRole('button').click();
    const selected = await inPage(
      page,
      'document.activeElement.value.slice(document.activeElement.selectionStart, document.activeElement.selectionEnd)',
    );
    assert.equal(selected, '-1', 'the finding selects its value in the editor');
    await shot('template-finding');
    await doc.fill(JSON.stringify(TINY_TEMPLATE, null, 2));
    await page.getByText('No problems found.').waitFor();
    assert.equal(await doc.getAttribute('aria-invalid'), 'false');
  });

  await t.test(
    'the editor plays the document live as it changes, free; "Render this frame exactly" renders its frame',
    async () => {
      const live = '.preview .live-player';
      const player = (expr: string) => inPage(page, `document.querySelector('${live}').player.${expr}`);
      const before = await ledger(signedInKey);
      // The template opened with a live preview (no button: it costs nothing); the valid document of
      // the step before (TINY_TEMPLATE: 320x180, 1 s at 15 fps) is the one it shows.
      await untilInPage(
        page,
        `(() => { const p = document.querySelector('${live}')?.player;
        return !!p && p.preview?.width === 320 && p.duration === 1 && p.totalFrames === 15; })()`,
        'the live preview of the template',
      );
      const tiny = await liveFrame(page, live, 7);
      assert.deepEqual([tiny.width, tiny.height], [320, 180]);
      // The scene's background where no text is (the watermark sits top right), the white title in
      // the middle.
      for (const [x, y] of [
        [2, 177],
        [160, 170],
        [2, 90],
        [317, 177],
      ] as const) {
        assert.ok(near(tiny.pixel(x, y), BACKGROUND, 1), `background #1a2238 at ${x},${y}: ${tiny.pixel(x, y)}`);
      }
      assert.ok(tiny.brightest(70, 110) > 200, `the white title (brightest ${tiny.brightest(70, 110)})`);
      // And the page shows it: the canvas as the browser composites it.
      const canvas = page.locator(`${live} canvas`);
      const { data: shown, info } = await sharp(await canvas.screenshot())
        .raw()
        .toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => [
        ...shown.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
      ];
      assert.ok(info.width >= 300, `the canvas fills the panel (${info.width} px)`);
      assert.ok(near(at(3, info.height - 3), BACKGROUND, 3), `on screen: ${at(3, info.height - 3)}`);
      let middle = 0;
      for (let x = 0; x < info.width; x++) middle = Math.max(middle, at(x, Math.floor(info.height / 2))[0]!);
      assert.ok(middle > 200, `on screen, the title across the middle (brightest ${middle})`);

      // A title fading in over 0.8 s: nothing at 0 s, the text at 1.5 s. 3.37 s at 30 fps is 101
      // frames, 3.3666... s, which the renders list shows as "3.4 s".
      const scene = TINY_TEMPLATE.scenes[0]!;
      const fading = {
        ...TINY_TEMPLATE,
        fps: 30,
        scenes: [
          {
            ...scene,
            duration: 3.37,
            elements: [{ ...scene.elements[0], fontSize: 40, animation: { preset: 'fade-in', duration: 0.8 } }],
          },
        ],
      };
      const doc = page.getByLabel('Document (JSON)');
      const firstPreview = await page.locator(live).getAttribute('data-preview');
      await doc.fill(JSON.stringify(fading, null, 2));
      await page.getByText('No problems found.').waitFor();
      // The edited document plays in its place, about 400 ms after the check found it valid.
      await untilInPage(
        page,
        `(() => { const p = document.querySelector('${live}').player;
        return p.totalFrames === 101 && document.querySelector('${live}').dataset.preview !== ${JSON.stringify(firstPreview)}; })()`,
        'the live preview of the edited document',
      );
      const timeline = page.getByLabel('Time', { exact: true });
      // The measured length (101 frames at 30 fps) bounds the timeline.
      assert.equal(Number(await timeline.getAttribute('max')), 101 / 30);
      // The time it was at goes on (the player keeps its place as the document changes).
      assert.match((await page.locator(`${live} output`).textContent()) ?? '', /^0:00\.\d \/ 0:03\.4$/);
      const start = await liveFrame(page, live, 0);
      const middleFrame = await liveFrame(page, live, 45);
      assert.ok(start.brightest(63) < 90, `no title yet at 0 s (brightest ${start.brightest(63)})`);
      assert.ok(middleFrame.brightest(63) > 200, `the white title at 1.5 s (brightest ${middleFrame.brightest(63)})`);
      // Scrubbing seeks as the timeline moves.
      await timeline.fill('0.5');
      await untilInPage(
        page,
        `document.querySelector('${live}').player.currentTime === 0.5`,
        'a seek to 0.5 s',
        10_000,
      );
      await timeline.fill('1.5');
      await untilInPage(
        page,
        `document.querySelector('${live}').player.currentTime === 1.5`,
        'a seek to 1.5 s',
        10_000,
      );
      assert.equal(await page.locator(`${live} output`).textContent(), '0:01.5 / 0:03.4');
      assert.equal(await timeline.getAttribute('aria-valuetext'), '1.5 s of 3.4 s');
      // Play, then pause: the time moves on from where it was.
      await page.locator(live).getByRole('button', { name: 'Play' }).click();
      await page.locator(live).getByRole('button', { name: 'Pause' }).waitFor();
      await until(async () => ((await player('currentTime')) as number) > 1.6, 'the player playing on');
      await page.locator(live).getByRole('button', { name: 'Pause' }).click();
      assert.equal(await player('paused'), true);
      assert.deepEqual(await ledger(signedInKey), before, 'the live preview created no render and charged nothing');

      // Nothing is rendered (nor charged) until the person asks for the frame exactly.
      const frame = page.locator('img.preview-frame');
      assert.equal(await frame.isVisible(), false);
      /**
       * The still once it shows this document's frame at `time` (its status names the length, 3.4 s,
       * which the template's 1 s is not): its image's URL, after the browser decoded it.
       */
      const shownAt = async (time: string) => {
        for (const deadline = Date.now() + 90_000; ; await new Promise((r) => setTimeout(r, 100))) {
          const ready = (await inPage(
            page,
            `(() => { const i = document.querySelector('img.preview-frame');
            return !!i && !i.hidden && i.dataset.time === ${JSON.stringify(time)} && i.complete && i.naturalWidth > 0
              && document.querySelector('.preview .still-status').textContent.includes('of 3.4 s'); })()`,
          )) as boolean;
          if (ready) return (await frame.getAttribute('src')) ?? '';
          if (Date.now() > deadline)
            assert.fail(`no still at ${time} s: ${await page.locator('.preview').textContent()}`);
        }
      };
      /** The brightest pixel below the watermark (it sits in the top-right corner): is the title there? */
      const brightest = async (url: string) => {
        const { data, info } = await sharp(Buffer.from(await (await fetch(url)).arrayBuffer()))
          .raw()
          .toBuffer({ resolveWithObject: true });
        let max = 0;
        for (let y = Math.floor(info.height * 0.35); y < info.height; y++) {
          for (let x = 0; x < info.width; x++) max = Math.max(max, data[(y * info.width + x) * info.channels]!);
        }
        return { max, width: info.width, height: info.height };
      };
      const exactly = page.getByRole('button', { name: 'Render this frame exactly' });
      await timeline.fill('0');
      await untilInPage(page, `document.querySelector('${live}').player.currentTime === 0`, 'a seek to 0 s', 10_000);
      await exactly.click();
      const first = await shownAt('0');
      const atStart = await brightest(first);
      assert.deepEqual([atStart.width, atStart.height], [160, 90], 'a draft: half of 320x180');
      // At the player's time: scrubbed to 1.5 s, the still is that frame.
      await timeline.fill('1.5');
      await untilInPage(
        page,
        `document.querySelector('${live}').player.currentTime === 1.5`,
        'a seek to 1.5 s',
        10_000,
      );
      await exactly.click();
      const second = await shownAt('1.5');
      assert.notEqual(second, first, 'another render');
      const later = await brightest(second);
      assert.ok(atStart.max < 90, `no title yet at 0 s (brightest ${atStart.max})`);
      assert.ok(later.max > 200, `the white title at 1.5 s (brightest ${later.max})`);
      assert.equal(await frame.getAttribute('alt'), 'Preview frame at 1.5 s');
      assert.equal((await ledger(signedInKey)).renders, before.renders + 2, 'each still is a render');
      await shot('template-preview');
      await doc.fill(JSON.stringify(TINY_TEMPLATE, null, 2));
      await page.getByText('No problems found.').waitFor();
    },
  );

  await t.test('render the template from its variables form and watch it finish and play', async () => {
    // The form is generated from the declared variables: typed inputs, enum options, defaults.
    const name = page.getByLabel('name', { exact: true });
    assert.equal(await name.inputValue(), 'world');
    const tone = page.getByLabel('tone', { exact: true });
    assert.deepEqual(await tone.locator('option').allInnerTexts(), ['calm', 'bold']);
    // The live preview shows the template as it is again ("Hi world, calm").
    const live = '.preview .live-player';
    await untilInPage(
      page,
      `document.querySelector('${live}').player.totalFrames === 15`,
      'the live preview of the template again',
    );
    const ledgerBefore = await ledger(signedInKey);
    const shownBefore = await page.locator(live).getAttribute('data-preview');
    const greeting = await liveFrame(page, live, 0);
    await tone.selectOption('bold');
    await name.fill('Ada');
    // The variables' change plays in the preview ("Hi Ada, bold"), with no render made or charged.
    await untilInPage(
      page,
      `document.querySelector('${live}').dataset.preview !== ${JSON.stringify(shownBefore)}`,
      'the live preview of the new variables',
    );
    const changed = await liveFrame(page, live, 0);
    assert.ok(changed.differences(greeting, 60, 120) > 100, 'another title');
    assert.ok(near(changed.pixel(2, 177), BACKGROUND, 1), 'the same background');
    assert.deepEqual(await ledger(signedInKey), ledgerBefore, 'a variable previewed: no render, nothing charged');
    // The still of the step before stays, said to be of another version than the one playing.
    assert.match(
      (await page.locator('.preview .still-status').textContent()) ?? '',
      /^The frame at 1\.5 s of 3\.4 s, rendered .* It is of an earlier version of the document or its variables\.$/,
    );
    assert.equal(await page.getByLabel('Draft').isChecked(), true, 'draft by default');
    await shot('template-editor');
    await page.getByRole('button', { name: 'Render', exact: true }).click();
    await page.waitForURL(/#\/renders\/rnd_/);
    renderId = /rnd_[0-9a-z]+/.exec(page.url())![0];
    await page.locator('[data-status="done"]').waitFor({ timeout: 120_000 });
    const video = page.locator('video');
    await video.waitFor();
    const played = (await inPage(
      page,
      `(async () => {
        const v = document.querySelector('video');
        v.muted = true;
        await v.play();
        await new Promise((resolve) => setTimeout(resolve, 400));
        return { width: v.videoWidth, height: v.videoHeight, time: v.currentTime, error: v.error?.code ?? null };
      })()`,
    )) as { width: number; height: number; time: number; error: number | null };
    assert.equal(played.error, null);
    // A draft is rendered at half size.
    assert.ok(played.width > 0 && played.height > 0, JSON.stringify(played));
    assert.ok(played.time > 0, `the video plays: ${JSON.stringify(played)}`);
    await inPage(page, `(() => { const v = document.querySelector('video'); v.pause(); v.currentTime = 0.5; })()`);
    const stored = (await (await api(signedInKey, `/v1/renders/${renderId}`)).json()) as {
      draft: boolean;
      templateId: string;
    };
    assert.equal(stored.draft, true);
    assert.match(stored.templateId, /^tpl_/);
    // Beside the video, on request, its document plays live: free (no render, nothing charged).
    const beforePlaying = await ledger(signedInKey);
    assert.equal(await page.locator('.live-player').count(), 0, 'nothing prepared until asked');
    await page.getByRole('button', { name: 'Play the document' }).click();
    await untilInPage(
      page,
      `(() => { const p = document.querySelector('.live-player')?.player; return !!p && p.totalFrames === 15 && p.currentTime > 0; })()`,
      "the render's document, playing live",
    );
    await page.locator('.live-player').getByRole('button', { name: 'Pause' }).click();
    const resolved = await liveFrame(page, '.live-player', 7);
    // The render's document as it rendered: a draft, at the video's size.
    assert.deepEqual([resolved.width, resolved.height], [played.width, played.height]);
    const { width: w, height: hh } = resolved;
    for (const [x, y] of [
      [1, hh - 2],
      [w - 2, hh - 2],
      [1, Math.floor(hh / 2)],
    ] as const) {
      assert.ok(near(resolved.pixel(x, y), BACKGROUND, 1), `its background at ${x},${y}: ${resolved.pixel(x, y)}`);
    }
    assert.ok(resolved.brightest(Math.floor(hh * 0.35)) > 200, 'its title');
    assert.deepEqual(await ledger(signedInKey), beforePlaying, 'playing the document: no render, nothing charged');
    await shot('render-done');
  });

  await t.test('copy as curl: the request again, without the key, and it works', async () => {
    await page.getByText('The request that made it').click();
    const pre = page.getByLabel('curl command');
    await pre.filter({ hasText: 'curl' }).waitFor();
    const command = (await pre.textContent()) ?? '';
    assert.ok(!command.includes(signedInKey) && !command.includes(created), 'no key in the command');
    assert.match(command, /\$FRAMEWRIGHT_API_KEY/);
    const { stdout } = await run('bash', ['-c', command], {
      env: { ...process.env, FRAMEWRIGHT_API_KEY: signedInKey },
    });
    const again = JSON.parse(stdout) as { id: string; status: string };
    assert.match(again.id, /^rnd_/);
    // Wait for it, so the trial plan's one render at a time is free for the next step.
    for (let i = 0; i < 600; i++) {
      const r = (await (await api(signedInKey, `/v1/renders/${again.id}`)).json()) as { status: string };
      if (r.status === 'done' || r.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  await t.test('copy as TypeScript and as Python: the same request on the typed clients, and each works', async () => {
    const movie = await (await api(signedInKey, `/v1/renders/${renderId}/movie`)).json();
    const copy = async (name: string) => {
      await page.getByRole('button', { name }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      const text = (await inPage(page, 'navigator.clipboard.readText()')) as string;
      await page.getByRole('button', { name }).waitFor();
      assert.ok(!text.includes(signedInKey) && !text.includes(created), `no key in ${name}`);
      return text;
    };
    /** Runs a copied program with the key in its environment; the render it made, once finished. */
    const runProgram = async (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
      const { stdout } = await run(command, args, {
        cwd: ROOT,
        env: { ...process.env, ...env, FRAMEWRIGHT_API_KEY: signedInKey },
      });
      // It prints the render's status and outputUrl.
      const [status, url] = stdout.trim().split(' ');
      assert.equal(status, 'done', stdout);
      const id = /\/v1\/outputs\/(rnd_[0-9a-z]+)\?/.exec(url ?? '')?.[1];
      assert.ok(id && id !== renderId, stdout);
      // The same document as the render it was copied from.
      assert.deepEqual(await (await api(signedInKey, `/v1/renders/${id}/movie`)).json(), movie);
    };

    const typescript = await copy('Copy as TypeScript');
    assert.match(typescript, /^import \{ createFramewrightClient, waitForRender \} from '@framewright\/client';$/m);
    assert.match(typescript, /await fw\.POST\('\/v1\/renders', \{/);
    assert.match(typescript, /apiKey: process\.env\.FRAMEWRIGHT_API_KEY/);
    assert.ok(typescript.includes(`body: ${JSON.stringify({ movie }, null, 2).replaceAll('\n', '\n  ')},`));
    // Run as a user's module, with the package being clients/typescript of this repository.
    const program = path.join(dataDir, 'copied.mts');
    const client = path.join(ROOT, 'clients/typescript/src/index.ts');
    await writeFile(program, typescript.replace(`'@framewright/client'`, JSON.stringify(client)));
    await runProgram(process.execPath, ['--import', 'tsx', program]);

    const python = await copy('Copy as Python');
    assert.match(python, /^from framewright_client\.api\.renders import create_render, get_render$/m);
    assert.match(python, /create_render\.sync\(client=client, body=CreateRenderBody\.from_dict\(body\)\)/);
    assert.match(python, /token=os\.environ\["FRAMEWRIGHT_API_KEY"\]/);
    await runProgram(path.join(ROOT, '.cache/venv/bin/python'), ['-c', python], {
      PYTHONPATH: path.join(ROOT, 'clients/python/framewright-client'),
      PYTHONDONTWRITEBYTECODE: '1',
    });

    // The panel shows what was copied, in the format chosen.
    await page.getByLabel('Format').selectOption('python');
    await page.getByLabel('Python code').filter({ hasText: 'create_render' }).waitFor();
    assert.equal(await page.getByLabel('Python code').textContent(), python);
    await page.getByLabel('Format').selectOption('typescript');
    await page.getByLabel('TypeScript code').filter({ hasText: 'fw.POST' }).waitFor();
    assert.equal(await page.getByLabel('TypeScript code').textContent(), typescript);
    await page.getByLabel('Format').selectOption('curl');
    await page.getByLabel('curl command').filter({ hasText: 'curl -sS' }).waitFor();
  });

  await t.test('a failed render shows its error and path; the list filters by status', async () => {
    const res = await api(signedInKey, '/v1/renders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        movie: {
          ...TINY_TEMPLATE,
          variables: undefined,
          scenes: [
            {
              id: 's',
              duration: 1,
              elements: [{ id: 'logo', type: 'image', src: 'http://127.0.0.1:9/nothing.png', width: 10, height: 10 }],
            },
          ],
        },
      }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const { id } = (await res.json()) as { id: string };
    await page.goto(`${base}/dashboard#/renders/${id}`);
    await page.locator('[data-status="failed"]').waitFor({ timeout: 60_000 });
    const error = page.getByRole('alert');
    assert.match((await error.textContent()) ?? '', /ASSET_UNREACHABLE[\s\S]*scenes\[0\]\.elements\[0\]\.src/);
    await shot('render-failed');
    await page.getByRole('link', { name: '← All renders' }).click();
    const rows = () => page.locator('tbody tr').allInnerTexts();
    await page.getByLabel('Status').selectOption('failed');
    await until(async () => (await rows()).length === 1 && (await rows())[0]!.includes(id));
    await page.getByLabel('Status').selectOption('done');
    await until(async () => {
      const shown = (await rows()).join('\n');
      return shown.includes(renderId) && !shown.includes(id);
    });
    await page.getByLabel('Status').selectOption('');
    await page.locator('tbody tr', { hasText: id }).waitFor();
    // Each finished render shows its thumbnail (a failed one a dash) and a readable length: the
    // previews of the 3.37 s document (3.3666... s) read "3.4 s".
    const done = page.locator('tbody tr', { hasText: renderId });
    await until(
      async () =>
        (await inPage(
          page,
          `[...document.querySelectorAll('tbody tr')].filter((tr) => tr.textContent.includes(${JSON.stringify(renderId)}))
            .every((tr) => { const i = tr.querySelector('img.thumb'); return i && i.complete && i.naturalWidth === 160; })`,
        )) as boolean,
      "the finished render's thumbnail (its draft is 160x90: never enlarged)",
    );
    assert.equal(await done.locator('img.thumb').getAttribute('alt'), `Frame of ${renderId}`);
    assert.equal(await page.locator('tbody tr', { hasText: id }).locator('img').count(), 0, 'no thumbnail when failed');
    const lengths = await page.locator('tbody tr td:nth-child(5)').allInnerTexts();
    assert.ok(lengths.includes('3.4 s'), `a preview's length reads 3.4 s: ${lengths}`);
    assert.ok(lengths.includes('1 s'), `the template's render is 1 s: ${lengths}`);
    assert.ok(!lengths.some((l) => /\d\.\d{2}/.test(l)), `no long floats: ${lengths}`);
    await shot('renders');
    // A preview is a still render: its page shows the image, not a video player.
    await page.locator('tbody tr', { hasText: '3.4 s' }).first().getByRole('link').click();
    const still = page.locator('figure.player img');
    await still.waitFor();
    await until(
      async () => (await inPage(page, `document.querySelector('figure.player img').naturalWidth`)) === 160,
      'the still, 160 px wide (a draft)',
    );
    assert.equal(await page.locator('figure.player video').count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Download the image' }).count(), 1);
    await page.getByRole('link', { name: '← All renders' }).click();
  });

  await t.test(
    'a preview that cannot be prepared, and a still whose render fails, show the error inline, at its path',
    async () => {
      await page.getByRole('link', { name: 'Templates' }).click();
      await page.getByRole('link', { name: 'Tiny greeting' }).click();
      const doc = page.getByLabel('Document (JSON)');
      await doc.waitFor();
      const unreachable = {
        ...TINY_TEMPLATE,
        scenes: [
          {
            ...TINY_TEMPLATE.scenes[0],
            elements: [{ id: 'img', type: 'image', src: 'http://127.0.0.1:9/x.png', width: 10, height: 10 }],
          },
        ],
      };
      const live = '.preview .live-player';
      await untilInPage(
        page,
        `!!document.querySelector('${live}').dataset.preview`,
        'the live preview of the template',
      );
      const shownBefore = await page.locator(live).getAttribute('data-preview');
      refusedPreviews.expected = true;
      await doc.fill(JSON.stringify(unreachable, null, 2));
      await page.getByText('No problems found.').waitFor();
      // The live preview cannot prepare it: the finding at its path, and the last preview stays.
      const liveFailed = page.locator('.preview .live-problem [role="alert"]');
      await liveFailed.waitFor({ timeout: 60_000 });
      assert.match((await liveFailed.textContent()) ?? '', /ASSET_UNREACHABLE[\s\S]*scenes\[0\]\.elements\[0\]\.src/);
      assert.equal(await page.locator(live).getAttribute('data-preview'), shownBefore);
      refusedPreviews.expected = false;
      assert.equal(refusedPreviews.seen, 1, 'one refused preparation, and the browser logged it');
      assert.equal(await page.locator(`${live} canvas`).count(), 1, 'the last preview stays shown');
      assert.ok(near((await liveFrame(page, live, 0)).pixel(2, 177), BACKGROUND, 1), 'and still draws');
      await page.getByRole('button', { name: 'Render this frame exactly' }).click();
      const failed = page.locator('.preview .still-problem [role="alert"]');
      await failed.waitFor({ timeout: 60_000 });
      assert.match((await failed.textContent()) ?? '', /ASSET_UNREACHABLE[\s\S]*scenes\[0\]\.elements\[0\]\.src/);
      // Leave the template as it was (the editor would ask nothing: it is not saved).
      await page.goto(`${base}/dashboard#/renders`);
      await page.getByRole('heading', { name: 'Renders' }).waitFor();
    },
  );

  await t.test('cancel a render from its page, with confirmation: it ends cancelled, nothing charged', async () => {
    const usage = async () =>
      ((await (await api(signedInKey, '/v1/usage')).json()) as { credits: { reserved: number; balance: number } })
        .credits;
    const before = await usage();
    // A minute long: still running when the person cancels it.
    const res = await api(signedInKey, '/v1/renders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        movie: {
          ...TINY_TEMPLATE,
          variables: undefined,
          scenes: [
            { ...TINY_TEMPLATE.scenes[0], duration: 60, elements: [{ id: 't', type: 'text', text: 'A long one' }] },
          ],
        },
      }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const { id } = (await res.json()) as { id: string };
    assert.ok((await usage()).reserved > before.reserved, 'credits reserved while it runs');
    await page.goto(`${base}/dashboard#/renders/${id}`);
    const cancel = page.getByRole('button', { name: 'Cancel render' });
    await cancel.waitFor();
    assert.deepEqual(await axeViolations(page, axeSource), [], 'the page with its Cancel button');
    // Keep it: nothing happens.
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: `Cancel render ${id}?` });
    await dialog.waitFor();
    assert.deepEqual(await axeViolations(page, axeSource), [], 'the confirmation');
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    const kept = (await (await api(signedInKey, `/v1/renders/${id}`)).json()) as { status: string };
    assert.notEqual(kept.status, 'failed', 'kept: still running');
    // Confirmed: cancelled, the page shows why, and the button is gone.
    await cancel.click();
    await dialog.getByRole('button', { name: 'Cancel render' }).click();
    await page.locator('[data-status="failed"]').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /RENDER_CANCELLED[\s\S]*Nothing was charged/);
    assert.equal(await cancel.count(), 0, 'no Cancel button on a finished render');
    await shot('render-cancelled');
    const after = (await (await api(signedInKey, `/v1/renders/${id}`)).json()) as {
      status: string;
      error: { code: string } | null;
    };
    assert.equal(after.status, 'failed');
    assert.equal(after.error?.code, 'RENDER_CANCELLED');
    assert.deepEqual(await usage(), before, 'its reservation released, nothing charged');
  });

  await t.test('roll, then revoke, with confirmation; the old keys are refused at once', async () => {
    await page.goto(`${base}/dashboard#/keys`);
    const row = page.locator('tr', { hasText: created.slice(0, 12) });
    await row.getByRole('button', { name: 'Roll' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await shot('keys-roll-confirm');
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    const fresh = await page.getByLabel('Secret').inputValue();
    assert.match(fresh, /^fw_live_/);
    assert.notEqual(fresh, created);
    assert.equal((await api(created, '/v1/usage')).status, 401, 'the rolled key is refused');
    assert.equal((await api(fresh, '/v1/usage')).status, 200, 'its replacement works');
    // Revoke: Escape cancels (nothing happens), then confirm.
    const freshRow = page.locator('tr', { hasText: fresh.slice(0, 12) });
    await freshRow.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal((await api(fresh, '/v1/usage')).status, 200, 'cancelled: still valid');
    await freshRow.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page
      .locator('tr', { hasText: fresh.slice(0, 12) })
      .filter({ hasText: 'revoked' })
      .waitFor();
    assert.equal((await api(fresh, '/v1/usage')).status, 401, 'the revoked key is refused');
    // Rolling the key this session uses: the dashboard carries on with the replacement.
    const mine = page.locator('tr', { hasText: 'this session' });
    await mine.getByRole('button', { name: 'Roll' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Roll key' }).click();
    // The panel of the earlier roll is replaced by this one's.
    await until(async () => ![fresh, ''].includes(await page.getByLabel('Secret').inputValue()), 'the new secret');
    signedInKey = await page.getByLabel('Secret').inputValue();
    assert.equal(await inPage(page, "sessionStorage.getItem('framewright.apiKey')"), signedInKey);
    assert.equal((await api(firstKey, '/v1/usage')).status, 401);
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    await page.getByText('Reserved credits').waitFor();
    await shot('usage');
    await page.goto(`${base}/dashboard#/keys`);
    await page.locator('tr', { hasText: 'this session' }).waitFor();
    await shot('keys');
  });

  await t.test('keyboard only: skip link, navigation, and the dialog keeps focus', async () => {
    await page.goto(`${base}/dashboard#/renders`);
    await page.getByRole('heading', { name: 'Renders', level: 1 }).waitFor();
    // Once loaded, the page moves focus to its heading, as a page load would.
    await until(async () => (await inPage(page, 'document.activeElement?.tagName')) === 'H1', 'focus on the heading');
    // The skip link comes first: one Shift+Tab back from the brand link.
    await page.getByRole('link', { name: 'Framewright' }).focus();
    await page.keyboard.press('Shift+Tab');
    assert.equal(await inPage(page, 'document.activeElement?.textContent'), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await inPage(page, 'document.activeElement?.id'), 'main');
    // Tab through the header to the Keys link and follow it.
    await page.keyboard.press('Shift+Tab');
    for (let i = 0; i < 12; i++) {
      if ((await inPage(page, 'document.activeElement?.textContent')) === 'API keys') break;
      await page.keyboard.press('Shift+Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await until(
      async () => (await inPage(page, 'document.activeElement?.tagName')) === 'H1',
      'focus moves to the new page',
    );
    await page.locator('tr', { hasText: 'this session' }).getByRole('button', { name: 'Revoke' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await inPage(page, "!!document.activeElement?.closest('dialog')"), 'focus stays in the dialog');
    }
    await page.keyboard.press('Escape');
  });

  await t.test('no serious or critical axe-core violations, wide and phone-sized', async () => {
    const pages = ['renders', `renders/${renderId}`, 'templates', 'templates/new', 'scripts', 'keys', 'usage'];
    const found: string[] = [];
    for (const size of [
      { width: 1280, height: 860 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      for (const p of pages) {
        await page.goto(`${base}/dashboard#/${p}`);
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle');
        for (const v of await axeViolations(page, axeSource)) found.push(`${size.width}px #/${p}: ${v}`);
        if (size.width < 500) {
          // Nothing wider than the screen but the scrolling tables and editors.
          const overflow = (await inPage(page, 'document.documentElement.scrollWidth - window.innerWidth')) as number;
          assert.ok(overflow <= 1, `#/${p} overflows the phone screen by ${overflow}px`);
        }
      }
      await page.goto(`${base}/dashboard#/renders`);
      await page.locator('tbody tr').first().waitFor();
      if (size.width < 500) await shot('phone-renders');
    }
    const signin = await context.newPage();
    await signin.setViewportSize({ width: 390, height: 844 });
    await signin.goto(`${base}/dashboard`);
    await signin.getByLabel('API key').waitFor();
    for (const v of await axeViolations(signin, axeSource)) found.push(`sign-in: ${v}`);
    await signin.close();
    assert.deepEqual(found, []);
  });

  await t.test('sign out forgets the key; no request left the origin; no console error', async (t) => {
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(`${base}/dashboard#/usage`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    assert.equal(await inPage(page, 'sessionStorage.length'), 0);
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(problems, []);
    if (networkChanges.length)
      t.diagnostic(`requests Chromium dropped as the network changed: ${networkChanges.join(', ')}`);
    // The first start prints the first account's key, once, by design; nothing logs a key after it.
    const after = served.log().split('Server listening')[1] ?? '';
    assert.ok(after.length > 1000, 'requests were logged');
    for (const key of [firstKey, created, signedInKey]) assert.ok(!after.includes(key.slice(8)), 'no key in the logs');
  });
});
