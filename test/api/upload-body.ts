import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';

/** The 44-byte header of a 16-bit mono 48 kHz PCM WAV file holding `dataBytes` of samples. */
function wavHeader(dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(48_000, 24);
  h.writeUInt32LE(96_000, 28); // bytes per second
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

export interface GeneratedWav {
  stream: Readable;
  /** sha256 of the bytes sent so far (all of them once the stream ended). */
  sha256(): string;
}

/**
 * A valid WAV file of exactly `size` bytes, made as it is read in 64 KiB chunks and never held
 * whole. Random samples by default (every chunk different, so a misplaced chunk shows); `reuse`
 * sends one block over and over, for tests that only need volume. `stallAfter` stops sending (the
 * stream stays open) once that many bytes are out, for a test to cut the connection there.
 */
export function generatedWav(size: number, opts: { reuse?: boolean; stallAfter?: number } = {}): GeneratedWav {
  const hash = createHash('sha256');
  const block = randomBytes(64 * 1024);
  let sent = 0;
  const stream = new Readable({
    read() {
      if (opts.stallAfter !== undefined && sent >= opts.stallAfter) return;
      if (sent >= size) {
        this.push(null);
        return;
      }
      let chunk: Buffer;
      if (sent === 0) chunk = wavHeader(size - 44);
      else {
        const n = Math.min(block.length, size - sent);
        chunk = opts.reuse ? block.subarray(0, n) : randomBytes(n);
      }
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, sha256: () => hash.copy().digest('hex') };
}

export interface UploadResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: Record<string, unknown> & { error?: { code: string; message: string } };
}

/**
 * POST /v1/assets over a real socket, streaming `body` as it is generated: with Content-Length
 * when `contentLength` is given (it may differ from what is sent), chunked otherwise. `request`
 * is there to cut the connection; errors after the answer arrived (the server closing a socket
 * the client still writes to) are not failures. No answer within `timeoutMs` (30 s) fails.
 */
export function postUpload(
  port: number,
  key: string,
  body: Readable,
  opts: { contentLength?: number; query?: string; timeoutMs?: number } = {},
): { request: http.ClientRequest; response: Promise<UploadResponse> } {
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/v1/assets${opts.query ?? ''}`,
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/octet-stream',
      ...(opts.contentLength === undefined
        ? { 'transfer-encoding': 'chunked' }
        : { 'content-length': String(opts.contentLength) }),
    },
  });
  const response = new Promise<UploadResponse>((resolve, reject) => {
    let answered = false;
    // A server that never answers fails the test instead of hanging it.
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer within ${opts.timeoutMs ?? 30_000} ms`));
    }, opts.timeoutMs ?? 30_000);
    request.on('close', () => clearTimeout(timer));
    request.on('error', (err) => {
      if (!answered) reject(err);
    });
    request.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => {});
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) });
        } catch {
          reject(new Error(`not JSON (${res.statusCode}): ${text.slice(0, 200)}`));
        }
      });
    });
  });
  body.on('error', (err) => request.destroy(err));
  body.pipe(request);
  return { request, response };
}
