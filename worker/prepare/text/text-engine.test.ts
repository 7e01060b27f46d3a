import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cjkOrder, parseUnicodeRanges } from '../../../movie/font-catalog.ts';
import { FONT_FAMILIES } from '../../../movie/index.ts';
import type { Rgba } from '../../plan/color.ts';
import { fontRegistry } from './fonts.ts';
import {
  baseDirection,
  captionText,
  layoutLines,
  measure,
  type Raster,
  rasteriseCaption,
  rasteriseText,
  type TextStyle,
} from './text-raster.ts';

const black: Rgba = [0, 0, 0, 255];
const style = (over: Partial<TextStyle> = {}): TextStyle => ({
  font: 'Inter',
  weight: 400,
  fontSize: 40,
  lineHeight: 1.2,
  align: 'left',
  maxWidth: 2000,
  color: black,
  ...over,
});

const words = (...texts: string[]) => texts.map((text) => ({ text }));

/** Columns [x0, x1] of a raster that hold ink (alpha > 0), in raster pixels; undefined when none. */
function inkColumns(r: Raster, rows?: [number, number]): [number, number] | undefined {
  let x0 = r.width;
  let x1 = -1;
  const [y0, y1] = rows ?? [0, r.height];
  for (let y = Math.max(0, y0); y < Math.min(r.height, y1); y++)
    for (let x = 0; x < r.width; x++)
      if (r.data[(y * r.width + x) * 4 + 3]! > 0) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
      }
  return x1 < 0 ? undefined : [x0, x1];
}

describe('text engine: line breaking (UAX #14)', () => {
  it('breaks Latin text at spaces, keeping words whole', async () => {
    const { lines } = await layoutLines(
      'A long sentence that should wrap onto a second line of text here',
      style({ maxWidth: 500 }),
    );
    assert.ok(lines.length >= 2, `${lines.length} lines`);
    const words = lines.flatMap((l) => l.text.split(' '));
    assert.deepEqual(words.join(' '), 'A long sentence that should wrap onto a second line of text here');
    for (const l of lines) assert.ok(l.width <= 500, `line "${l.text}" is ${l.width} wide`);
  });

  it('breaks CJK between characters, never before closing punctuation', async () => {
    const text = '日本語のテキストは、とても長い文章です。「改行」できる。中文文本也可以换行。';
    for (let width = 120; width <= 600; width += 37) {
      const { lines } = await layoutLines(text, style({ maxWidth: width, lang: 'ja' }));
      assert.ok(lines.length >= 2, `width ${width}: ${lines.length} lines`);
      assert.equal(lines.map((l) => l.text).join(''), text, 'every character, in order');
      for (const l of lines.slice(1)) assert.doesNotMatch(l.text, /^[、。」）！？]/u, `line starts "${l.text}"`);
      for (const l of lines) assert.ok(l.width <= width + 0.5, `"${l.text}" ${l.width} > ${width}`);
    }
  });

  it('"\\n" breaks a line', async () => {
    const { lines } = await layoutLines('one\ntwo', style());
    assert.deepEqual(
      lines.map((l) => l.text),
      ['one', 'two'],
    );
  });
});

describe('text engine: bidirectional text', () => {
  it('takes the paragraph direction from the first strong character', () => {
    assert.equal(baseDirection('مرحبا world'), 'rtl');
    assert.equal(baseDirection('123 hello مرحبا'), 'ltr');
    assert.equal(baseDirection('«שלום»'), 'rtl');
    assert.equal(baseDirection('12 34'), 'ltr');
  });

  it('lays right-to-left words from right to left, and an RTL run inside LTR text reversed', async () => {
    const rtl = await rasteriseCaption(words('مرحبا', 'بالعالم', 'الجميل'), style(), [255, 0, 0, 255]);
    const x = rtl.words.map((w) => w[0]!.x0);
    assert.ok(x[0]! > x[1]! && x[1]! > x[2]!, `RTL word starts ${x}`);
    const mixed = await rasteriseCaption(words('one', 'مرحبا', 'بالعالم', 'two'), style(), [255, 0, 0, 255]);
    const m = mixed.words.map((w) => w[0]!.x0);
    assert.ok(m[0]! < m[2]! && m[2]! < m[1]! && m[1]! < m[3]!, `LTR with an Arabic run: ${m}`);
  });

  it('shapes Arabic: joined letters are narrower than the isolated forms side by side', async () => {
    const joined = await measure('سلسلة', style());
    const isolated = (await Promise.all([...'سلسلة'].map((c) => measure(c, style())))).reduce((a, b) => a + b);
    assert.ok(joined < isolated * 0.9, `joined ${joined} vs isolated ${isolated}`);
  });
});

describe('text engine: fonts and fallback', () => {
  it('reads the unicode ranges of a subset file', () => {
    assert.deepEqual(parseUnicodeRanges('U+0000-00FF,U+0131, U+2000-206F'), [
      [0, 0xff],
      [0x131, 0x131],
      [0x2000, 0x206f],
    ]);
  });

  it('orders the CJK fonts by lang, else by kana or hangul', () => {
    assert.equal(cjkOrder('漢字', undefined)[0], 'Noto Sans SC');
    assert.equal(cjkOrder('漢字かな', undefined)[0], 'Noto Sans JP');
    assert.equal(cjkOrder('한국어 漢字', undefined)[0], 'Noto Sans KR');
    assert.equal(cjkOrder('漢字', 'ja-JP')[0], 'Noto Sans JP');
    assert.equal(cjkOrder('漢字', 'zh-Hant')[0], 'Noto Sans SC');
  });

  it('loads only the files a text needs, its own family first', async () => {
    const reg = await fontRegistry();
    assert.deepEqual(reg.chain('Hello', 'Lato', 700, undefined), ['lato/latin/700']);
    assert.deepEqual(reg.chain('Grüße, Ελλάδα', 'Lato', 700, undefined), ['lato/latin/700', 'noto-sans/greek/700']);
    // Han without kana or a lang: Simplified Chinese, whose slices hold both; nothing of JP or KR.
    const han = reg.chain('Hello 日本', 'Lato', 700, undefined);
    assert.equal(han[0], 'lato/latin/700');
    assert.ok(
      han.slice(1).every((f) => f.startsWith('noto-sans-sc/')),
      han.join(),
    );
    const ja = reg.chain('Hello 日本', 'Lato', 700, 'ja');
    assert.ok(
      ja.slice(1).every((f) => f.startsWith('noto-sans-jp/')),
      ja.join(),
    );
    const emoji = reg.chain('Hi 😀', 'Inter', 400, undefined);
    assert.equal(emoji.at(-1)?.startsWith('noto-color-emoji/'), true, emoji.join());
  });

  it('draws every script of the voice catalogue without a missing character', async () => {
    for (const text of [
      'Привет',
      'Γειά σου',
      'Tiếng Việt',
      'こんにちは',
      '你好世界',
      '안녕하세요',
      'مرحبا',
      'नमस्ते',
      'Café',
    ]) {
      for (const font of FONT_FAMILIES) {
        const r = await rasteriseText(text, style({ font }));
        assert.deepEqual(r.missing, [], `${font}: ${text}`);
        assert.ok(inkColumns(r), `${font}: ${text} has ink`);
      }
    }
  });

  it('draws a character no font has as U+FFFD, in every family, and says which', async () => {
    for (const font of FONT_FAMILIES) {
      const r = await rasteriseText('ab\u0E01', style({ font }));
      assert.deepEqual(r.missing, ['\u0E01'], font);
      const replacement = await rasteriseText('ab\uFFFD', style({ font }));
      assert.deepEqual(
        replacement.missing,
        [],
        `${font}: U+FFFD itself is drawn (from Noto Sans when the family lacks it)`,
      );
      assert.deepEqual([r.width, r.height], [replacement.width, replacement.height], font);
      assert.ok(r.data.equals(replacement.data), `${font}: the missing character is drawn as U+FFFD`);
    }
  });

  it('draws colour emoji in colour where the layout puts them', async () => {
    const r = await rasteriseText('ab 😀', style({ fontSize: 64 }));
    const text = await rasteriseText('ab ', style({ fontSize: 64 }));
    let coloured = 0;
    let leftOfEmoji = 0;
    for (let y = 0; y < r.height; y++)
      for (let x = 0; x < r.width; x++) {
        const i = (y * r.width + x) * 4;
        const [cr, cg, cb, a] = [r.data[i]!, r.data[i + 1]!, r.data[i + 2]!, r.data[i + 3]!];
        if (a > 200 && cr > 200 && cg > 150 && cb < 100) {
          coloured++;
          if (x + r.offsetX < text.boxWidth - 2) leftOfEmoji++;
        }
      }
    assert.ok(coloured > 500, `yellow pixels of the face: ${coloured}`);
    assert.equal(leftOfEmoji, 0, 'the colour is right of "ab ", where the emoji is laid out');
  });
});

describe('text engine: boxes, fitting and effects', () => {
  const long = 'Every video carries text: titles, captions and lower thirds that must never be cut off';

  it('autoFit shrinks the font until the text fits maxHeight', async () => {
    const r = await layoutLines(long, style({ fontSize: 80, maxWidth: 600, maxHeight: 200, minFontSize: 10 }));
    assert.ok(r.fontSize < 80 && r.fontSize >= 10, `font size ${r.fontSize}`);
    assert.equal(r.truncated, false);
    assert.ok(r.height <= 200, `height ${r.height}`);
    // Half a pixel larger would not have fitted.
    const bigger = await layoutLines(long, style({ fontSize: r.fontSize + 0.5, maxWidth: 600, maxHeight: 200 }));
    assert.equal(bigger.truncated, true);
  });

  it('autoFit honours maxLines', async () => {
    const r = await layoutLines(long, style({ fontSize: 80, maxWidth: 900, maxLines: 2, minFontSize: 10 }));
    assert.ok(r.lines.length <= 2 && !r.truncated, `${r.lines.length} lines at ${r.fontSize}`);
  });

  it('text that does not fit even at minFontSize ends in an ellipsis, never a silent cut', async () => {
    const r = await rasteriseText(long, style({ fontSize: 80, maxWidth: 300, maxHeight: 100, minFontSize: 60 }));
    assert.equal(r.truncated, true);
    assert.equal(r.fontSize, 60);
    assert.ok(r.boxHeight <= 100, `box ${r.boxHeight}`);
    const lines = await layoutLines(long, style({ fontSize: 80, maxWidth: 300, maxLines: 1 }));
    assert.equal(lines.lines.length, 1);
    assert.equal(lines.truncated, true);
  });

  it('keeps every pixel of stroke, shadow and box: the raster reaches past the text box', async () => {
    const plain = await rasteriseText('Hq', style({ fontSize: 60 }));
    const fx = await rasteriseText(
      'Hq',
      style({
        fontSize: 60,
        stroke: { width: 8, color: [255, 0, 0, 255] },
        shadow: { color: [0, 0, 255, 255], offsetX: 12, offsetY: 12, blur: 0 },
      }),
    );
    assert.equal(fx.boxWidth, plain.boxWidth);
    assert.ok(fx.offsetX <= plain.offsetX - 3, `stroke reaches left: ${fx.offsetX} vs ${plain.offsetX}`);
    assert.ok(fx.offsetY + fx.height >= plain.offsetY + plain.height + 10, 'the shadow reaches below');
    const boxed = await rasteriseText(
      'Hq',
      style({ fontSize: 60, background: { color: [0, 255, 0, 255], padding: 20, radius: 8 } }),
    );
    assert.ok(boxed.offsetX <= -19 && boxed.offsetY <= -19, `box ${boxed.offsetX},${boxed.offsetY}`);
    // The box's middle pixel on its left edge is green and opaque.
    const i = (Math.floor(boxed.height / 2) * boxed.width + 1) * 4;
    assert.deepEqual([...boxed.data.subarray(i, i + 4)], [0, 255, 0, 255]);
  });

  it('casts the shadow of the glyphs and their stroke, once: not darker where the stroke overlaps the fill', async () => {
    const blue: Rgba = [0, 0, 255, 128];
    const shadowColumns = (r: Raster) => {
      // Half-transparent blue pixels: the shadow where neither the stroke nor the fill covers it.
      const alphas = new Set<number>();
      let x0 = r.width;
      let x1 = -1;
      for (let i = 0; i < r.width * r.height; i++) {
        const [cr, cg, cb, a] = r.data.subarray(i * 4, i * 4 + 4);
        if (cr! < 20 && cg! < 20 && cb! > 230 && a! > 0) {
          alphas.add(a!);
          x0 = Math.min(x0, i % r.width);
          x1 = Math.max(x1, i % r.width);
        }
      }
      return { width: x1 - x0 + 1, alphas };
    };
    const shadow = { color: blue, offsetX: 40, offsetY: 0, blur: 0 };
    const plain = shadowColumns(await rasteriseText('I', style({ fontSize: 80, color: [255, 255, 255, 255], shadow })));
    const stroked = shadowColumns(
      await rasteriseText(
        'I',
        style({ fontSize: 80, color: [255, 255, 255, 255], shadow, stroke: { width: 16, color: [255, 0, 0, 255] } }),
      ),
    );
    // The stroke shows 8 px either side: its shadow is 16 px wider than the fill's.
    assert.ok(Math.abs(stroked.width - plain.width - 16) <= 2, `shadow ${plain.width} -> ${stroked.width} px`);
    assert.ok(Math.max(...stroked.alphas) <= 130, `one coat of the shadow's alpha: ${[...stroked.alphas]}`);
  });

  it('letterSpacing widens a line by the spacing per character', async () => {
    const a = await measure('abcdef', style());
    const b = await measure('abcdef', style({ letterSpacing: 5 }));
    assert.ok(Math.abs(b - a - 30) < 1.5, `${a} -> ${b}`);
  });
});

describe('text engine: captions', () => {
  it('a CJK caption wider than the box wraps, and its words have a rectangle on each line', async () => {
    const word = '日本語のテキストはとても長い文章です';
    const c = await rasteriseCaption(words(word, 'です'), style({ maxWidth: 300, lang: 'ja' }), [255, 0, 0, 255]);
    assert.ok(c.raster.lines >= 2, `${c.raster.lines} lines`);
    assert.ok(c.words[0]!.length >= 2, `the long word spans lines: ${JSON.stringify(c.words[0])}`);
    for (const rect of c.words.flat()) {
      assert.ok(rect.x1 <= c.lit.width && rect.y1 <= c.lit.height);
      assert.ok(inkColumns(c.lit, [rect.y0, rect.y1]), 'each rectangle holds lit ink');
    }
  });
});

describe('text engine: captions of unspaced scripts', () => {
  it('joins the pieces of a Chinese run without spaces, and spaced words with one', () => {
    const { text, ranges } = captionText([
      { text: '今天', joinsNext: true },
      { text: '天气', joinsNext: true },
      { text: '很好。' },
      { text: 'OK' },
    ]);
    assert.equal(text, '今天天气很好。 OK');
    assert.deepEqual(ranges, [
      [0, 2],
      [2, 4],
      [4, 7],
      [8, 10],
    ]);
  });

  it('lights each piece of a Chinese caption on its own, left to right, abutting', async () => {
    const c = await rasteriseCaption(
      [{ text: '今天', joinsNext: true }, { text: '天气', joinsNext: true }, { text: '很好' }],
      style({ lang: 'zh' }),
      [255, 0, 0, 255],
    );
    // Each piece's extent (a rectangle per run of its characters on a line).
    const [a, b, d] = c.words.map((w) => ({
      x0: Math.min(...w.map((r) => r.x0)),
      x1: Math.max(...w.map((r) => r.x1)),
    }));
    assert.ok(a!.x1 <= b!.x0 + 1 && b!.x1 <= d!.x0 + 1, JSON.stringify(c.words));
    assert.ok(b!.x0 - a!.x1 < 3 && d!.x0 - b!.x1 < 3, 'no space between the pieces');
  });
});

describe('text engine: property: the ink of a line reaches its last glyph', () => {
  // Characters every bundled family draws, directly or through Noto Sans: Latin, accents, Cyrillic, Greek.
  const alphabet = [
    ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
    ...'éèêëàâäçñöüßÉÀÇøåæœ',
    ...'абвгдежзийклмнопрстуфхцчшщыэюяБДЖЯ',
    ...'αβγδεζηθικλμνξοπρστυφχψωΣΩ',
  ];
  const word = fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 10 }).map((a) => a.join(''));
  const sentence = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
  it('for random text in every bundled family at 400 and 700', async () => {
    await fc.assert(
      fc.asyncProperty(
        sentence,
        fc.constantFrom(...FONT_FAMILIES),
        fc.constantFrom(400, 700),
        async (text, font, weight) => {
          const s = style({ font, weight, fontSize: 48 });
          const r = await rasteriseText(text, s);
          const { lines } = await layoutLines(text, s);
          assert.equal(lines.length, 1);
          const last = [...text].at(-1)!;
          const lastAdvance = await measure(last, s);
          const ink = inkColumns(r)!;
          const inkRight = ink[1] + r.offsetX;
          const lineRight = lines[0]!.left + lines[0]!.width;
          // The last glyph's ink lies inside its advance box (give or take a pixel of antialiasing).
          assert.ok(
            inkRight > lineRight - lastAdvance,
            `${font} ${weight} "${text}": ink ends at ${inkRight}, the last glyph starts at ${lineRight - lastAdvance}`,
          );
          assert.deepEqual(r.missing, []);
        },
      ),
      { numRuns: 60, seed: 26 },
    );
  });
});
