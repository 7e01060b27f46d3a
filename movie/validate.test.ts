import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bigDoc, minimalDoc, richScene } from './fixtures.ts';
import { MAX_FINDINGS, resolveMovie, validateMovie, validateTemplate } from './index.ts';

type Json = Record<string, unknown>;
type Doc = Json & { scenes: Json[] & { elements: Json[] }[] };

/** A valid base document with one scene of each element kind; cases mutate a fresh copy. */
function base(): Doc {
  return {
    schema: 'v1',
    preset: '16:9',
    scenes: [
      {
        id: 's1',
        duration: 5,
        elements: [
          { id: 't1', type: 'text', text: 'Hello' },
          { id: 'i1', type: 'image', src: 'https://example.com/a.png' },
        ],
      },
      {
        id: 's2',
        duration: 'voice',
        elements: [
          { id: 'v1', type: 'voice', text: 'Some words to say' },
          { id: 'sub1', type: 'subtitles' },
        ],
      },
    ],
  } as unknown as Doc;
}

const el = (d: Doc, s: number, e: number) => (d.scenes[s] as Json & { elements: Json[] }).elements[e]!;
const scene = (d: Doc, s: number) => d.scenes[s] as Json & { elements: Json[] };

/** [name, mutation, expected [code, path] in order]. */
const INVALID: [string, (d: Doc) => unknown, [string, string][]][] = [
  ['missing schema', (d) => delete d.schema, [['SCHEMA_INVALID', 'schema']]],
  ['schema not a string', (d) => (d.schema = 1), [['SCHEMA_INVALID', 'schema']]],
  [
    'unknown schema tag stops everything',
    (d) => {
      d.schema = 'v2';
      d.fps = 999;
    },
    [['UNSUPPORTED_SCHEMA_VERSION', 'schema']],
  ],
  ['unknown root key', (d) => (d.title = 'x'), [['SCHEMA_INVALID', 'title']]],
  ['unknown preset', (d) => (d.preset = '21:9'), [['SCHEMA_INVALID', 'preset']]],
  ['unknown resolution', (d) => (d.resolution = '999p'), [['SCHEMA_INVALID', 'resolution']]],
  ['unknown quality', (d) => (d.quality = 'lossless'), [['SCHEMA_INVALID', 'quality']]],
  [
    'resolution without preset',
    (d) => {
      d.preset = undefined;
      d.width = 640;
      d.height = 360;
      d.resolution = '720p';
    },
    [['VALIDATION_ERROR', 'resolution']],
  ],
  ['no size at all', (d) => delete d.preset, [['VALIDATION_ERROR', 'preset']]],
  ['preset and width', (d) => (d.width = 640), [['VALIDATION_ERROR', 'width']]],
  [
    'width without height',
    (d) => {
      delete d.preset;
      d.width = 640;
    },
    [['VALIDATION_ERROR', 'height']],
  ],
  [
    'odd width',
    (d) => {
      delete d.preset;
      d.width = 641;
      d.height = 360;
    },
    [['VALIDATION_ERROR', 'width']],
  ],
  [
    'height too large',
    (d) => {
      delete d.preset;
      d.width = 640;
      d.height = 8000;
    },
    [['VALIDATION_ERROR', 'height']],
  ],
  [
    'width as string',
    (d) => {
      delete d.preset;
      d.width = '640';
      d.height = 360;
    },
    [['SCHEMA_INVALID', 'width']],
  ],
  ['fps zero', (d) => (d.fps = 0), [['VALIDATION_ERROR', 'fps']]],
  ['fps fractional', (d) => (d.fps = 29.97), [['VALIDATION_ERROR', 'fps']]],
  ['fps too high', (d) => (d.fps = 61), [['VALIDATION_ERROR', 'fps']]],
  ['draft not boolean', (d) => (d.draft = 'yes'), [['SCHEMA_INVALID', 'draft']]],
  ['scenes missing', (d) => delete (d as Json).scenes, [['SCHEMA_INVALID', 'scenes']]],
  ['scenes not an array', (d) => (d.scenes = {} as never), [['SCHEMA_INVALID', 'scenes']]],
  ['scenes empty', (d) => (d.scenes = [] as never), [['VALIDATION_ERROR', 'scenes']]],
  ['scene not an object', (d) => (d.scenes[1] = 'x' as never), [['SCHEMA_INVALID', 'scenes[1]']]],
  ['scene id missing', (d) => delete scene(d, 0).id, [['SCHEMA_INVALID', 'scenes[0].id']]],
  ['scene id with spaces', (d) => (scene(d, 0).id = 'a b'), [['VALIDATION_ERROR', 'scenes[0].id']]],
  ['scene id too long', (d) => (scene(d, 0).id = 'x'.repeat(65)), [['VALIDATION_ERROR', 'scenes[0].id']]],
  ['scene id empty', (d) => (scene(d, 0).id = ''), [['VALIDATION_ERROR', 'scenes[0].id']]],
  ['duplicate scene id', (d) => (scene(d, 1).id = 's1'), [['SCENE_ID_DUPLICATE', 'scenes[1].id']]],
  ['scene duration zero', (d) => (scene(d, 0).duration = 0), [['VALIDATION_ERROR', 'scenes[0].duration']]],
  ['scene duration too long', (d) => (scene(d, 0).duration = 3601), [['VALIDATION_ERROR', 'scenes[0].duration']]],
  ['scene duration other word', (d) => (scene(d, 0).duration = 'auto'), [['SCHEMA_INVALID', 'scenes[0].duration']]],
  ['scene duration null', (d) => (scene(d, 0).duration = null), [['SCHEMA_INVALID', 'scenes[0].duration']]],
  [
    'voice duration without voice element',
    (d) => (scene(d, 0).duration = 'voice'),
    [['VALIDATION_ERROR', 'scenes[0].duration']],
  ],
  [
    'video duration without video element',
    (d) => (scene(d, 0).duration = 'video'),
    [['VALIDATION_ERROR', 'scenes[0].duration']],
  ],
  [
    'transition on the first scene',
    (d) => (scene(d, 0).transition = { type: 'crossfade' }),
    [['VALIDATION_ERROR', 'scenes[0].transition']],
  ],
  [
    'transition longer than its scene',
    (d) => {
      scene(d, 1).duration = 1;
      scene(d, 1).transition = { type: 'slide-left', duration: 1.5 };
    },
    [['VALIDATION_ERROR', 'scenes[1].transition.duration']],
  ],
  [
    'transition longer than what the previous scene has left',
    (d) => {
      d.scenes.push({
        id: 's3',
        duration: 2,
        transition: { type: 'wipe-up', duration: 2 },
        elements: [{ id: 't3', type: 'text', text: 'x' }],
      } as never);
      scene(d, 1).duration = 3;
      scene(d, 1).transition = { type: 'crossfade', duration: 1.5 };
    },
    [['VALIDATION_ERROR', 'scenes[2].transition.duration']],
  ],
  [
    'transition type unknown',
    (d) => (scene(d, 1).transition = { type: 'dissolve' }),
    [['SCHEMA_INVALID', 'scenes[1].transition.type']],
  ],
  [
    'transition too long',
    (d) => (scene(d, 1).transition = { type: 'crossfade', duration: 6 }),
    [['VALIDATION_ERROR', 'scenes[1].transition.duration']],
  ],
  [
    'video src not http',
    (d) => (scene(d, 0).elements[0] = { id: 'v', type: 'video', src: 'data:video/mp4;base64,AAAA' } as never),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].src']],
  ],
  [
    'video trimStart negative',
    (d) => (scene(d, 0).elements[0] = { id: 'v', type: 'video', src: 'https://e.com/a.mp4', trimStart: -1 } as never),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].trimStart']],
  ],
  [
    'audio volume too loud',
    (d) => (scene(d, 0).elements[0] = { id: 'a', type: 'audio', src: 'https://e.com/a.mp3', volume: 5 } as never),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].volume']],
  ],
  [
    'audio ending after its scene',
    (d) =>
      (scene(d, 0).elements[0] = {
        id: 'a',
        type: 'audio',
        src: 'https://e.com/a.mp3',
        start: 4,
        duration: 2,
      } as never),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].duration']],
  ],
  ['soundtrack without src', (d) => (d.soundtrack = { volume: 1 }), [['SCHEMA_INVALID', 'soundtrack.src']]],
  [
    'soundtrack ducking above 1',
    (d) => (d.soundtrack = { src: 'https://e.com/m.mp3', ducking: 1.5 }),
    [['VALIDATION_ERROR', 'soundtrack.ducking']],
  ],
  [
    'loudness target above -5 LUFS and ceiling under -9 dBTP',
    (d) => (d.loudness = { target: -4, truePeak: -9.5 }),
    [
      ['VALIDATION_ERROR', 'loudness.target'],
      ['VALIDATION_ERROR', 'loudness.truePeak'],
    ],
  ],
  [
    'loudness target under -70 LUFS, ceiling over 0 dBTP',
    (d) => (d.loudness = { target: -71, truePeak: 0.5 }),
    [
      ['VALIDATION_ERROR', 'loudness.target'],
      ['VALIDATION_ERROR', 'loudness.truePeak'],
    ],
  ],
  ['loudness as a number', (d) => (d.loudness = -14), [['SCHEMA_INVALID', 'loudness']]],
  ['loudness target as a string', (d) => (d.loudness = { target: '-14' }), [['SCHEMA_INVALID', 'loudness.target']]],
  ['unknown loudness field', (d) => (d.loudness = { lufs: -14 }), [['SCHEMA_INVALID', 'loudness.lufs']]],
  ['bad background colour', (d) => (scene(d, 0).background = '#12345'), [['VALIDATION_ERROR', 'scenes[0].background']]],
  [
    'capitalised named colour',
    (d) => (scene(d, 0).background = 'White'),
    [['VALIDATION_ERROR', 'scenes[0].background']],
  ],
  ['unknown scene key', (d) => (scene(d, 0).transition = 'fade'), [['SCHEMA_INVALID', 'scenes[0].transition']]],
  [
    'own __proto__ key from JSON.parse is an unknown key',
    (d) => {
      d.scenes[0] = JSON.parse(JSON.stringify(d.scenes[0]).replace('{', '{"__proto__":{"id":"x"},'));
    },
    [['SCHEMA_INVALID', 'scenes[0].__proto__']],
  ],
  [
    'constructor key on an element',
    (d) => Object.assign(el(d, 0, 0), { constructor: 1 }),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].constructor']],
  ],
  ['empty elements', (d) => (scene(d, 0).elements = []), [['SCENE_EMPTY', 'scenes[0].elements']]],
  ['elements not an array', (d) => (scene(d, 0).elements = {} as never), [['SCHEMA_INVALID', 'scenes[0].elements']]],
  [
    'element not an object',
    (d) => (scene(d, 0).elements[0] = 5 as never),
    [['SCHEMA_INVALID', 'scenes[0].elements[0]']],
  ],
  ['element type missing', (d) => delete el(d, 0, 0).type, [['SCHEMA_INVALID', 'scenes[0].elements[0].type']]],
  ['element type unknown', (d) => (el(d, 0, 0).type = 'lottie'), [['SCHEMA_INVALID', 'scenes[0].elements[0].type']]],
  [
    'duplicate element id across scenes',
    (d) => (el(d, 1, 1).id = 't1'),
    [['ELEMENT_ID_DUPLICATE', 'scenes[1].elements[1].id']],
  ],
  ['text missing', (d) => delete el(d, 0, 0).text, [['SCHEMA_INVALID', 'scenes[0].elements[0].text']]],
  ['text empty', (d) => (el(d, 0, 0).text = ''), [['VALIDATION_ERROR', 'scenes[0].elements[0].text']]],
  ['text too long', (d) => (el(d, 0, 0).text = 'x'.repeat(5001)), [['VALIDATION_ERROR', 'scenes[0].elements[0].text']]],
  ['text as number', (d) => (el(d, 0, 0).text = 5), [['SCHEMA_INVALID', 'scenes[0].elements[0].text']]],
  ['fontWeight 950', (d) => (el(d, 0, 0).fontWeight = 950), [['VALIDATION_ERROR', 'scenes[0].elements[0].fontWeight']]],
  ['fontWeight 450', (d) => (el(d, 0, 0).fontWeight = 450), [['VALIDATION_ERROR', 'scenes[0].elements[0].fontWeight']]],
  ['fontSize zero', (d) => (el(d, 0, 0).fontSize = 0), [['VALIDATION_ERROR', 'scenes[0].elements[0].fontSize']]],
  [
    'unknown font family',
    (d) => (el(d, 0, 0).font = 'Comic Sans'),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].font']],
  ],
  [
    'font as ftp URL',
    (d) => (el(d, 0, 0).font = 'ftp://x/f.ttf'),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].font']],
  ],
  [
    'text colour wrong type',
    (d) => (el(d, 0, 0).color = 0xffffff),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].color']],
  ],
  ['align unknown', (d) => (el(d, 0, 0).align = 'justify'), [['SCHEMA_INVALID', 'scenes[0].elements[0].align']]],
  [
    'lineHeight too big',
    (d) => (el(d, 0, 0).lineHeight = 4),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].lineHeight']],
  ],
  [
    'maxWidth fractional',
    (d) => (el(d, 0, 0).maxWidth = 10.5),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].maxWidth']],
  ],
  ['position word', (d) => (el(d, 0, 0).position = 'top'), [['SCHEMA_INVALID', 'scenes[0].elements[0].position']]],
  [
    'position missing y',
    (d) => (el(d, 0, 0).position = { x: 1 }),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].position.y']],
  ],
  [
    'position extra key',
    (d) => (el(d, 0, 0).position = { x: 1, y: 2, z: 3 }),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].position.z']],
  ],
  [
    'position x huge',
    (d) => (el(d, 0, 0).position = { x: 1e308, y: 0 }),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].position.x']],
  ],
  [
    'animation preset unknown',
    (d) => (el(d, 0, 0).animation = { preset: 'spin' }),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].animation.preset']],
  ],
  [
    'animation preset missing',
    (d) => (el(d, 0, 0).animation = { duration: 1 }),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].animation.preset']],
  ],
  [
    'animation too long',
    (d) => (el(d, 0, 0).animation = { preset: 'fade-in', duration: 11 }),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].animation.duration']],
  ],
  ['element start negative', (d) => (el(d, 0, 0).start = -1), [['VALIDATION_ERROR', 'scenes[0].elements[0].start']]],
  ['element start after scene', (d) => (el(d, 0, 0).start = 5), [['VALIDATION_ERROR', 'scenes[0].elements[0].start']]],
  [
    'element ends after scene',
    (d) => {
      el(d, 0, 0).start = 2;
      el(d, 0, 0).duration = 3.5;
    },
    [['VALIDATION_ERROR', 'scenes[0].elements[0].duration']],
  ],
  ['image src missing', (d) => delete el(d, 0, 1).src, [['SCHEMA_INVALID', 'scenes[0].elements[1].src']]],
  ['image src relative', (d) => (el(d, 0, 1).src = '/a.png'), [['VALIDATION_ERROR', 'scenes[0].elements[1].src']]],
  [
    'image src file URL',
    (d) => (el(d, 0, 1).src = 'file:///etc/passwd'),
    [['VALIDATION_ERROR', 'scenes[0].elements[1].src']],
  ],
  [
    'image src data non-image',
    (d) => (el(d, 0, 1).src = 'data:text/plain;base64,aGk='),
    [['VALIDATION_ERROR', 'scenes[0].elements[1].src']],
  ],
  ['image fit unknown', (d) => (el(d, 0, 1).fit = 'stretch'), [['SCHEMA_INVALID', 'scenes[0].elements[1].fit']]],
  ['image width zero', (d) => (el(d, 0, 1).width = 0), [['VALIDATION_ERROR', 'scenes[0].elements[1].width']]],
  ['image with text field', (d) => (el(d, 0, 1).text = 'x'), [['SCHEMA_INVALID', 'scenes[0].elements[1].text']]],
  ['voice text blank', (d) => (el(d, 1, 0).text = '   '), [['VALIDATION_ERROR', 'scenes[1].elements[0].text']]],
  [
    'voice unknown voiceId',
    (d) => (el(d, 1, 0).voiceId = 'espeak-xx'),
    [['VALIDATION_ERROR', 'scenes[1].elements[0].voiceId']],
  ],
  [
    'voice language malformed',
    (d) => (el(d, 1, 0).language = 'english'),
    [['VALIDATION_ERROR', 'scenes[1].elements[0].language']],
  ],
  [
    'voice language unsupported offline',
    (d) => (el(d, 1, 0).language = 'xx-YY'),
    [['VALIDATION_ERROR', 'scenes[1].elements[0].language']],
  ],
  [
    'voice language mismatches voice',
    (d) => {
      el(d, 1, 0).voiceId = 'espeak-de-de';
      el(d, 1, 0).language = 'fr-FR';
    },
    [['VALIDATION_ERROR', 'scenes[1].elements[0].language']],
  ],
  ['voice with duration', (d) => (el(d, 1, 0).duration = 2), [['SCHEMA_INVALID', 'scenes[1].elements[0].duration']]],
  [
    'voice with position',
    (d) => (el(d, 1, 0).position = 'center'),
    [['SCHEMA_INVALID', 'scenes[1].elements[0].position']],
  ],
  [
    'subtitles without voice',
    (d) => scene(d, 0).elements.push({ id: 'sub2', type: 'subtitles' }),
    [['VALIDATION_ERROR', 'scenes[0].elements[2]']],
  ],
  [
    'subtitles src neither http(s) nor data:',
    (d) => (el(d, 1, 1).src = 'captions.srt'),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].src']],
  ],
  [
    'subtitles style unknown',
    (d) => (el(d, 1, 1).style = 'bouncy'),
    [['SCHEMA_INVALID', 'scenes[1].elements[1].style']],
  ],
  [
    'subtitles style pop with a file',
    (d) => Object.assign(el(d, 1, 1), { src: 'https://cdn.example.com/a.srt', style: 'pop' }),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].style']],
  ],
  [
    'subtitles wordsPerLine 0',
    (d) => (el(d, 1, 1).wordsPerLine = 0),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].wordsPerLine']],
  ],
  [
    'subtitles bad highlight',
    (d) => (el(d, 1, 1).highlightColor = 'shiny'),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].highlightColor']],
  ],
  [
    'subtitles with animation',
    (d) => (el(d, 1, 1).animation = { preset: 'fade-in' }),
    [['SCHEMA_INVALID', 'scenes[1].elements[1].animation']],
  ],
  ['variables not an object', (d) => (d.variables = []), [['SCHEMA_INVALID', 'variables']]],
  [
    'variable bad name',
    (d) => (d.variables = { 'my-var': { type: 'string' } }),
    [['VALIDATION_ERROR', 'variables["my-var"]']],
  ],
  ['variable type unknown', (d) => (d.variables = { a: { type: 'date' } }), [['SCHEMA_INVALID', 'variables.a.type']]],
  ['variable type missing', (d) => (d.variables = { a: {} }), [['SCHEMA_INVALID', 'variables.a.type']]],
  [
    'variable unknown key',
    (d) => (d.variables = { a: { type: 'string', required: true } }),
    [['SCHEMA_INVALID', 'variables.a.required']],
  ],
  [
    'enum without options',
    (d) => (d.variables = { a: { type: 'enum' } }),
    [['VALIDATION_ERROR', 'variables.a.options']],
  ],
  [
    'enum empty options',
    (d) => (d.variables = { a: { type: 'enum', options: [] } }),
    [['VALIDATION_ERROR', 'variables.a.options']],
  ],
  [
    'enum duplicate option',
    (d) => (d.variables = { a: { type: 'enum', options: ['x', 'x'] } }),
    [['VALIDATION_ERROR', 'variables.a.options[1]']],
  ],
  [
    'options on a string variable',
    (d) => (d.variables = { a: { type: 'string', options: ['x'] } }),
    [['VALIDATION_ERROR', 'variables.a.options']],
  ],
  [
    'number default not a number',
    (d) => (d.variables = { a: { type: 'number', default: '4x' } }),
    [['VALIDATION_ERROR', 'variables.a.default']],
  ],
  [
    'enum default not an option',
    (d) => (d.variables = { a: { type: 'enum', options: ['x'], default: 'y' } }),
    [['VALIDATION_ERROR', 'variables.a.default']],
  ],
  [
    'url default relative',
    (d) => (d.variables = { a: { type: 'url', default: '/x' } }),
    [['VALIDATION_ERROR', 'variables.a.default']],
  ],
  [
    'default is an object',
    (d) => (d.variables = { a: { type: 'string', default: {} } }),
    [['SCHEMA_INVALID', 'variables.a.default']],
  ],
  [
    'several findings in document order',
    (d) => {
      d.fps = 100;
      el(d, 0, 0).fontWeight = 1000;
      scene(d, 1).id = 's1';
      el(d, 1, 0).bogus = true;
    },
    // fps was added after scenes, so it is the document's last key and its finding comes last.
    [
      ['VALIDATION_ERROR', 'scenes[0].elements[0].fontWeight'],
      ['SCENE_ID_DUPLICATE', 'scenes[1].id'],
      ['SCHEMA_INVALID', 'scenes[1].elements[0].bogus'],
      ['VALIDATION_ERROR', 'fps'],
    ],
  ],
  [
    'text stroke without colour',
    (d) => (el(d, 0, 0).stroke = { width: 2 }),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].stroke.color']],
  ],
  [
    'text stroke width zero',
    (d) => (el(d, 0, 0).stroke = { width: 0, color: 'black' }),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].stroke.width']],
  ],
  [
    'subtitles stroke too wide',
    (d) => (el(d, 1, 1).stroke = { width: 51, color: 'black' }),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].stroke.width']],
  ],
  [
    'shadow offset out of range and unknown key',
    (d) => (el(d, 0, 0).shadow = { offsetY: 201, spread: 2 }),
    [
      ['VALIDATION_ERROR', 'scenes[0].elements[0].shadow.offsetY'],
      ['SCHEMA_INVALID', 'scenes[0].elements[0].shadow.spread'],
    ],
  ],
  [
    'shadow blur negative',
    (d) => (el(d, 0, 0).shadow = { blur: -1 }),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].shadow.blur']],
  ],
  ['shadow as a colour', (d) => (el(d, 0, 0).shadow = '#000'), [['SCHEMA_INVALID', 'scenes[0].elements[0].shadow']]],
  [
    'text box without colour',
    (d) => (el(d, 0, 0).background = { padding: 4 }),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].background.color']],
  ],
  [
    'text box padding too large',
    (d) => (el(d, 0, 0).background = { color: 'black', padding: 501 }),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].background.padding']],
  ],
  [
    'text box radius negative',
    (d) => (el(d, 0, 0).background = { color: 'black', radius: -1 }),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].background.radius']],
  ],
  [
    'letterSpacing below -50',
    (d) => (el(d, 0, 0).letterSpacing = -51),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].letterSpacing']],
  ],
  ['maxLines zero', (d) => (el(d, 0, 0).maxLines = 0), [['VALIDATION_ERROR', 'scenes[0].elements[0].maxLines']]],
  [
    'maxLines fractional on subtitles',
    (d) => (el(d, 1, 1).maxLines = 1.5),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].maxLines']],
  ],
  ['maxHeight zero', (d) => (el(d, 0, 0).maxHeight = 0), [['VALIDATION_ERROR', 'scenes[0].elements[0].maxHeight']]],
  [
    'maxHeight on subtitles',
    (d) => (el(d, 1, 1).maxHeight = 100),
    [['SCHEMA_INVALID', 'scenes[1].elements[1].maxHeight']],
  ],
  [
    'autoFit on subtitles',
    (d) => (el(d, 1, 1).autoFit = { minFontSize: 10 }),
    [['SCHEMA_INVALID', 'scenes[1].elements[1].autoFit']],
  ],
  [
    'autoFit without maxHeight or maxLines',
    (d) => (el(d, 0, 0).autoFit = { minFontSize: 20 }),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].autoFit']],
  ],
  [
    'autoFit minFontSize above the default fontSize',
    (d) => Object.assign(el(d, 0, 0), { maxLines: 2, autoFit: { minFontSize: 65 } }),
    [['VALIDATION_ERROR', 'scenes[0].elements[0].autoFit.minFontSize']],
  ],
  [
    'autoFit minFontSize above fontSize, and nothing to fit into',
    (d) => Object.assign(el(d, 0, 0), { fontSize: 30, autoFit: { minFontSize: 31 } }),
    [
      ['VALIDATION_ERROR', 'scenes[0].elements[0].autoFit'],
      ['VALIDATION_ERROR', 'scenes[0].elements[0].autoFit.minFontSize'],
    ],
  ],
  [
    'autoFit without minFontSize',
    (d) => Object.assign(el(d, 0, 0), { maxLines: 2, autoFit: {} }),
    [['SCHEMA_INVALID', 'scenes[0].elements[0].autoFit.minFontSize']],
  ],
  ['lang with a space', (d) => (el(d, 0, 0).lang = 'zh CN'), [['VALIDATION_ERROR', 'scenes[0].elements[0].lang']]],
  [
    'lang too long',
    (d) => (el(d, 1, 1).lang = `en${'-abcdefgh'.repeat(4)}`),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].lang']],
  ],
  [
    'subtitles with backgroundColor and background',
    (d) => Object.assign(el(d, 1, 1), { backgroundColor: '#000', background: { color: '#111' } }),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].backgroundColor']],
  ],
  [
    'subtitles align unknown',
    (d) => (el(d, 1, 1).align = 'justify'),
    [['SCHEMA_INVALID', 'scenes[1].elements[1].align']],
  ],
  [
    'subtitles lineHeight too small',
    (d) => (el(d, 1, 1).lineHeight = 0.4),
    [['VALIDATION_ERROR', 'scenes[1].elements[1].lineHeight']],
  ],
  [
    'key order of the document decides the order',
    (d) => {
      const s = scene(d, 0);
      delete s.id;
      s.id = 'a b'; // now the last key of the scene
      s.duration = -1;
    },
    [
      ['VALIDATION_ERROR', 'scenes[0].duration'],
      ['VALIDATION_ERROR', 'scenes[0].id'],
    ],
  ],
];

describe('validateMovie: invalid documents give exactly the expected findings', () => {
  test(`the corpus has at least 40 documents (${INVALID.length})`, () => assert.ok(INVALID.length >= 40));
  for (const [name, mutate, expected] of INVALID) {
    test(name, () => {
      const doc = base();
      mutate(doc);
      const r = validateMovie(doc);
      assert.equal(r.ok, false, 'expected findings');
      if (r.ok) return;
      assert.deepEqual(
        r.findings.map((f) => [f.code, f.path]),
        expected,
        JSON.stringify(r.findings, null, 1),
      );
      for (const f of r.findings) assert.ok(f.message.length > 10 && f.message.length < 1000, f.message);
    });
  }
});

describe('messages say what is wrong and what is allowed', () => {
  const cases: [string, (d: Doc) => unknown, RegExp][] = [
    [
      'fontWeight',
      (d) => (el(d, 0, 0).fontWeight = 950),
      /^fontWeight must be an integer from 100 to 900 in steps of 100; got 950$/,
    ],
    [
      'unknown key',
      (d) => (scene(d, 0).transitions = 1),
      /unknown field "transitions" in scenes\[0\]; allowed: id, duration, background, transition, elements/,
    ],
    ['font', (d) => (el(d, 0, 0).font = 'inter'), /did you mean "Inter"\?.*Roboto/],
    ['enum', (d) => (el(d, 0, 1).fit = 'x'), /fit must be one of "contain", "cover", "fill"; got "x"/],
    ['duplicate', (d) => (el(d, 1, 0).id = 'i1'), /element id "i1" is already used by scenes\[0\]\.elements\[1\]/],
    ['version', (d) => (d.schema = 'v0'), /schema "v0" is not a supported version; supported: v1/],
    ['loudness target', (d) => (d.loudness = { target: -4 }), /^target must be a number from -70 to -5; got -4$/],
    ['loudness kind', (d) => (d.loudness = 'loud'), /^loudness must be true, false or a loudness object; got "loud"$/],
    [
      'size',
      (d) => {
        delete d.preset;
        d.width = 100;
        d.height = 101;
      },
      /height must be an even integer from 16 to 4096; got 101/,
    ],
  ];
  for (const [name, mutate, pattern] of cases) {
    test(name, () => {
      const doc = base();
      mutate(doc);
      const r = validateMovie(doc);
      assert.ok(!r.ok);
      assert.match(r.findings[0]!.message, pattern);
    });
  }
});

describe('valid documents', () => {
  const everything = {
    schema: 'v1',
    preset: '9:16',
    resolution: '720p',
    fps: 24,
    draft: true,
    quality: 'small',
    output: { format: 'mov', posterTime: 1 },
    soundtrack: {
      src: 'https://example.com/music.mp3',
      volume: 0.8,
      trimStart: 12,
      loop: false,
      fadeIn: 1,
      fadeOut: 2.5,
      ducking: 0.4,
    },
    loudness: { target: -16, truePeak: -1.5 },
    variables: {
      headline: { type: 'string', default: 'Hi', description: 'Main line' },
      size: { type: 'number', default: 40 },
      show: { type: 'boolean', default: true },
      logo: { type: 'url', default: 'https://example.com/logo.png' },
      accent: { type: 'color', default: 'gold' },
      mood: { type: 'enum', options: ['calm', 'loud'], default: 'calm' },
    },
    scenes: [
      {
        id: 'intro',
        duration: 4.5,
        background: '#000',
        elements: [
          {
            id: 'title',
            type: 'text',
            text: 'Line one\nLine two',
            font: 'Playfair Display',
            fontSize: 80,
            fontWeight: 900,
            color: '#ffffffcc',
            align: 'left',
            maxWidth: 600,
            lineHeight: 1.4,
            position: { x: -20, y: 30.5 },
            start: 0.5,
            duration: 4,
            animation: { preset: 'slide-in-left', duration: 0.8 },
            animate: {
              x: [
                { time: 0, value: -20 },
                { time: '50%', value: 100, easing: 'ease-in-out' },
              ],
              y: [{ time: 1, value: 30.5, easing: 'cubic-bezier(0.1, -0.5, 0.9, 1.5)' }],
              scale: [
                { time: 0, value: 0.5, easing: 'spring(1, 100, 10)' },
                { time: 2, value: 1 },
              ],
              scaleX: [{ time: 0, value: 1 }],
              scaleY: [{ time: 0, value: 1 }],
              rotation: [
                { time: 0, value: -45, easing: 'steps(4, jump-start)' },
                { time: 4, value: 45 },
              ],
              opacity: [
                { time: '0%', value: 0 },
                { time: '100%', value: 1 },
              ],
              crop: [{ time: 0, value: { x: 0, y: 0, width: 10, height: 20 } }],
            },
            textAnimation: {
              unit: 'letter',
              style: 'rise',
              stagger: 0.05,
              duration: 0.3,
              start: 0.2,
              easing: 'ease-out',
            },
            stroke: { width: 2.5, color: '#000' },
            shadow: { color: '#00000080', offsetX: -3, offsetY: 6, blur: 10 },
            background: { color: '#1a1a1acc', padding: 12, radius: 8 },
            letterSpacing: -1.5,
            maxHeight: 400,
            maxLines: 3,
            autoFit: { minFontSize: 40 },
            lang: 'zh-Hant-TW',
          },
          { id: 'font-url', type: 'text', text: 'x', font: 'https://fonts.example.com/a.woff2', position: 'center' },
          {
            id: 'clip',
            type: 'video',
            src: 'https://example.com/clip.mp4',
            width: 640,
            height: 360,
            fit: 'cover',
            position: { x: 0, y: 0 },
            start: 0.5,
            duration: 3,
            animation: { in: { preset: 'zoom', duration: 0.4, easing: 'ease' }, out: { preset: 'slide-left' } },
            animate: {
              volume: [
                { time: 0, value: 0 },
                { time: 1, value: 1 },
              ],
            },
            trimStart: 2,
            trimDuration: 1.5,
            loop: true,
            volume: 0.5,
            muted: false,
            opacity: 0.9,
            blur: 2.5,
            background: { blur: 30, brightness: 0.6 },
            cornerRadius: 12,
            border: { width: 3, color: '#ffffff80' },
            filters: { brightness: 1.1, contrast: 0.9, saturation: 1.3, grayscale: 0.2 },
            chromaKey: { color: '#00ff00', similarity: 0.12, smoothness: 0.05 },
          },
          {
            id: 'whoosh',
            type: 'audio',
            src: 'https://example.com/whoosh.wav',
            start: 1,
            duration: 2,
            trimStart: 0.1,
            trimDuration: 0.5,
            loop: true,
            volume: 2,
            fadeIn: 0.2,
            fadeOut: 0.3,
            animate: {
              volume: [
                { time: 0, value: 1 },
                { time: '100%', value: 0.25, easing: 'ease-in' },
              ],
            },
          },
          { id: 'captions-heard', type: 'subtitles', from: 'whoosh', language: 'en' },
          {
            id: 'logo',
            type: 'image',
            src: 'data:image/png;base64,iVBORw0KGgo=',
            width: 200,
            height: 100,
            fit: 'fill',
            position: 'center',
            start: 1,
            duration: 3.5,
            animate: {
              scale: [
                { time: 0, value: 1 },
                { time: 3.5, value: 1.2, easing: 'ease' },
              ],
            },
            opacity: 0.5,
            blur: 0,
            background: {},
            cornerRadius: 0,
            border: { width: 1, color: 'black' },
            filters: {},
            chromaKey: {},
            animation: { preset: 'fade-out' },
          },
        ],
      },
      {
        id: 'talk',
        duration: 'voice',
        background: 'rebeccapurple',
        transition: { type: 'wipe-left', duration: 0.75 },
        elements: [
          {
            id: 'narration',
            type: 'voice',
            text: 'Hallo Welt',
            voiceId: 'espeak-de-de',
            language: 'de-DE',
            start: 0.2,
          },
          { id: 'narration-2', type: 'voice', text: 'Bonjour', voiceId: 'openai-nova', language: 'fr' },
          { id: 'narration-3', type: 'voice', text: 'Hola', language: 'es' },
          {
            id: 'captions',
            type: 'subtitles',
            font: 'Oswald',
            fontSize: 40,
            fontWeight: 500,
            color: 'white',
            highlightColor: '#ff0',
            backgroundColor: 'transparent',
            wordsPerLine: 3,
            position: { x: 10, y: 1000 },
            start: 0,
            duration: 10,
            stroke: { width: 50, color: 'black' },
            shadow: {},
            letterSpacing: 200,
            lineHeight: 1,
            align: 'left',
            maxWidth: 900,
            maxLines: 2,
            lang: 'ja',
            style: 'lines',
          },
          { id: 'captions-boxed', type: 'subtitles', background: { color: '#000000a0' }, style: 'boxed' },
          { id: 'captions-file', type: 'subtitles', src: 'https://cdn.example.com/captions.vtt' },
        ],
      },
    ],
  };

  const cases: [string, unknown][] = [
    ['minimal', minimalDoc()],
    ['base of the corpus', base()],
    ['every field', everything],
    ['width and height', { ...minimalDoc(), preset: undefined, width: 1280, height: 720 }],
    ['loudness off', { ...minimalDoc(), loudness: false }],
    ['loudness at its defaults', { ...minimalDoc(), loudness: true }],
    ['loudness at its bounds', { ...minimalDoc(), loudness: { target: -70, truePeak: -9 } }],
    ['loudness target only', { ...minimalDoc(), loudness: { target: -5 } }],
    ['500 rich scenes', bigDoc(500)],
    [
      'element ending exactly at the scene end (float sum)',
      {
        ...minimalDoc(),
        scenes: [
          { id: 's', duration: 0.3, elements: [{ id: 't', type: 'text', text: 'x', start: 0.1, duration: 0.2 }] },
        ],
      },
    ],
  ];
  for (const [name, doc] of cases) {
    test(name, () => {
      const r = validateMovie(doc);
      assert.deepEqual(r.ok ? [] : r.findings, []);
      assert.ok(r.ok && r.value === doc, 'the value is the document itself');
    });
  }

  test('every field of every element kind is exercised by the "every field" document', async () => {
    const {
      TextElement,
      ImageElement,
      VideoElement,
      VoiceElement,
      SubtitlesElement,
      AudioElement,
      Scene,
      MovieV1,
      VariableDeclaration,
      Soundtrack,
      Loudness,
      Transition,
    } = await import('./v1/schema.ts');
    const seen = (objs: Json[]) => new Set(objs.flatMap((o) => Object.keys(o)));
    const scenes = everything.scenes as unknown as Json[];
    const elements = scenes.flatMap((s) => s.elements as Json[]);
    const ofType = (t: string) => elements.filter((e) => e.type === t);
    const checks: [string, { properties: Json }, Set<string>][] = [
      ['movie', MovieV1, seen([everything as unknown as Json, { width: 1, height: 1 }])],
      ['scene', Scene, seen(scenes)],
      ['text', TextElement, seen(ofType('text'))],
      ['image', ImageElement, seen(ofType('image'))],
      ['voice', VoiceElement, seen(ofType('voice'))],
      ['subtitles', SubtitlesElement, seen(ofType('subtitles'))],
      ['video', VideoElement, seen(ofType('video'))],
      ['audio', AudioElement, seen(ofType('audio'))],
      ['soundtrack', Soundtrack, seen([everything.soundtrack as unknown as Json])],
      ['loudness', Loudness, seen([everything.loudness as unknown as Json])],
      ['transition', Transition, seen(scenes.flatMap((sc) => (sc.transition ? [sc.transition as Json] : [])))],
      ['variable', VariableDeclaration, seen(Object.values(everything.variables) as Json[])],
    ];
    for (const [name, schema, keys] of checks) {
      for (const field of Object.keys(schema.properties)) assert.ok(keys.has(field), `${name}.${field} is not covered`);
    }
  });

  test('a rich scene from the fixtures validates', () => {
    const r = validateMovie({ schema: 'v1', preset: '1:1', scenes: [richScene(1), richScene(3)] });
    assert.deepEqual(r.ok ? [] : r.findings, []);
  });
});

describe('finding limits', () => {
  test(`at most ${MAX_FINDINGS} findings, the first ones in document order`, () => {
    const doc = base();
    for (let i = 0; i < 300; i++) scene(doc, 0)[`extra${i}`] = i;
    const r = validateMovie(doc);
    assert.ok(!r.ok);
    assert.equal(r.findings.length, MAX_FINDINGS);
    assert.equal(r.findings[0]!.path, 'scenes[0].extra0');
    assert.equal(r.findings[99]!.path, 'scenes[0].extra99');
  });

  test('more than 500 scenes is one finding, and only the first 500 are checked', () => {
    const doc = bigDoc(501);
    (doc.scenes as Json[])[500]!.duration = -1;
    const r = validateMovie(doc);
    assert.ok(!r.ok);
    assert.deepEqual(
      r.findings.map((f) => [f.code, f.path]),
      [['VALIDATION_ERROR', 'scenes']],
    );
  });
});

describe('the three entry points agree on a finished document', () => {
  for (const [name, mutate] of INVALID.slice(0, 40).map(([n, m]) => [n, m] as const)) {
    test(name, () => {
      const doc = base();
      mutate(doc);
      const full = validateMovie(doc);
      const resolved = resolveMovie(doc);
      const template = validateTemplate(doc);
      assert.deepEqual(resolved.ok ? [] : resolved.findings, full.ok ? [] : full.findings);
      assert.deepEqual(template.ok ? [] : template.findings, full.ok ? [] : full.findings);
    });
  }
});
