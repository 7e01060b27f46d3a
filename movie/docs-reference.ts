/**
 * The field reference of docs/movie.md, generated from the schema so the doc cannot drift: one
 * table per object with each field's type, whether it is required, its default and its bounds.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { ANIMATION_PRESETS } from './animations.ts';
import { EASING_SYNTAX } from './easing.ts';
import { DEFAULT_FONT, FONT_FAMILIES } from './fonts.ts';
import { MOTION_EFFECTS } from './motion.ts';
import { BlurFill, Border, ChromaKey, Filters } from './v1/effects.ts';
import { CropKey, KeyDoc, MediaAnimate, PresetMotionDoc, TextAnimation } from './v1/motion.ts';
import { Output } from './v1/output.ts';
import {
  AudioElement,
  AutoFit,
  ImageElement,
  Loudness,
  MovieV1,
  Scene,
  ShapeElement,
  Soundtrack,
  SubtitlesElement,
  TextBackground,
  TextElement,
  TextShadow,
  TextStroke,
  Transition,
  VariableDeclaration,
  VideoElement,
  VoiceElement,
} from './v1/schema.ts';
import { LinearGradient, RadialGradient, ShapeStroke } from './v1/shape.ts';
import { VOICES } from './voices.ts';
import { annotations } from './walk/annotations.ts';

type Node = TSchema & Record<string, unknown>;

const REFERENCE_BEGIN = '<!-- BEGIN GENERATED REFERENCE (node --import tsx movie/export-schema.ts) -->';
const REFERENCE_END = '<!-- END GENERATED REFERENCE -->';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const CHECK_TEXT: Record<string, string> = {
  color: '`#rgb`, `#rrggbb`, `#rrggbbaa` or a lower-case CSS colour name (`transparent` too)',
  font: 'a bundled family or an http(s)/data: font URL',
  'media-url': 'absolute http(s) URL (≤ 2048 chars) or base64 `data:image/(png|jpeg|webp|gif|avif|svg+xml)` URI',
  'http-url': 'absolute http(s) URL (≤ 2048 chars)',
  'voice-id': 'an id of the voice catalogue (below)',
};

function typeText(s: Node): string {
  const a = annotations(s);
  if (a.check === 'color') return 'colour';
  if (a.check === 'font') return 'font';
  if (a.check === 'voice-id') return 'voice id';
  if (a.docName) return a.docName;
  switch (s[Kind]) {
    case 'Literal':
      return `\`${JSON.stringify(s.const)}\``;
    case 'Union': {
      const members = s.anyOf as Node[];
      if (members.every((m) => m[Kind] === 'Literal')) return members.map(typeText).join(' | ');
      return members.map(typeText).join(' or ');
    }
    case 'Array':
      return `array of ${typeText(s.items as Node)}`;
    case 'Record':
      return 'object: name → declaration';
    case 'Object':
      return 'object';
    case 'Integer':
      return 'integer';
    default:
      return String(s.type ?? s[Kind]).toLowerCase();
  }
}

function boundsText(s: Node): string {
  const a = annotations(s);
  const parts: string[] = [];
  if (a.check) parts.push(CHECK_TEXT[a.check]!);
  const num = (k: string) => s[k] as number | undefined;
  if (num('minimum') !== undefined && num('maximum') !== undefined)
    parts.push(`${num('minimum')} to ${num('maximum')}`);
  else if (num('exclusiveMinimum') !== undefined && num('maximum') !== undefined)
    parts.push(`> ${num('exclusiveMinimum')} and ≤ ${num('maximum')}`);
  if (num('multipleOf') !== undefined) parts.push(`multiple of ${num('multipleOf')}`);
  if (!a.check) {
    if (num('minLength') !== undefined || num('maxLength') !== undefined)
      parts.push(`${num('minLength') ?? 0} to ${num('maxLength')} characters`);
    if (typeof s.pattern === 'string') parts.push(a.patternText ?? `matches \`${s.pattern}\``);
  }
  if (num('minItems') !== undefined) parts.push(`${num('minItems')} to ${num('maxItems')} items`);
  if (num('maxProperties') !== undefined) parts.push(`at most ${num('maxProperties')} entries`);
  if (s[Kind] === 'Union')
    for (const m of s.anyOf as Node[]) if (m[Kind] !== 'Literal' && !a.check) parts.push(boundsText(m));
  return parts.filter(Boolean).join('; ');
}

function defaultText(s: Node): string {
  const a = annotations(s);
  if (a.docDefault) return a.docDefault;
  if (s.default !== undefined) return `\`${JSON.stringify(s.default)}\``;
  return '';
}

function table(title: string, obj: TSchema, intro: string): string {
  const o = obj as Node;
  const props = o.properties as Record<string, Node>;
  const required = new Set((o.required as string[] | undefined) ?? []);
  const rows = Object.entries(props).map(([name, p]) =>
    [
      `\`${name}\``,
      cell(typeText(p)),
      required.has(name) ? 'yes' : '',
      cell(defaultText(p)),
      cell(boundsText(p)),
      cell(String(p.description ?? '')),
    ].join(' | '),
  );
  const lead = [intro, String(o.description ?? '')].filter(Boolean).join(' ');
  return [
    `### ${title}`,
    '',
    ...(lead ? [lead, ''] : []),
    '| field | type | required | default | allowed | notes |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
    '',
  ].join('\n');
}

function positionObject(): TSchema {
  const union = (TextElement as unknown as Node).properties as Record<string, Node>;
  return (union.position!.anyOf as Node[]).find((m) => m[Kind] === 'Object')!;
}

/** The generated reference section, markers included. */
function referenceMarkdown(): string {
  const sections = [
    table('Document', MovieV1, 'The root object. Unknown keys are rejected everywhere.'),
    table(
      'Variable declaration (`variables.<name>`)',
      VariableDeclaration,
      'Names: a letter or `_`, then letters, digits or `_`; at most 64 characters.',
    ),
    table('Scene (`scenes[i]`)', Scene, 'Scene ids are unique among scenes (SCENE_ID_DUPLICATE).'),
    table('Text element', TextElement, 'Element ids are unique across the whole document (ELEMENT_ID_DUPLICATE).'),
    table('Transition (`scenes[i].transition`)', Transition, ''),
    table('Soundtrack (`soundtrack`)', Soundtrack, ''),
    table('Loudness (`loudness`)', Loudness, '`loudness` is `true` (the defaults), `false` (off) or this object.'),
    table('Output (`output`)', Output, 'Formats and what they keep: see Output formats above.'),
    table('Image element', ImageElement, ''),
    table('Video element', VideoElement, ''),
    table('Voice element', VoiceElement, ''),
    table('Subtitles element', SubtitlesElement, ''),
    table('Audio element', AudioElement, ''),
    table('Shape element', ShapeElement, ''),
    table('Linear gradient (`fill` of a shape)', LinearGradient, ''),
    table('Radial gradient (`fill` of a shape)', RadialGradient, ''),
    table('Gradient stop (`fill.stops[i]`)', (LinearGradient.properties.stops as unknown as Node).items as TSchema, ''),
    table('Shape stroke (`stroke` of a shape)', ShapeStroke, ''),
    table('Animation (`animation`)', (TextElement as unknown as Node).properties.animation as TSchema, ''),
    table(
      'Entry and exit (`animation.in`, `animation.out`)',
      PresetMotionDoc,
      "An entry plays from the element's start (default curve: ease-out cubic); an exit ends at its end (ease-in cubic). Slides are named by the way the element moves: an entry `slide-up` comes from below, an exit `slide-up` leaves upwards, a quarter of the frame.",
    ),
    table(
      'Keyframes (`animate` of text, images, videos, shapes; `volume` of videos and audio)',
      MediaAnimate,
      'One track per property; see Animation and keyframes above.',
    ),
    table('Key (`animate.<property>[i]`)', KeyDoc, ''),
    table('Crop rectangle (`animate.crop[i].value`)', CropKey, ''),
    table('Text animation (`textAnimation` of text)', TextAnimation, ''),
    table('Stroke (`stroke` of text and subtitles)', TextStroke, ''),
    table('Shadow (`shadow` of text and subtitles)', TextShadow, ''),
    table(
      'Text box (`background` of text and subtitles)',
      TextBackground,
      "Not the scene's `background`, which is a colour.",
    ),
    table('Auto-fit (`autoFit` of text)', AutoFit, ''),
    table('Blurred background (`background` of images and videos)', BlurFill, ''),
    table('Border (`border` of images and videos)', Border, ''),
    table('Filters (`filters` of images and videos)', Filters, ''),
    table('Chroma key (`chromaKey` of images and videos)', ChromaKey, ''),
    table('Position object (`position`)', positionObject(), '`position` is `"center"` or this object.'),
    '### Catalogues',
    '',
    `Animation presets: ${ANIMATION_PRESETS.map((p) => `\`${p}\``).join(', ')}.`,
    '',
    `Entry and exit presets (\`animation.in\`, \`animation.out\`): ${MOTION_EFFECTS.map((p) => `\`${p}\``).join(', ')}.`,
    '',
    `Easings: ${EASING_SYNTAX}.`,
    '',
    `Bundled font families (offline): ${FONT_FAMILIES.map((f) => `\`${f}\``).join(', ')}; default \`${DEFAULT_FONT}\`.`,
    '',
    '| voiceId | engine | language | engine voice | description |',
    '|---|---|---|---|---|',
    ...VOICES.map((v) => `| \`${v.id}\` | ${v.engine} | ${v.language} | ${v.engineVoice} | ${cell(v.description)} |`),
    '',
  ];
  return [REFERENCE_BEGIN, '', ...sections, REFERENCE_END].join('\n');
}

/** Replaces the generated section of a markdown document (between the markers). */
export function withReference(markdown: string): string {
  const begin = markdown.indexOf(REFERENCE_BEGIN);
  const end = markdown.indexOf(REFERENCE_END);
  if (begin === -1 || end === -1) throw new Error('docs/movie.md has no generated-reference markers');
  return markdown.slice(0, begin) + referenceMarkdown() + markdown.slice(end + REFERENCE_END.length);
}
