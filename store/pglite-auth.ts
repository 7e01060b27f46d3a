import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * SCRAM-SHA-256 (RFC 5802 / RFC 7677, without channel binding), the server side of PostgreSQL's
 * default password authentication, for the embedded database's wire server (pglite-wire.ts).
 * Chosen over a cleartext password because the password never crosses the socket and the server
 * proves that it knows it too (postgres.js checks the server's signature).
 */
export interface ScramVerifier {
  salt: Buffer;
  iterations: number;
  storedKey: Buffer;
  serverKey: Buffer;
}

const hmac = (key: Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();

/**
 * What the server keeps of a password, computed once per start. The password is 256 random bits,
 * so the iteration count protects nothing here; 4096 is PostgreSQL's default.
 */
export function scramVerifier(password: string, iterations = 4096): ScramVerifier {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  return {
    salt,
    iterations,
    storedKey: sha256(hmac(salted, 'Client Key')),
    serverKey: hmac(salted, 'Server Key'),
  };
}

/** `k=v,k=v` attributes; the value keeps any `=` of its own (base64). */
function attributes(message: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of message.split(',')) {
    if (part.length >= 2 && part[1] === '=') out.set(part[0] as string, part.slice(2));
  }
  return out;
}

/** One connection's exchange: `first` then `final`; `undefined` from either means refuse. */
export class ScramExchange {
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  private gs2Header = '';

  constructor(private readonly verifier: ScramVerifier) {}

  /** The client-first-message (`n,,n=*,r=NONCE`) to the server-first-message. */
  first(clientFirst: string): string | undefined {
    // gs2 header: "n" (no channel binding) or "y" (client could, thinks we cannot); no authzid.
    const match = /^([ny]),,(.*)$/s.exec(clientFirst);
    if (!match) return undefined;
    this.gs2Header = `${match[1]},,`;
    this.clientFirstBare = match[2] as string;
    const clientNonce = attributes(this.clientFirstBare).get('r');
    if (!clientNonce || !/^[\x21-\x2b\x2d-\x7e]+$/.test(clientNonce)) return undefined;
    this.nonce = clientNonce + randomBytes(18).toString('base64');
    const { salt, iterations } = this.verifier;
    this.serverFirst = `r=${this.nonce},s=${salt.toString('base64')},i=${iterations}`;
    return this.serverFirst;
  }

  /** The client-final-message (`c=...,r=...,p=PROOF`) to the server-final-message (`v=...`). */
  final(clientFinal: string): string | undefined {
    if (!this.serverFirst) return undefined;
    const at = clientFinal.lastIndexOf(',p=');
    if (at < 0) return undefined;
    const withoutProof = clientFinal.slice(0, at);
    const attrs = attributes(withoutProof);
    if (attrs.get('c') !== Buffer.from(this.gs2Header).toString('base64') || attrs.get('r') !== this.nonce) {
      return undefined;
    }
    const proof = Buffer.from(clientFinal.slice(at + 3), 'base64');
    const auth = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const signature = hmac(this.verifier.storedKey, auth);
    if (proof.length !== signature.length) return undefined;
    const clientKey = Buffer.alloc(proof.length);
    for (let i = 0; i < proof.length; i++) clientKey[i] = (proof[i] as number) ^ (signature[i] as number);
    // Constant time: nothing about the stored key leaks through how long a wrong proof takes.
    if (!timingSafeEqual(sha256(clientKey), this.verifier.storedKey)) return undefined;
    return `v=${hmac(this.verifier.serverKey, auth).toString('base64')}`;
  }
}
