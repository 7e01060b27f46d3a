// The player plays: every example movie in Chromium, with its sound decoded (WebAudio) and
// running, the clock moving frames on; the element with its controls; an edited document loaded
// while it plays goes on from where it was.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { browserMissing } from '../dashboard/browser.ts';
import { loadInPage, type PlayerRig, startPlayerRig } from './harness.ts';

/** Every example; all but bench-60s-text (images and text only) have voices. */
const EXAMPLES = ['hello', 'draft', 'every-field', 'bench-60s', 'bench-60s-text'];
const SILENT = new Set(['bench-60s-text']);

function example(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../examples/${name}.json`, import.meta.url), 'utf8'));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the player plays', { skip: browserMissing(), timeout: 600_000 }, async (t) => {
  let rig: PlayerRig | undefined;
  t.after(() => rig?.close());
  rig = await startPlayerRig();
  const { page } = rig;

  for (const name of EXAMPLES) {
    const silent = SILENT.has(name);
    await t.test(`${name}: frames move on${silent ? ' (a silent movie)' : ' with the sound'}`, async () => {
      const loaded = await loadInPage(page, { movie: example(name) });
      const sound = (await page.evaluate('window.player.sound')) as { duration: number; peak: number } | undefined;
      if (silent) assert.equal(sound, undefined, 'no sound to play');
      else {
        assert.ok(sound, 'a voice: the sound is decoded');
        // The mix lasts the movie (AAC's frames round it up a little), and is not silence.
        const duration = loaded.totalFrames / loaded.plan.fps;
        assert.ok(Math.abs(sound.duration - duration) < 0.1, `sound ${sound.duration} s, movie ${duration} s`);
        assert.ok(sound.peak > 0.05, `peak ${sound.peak}`);
      }
      await page.evaluate('window.player.seek(0)');
      await page.evaluate('window.player.play()');
      await sleep(1500);
      const state = (await page.evaluate(
        '({ t: window.player.currentTime, audible: window.player.audible, paused: window.player.paused, stats: window.player.playbackStats() })',
      )) as { t: number; audible: boolean; paused: boolean; stats: { drawn: number; dropped: number } };
      await page.evaluate('window.player.pause()');
      // A silent movie runs on the page's clock.
      assert.equal(state.audible, !silent, 'the sound plays (the page may play audio)');
      assert.ok(state.t > 0.8 || state.paused, `after 1.5 s the movie is at ${state.t} s`);
      assert.ok(state.stats.drawn >= 5, `${state.stats.drawn} frames drawn`);
    });
  }

  await t.test('an edited document loads where it was', async () => {
    const movie = example('every-field');
    await loadInPage(page, { movie });
    await page.evaluate('window.player.seek(5)');
    const edited = structuredClone(movie) as { scenes: { background?: string }[] };
    edited.scenes[0]!.background = '#ff00ff';
    await loadInPage(page, { movie: edited });
    assert.equal(await page.evaluate('window.player.currentTime'), 5);
    // Another frame rate: the same time, not the same frame.
    const faster = { ...edited, fps: 50 };
    await loadInPage(page, { movie: faster });
    assert.equal(await page.evaluate('window.player.currentTime'), 5);
  });

  await t.test('a preparation the network dropped is asked again; an answer is not', async () => {
    const url = `${rig!.api}/v1/previews`;
    let asked = 0;
    await page.route(url, (route) => {
      asked++;
      // The first POST fails on the way, as when the browser's network changes under it.
      return asked === 1 && route.request().method() === 'POST' ? route.abort('connectionreset') : route.continue();
    });
    try {
      const loaded = await loadInPage(page, { movie: example('hello') });
      assert.ok(loaded.totalFrames > 0);
      assert.equal(asked, 2, 'asked again once');
      asked = 1; // no more dropping
      const bad = structuredClone(example('hello')) as { scenes: { duration?: number }[] };
      bad.scenes[0]!.duration = -1;
      const refused = (await page.evaluate(
        `window.fw.load(${JSON.stringify({ movie: bad })}).then(() => 'loaded', (e) => e.message)`,
      )) as string;
      assert.match(refused, /VALIDATION_ERROR/);
      assert.equal(asked, 2, 'a 400 is an answer: not asked again');
    } finally {
      await page.unroute(url);
    }
  });

  await t.test('<framewright-player>: its controls play and pause', async () => {
    await page.evaluate(`(() => {
      const el = document.createElement('framewright-player');
      el.id = 'element';
      el.setAttribute('api', ${JSON.stringify(rig.api)});
      el.token = window.token;
      el.movie = ${JSON.stringify(example('hello'))};
      document.body.append(el);
    })()`);
    const button = page.locator('#element').getByRole('button');
    await button.waitFor();
    await page.waitForFunction("document.getElementById('element').player.preview !== undefined", undefined, {
      timeout: 60_000,
    });
    assert.equal(await button.textContent(), 'Play');
    await button.click();
    assert.equal(await button.textContent(), 'Pause');
    await sleep(700);
    await button.click();
    const t = (await page.evaluate("document.getElementById('element').player.currentTime")) as number;
    assert.ok(t > 0.3, `played to ${t} s`);
    const shown = await page.locator('#element').locator('output').textContent();
    assert.match(shown ?? '', /^0:0\d\.\d \/ 0:03\.4$/);
    // The timeline scrubs: its value is the time shown.
    await page.locator('#element').getByRole('slider', { name: 'Time' }).fill('2');
    await page.waitForFunction("Math.abs(document.getElementById('element').player.currentTime - 2) < 0.05");
  });
});
