import assert from 'node:assert/strict';
import { test } from 'node:test';
import { client, eachBackend, newAccount, startApp } from './helpers.ts';

// SRT and WebVTT uploads: sniffed from their bytes, parsed as the render parses them, served back
// with their type (the worker then fetches the url as any subtitles src: test/worker/subtitle-file.test.ts).
type Body = Record<string, unknown> & { error?: { code: string; message: string } };

const SRT = '1\r\n00:00:01,000 --> 00:00:02,000\r\nHello\r\n';
const VTT = '\uFEFFWEBVTT - captions\n\n00:01.000 --> 00:02.000\nHello\n';

test('POST /v1/assets takes SRT and WebVTT files and refuses malformed ones with their line', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());
    const acc = await newAccount(db);
    const api = client(app, acc.key);
    const upload = (text: string, name: string) =>
      api('POST', `/v1/assets?name=${name}`, Buffer.from(text), { 'content-type': 'application/octet-stream' });

    for (const [name, text, contentType] of [
      ['captions.srt', SRT, 'application/x-subrip'],
      ['captions.vtt', VTT, 'text/vtt'],
    ] as const) {
      await t.test(`${name}: kind subtitles, ${contentType}, its bytes served back`, async () => {
        const res = await upload(text, name);
        assert.equal(res.statusCode, 201, res.body);
        const asset = res.json<Body>();
        assert.deepEqual(
          [asset.kind, asset.contentType, asset.size],
          ['subtitles', contentType, Buffer.byteLength(text)],
        );
        const url = new URL(asset.url as string);
        const content = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
        assert.equal(content.statusCode, 200);
        assert.equal(content.headers['content-type'], contentType);
        assert.equal(content.body, text);
      });
    }

    const bad: [string, string, RegExp][] = [
      [
        'an SRT cue with a bad start time',
        '1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:0X,000 --> 00:00:04,000\nbroken\n',
        /^The SRT file is malformed at line 6: cue start timestamp `00:00:0X\.000` is invalid$/,
      ],
      [
        'a WebVTT cue with a bad end time',
        'WEBVTT\n\n00:01.000 --> 00:02.000\nfine\n\n00:03.000 --> 00:0x.000\nbroken\n',
        /^The WebVTT file is malformed at line 6: cue end timestamp `00:0x\.000` is invalid$/,
      ],
      ['a WebVTT file without a cue', 'WEBVTT\n\nNOTE only a note\n', /^The WebVTT file has no cue in its 4 line\(s\)/],
    ];
    for (const [name, text, message] of bad) {
      await t.test(`${name} is ASSET_INVALID naming the line, and nothing is stored`, async () => {
        const res = await upload(text, 'bad.srt');
        assert.equal(res.statusCode, 422, res.body);
        const body = res.json<Body>();
        assert.equal(body.error?.code, 'ASSET_INVALID');
        assert.match(body.error?.message ?? '', message);
      });
    }

    await t.test('the two good uploads are the only assets listed', async () => {
      const list = (await api('GET', '/v1/assets')).json<{ items: { name: string; kind: string }[] }>();
      assert.deepEqual(list.items.map((a) => [a.name, a.kind]).sort(), [
        ['captions.srt', 'subtitles'],
        ['captions.vtt', 'subtitles'],
      ]);
    });
  });
});
