/**
 * The movie's `output` (v1): what the render makes. The formats and what each is are
 * lib/output-formats.ts's table; the cross-field checks (a still's `time`, a video's `posterTime`,
 * an audio format's sound) are movie/v1/output-rule.ts, run by the movie rule.
 */
import { Type } from '@sinclair/typebox';
import { DEFAULT_OUTPUT_FORMAT, OUTPUT_FORMATS } from '../../lib/output-formats.ts';
import { fw, LIMITS } from './parts.ts';

/** The longest movie, in seconds (500 scenes of an hour): a bound for `time` and `posterTime`. */
const MAX_SECONDS = LIMITS.scenes * LIMITS.sceneSeconds;

export const Output = Type.Object(
  {
    format: Type.Optional(
      Type.Union(
        OUTPUT_FORMATS.map((f) => Type.Literal(f)),
        {
          default: DEFAULT_OUTPUT_FORMAT,
          description:
            'mp4: H.264 + AAC. webm: VP9 + Opus. mov: ProRes 4444 + AAC. gif: animated GIF (one palette for the movie, no sound). mp3, wav: the sound alone, no frames rendered. png, jpeg, webp: one frame, at `time`. mov and webm keep transparency when every scene\'s background is "transparent".',
        },
      ),
    ),
    time: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_SECONDS,
        description:
          "Seconds into the movie of the frame a still format (png, jpeg, webp) shows; before the movie's end. Only with a still format.",
        ...fw({ docDefault: '0 (the first frame)' }),
      }),
    ),
    posterTime: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_SECONDS,
        description:
          "Seconds into the movie of a video render's poster frame; before the movie's end. Only with a video format (mp4, webm, mov, gif).",
        ...fw({ docDefault: 'the first frame' }),
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'What the render makes: the file format, and for a still the moment it shows.',
    ...fw({ docName: 'output' }),
  },
);
