import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../ids.ts';
import { assetKey, movieKey, outputKey, workKey, workPrefix } from './keys.ts';

test('object-store keys: the layout docs/operations.md describes', () => {
  const cases: [string, string][] = [
    [outputKey('rnd_01m85ngxp5cn1gzhprzpaca5he'), 'renders/rnd_01m85ngxp5cn1gzhprzpaca5he.mp4'],
    [outputKey('rnd_x', 'webm'), 'renders/rnd_x.webm'],
    [movieKey('rnd_01m85ngxp5cn1gzhprzpaca5he'), 'movies/rnd_01m85ngxp5cn1gzhprzpaca5he.json'],
    [assetKey('ast_01m85ngxp5cn1gzhprzpaca5he', 'png'), 'assets/ast_01m85ngxp5cn1gzhprzpaca5he.png'],
    [assetKey('ast_x', 'm4a'), 'assets/ast_x.m4a'],
    [workPrefix('rnd_x'), 'work/rnd_x/'],
    [workKey('rnd_x', 'manifest.json'), 'work/rnd_x/manifest.json'],
    [workKey('rnd_x', 'segment-3.mp4'), 'work/rnd_x/segment-3.mp4'],
    [workKey('rnd_x', 'files/0-texture.rgba'), 'work/rnd_x/files/0-texture.rgba'],
  ];
  for (const [got, want] of cases) assert.equal(got, want);
});

test('object-store keys: every work object is under its render prefix, and no two kinds meet', () => {
  const id = newId('rnd');
  for (const name of ['manifest.json', 'audio.m4a', 'files/1-clip.mp4']) {
    assert.ok(workKey(id, name).startsWith(workPrefix(id)), name);
  }
  // Another render's prefix is not a prefix of this one's keys (a sweep of one never reaches the other).
  assert.ok(!workKey(`${id}0`, 'a').startsWith(workPrefix(id)));
  const kinds = [outputKey(id), movieKey(id), assetKey(newId('ast'), 'mp4'), workKey(id, 'x')].map(
    (k) => k.split('/')[0],
  );
  assert.deepEqual(kinds, ['renders', 'movies', 'assets', 'work']);
});

test('object-store keys: an id or a name that would leave its prefix is refused', () => {
  for (const bad of ['', '.', '..', 'rnd_a/b', '../x']) {
    assert.throws(() => outputKey(bad), /render id .* cannot name/, JSON.stringify(bad));
    assert.throws(() => movieKey(bad), /render id .* cannot name/, JSON.stringify(bad));
    assert.throws(() => workPrefix(bad), /render id .* cannot name/, JSON.stringify(bad));
    assert.throws(() => assetKey(bad, 'png'), /asset id .* cannot name/, JSON.stringify(bad));
  }
  for (const ext of ['', '.png', 'p/g', 'PNG']) assert.throws(() => assetKey('ast_x', ext), /extension/, ext);
  for (const name of ['', '/abs', 'a//b', '../x', 'a/../../b', 'a/.', 'dir/']) {
    assert.throws(() => workKey('rnd_x', name), /Not a work object name/, name);
  }
});
