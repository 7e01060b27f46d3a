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

/**
 * A player's clock: minutes, seconds and tenths ("0:01.5", "12:03.0"). A time shown is never
 * rounded up past its frame; a length (`round`) is rounded to the nearest tenth, as formatLength does.
 */
export function formatClock(sec: number, round = false): string {
  const t = Number.isFinite(sec) && sec > 0 ? sec * 10 : 0;
  const tenths = round ? Math.round(t) : Math.floor(t + 1e-6);
  const m = Math.floor(tenths / 600);
  const s = (tenths % 600) / 10;
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}

/** What a render makes, from its `format` (lib/output-formats.ts): frames, one frame, or sound alone. */
export function outputKindOf(r: { format: string }): 'video' | 'still' | 'audio' {
  if (r.format === 'png' || r.format === 'jpeg' || r.format === 'webp') return 'still';
  return r.format === 'mp3' || r.format === 'wav' ? 'audio' : 'video';
}
