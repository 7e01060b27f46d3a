import type { AssetKind } from '../../store/assets-repo.ts';

export interface SniffedType {
  kind: AssetKind;
  contentType: string;
  extension: string;
}

/**
 * How many leading bytes `sniffMedia` looks at: an upload streamed in needs only these peeked
 * before the rest is written anywhere.
 */
export const SNIFF_BYTES = 1024;

const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString('latin1');

/**
 * The media type of an upload from its first bytes, never from the client's Content-Type or file
 * name (a "PNG" that is really HTML must not be served back as what it claims). Undefined when
 * the bytes are no supported format. Only the first SNIFF_BYTES bytes are read.
 */
export function sniffMedia(buf: Buffer): SniffedType | undefined {
  if (buf.length < 12) return undefined;
  if (buf.readUInt32BE(0) === 0x89504e47) return { kind: 'image', contentType: 'image/png', extension: 'png' };
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    return { kind: 'image', contentType: 'image/jpeg', extension: 'jpg' };
  }
  if (ascii(buf, 0, 4) === 'GIF8') return { kind: 'image', contentType: 'image/gif', extension: 'gif' };
  if (ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') {
    return { kind: 'image', contentType: 'image/webp', extension: 'webp' };
  }
  if (ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WAVE') {
    return { kind: 'audio', contentType: 'audio/wav', extension: 'wav' };
  }
  if (ascii(buf, 0, 4) === 'OggS') return { kind: 'audio', contentType: 'audio/ogg', extension: 'ogg' };
  if (ascii(buf, 0, 4) === 'fLaC') return { kind: 'audio', contentType: 'audio/flac', extension: 'flac' };
  if (ascii(buf, 0, 3) === 'ID3' || (buf[0] === 0xff && ((buf[1] as number) & 0xe0) === 0xe0)) {
    return { kind: 'audio', contentType: 'audio/mpeg', extension: 'mp3' };
  }
  if (ascii(buf, 4, 8) === 'ftyp') {
    const brand = ascii(buf, 8, 12);
    if (brand === 'M4A ') return { kind: 'audio', contentType: 'audio/mp4', extension: 'm4a' };
    if (brand === 'qt  ') return { kind: 'video', contentType: 'video/quicktime', extension: 'mov' };
    return { kind: 'video', contentType: 'video/mp4', extension: 'mp4' };
  }
  if (buf.readUInt32BE(0) === 0x1a45dfa3) return { kind: 'video', contentType: 'video/webm', extension: 'webm' };
  const head = buf
    .subarray(0, SNIFF_BYTES)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) {
    return { kind: 'image', contentType: 'image/svg+xml', extension: 'svg' };
  }
  // Subtitle files: WebVTT by its signature; SRT by its first cue (an optional number, then times).
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(head)) return { kind: 'subtitles', contentType: 'text/vtt', extension: 'vtt' };
  if (/^(?:\d+[ \t]*\r?\n)?(?:\d+:)?\d{1,2}:\d{2}[,.]\d{1,3}[ \t]*-->/.test(head)) {
    return { kind: 'subtitles', contentType: 'application/x-subrip', extension: 'srt' };
  }
  return undefined;
}
