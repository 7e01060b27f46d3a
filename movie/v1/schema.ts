/**
 * The movie document, version v1, defined once. TypeScript types come from `Static<>`, the JSON
 * Schema export is this object minus our `x-fw` annotations, and the validator is compiled from it
 * (movie/walk/compile.ts). `x-fw` carries what JSON Schema cannot say: which rule function checks
 * cross-field constraints, which finding code an empty list gets, and custom value checks.
 */
import { type Static, Type } from '@sinclair/typebox';
import { DEFAULT_FONT, FONT_FAMILIES } from '../fonts.ts';
import { DEFAULT_LANGUAGE, VOICES } from '../voices.ts';
import { EFFECT_FIELDS } from './effects.ts';
import { AUDIO_MOTION_FIELDS, MOTION_FIELDS, TEXT_ANIMATION_FIELD, VIDEO_MOTION_FIELDS } from './motion.ts';
import { Output } from './output.ts';
import { Color, fw, LIMITS, Literals } from './parts.ts';
import { shapeElement } from './shape.ts';

export { LIMITS };

const ID_PATTERN = '^[A-Za-z0-9_-]+$';
const VARIABLE_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
const LANGUAGE_PATTERN = '^[a-z]{2,3}(-[A-Z]{2})?$';
/** A BCP 47 language tag of a text (`lang`): a language, then subtags such as a script or region. */
const TEXT_LANG_PATTERN = '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$';

const Id = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: LIMITS.idLength,
    pattern: ID_PATTERN,
    description: `${what}.`,
    ...fw({ patternText: 'letters, digits, _ and - only' }),
  });

const Font = (def: string) =>
  Type.Union(
    [
      Type.Union(FONT_FAMILIES.map((f) => Type.Literal(f))),
      Type.String({ pattern: '^(https?://|data:)', maxLength: LIMITS.dataUriLength }),
    ],
    {
      default: def,
      description:
        'A bundled family (see the catalogue) or an absolute http(s) or base64 data: URL of a TTF/OTF/WOFF/WOFF2 file.',
      ...fw({ check: 'font', expect: 'a font family name or a font URL' }),
    },
  );

const Seconds = (description: string, options: Record<string, unknown> = {}) =>
  Type.Number({ exclusiveMinimum: 0, maximum: LIMITS.sceneSeconds, description, ...options });

const Position = (description: string, def: Record<string, unknown> = { default: 'center' }) =>
  Type.Union(
    [
      Type.Literal('center'),
      Type.Object(
        {
          x: Type.Number({ minimum: -LIMITS.pixels, maximum: LIMITS.pixels, description: 'Left edge, output pixels.' }),
          y: Type.Number({ minimum: -LIMITS.pixels, maximum: LIMITS.pixels, description: 'Top edge, output pixels.' }),
        },
        { additionalProperties: false },
      ),
    ],
    { description, ...def, ...fw({ expect: '"center" or an object {x, y}', ...(def['x-fw'] as object) }) },
  );

const Start = Type.Number({
  minimum: 0,
  maximum: LIMITS.sceneSeconds,
  default: 0,
  description: 'Seconds from the scene start at which the element appears. Must be before the scene ends.',
});
const ElementDuration = Seconds(
  'Seconds the element stays visible. Default: until the scene ends. Must end within the scene.',
  fw({ docDefault: 'until the scene ends' }),
);
const Pixels = (description: string, options: Record<string, unknown> = {}) =>
  Type.Integer({ minimum: 1, maximum: LIMITS.pixels, description, ...options });

const FontSize = (def: number) =>
  Type.Number({ minimum: 1, maximum: 1000, default: def, description: 'Font size in output pixels.' });
const FontWeight = (def: number) =>
  Type.Integer({ minimum: 100, maximum: 900, multipleOf: 100, default: def, description: 'CSS font weight.' });

/*
 * Text styling shared by text and subtitles elements: each field is defined here once and used by
 * both (a factory where their defaults differ). Lengths are output pixels of the full-size frame.
 */

const TEXT_STYLE_LIMITS = {
  strokeWidth: 50,
  shadowOffset: 200,
  shadowBlur: 100,
  boxPixels: 500,
  letterSpacingMin: -50,
  letterSpacingMax: 200,
  maxLines: 100,
  langLength: 35,
} as const;

/** Default shadow: 70% black, 4 pixels down, 8 pixels of blur. */
export const DEFAULT_SHADOW = { color: '#000000b3', offsetX: 0, offsetY: 4, blur: 8 } as const;
/** Default padding of a text or caption box, as a multiple of fontSize (the caption box's padding before `background`). */
export const DEFAULT_BOX_PADDING_EM = 0.3;
/** The ellipsis that ends the last line of a text or caption that does not fit. */
export const ELLIPSIS = '\u2026';

const Align = Literals(['left', 'center', 'right'], {
  default: 'center',
  description: 'Alignment of lines in the block.',
});

const MaxWidth = (description: string) => Pixels(description, fw({ docDefault: '90% of the frame width' }));

const LineHeight = (def: number) =>
  Type.Number({ minimum: 0.5, maximum: 3, default: def, description: 'Line height as a multiple of fontSize.' });

export const TextStroke = Type.Object(
  {
    width: Type.Number({
      exclusiveMinimum: 0,
      maximum: TEXT_STYLE_LIMITS.strokeWidth,
      description: 'Width of the outline in output pixels, centred on the glyph outline (half of it shows outside).',
    }),
    color: Color('Colour of the outline.'),
  },
  {
    additionalProperties: false,
    description: 'An outline around the glyphs, centred on their outline and drawn under the fill.',
    ...fw({ docName: 'stroke' }),
  },
);

export const TextShadow = Type.Object(
  {
    color: Type.Optional(Color('Colour of the shadow (alpha included).', DEFAULT_SHADOW.color)),
    offsetX: Type.Optional(
      Type.Number({
        minimum: -TEXT_STYLE_LIMITS.shadowOffset,
        maximum: TEXT_STYLE_LIMITS.shadowOffset,
        default: DEFAULT_SHADOW.offsetX,
        description: 'Horizontal offset in output pixels (positive: to the right).',
      }),
    ),
    offsetY: Type.Optional(
      Type.Number({
        minimum: -TEXT_STYLE_LIMITS.shadowOffset,
        maximum: TEXT_STYLE_LIMITS.shadowOffset,
        default: DEFAULT_SHADOW.offsetY,
        description: 'Vertical offset in output pixels (positive: down).',
      }),
    ),
    blur: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: TEXT_STYLE_LIMITS.shadowBlur,
        default: DEFAULT_SHADOW.blur,
        description: 'Blur radius in output pixels; 0 is a hard shadow.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'A drop shadow of the glyphs (and of their stroke), drawn under them; `{}` is the default shadow.',
    ...fw({ docName: 'shadow' }),
  },
);

export const TextBackground = Type.Object(
  {
    color: Color('Colour of the box (alpha included).'),
    padding: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: TEXT_STYLE_LIMITS.boxPixels,
        description: `Space in output pixels between the text and the box's edges, on every side. Default: ${DEFAULT_BOX_PADDING_EM} × fontSize.`,
        ...fw({ docDefault: `${DEFAULT_BOX_PADDING_EM} × fontSize` }),
      }),
    ),
    radius: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: TEXT_STYLE_LIMITS.boxPixels,
        default: 0,
        description: "Corner radius in output pixels (at most half the box's shorter side is used).",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'A box behind the text block, under the shadow, stroke and fill.',
    ...fw({ docName: 'text box' }),
  },
);

const LetterSpacing = Type.Number({
  minimum: TEXT_STYLE_LIMITS.letterSpacingMin,
  maximum: TEXT_STYLE_LIMITS.letterSpacingMax,
  default: 0,
  description: 'Output pixels added between characters (negative: tighter). Counts when lines wrap.',
});

const MaxLines = (options: Record<string, unknown>) =>
  Type.Integer({ minimum: 1, maximum: TEXT_STYLE_LIMITS.maxLines, ...options });

export const AutoFit = Type.Object(
  {
    minFontSize: Type.Number({
      minimum: 1,
      maximum: 1000,
      description: "Smallest font size in output pixels the text may shrink to; at most the element's fontSize.",
    }),
  },
  {
    additionalProperties: false,
    description:
      'Shrinks fontSize, down to minFontSize, until the text fits maxWidth, maxHeight and maxLines; needs maxHeight or maxLines.',
    ...fw({ docName: 'autoFit' }),
  },
);

const Lang = Type.String({
  minLength: 2,
  maxLength: TEXT_STYLE_LIMITS.langLength,
  pattern: TEXT_LANG_PATTERN,
  description:
    'BCP 47 language tag of the text, e.g. ja, zh-CN, ko, ar. Picks which CJK font draws the Han characters Chinese, Japanese and Korean share. Default: guessed from the text (kana: Japanese, hangul: Korean, otherwise Simplified Chinese).',
  ...fw({ patternText: 'a BCP 47 language tag such as ja, zh-CN, ko or ar', docDefault: 'guessed from the text' }),
});

const MediaUrl = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: LIMITS.urlLength,
    pattern: '^https?://',
    description: `Absolute http(s) URL of the ${what} (an uploaded asset's url, or any public address).`,
    ...fw({ check: 'http-url' }),
  });

const Fit = Literals(['contain', 'cover', 'fill'], {
  default: 'contain',
  description: 'How the picture fills its box: contain (letterbox), cover (crop), fill (stretch).',
});

const BoxWidth = Pixels(
  'Width of the box in output pixels. Default: the frame width.',
  fw({ docDefault: 'frame width' }),
);
const BoxHeight = Pixels(
  'Height of the box in output pixels. Default: the frame height.',
  fw({ docDefault: 'frame height' }),
);

const TrimStart = Type.Number({
  minimum: 0,
  maximum: LIMITS.mediaSeconds,
  default: 0,
  description: 'Seconds into the source at which playing starts.',
});
const TrimDuration = Type.Number({
  exclusiveMinimum: 0,
  maximum: LIMITS.mediaSeconds,
  description: 'Seconds of the source that play from trimStart. Default: to the end of the source.',
  ...fw({ docDefault: 'to the end of the source' }),
});
const Loop = Type.Boolean({
  default: false,
  description: 'Play the trimmed part again from trimStart each time it ends, for as long as the element lasts.',
});
const Volume = Type.Number({
  minimum: 0,
  maximum: LIMITS.volume,
  default: 1,
  description: 'Linear gain of the sound: 1 as recorded, 0.5 about -6 dB, 0 silent.',
});
const Fade = (which: string) =>
  Type.Number({
    minimum: 0,
    maximum: LIMITS.fadeSeconds,
    default: 0,
    description: `Seconds over which the sound fades ${which}.`,
  });

/** fontSize of a text element that gives none; autoFit.minFontSize may not be above it. */
export const TEXT_DEFAULT_FONT_SIZE = 64;

export const TextElement = Type.Object(
  {
    id: Id('Element id, unique across the document'),
    type: Type.Literal('text'),
    text: Type.String({
      minLength: 1,
      maxLength: LIMITS.textLength,
      description: 'The text; "\\n" breaks a line, long lines wrap at maxWidth.',
    }),
    font: Type.Optional(Font(DEFAULT_FONT)),
    fontSize: Type.Optional(FontSize(TEXT_DEFAULT_FONT_SIZE)),
    fontWeight: Type.Optional(FontWeight(400)),
    color: Type.Optional(Color('Text colour.', '#ffffff')),
    align: Type.Optional(Align),
    maxWidth: Type.Optional(MaxWidth('Width in output pixels at which lines wrap. Default: 90% of the frame width.')),
    lineHeight: Type.Optional(LineHeight(1.2)),
    position: Type.Optional(Position('"center" (default) centres the text block; {x, y} is its top-left.')),
    start: Type.Optional(Start),
    duration: Type.Optional(ElementDuration),
    ...MOTION_FIELDS,
    ...TEXT_ANIMATION_FIELD,
    stroke: Type.Optional(TextStroke),
    shadow: Type.Optional(TextShadow),
    background: Type.Optional(TextBackground),
    letterSpacing: Type.Optional(LetterSpacing),
    maxHeight: Type.Optional(
      Pixels(
        'Height in output pixels the text block may take. Lines past it are cut at the last line that fits, which ends with "…" (autoFit shrinks the text first). Default: no limit.',
        fw({ docDefault: 'no limit' }),
      ),
    ),
    maxLines: Type.Optional(
      MaxLines({
        description:
          'At most this many lines; past it the last line ends with "…" (autoFit shrinks the text first). Default: no limit.',
        ...fw({ docDefault: 'no limit' }),
      }),
    ),
    autoFit: Type.Optional(AutoFit),
    lang: Type.Optional(Lang),
  },
  { additionalProperties: false, description: 'A block of text.', ...fw({ rule: 'element' }) },
);

export const ImageElement = Type.Object(
  {
    id: Id('Element id, unique across the document'),
    type: Type.Literal('image'),
    src: Type.String({
      minLength: 1,
      maxLength: LIMITS.dataUriLength,
      pattern: '^(https?://|data:image/)',
      description: `Absolute http(s) URL (at most ${LIMITS.urlLength} characters) or a base64 data:image/(png|jpeg|webp|gif|avif|svg+xml) URI.`,
      ...fw({ check: 'media-url' }),
    }),
    width: Type.Optional(BoxWidth),
    height: Type.Optional(BoxHeight),
    fit: Type.Optional(Fit),
    position: Type.Optional(Position('"center" (default) centres the box; {x, y} is its top-left.')),
    start: Type.Optional(Start),
    duration: Type.Optional(ElementDuration),
    ...MOTION_FIELDS,
    ...EFFECT_FIELDS,
  },
  { additionalProperties: false, description: 'An image drawn into a box.', ...fw({ rule: 'element' }) },
);

export const VideoElement = Type.Object(
  {
    id: Id('Element id, unique across the document'),
    type: Type.Literal('video'),
    src: MediaUrl('video (MP4, MOV or WebM)'),
    width: Type.Optional(BoxWidth),
    height: Type.Optional(BoxHeight),
    fit: Type.Optional(Fit),
    position: Type.Optional(Position('"center" (default) centres the box; {x, y} is its top-left.')),
    start: Type.Optional(Start),
    duration: Type.Optional(
      Seconds(
        'Seconds the clip stays visible. Default: as long as its trimmed part plays (until the scene ends when it loops). Past the end of an unlooped clip, its last frame stays. Must end within the scene.',
        fw({ docDefault: 'the trimmed part (looped: until the scene ends)' }),
      ),
    ),
    ...VIDEO_MOTION_FIELDS,
    trimStart: Type.Optional(TrimStart),
    trimDuration: Type.Optional(TrimDuration),
    loop: Type.Optional(Loop),
    volume: Type.Optional(Volume),
    muted: Type.Optional(Type.Boolean({ default: false, description: "Leave the clip's sound out of the mix." })),
    ...EFFECT_FIELDS,
  },
  {
    additionalProperties: false,
    description:
      'A video clip drawn into a box, frame-exact at any source frame rate; its sound is mixed in unless muted.',
    ...fw({ rule: 'element' }),
  },
);

export const AudioElement = Type.Object(
  {
    id: Id('Element id, unique across the document'),
    type: Type.Literal('audio'),
    src: MediaUrl('sound (MP3, WAV, OGG, FLAC or M4A)'),
    start: Type.Optional(Start),
    duration: Type.Optional(
      Seconds(
        'Seconds the sound plays. Default: its trimmed part (looped: until the scene ends). Must end within the scene.',
        fw({ docDefault: 'the trimmed part (looped: until the scene ends)' }),
      ),
    ),
    trimStart: Type.Optional(TrimStart),
    trimDuration: Type.Optional(TrimDuration),
    loop: Type.Optional(Loop),
    volume: Type.Optional(Volume),
    fadeIn: Type.Optional(Fade('in from silence at its start')),
    fadeOut: Type.Optional(Fade('out to silence at its end')),
    ...AUDIO_MOTION_FIELDS,
  },
  {
    additionalProperties: false,
    description: 'A sound inside a scene (an effect, a jingle); audio only.',
    ...fw({ rule: 'element' }),
  },
);

export const VoiceElement = Type.Object(
  {
    id: Id('Element id, unique across the document'),
    type: Type.Literal('voice'),
    text: Type.String({
      minLength: 1,
      maxLength: LIMITS.textLength,
      pattern: '\\S',
      description: 'Text to speak.',
      ...fw({ patternText: 'text with at least one word' }),
    }),
    voiceId: Type.Optional(
      Type.Union(
        VOICES.map((v) => Type.Literal(v.id)),
        {
          description: 'A voice of the catalogue (`framewright voices`). Default: the espeak voice for `language`.',
          ...fw({ check: 'voice-id', expect: 'a voice id', docDefault: 'the espeak voice for language' }),
        },
      ),
    ),
    language: Type.Optional(
      Type.String({
        pattern: LANGUAGE_PATTERN,
        default: DEFAULT_LANGUAGE,
        description: 'Locale of the text, e.g. en-US or de. Must be one the voice speaks.',
        ...fw({ patternText: 'a locale such as en-US or de' }),
      }),
    ),
    start: Type.Optional(Start),
  },
  {
    additionalProperties: false,
    description: 'Voiceover: speech synthesised from text. Audio only; it plays for its natural length.',
    ...fw({ rule: 'element' }),
  },
);

/** How a subtitles element shows its words (see its `style` field). */
const CAPTION_STYLES = ['karaoke', 'pop', 'boxed', 'lines'] as const;

export const SubtitlesElement = Type.Object(
  {
    id: Id('Element id, unique across the document'),
    type: Type.Literal('subtitles'),
    font: Type.Optional(Font(DEFAULT_FONT)),
    fontSize: Type.Optional(FontSize(48)),
    fontWeight: Type.Optional(FontWeight(700)),
    color: Type.Optional(Color('Colour of the words.', '#ffffff')),
    highlightColor: Type.Optional(Color('Colour of the word being spoken.', '#ffd400')),
    backgroundColor: Type.Optional(
      Color(
        'Colour of a box behind the caption; shorthand for background: {color}, so not together with background. Default: no box.',
        undefined,
      ),
    ),
    wordsPerLine: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 20,
        default: 6,
        description: 'Words shown at once (one caption); fewer when the next word would not fit maxWidth and maxLines.',
      }),
    ),
    position: Type.Optional(
      Position(
        'Default: centred horizontally, 10% of the frame height above the bottom; {x, y} is the top-left.',
        fw({ docDefault: 'bottom centre' }),
      ),
    ),
    start: Type.Optional(Start),
    duration: Type.Optional(ElementDuration),
    stroke: Type.Optional(TextStroke),
    shadow: Type.Optional(TextShadow),
    background: Type.Optional(TextBackground),
    letterSpacing: Type.Optional(LetterSpacing),
    lineHeight: Type.Optional(LineHeight(1.3)),
    align: Type.Optional(Align),
    maxWidth: Type.Optional(
      MaxWidth(
        "Width in output pixels of a caption's lines: a word that would make a line wider wraps to the next line, or starts the next caption. Default: 90% of the frame width.",
      ),
    ),
    maxLines: Type.Optional(
      MaxLines({
        default: 1,
        description:
          'Lines a caption may take; a word that would need one more starts the next caption, so no word is dropped.',
      }),
    ),
    lang: Type.Optional(Lang),
    style: Type.Optional(
      Literals(CAPTION_STYLES, {
        default: 'karaoke',
        description:
          "How the words are shown: karaoke (the caption's words, the one being spoken in highlightColor), pop (only the word being spoken, in highlightColor, popping in), boxed (only the word being spoken, in color, on a box: background, or highlightColor when none is given) or lines (the caption's words in color, no highlight). With src only lines applies (a file has no word times), and is what it shows.",
      }),
    ),
    from: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "Captions of what an audio or video element of this scene says (its id), or the movie's soundtrack (\"soundtrack\"). Its sound (as it plays: from trimStart, for its played length) is transcribed with word times by an OpenAI-protocol transcription endpoint (the worker's TRANSCRIBE_BASE_URL, else OPENAI_BASE_URL; TRANSCRIBE_MODEL, default whisper-1; a self-hosted Whisper server speaking the protocol works), and the words are shown as a voice's are. The scene then needs no voice. Not together with src.",
      }),
    ),
    language: Type.Optional(
      Type.String({
        pattern: '^[a-z]{2,3}$',
        description:
          'ISO 639-1 code of the language spoken in the element named by from (e.g. en, de), given to the transcription; detected from the speech when absent. Only with from.',
        ...fw({ patternText: 'an ISO 639-1 code such as en or de' }),
      }),
    ),
    src: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: LIMITS.dataUriLength,
        pattern: '^(https?://|data:)',
        ...fw({ patternText: 'an absolute http(s) URL or a data: URI' }),
        description: `An SRT or WebVTT file to show instead of the voice's words: an absolute http(s) URL (an uploaded asset's url, or any public address; at most ${LIMITS.urlLength} characters) or a data: URI. Each cue is shown from its start to its end, timed from the element's start (its scene's start plus start), with the fields above (its lines as the file writes them, wrapped at maxWidth; no word highlight); markup such as <i> is dropped. A file that cannot be parsed fails the render with ASSET_INVALID naming this path and the file's line.`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Captions: word-timed from the scene's voice elements (the scene then needs at least one), transcribed from an audio or video element (from), or the cues of an SRT or WebVTT file (src).",
    ...fw({ rule: 'element' }),
  },
);

/**
 * A vector shape (movie/v1/shape.ts), with the image element's box, position, timing and motion
 * fields (its picture effects are not applied to shapes, so not taken).
 */
export const ShapeElement = shapeElement(
  Type.Pick(ImageElement, ['id', 'width', 'height', 'position', 'start', 'duration', 'animation', 'animate'])
    .properties,
);

const Element = Type.Union(
  [TextElement, ImageElement, VideoElement, VoiceElement, SubtitlesElement, AudioElement, ShapeElement],
  {
    ...fw({ discriminator: 'type', docName: 'element' }),
  },
);

export const TRANSITION_TYPES = [
  'crossfade',
  'slide-left',
  'slide-right',
  'slide-up',
  'slide-down',
  'wipe-left',
  'wipe-right',
  'wipe-up',
  'wipe-down',
] as const;

export const DEFAULT_TRANSITION_SEC = 0.5;

export const Transition = Type.Object(
  {
    type: Literals(TRANSITION_TYPES, {
      description:
        'crossfade blends the scenes; slide-* pushes the previous scene out in that direction; wipe-* moves an edge in that direction, revealing this scene.',
    }),
    duration: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: LIMITS.transitionSeconds,
        default: DEFAULT_TRANSITION_SEC,
        description: 'Seconds the transition lasts; this scene starts that much before the previous one ends.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'How this scene replaces the previous one. The two scenes overlap by the duration.',
    ...fw({ docName: 'transition' }),
  },
);

export const Scene = Type.Object(
  {
    id: Id('Scene id, unique among scenes'),
    duration: Type.Union([Seconds('Seconds.'), Literals(['voice', 'video'])], {
      description: `Seconds (0 < d <= ${LIMITS.sceneSeconds}); "voice": as long as the scene's voiceover plus a short tail; "video": as long as its video clips play.`,
      ...fw({ expect: 'a number of seconds, "voice" or "video"' }),
    }),
    background: Type.Optional(Color('Background colour of the scene.', '#000000')),
    transition: Type.Optional(Transition),
    elements: Type.Array(Element, {
      minItems: 1,
      maxItems: LIMITS.elementsPerScene,
      description: 'Elements, drawn in order (later ones on top).',
      ...fw({ emptyCode: 'SCENE_EMPTY', emptyText: 'add at least one element or remove the scene' }),
    }),
  },
  { additionalProperties: false, ...fw({ rule: 'scene', docName: 'scene' }) },
);

const VariableType = Literals(['string', 'number', 'boolean', 'url', 'color', 'enum'], {
  description: 'Type a value must have; values are coerced losslessly.',
});

export const VariableDeclaration = Type.Object(
  {
    type: VariableType,
    default: Type.Optional(
      Type.Union([Type.String({ maxLength: LIMITS.textLength }), Type.Number(), Type.Boolean()], {
        description: 'Used when the request gives no value; must match the type.',
        ...fw({ expect: 'a string, number or boolean' }),
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: LIMITS.descriptionLength, description: 'Human text.' })),
    options: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.optionLength }), {
        minItems: 1,
        maxItems: LIMITS.enumOptions,
        description: 'Allowed values of an enum variable (required for, and only for, type enum).',
      }),
    ),
  },
  { additionalProperties: false, ...fw({ rule: 'variable', docName: 'variable declaration' }) },
);

export const DEFAULT_DUCKING = 0.25;

export const Soundtrack = Type.Object(
  {
    src: MediaUrl('music (MP3, WAV, OGG, FLAC or M4A)'),
    volume: Type.Optional(Volume),
    trimStart: Type.Optional(TrimStart),
    loop: Type.Optional(
      Type.Boolean({ default: true, description: 'Start again from trimStart when the source ends.' }),
    ),
    fadeIn: Type.Optional(Fade('in at the start of the movie')),
    fadeOut: Type.Optional(Fade('out at the end of the movie')),
    ducking: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        default: DEFAULT_DUCKING,
        description:
          'Gain applied while a voice element speaks: 0.25 (the default) is about -12 dB, 1 turns ducking off.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Music under the whole movie, across scenes, lowered automatically under voiceover.',
    ...fw({ docName: 'soundtrack' }),
  },
);

/** The final mix's integrated loudness (LUFS) and true-peak ceiling (dBTP) when the movie names neither. */
export const DEFAULT_LOUDNESS = { target: -14, truePeak: -1 } as const;

export const Loudness = Type.Object(
  {
    target: Type.Optional(
      Type.Number({
        minimum: -70,
        maximum: -5,
        default: DEFAULT_LOUDNESS.target,
        description:
          "Integrated loudness of the whole mix in LUFS (EBU R128 / ITU-R BS.1770), as ffmpeg's ebur128 filter measures it. -14 suits streaming platforms, -23 broadcast, -16 podcasts.",
      }),
    ),
    truePeak: Type.Optional(
      Type.Number({
        minimum: -9,
        maximum: 0,
        default: DEFAULT_LOUDNESS.truePeak,
        description:
          'Ceiling for the true peak (4x oversampled) in dBTP: a mix that would pass it at the target loudness is limited.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The final mix normalised to one integrated loudness, measured first and then gained (limited only where the true-peak ceiling requires).',
    ...fw({ docName: 'loudness' }),
  },
);

export const MovieV1 = Type.Object(
  {
    schema: Type.Literal('v1', { description: 'Schema version tag.', ...fw({ noPlaceholder: true }) }),
    preset: Type.Optional(
      Literals(['16:9', '9:16', '1:1', '4:5', '4:3'], { description: 'Aspect ratio; use with resolution.' }),
    ),
    resolution: Type.Optional(
      Literals(['480p', '720p', '1080p', '1440p', '2160p'], {
        default: '1080p',
        description: 'Short side of the frame in pixels, with preset.',
      }),
    ),
    width: Type.Optional(
      Type.Integer({
        minimum: 16,
        maximum: 4096,
        multipleOf: 2,
        description: 'Frame width in pixels (even), with height, instead of preset.',
      }),
    ),
    height: Type.Optional(
      Type.Integer({
        minimum: 16,
        maximum: 4096,
        multipleOf: 2,
        description: 'Frame height in pixels (even), with width, instead of preset.',
      }),
    ),
    fps: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 30, description: 'Frames per second.' })),
    draft: Type.Optional(
      Type.Boolean({ default: false, description: 'Half-resolution, watermarked draft at half the credit cost.' }),
    ),
    quality: Type.Optional(
      Literals(['fast', 'balanced', 'small'], {
        default: 'balanced',
        description:
          'Encoding trade-off. balanced: about the bytes of x264 veryfast at the same SSIM, at most 10% slower than fast. fast: the quickest encode, files about 4x larger. small: the smallest files, encoding about twice as long.',
      }),
    ),
    soundtrack: Type.Optional(Soundtrack),
    loudness: Type.Optional(
      Type.Union([Type.Boolean(), Loudness], {
        description: `Loudness normalisation of the final mix: on by default (${DEFAULT_LOUDNESS.target} LUFS, true peak at most ${DEFAULT_LOUDNESS.truePeak} dBTP); an object sets the target or the ceiling; false leaves the mix as mixed. A movie without sound has nothing to normalise.`,
        ...fw({ expect: 'true, false or a loudness object', docDefault: 'on: -14 LUFS, -1 dBTP' }),
      }),
    ),
    output: Type.Optional(Output),
    variables: Type.Optional(
      Type.Record(Type.String({ pattern: VARIABLE_NAME_PATTERN }), VariableDeclaration, {
        maxProperties: LIMITS.variables,
        description: 'Variables referenced as {{name}} in any string value.',
        ...fw({ noPlaceholder: true, keyText: 'a variable name: a letter or _, then letters, digits or _' }),
      }),
    ),
    scenes: Type.Array(Scene, {
      minItems: 1,
      maxItems: LIMITS.scenes,
      description: 'Scenes in playback order.',
    }),
  },
  { additionalProperties: false, ...fw({ rule: 'movie' }) },
);

export type MovieV1 = Static<typeof MovieV1>;
export type ElementV1 = Static<typeof Element>;
export type TextElementV1 = Static<typeof TextElement>;
export type VoiceElementV1 = Static<typeof VoiceElement>;
export type ShapeElementV1 = Static<typeof ShapeElement>;
export type SubtitlesElementV1 = Static<typeof SubtitlesElement>;
