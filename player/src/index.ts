/**
 * The Framewright player for web pages (docs/player.md): `<framewright-player>` and the
 * FramewrightPlayer class. Built into one ES module (player/build.ts), served by the API at
 * /player/framewright-player.js; importing it registers the element.
 */
import { definePlayerElement } from './element.ts';

export { definePlayerElement, FramewrightPlayerElement } from './element.ts';
export { FramewrightPlayer, type PlaybackStats, type PlayerOptions } from './player.ts';
export type { PreviewRequest, PreviewResource } from './preview-api.ts';

definePlayerElement();
