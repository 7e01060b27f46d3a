/**
 * Visual effects of image and video elements (v1): blur, a blurred fill behind a contained
 * picture, rounded corners and a border, colour filters, opacity and a chroma key. Every field is
 * optional and its default is "no effect", so a document without them renders as before. The
 * shaders are worker/draw/gpu/effects-shader.ts; how the fields become a layer's plan,
 * worker/plan/layer-effects.ts.
 */
import { Type } from '@sinclair/typebox';
import { Color, fw } from './parts.ts';

const EFFECT_LIMITS = {
  /** Blur radius, output pixels. */
  blur: 250,
  /** Corner radius and border width, output pixels. */
  pixels: 8192,
  /** brightness, contrast and saturation factors. */
  factor: 10,
} as const;

/** Skia's (and the text shadow's) blur radius to gaussian sigma: sigma = 0.57735 * radius + 0.5. */
export const sigmaOfRadius = (radius: number): number => 0.57735 * radius + 0.5;

/** The default radius of `background.blur`, output pixels. */
export const DEFAULT_FILL_BLUR = 40;
export const DEFAULT_CHROMA_KEY = { color: '#00ff00', similarity: 0.1, smoothness: 0.08 } as const;

const Factor = (description: string, def: number, max: number = EFFECT_LIMITS.factor) =>
  Type.Number({ minimum: 0, maximum: max, default: def, description });

const BlurRadius = (description: string, def: number) =>
  Type.Number({ minimum: 0, maximum: EFFECT_LIMITS.blur, default: def, description });

export const Filters = Type.Object(
  {
    brightness: Type.Optional(
      Factor('CSS brightness(): each of R, G, B multiplied by it (0 black, 1 unchanged, 2 twice as bright).', 1),
    ),
    contrast: Type.Optional(
      Factor('CSS contrast(): (c - 0.5) * contrast + 0.5 for each channel c in 0..1 (0 flat grey, 1 unchanged).', 1),
    ),
    saturation: Type.Optional(
      Factor('CSS saturate(): the Filter Effects saturate matrix (0 grey, 1 unchanged, above 1 more vivid).', 1),
    ),
    grayscale: Type.Optional(
      Factor('CSS grayscale(): 0 unchanged, 1 fully grey; the same matrix as saturation 1 - grayscale.', 0, 1),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Colour filters, applied in this order (brightness, contrast, saturation, grayscale), each clamped to 0..1 as CSS filter functions are.',
    ...fw({ docName: 'filters' }),
  },
);

export const Border = Type.Object(
  {
    width: Type.Number({
      exclusiveMinimum: 0,
      maximum: EFFECT_LIMITS.pixels,
      description: 'Width in output pixels, drawn inside the picture along its (rounded) edge.',
    }),
    color: Color('Colour of the border (alpha included).'),
  },
  { additionalProperties: false, description: 'A border inside the picture edge.', ...fw({ docName: 'border' }) },
);

export const BlurFill = Type.Object(
  {
    blur: Type.Optional(BlurRadius('Blur radius of the copy in output pixels (sigma as for blur).', DEFAULT_FILL_BLUR)),
    brightness: Type.Optional(Factor('Brightness factor of the copy (below 1 darkens it behind the picture).', 1)),
  },
  {
    additionalProperties: false,
    description:
      'Fills the empty part of the box of a fit "contain" picture with a blurred copy of the same picture scaled to cover the box (the 16:9-in-9:16 look). With cover or fill the picture covers its box and there is nothing to fill.',
    ...fw({ docName: 'blurred background' }),
  },
);

export const ChromaKey = Type.Object(
  {
    color: Type.Optional(Color('The key colour made transparent.', DEFAULT_CHROMA_KEY.color)),
    similarity: Type.Optional(
      Type.Number({
        minimum: 0.0001,
        maximum: 1,
        default: DEFAULT_CHROMA_KEY.similarity,
        description:
          "ffmpeg chromakey's similarity: pixels whose chroma distance to the key is at most this are transparent.",
      }),
    ),
    smoothness: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        default: DEFAULT_CHROMA_KEY.smoothness,
        description:
          "ffmpeg chromakey's blend: alpha rises linearly from 0 at similarity to 1 at similarity + smoothness (0: a hard edge).",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Makes the key colour transparent. Distance in the U/V chroma plane as ffmpeg chromakey computes it: sqrt((dU² + dV²) / 2) / 255 on 8-bit U, V.',
    ...fw({ docName: 'chromaKey' }),
  },
);

/** The effect fields of an image or video element, spread into its schema. */
export const EFFECT_FIELDS = {
  opacity: Type.Optional(
    Factor('Opacity of the picture, 0 (invisible) to 1; multiplies the fade of an animation.', 1, 1),
  ),
  blur: Type.Optional(
    BlurRadius(
      'Gaussian blur radius in output pixels (sigma = 0.57735 * radius + 0.5, as the text shadow); 0: sharp. The picture is blurred within its own rectangle, its edge pixels extended.',
      0,
    ),
  ),
  background: Type.Optional(BlurFill),
  cornerRadius: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: EFFECT_LIMITS.pixels,
      default: 0,
      description: 'Radius of the rounded corners in output pixels (at most half the shorter side; anti-aliased edge).',
    }),
  ),
  border: Type.Optional(Border),
  filters: Type.Optional(Filters),
  chromaKey: Type.Optional(ChromaKey),
};
