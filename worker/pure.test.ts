import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planeCoefficients, rgbToYuv709, yuvLayout, yuvRegions } from './draw/gpu/yuv-layout.ts';
import { DUCK_ATTACK_SEC, DUCK_RELEASE_SEC, duckWeight, mixClips } from './encode/audio/mix.ts';
import { audioEncodeArgs, codecArgs, concatList, finalMuxArgs, segmentEncodeArgs } from './encode/ffmpeg-args.ts';
import { animationState, REST, SLIDE_FRACTION, ZOOM_FROM } from './plan/animate.ts';
import { parseColor } from './plan/color.ts';
import { dirtyRects } from './plan/dirty-rects.ts';
import type { LayerState } from './plan/frame-state.ts';
import { frameState, indexPlan, videoTimeAt } from './plan/frame-state.ts';
import type { EncodeQuality, LayerPlan, RenderPlan } from './plan/plan.ts';
import { chunksOf, splitFrames } from './plan/segments.ts';
import { groupCaptions } from './prepare/captions.ts';
import { fitSize } from './prepare/fit.ts';
import { timeWords } from './prepare/speech/word-timing.ts';

describe('yuvLayout', () => {
  const cases: [number, number, number, number, boolean][] = [
    // width, height, targetWidth, targetHeight, aligned
    [1920, 1080, 480, 1620, true],
    [320, 180, 80, 270, true],
    [960, 540, 240, 810, true],
    [540, 960, 135, 1440, false],
    [854, 480, 427, 360, false],
  ];
  for (const [w, h, tw, th, aligned] of cases) {
    it(`${w}x${h} packs into ${tw}x${th}`, () => {
      const l = yuvLayout(w, h);
      assert.equal(l.frameBytes, (w * h * 3) / 2);
      assert.equal(l.targetWidth, tw);
      assert.equal(l.targetHeight, th);
      assert.equal(l.aligned, aligned);
      assert.ok(l.targetWidth * l.targetHeight * 4 >= l.frameBytes);
    });
  }
  it('refuses odd sizes', () => assert.throws(() => yuvLayout(321, 180), /even dimensions/));

  it('regions tile the aligned target exactly once', () => {
    const l = yuvLayout(320, 180);
    const area = yuvRegions(l).reduce((a, r) => a + (r.x1 - r.x0) * (r.y1 - r.y0), 0);
    assert.equal(area * 4, l.frameBytes);
  });

  it('region maps land on the right source pixels', () => {
    const l = yuvLayout(320, 180);
    const [luma, uEven, uOdd] = yuvRegions(l);
    // Luma texel (2, 5), byte 3 -> pixel (11, 5).
    assert.deepEqual([luma!.ax * 2.5 + luma!.bx + 3 * luma!.step, luma!.ay * 5.5 + luma!.by], [11.5, 5.5]);
    // U texel (1, 180): chroma (4, 0), byte 0 -> pixel (8, 0) top-left of its block.
    assert.deepEqual([uEven!.ax * 1.5 + uEven!.bx, uEven!.ay * 180.5 + uEven!.by], [8.5, 0.5]);
    // U texel (40 + 1, 180): right half is chroma row 1 -> pixel row 2.
    assert.deepEqual([uOdd!.ax * 41.5 + uOdd!.bx, uOdd!.ay * 180.5 + uOdd!.by], [8.5, 2.5]);
  });

  it('plane coefficients agree with the CPU conversion', () => {
    for (const rgb of [
      [0, 0, 0],
      [255, 255, 255],
      [255, 0, 0],
      [26, 34, 56],
    ] as const) {
      const want = rgbToYuv709(rgb[0], rgb[1], rgb[2]);
      const got = (['y', 'u', 'v'] as const).map((p) => {
        const [a, b, c, d] = planeCoefficients(p);
        return Math.round(255 * ((a * rgb[0]) / 255 + (b * rgb[1]) / 255 + (c * rgb[2]) / 255 + d));
      });
      assert.deepEqual(got, want);
    }
  });
});

describe('animationState', () => {
  const W = 1000;
  const H = 500;
  const at = (preset: Parameters<typeof animationState>[0], t: number) => animationState(preset, t, 1, 5, W, H);
  const cases: [string, number, Partial<typeof REST>][] = [
    ['zoom-in', 1, { scale: ZOOM_FROM, opacity: 0 }],
    ['zoom-in', 1.5, REST],
    ['fade-in', 1, { opacity: 0 }],
    ['slide-in-up', 1, { dy: SLIDE_FRACTION * H, opacity: 0 }],
    ['slide-in-down', 1, { dy: -SLIDE_FRACTION * H }],
    ['slide-in-left', 1, { dx: -SLIDE_FRACTION * W }],
    ['slide-in-right', 1, { dx: SLIDE_FRACTION * W }],
    ['slide-in-right', 3, REST],
    ['fade-out', 4.5, REST],
    ['fade-out', 5, { opacity: 0 }],
    ['zoom-out', 5, { scale: ZOOM_FROM, opacity: 0 }],
    ['zoom-out', 2, REST],
  ];
  for (const [preset, t, want] of cases) {
    it(`${preset} at ${t}s`, () => {
      const s = at({ preset: preset as never, durationSec: 0.5 }, t);
      for (const [k, v] of Object.entries(want))
        assert.ok(Math.abs(s[k as keyof typeof s] - v) < 1e-9, `${k}: ${s[k as keyof typeof s]} != ${v}`);
    });
  }
  it('eases out: more than half way at half time', () => {
    const s = at({ preset: 'fade-in', durationSec: 1 }, 1.5);
    assert.ok(s.opacity > 0.5 && s.opacity < 1);
  });
  it('no animation is rest', () => assert.deepEqual(at(undefined, 1), REST));
});

describe('dirtyRects', () => {
  const tex = { file: 'x', width: 10, height: 10 };
  const layer = (id: number, y: number, opacity = 1, x = 0, more: Partial<LayerState> = {}): LayerState => ({
    layer: id,
    texture: tex,
    x,
    y,
    width: 10,
    height: 40,
    scale: 1,
    opacity,
    ...more,
  });
  const W = 400;
  const H = 200;
  it('first frame is full', () => assert.equal(dirtyRects(undefined, [layer(0, 10)], W, H), undefined));
  it('covers old and new boxes of a moved layer, columns aligned to 8, rows to 4', () => {
    // Rows 90-2 .. 140+2 -> [88, 144); columns 100-2 .. 110+2 -> [96, 112).
    assert.deepEqual(dirtyRects([layer(0, 100, 1, 100)], [layer(0, 90, 1, 100)], W, H), [
      { x0: 96, y0: 88, x1: 112, y1: 144 },
    ]);
  });
  it('covers an appearing layer only', () => {
    assert.deepEqual(dirtyRects([layer(0, 0)], [layer(0, 0), layer(1, 50, 1, 40)], W, H), [
      { x0: 32, y0: 48, x1: 56, y1: 92 },
    ]);
  });
  it('covers a vanished layer', () =>
    assert.deepEqual(dirtyRects([layer(1, 50, 1, 40)], [], W, H), [{ x0: 32, y0: 48, x1: 56, y1: 92 }]));
  it('is clamped to the frame', () =>
    assert.deepEqual(dirtyRects([layer(0, 170, 0.5, 395)], [layer(0, 170, 1, 395)], W, H), [
      { x0: 392, y0: 168, x1: 400, y1: 200 },
    ]));
  it('covers a turned layer by the box of its corners', () => {
    // 10x40 centred at (105, 120) turned 90 degrees: 40x10 -> x 85..125, y 115..125, widened by 2.
    const r = dirtyRects([layer(0, 100, 1, 100)], [layer(0, 100, 1, 100, { rotation: 90 })], W, H);
    assert.deepEqual(r, [{ x0: 80, y0: 96, x1: 128, y1: 144 }]);
  });
  it('keeps distant changes apart and merges close ones', () => {
    const prev = [layer(0, 10, 1, 10), layer(1, 10, 1, 1500), layer(2, 10, 1, 30)];
    const next = [layer(0, 10, 0.5, 10), layer(1, 10, 0.5, 1500), layer(2, 10, 0.5, 30)];
    // Layers 0 and 2 are 20 px apart: one rectangle; layer 1 is 1,450 px right: another (their
    // union would draw some 60,000 pixels more than the two, more than a rectangle's own cost).
    const r = dirtyRects(prev, next, 2000, 1000)!;
    assert.equal(r.length, 2);
    assert.deepEqual(
      r.find((x) => x.x0 === 8),
      { x0: 8, y0: 8, x1: 48, y1: 52 },
    );
    assert.deepEqual(
      r.find((x) => x.x0 !== 8),
      { x0: 1496, y0: 8, x1: 1512, y1: 52 },
    );
  });
  it('merges down to a few rectangles however many layers change', () => {
    const many = (o: number) => Array.from({ length: 40 }, (_, i) => layer(i, (i % 5) * 200, o, (i * 47) % 1900));
    const r = dirtyRects(many(1), many(0.5), 1920, 1080)!;
    assert.ok(r.length <= 6, `${r.length} rectangles`);
    // Every changed box is inside one of them.
    for (const s of many(0.5)) {
      assert.ok(
        r.some((x) => x.x0 <= Math.max(0, s.x - 2) && x.x1 >= Math.min(1920, s.x + 12) && x.y0 <= Math.max(0, s.y - 2)),
      );
    }
  });
  it('is the whole frame when changes cover most of it', () => {
    const big = (o: number) => [layer(0, 0, o, 0, { width: 1900, height: 1000 })];
    assert.equal(dirtyRects(big(1), big(0.5), 1920, 1080), undefined);
  });
});

describe('splitFrames', () => {
  const cases: [number, number, [number, number][]][] = [
    [10, 1, [[0, 10]]],
    [
      10,
      2,
      [
        [0, 5],
        [5, 10],
      ],
    ],
    [
      10,
      3,
      [
        [0, 3],
        [3, 6],
        [6, 10],
      ],
    ],
    [
      2,
      4,
      [
        [0, 1],
        [1, 2],
      ],
    ],
  ];
  for (const [total, parts, want] of cases) {
    it(`${total} frames in ${parts}`, () =>
      assert.deepEqual(
        splitFrames(total, parts).map((r) => [r.from, r.to]),
        want,
      ));
  }
});

describe('splitFrames on chunk boundaries', () => {
  it('starts every segment on a chunk, spreads whole chunks evenly, covers every frame once', () => {
    for (const [total, parts, chunk] of [
      [625, 3, 250],
      [18000, 8, 300],
      [18000, 4, 300],
      [301, 8, 300],
      [50, 2, 250],
      [7, 3, 2],
    ] as const) {
      const ranges = splitFrames(total, parts, chunk);
      assert.equal(ranges[0]!.from, 0);
      assert.equal(ranges.at(-1)!.to, total);
      for (let i = 1; i < ranges.length; i++) assert.equal(ranges[i]!.from, ranges[i - 1]!.to);
      for (const r of ranges) assert.equal(r.from % chunk, 0, `${total}/${parts}/${chunk}: ${r.from}`);
      assert.ok(ranges.length <= Math.min(parts, Math.ceil(total / chunk)));
      const sizes = ranges.map((r) => Math.ceil((r.to - r.from) / chunk));
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${total}/${parts}: ${sizes}`);
    }
    assert.deepEqual(
      splitFrames(18000, 8, 300).map((r) => r.to - r.from),
      [2100, 2400, 2100, 2400, 2100, 2400, 2100, 2400],
    );
    assert.deepEqual(splitFrames(50, 2, 250), [{ from: 0, to: 50 }]);
  });
  it('chunksOf cuts a range at the chunk multiples', () => {
    assert.deepEqual(chunksOf({ from: 500, to: 1130 }, 300), [
      { from: 500, to: 600 },
      { from: 600, to: 900 },
      { from: 900, to: 1130 },
    ]);
    assert.deepEqual(chunksOf({ from: 0, to: 300 }, 300), [{ from: 0, to: 300 }]);
  });
});

describe('ffmpeg arguments', () => {
  it('encodes yuv420p from stdin with the tagged colours, no audio', () => {
    const args = segmentEncodeArgs(
      { width: 320, height: 180, fps: 25, codec: 'libx264', quality: 'balanced', threads: 3, format: 'mp4' },
      '/tmp/s.mp4',
    );
    const s = args.join(' ');
    assert.match(s, /-f rawvideo -pix_fmt yuv420p -s 320x180 -framerate 25 -i pipe:0/);
    assert.match(s, /-c:v libx264 .*-threads 3 .*-pix_fmt yuv420p -colorspace bt709/);
    assert.ok(args.includes('-an'));
    assert.equal(args.at(-1), '/tmp/s.mp4');
  });
  it('muxes audio once, copies video, faststart', () => {
    const s = finalMuxArgs('/t/l.txt', '/t/a.m4a', '/o.mp4', { format: 'mp4' }).join(' ');
    assert.match(s, /-f concat -safe 0 -i \/t\/l.txt -i \/t\/a.m4a -map 0:v:0 -map 1:a:0 -c copy/);
    assert.match(s, /-movflags \+faststart/);
    assert.doesNotMatch(finalMuxArgs('/l', undefined, '/o.mp4', { format: 'mp4' }).join(' '), /1:a/);
    assert.equal(
      finalMuxArgs('/l', undefined, '/s.mp4', { faststart: false, format: 'mp4' }).join(' '),
      '-hide_banner -nostdin -loglevel error -y -f concat -safe 0 -i /l -map 0:v:0 -c:v copy -f mp4 /s.mp4',
      "a segment's chunks: copied, the index left where it is",
    );
    const a = audioEncodeArgs({ file: '/t/a.pcm', sampleRate: 48000 }, '/t/a.m4a').join(' ');
    assert.match(a, /-f s16le -ar 48000 -ac 1 -i \/t\/a.pcm -c:a aac -aac_coder fast -b:a 128k -f mp4 \/t\/a.m4a$/);
  });
  it('encoder settings per quality: the GOP in seconds, x264 tools for balanced, lossless for the reference', () => {
    const x264 = (q: EncodeQuality) => codecArgs('libx264', 30, q, 2).join(' ');
    assert.match(x264('fast'), /-preset ultrafast -crf 20 .*-g 60$/);
    assert.match(
      x264('balanced'),
      /-preset ultrafast -crf 32 -x264-params cabac=1:deblock=1:bframes=1:b-adapt=0 .*-g 300$/,
    );
    assert.match(x264('small'), /-preset veryfast -crf 23 .*-g 300$/);
    assert.match(x264('lossless'), /-qp 0/);
    assert.match(codecArgs('libx264', 25, 'balanced', 2).join(' '), /-g 250$/);
    for (const q of ['fast', 'balanced', 'small', 'lossless'] as const) {
      const nvenc = codecArgs('h264_nvenc', 30, q, 2).join(' ');
      assert.match(nvenc, /^-c:v h264_nvenc /);
      assert.doesNotMatch(nvenc, /libx264|-threads/);
    }
  });
  it('quotes concat paths', () => assert.equal(concatList(["/a/it's.mp4"]), "file '/a/it'\\''s.mp4'\n"));
});

describe('parseColor', () => {
  const cases: [string, number[]][] = [
    ['#fff', [255, 255, 255, 255]],
    ['#102030', [16, 32, 48, 255]],
    ['#10203080', [16, 32, 48, 128]],
    ['midnightblue', [25, 25, 112, 255]],
    ['transparent', [0, 0, 0, 0]],
  ];
  for (const [v, want] of cases) it(v, () => assert.deepEqual(parseColor(v), want));
  it('throws on junk', () => assert.throws(() => parseColor('#12'), /Not a colour/));
});

describe('timeWords', () => {
  it('times the text tokens from the events, punctuation attached', () => {
    const words = timeWords(
      'Hello world, this is it.',
      [
        { textPosition: 1, length: 5, ms: 0 },
        { textPosition: 7, length: 5, ms: 300 },
        { textPosition: 14, length: 4, ms: 900 },
        { textPosition: 19, length: 2, ms: 1100 },
        { textPosition: 22, length: 2, ms: 1250 },
      ],
      1.6,
    );
    assert.deepEqual(words, [
      { text: 'Hello', startSec: 0, endSec: 0.3 },
      { text: 'world,', startSec: 0.3, endSec: 0.9 },
      { text: 'this', startSec: 0.9, endSec: 1.1 },
      { text: 'is', startSec: 1.1, endSec: 1.25 },
      { text: 'it.', startSec: 1.25, endSec: 1.6 },
    ]);
  });
  it('joins an untimed token to the word before', () => {
    const words = timeWords(
      'wait - now',
      [
        { textPosition: 1, length: 4, ms: 0 },
        { textPosition: 8, length: 3, ms: 500 },
      ],
      1,
    );
    assert.deepEqual(
      words.map((w) => w.text),
      ['wait -', 'now'],
    );
  });
  it("cuts a run of Chinese where the synthesiser timed it (espeak-ng's cmn voice times each syllable)", () => {
    // What espeak-ng reports for this sentence: one event per character, none for the comma.
    const text = '今天天气很好，我们去公园。';
    const at = [1, 2, 3, 4, 5, 8, 9, 10, 11, 12];
    const words = timeWords(
      text,
      at.map((p, i) => ({ textPosition: p, length: 1, ms: i * 300 })),
      3.5,
    );
    assert.deepEqual(
      words.map((w) => [w.text, w.joinsNext ?? false]),
      [
        ['今', true],
        ['天', true],
        ['天', true],
        ['气', true],
        ['很好，', true],
        ['我', true],
        ['们', true],
        ['去', true],
        ['公', true],
        ['园。', false],
      ],
    );
    assert.equal(words.map((w) => w.text).join(''), text, 'the pieces are the text, as written');
    assert.deepEqual(
      words.slice(0, 2).map((w) => [w.startSec, w.endSec]),
      [
        [0, 0.3],
        [0.3, 0.6],
      ],
    );
  });
  it('keeps spaced words whole even when the synthesiser times inside them', () => {
    const words = timeWords(
      'twenty-five cats',
      [
        { textPosition: 1, length: 6, ms: 0 },
        { textPosition: 8, length: 4, ms: 300 },
        { textPosition: 13, length: 4, ms: 600 },
      ],
      1,
    );
    assert.deepEqual(
      words.map((w) => w.text),
      ['twenty-five', 'cats'],
    );
  });
});

describe('groupCaptions', () => {
  const w = (text: string, s: number, e: number) => ({ text, startSec: s, endSec: e });
  it('cuts lines by word count and holds until the next line', () => {
    const cues = groupCaptions([w('a', 0, 1), w('b', 1, 2), w('c', 2, 3)], 2);
    assert.deepEqual(
      cues.map((c) => [c.words.map((x) => x.text).join(' '), c.startSec, c.endSec]),
      [
        ['a b', 0, 2],
        ['c', 2, 3.6],
      ],
    );
  });
  it('starts a new line after a pause and when too wide', () => {
    const pause = groupCaptions([w('a', 0, 1), w('b', 3, 4)], 6);
    assert.equal(pause.length, 2);
    const narrow = groupCaptions([w('a', 0, 1), w('b', 1, 2)], 6, (ws) => ws.length < 2);
    assert.equal(narrow.length, 2);
  });
});

describe('mixClips', () => {
  it('places, resamples and sums clips on one timeline of exact length', () => {
    const pcm = new Int16Array(100).fill(1000);
    const out = mixClips(
      [
        { pcm, sampleRate: 100, startSec: 0 },
        { pcm, sampleRate: 100, startSec: 0.5 },
      ],
      2,
      200,
    );
    assert.equal(out.length, 400);
    assert.equal(out[50], 1000); // first clip only
    assert.equal(out[150], 2000); // overlap
    assert.equal(out[250], 1000); // second clip only
    assert.equal(out[350], 0); // silence after
    assert.equal(out[0], 0); // faded in, no click
  });
  it('clips to 16 bits', () => {
    const loud = new Int16Array(10).fill(30000);
    const out = mixClips(
      [
        { pcm: loud, sampleRate: 10, startSec: 0 },
        { pcm: loud, sampleRate: 10, startSec: 0 },
      ],
      1,
      10,
    );
    assert.equal(out[5], 32767);
  });
});

describe('mixClips: sounds, music and ducking', () => {
  it('mixes in stereo: a mono clip in both channels, a stereo one left and right', () => {
    const mono = new Int16Array(10).fill(100);
    const stereo = new Int16Array(20);
    for (let i = 0; i < 10; i++) stereo.set([1000, -1000], i * 2);
    const out = mixClips(
      [
        { pcm: mono, sampleRate: 10, startSec: 0 },
        { pcm: stereo, channels: 2, sampleRate: 10, startSec: 0 },
      ],
      1,
      10,
      2,
    );
    assert.equal(out.length, 20);
    assert.deepEqual([out[10], out[11]], [1100, -900]);
    const down = mixClips([{ pcm: stereo, channels: 2, sampleRate: 10, startSec: 0 }], 1, 10, 1);
    assert.equal(down[5], 0, 'a stereo clip in a mono mix is the average of its channels');
    assert.match(audioEncodeArgs({ file: '/a', sampleRate: 48000, channels: 2 }, '/b').join(' '), /-ac 2 .*-b:a 192k/);
  });
  const tone = (n: number, v = 1000) => new Int16Array(n).fill(v);
  it('loops a clip for its duration, and leaves silence after an unlooped one', () => {
    const looped = mixClips([{ pcm: tone(10), sampleRate: 100, startSec: 0, durationSec: 0.35, loop: true }], 0.5, 100);
    assert.equal(looped[15], 1000);
    assert.equal(looped[25], 1000);
    assert.equal(looped[40], 0, 'stops at its duration');
    const once = mixClips([{ pcm: tone(10), sampleRate: 100, startSec: 0, durationSec: 0.35 }], 0.5, 100);
    assert.equal(once[5], 1000);
    assert.equal(once[15], 0);
  });
  it('applies volume and linear fades', () => {
    const out = mixClips(
      [{ pcm: tone(100), sampleRate: 100, startSec: 0, volume: 0.5, fadeInSec: 0.2, fadeOutSec: 0.4 }],
      1,
      100,
    );
    assert.equal(out[10], 250); // half-way through the fade-in, at half volume
    assert.equal(out[40], 500);
    assert.equal(out[80], 250); // half-way through the fade-out
  });
  it('ducks under the spans it is given, ramping down before and up after', () => {
    const spans = [{ startSec: 1, endSec: 2 }];
    assert.equal(duckWeight(spans, 0.5), 0);
    assert.equal(duckWeight(spans, 1.5), 1);
    assert.ok(Math.abs(duckWeight(spans, 1 - DUCK_ATTACK_SEC / 2) - 0.5) < 1e-9);
    assert.ok(Math.abs(duckWeight(spans, 2 + DUCK_RELEASE_SEC / 2) - 0.5) < 1e-9);
    const rate = 1000;
    const out = mixClips(
      [{ pcm: tone(4000), sampleRate: rate, startSec: 0, duck: { gain: 0.25, under: spans } }],
      4,
      rate,
    );
    assert.equal(out[500], 1000);
    assert.equal(out[1500], 250);
    assert.equal(out[3500], 1000);
  });
});

describe('video layers and transitions in frame state', () => {
  const layer = (video: Partial<NonNullable<LayerPlan['video']>>, startSec = 1): LayerPlan => ({
    path: 'v',
    sceneIndex: 0,
    texture: { file: 'video:v', width: 4, height: 4 },
    x: 0,
    y: 0,
    width: 4,
    height: 4,
    startSec,
    endSec: 10,
    video: {
      file: 'f',
      startSec: 0,
      width: 4,
      height: 4,
      matrix: 'bt601',
      trimStartSec: 2,
      lengthSec: 1.5,
      loop: false,
      ...video,
    },
  });
  it('maps movie time to source time: trimmed, looped per pass, held on the last frame', () => {
    assert.equal(videoTimeAt(layer({}), 1), 2);
    assert.equal(videoTimeAt(layer({}), 2), 3);
    assert.ok(Math.abs(videoTimeAt(layer({}), 5)! - 3.5) < 1e-3, 'held just before the pass ends');
    assert.ok(videoTimeAt(layer({}), 5)! < 3.5);
    assert.equal(videoTimeAt(layer({ loop: true }), 2.5), 2);
    assert.equal(videoTimeAt(layer({ loop: true }), 3), 2.5);
  });
  it('draws both scenes during a transition, with progress from the incoming scene start', () => {
    const plan = {
      width: 8,
      height: 8,
      fps: 10,
      totalFrames: 30,
      scenes: [
        { index: 0, startFrame: 0, endFrame: 20, startSec: 0, background: [0, 0, 0] },
        {
          index: 1,
          startFrame: 10,
          endFrame: 30,
          startSec: 1,
          background: [255, 255, 255],
          transition: { type: 'crossfade', durationSec: 1 },
        },
      ],
      layers: [],
      codec: 'libx264',
      quality: 'fast',
    } as unknown as RenderPlan;
    const index = indexPlan(plan);
    assert.equal(frameState(index, 9).incoming, undefined);
    const mid = frameState(index, 15);
    assert.equal(mid.scene.index, 0);
    assert.equal(mid.incoming?.scene.index, 1);
    assert.equal(mid.incoming?.progress, 0.5);
    assert.notEqual(frameState(index, 14).key, mid.key);
    assert.equal(frameState(index, 20).incoming, undefined);
    assert.equal(frameState(index, 20).scene.index, 1);
  });
});

describe('fitSize: a video in its box', () => {
  it('contains, covers (scaled then cut to the box) and fills, in even sizes (yuv420p frames)', () => {
    assert.deepEqual(fitSize({ width: 1920, height: 1080 }, 400, 400, 'contain'), { width: 400, height: 226 });
    assert.deepEqual(fitSize({ width: 1920, height: 1080 }, 400, 400, 'cover'), {
      width: 400,
      height: 400,
      scaledWidth: 712,
      scaledHeight: 400,
    });
    assert.deepEqual(fitSize({ width: 1920, height: 1080 }, 400, 400, 'fill'), { width: 400, height: 400 });
    assert.deepEqual(fitSize({ width: 640, height: 480 }, 301, 301, 'fill'), { width: 302, height: 302 });
    assert.deepEqual(fitSize({ width: 640, height: 480 }, 301, 301, 'contain'), { width: 302, height: 226 });
  });
});
