/**
 * Animation presets a renderer implements. Entrance presets (`*-in`) play from the element's
 * start; exit presets (`*-out`) end at the element's end.
 */
export const ANIMATION_PRESETS = [
  'fade-in',
  'fade-out',
  'zoom-in',
  'zoom-out',
  'slide-in-up',
  'slide-in-down',
  'slide-in-left',
  'slide-in-right',
] as const satisfies readonly string[];

/** Seconds an animation lasts when the document gives no `animation.duration`. */
export const DEFAULT_ANIMATION_SEC = 0.6;
