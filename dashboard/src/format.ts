/**
 * Lengths as people read them: "3.4 s", "2 min 40 s", "1 h 2 min". Pure (the tests run it in
 * Node). The API gives seconds as a float (3.3666666666666667 for 101 frames at 30 fps).
 */
export function formatLength(sec: number | null | undefined): string {
  if (sec === null || sec === undefined || !Number.isFinite(sec) || sec < 0) return '—';
  if (sec < 60) {
    // One decimal, none when it is .0 ("2 s", "3.4 s"); under a tenth, still a length ("0.1 s").
    const tenths = Math.max(Math.round(sec * 10), sec > 0 ? 1 : 0) / 10;
    return tenths < 60 ? `${tenths} s` : '1 min';
  }
  const whole = Math.round(sec);
  if (whole < 3600) {
    const min = Math.floor(whole / 60);
    const s = whole % 60;
    return s ? `${min} min ${s} s` : `${min} min`;
  }
  const minutes = Math.round(sec / 60);
  const hours = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${hours} h ${m} min` : `${hours} h`;
}

/** What a render makes, from its `format` (lib/output-formats.ts): frames, one frame, or sound alone. */
export function outputKindOf(r: { format: string }): 'video' | 'still' | 'audio' {
  if (r.format === 'png' || r.format === 'jpeg' || r.format === 'webp') return 'still';
  return r.format === 'mp3' || r.format === 'wav' ? 'audio' : 'video';
}

/**
 * The length a document's scenes say, in seconds, before any render has measured it (scenes timed
 * by their voice or clips count as nothing); at least one second, so the preview's slider has a range.
 */
export function documentLength(doc: Record<string, unknown>): number {
  const scenes = Array.isArray(doc.scenes) ? (doc.scenes as Record<string, unknown>[]) : [];
  const sum = scenes.reduce((s, scene) => s + (typeof scene.duration === 'number' ? scene.duration : 0), 0);
  return Math.max(1, sum);
}
