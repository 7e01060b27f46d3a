import { execFile } from 'node:child_process';
import { chown, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/**
 * A PostgreSQL server of one test's own, which the test may stop and start (a database outage)
 * without disturbing the shared server every other test file uses. Debian's binaries, run as the
 * `postgres` user when we are root (PostgreSQL refuses to run as root).
 */
export class PostgresServer {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
    private readonly asPostgres: boolean,
  ) {}

  /** Whether the server is up (as far as this object started and stopped it). */
  running = false;

  /** initdb into a temporary directory and start; about 1-2 s. */
  static async start(): Promise<PostgresServer> {
    const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(a) - Number(b));
    const bin = `/usr/lib/postgresql/${versions.at(-1)}/bin`;
    const dir = await mkdtemp(path.join(tmpdir(), 'fw-pg-'));
    const asPostgres = process.getuid?.() === 0;
    const data = path.join(dir, 'data');
    await mkdir(data);
    if (asPostgres) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(stdout), Number(gid));
      await chown(data, Number(stdout), Number(gid));
    }
    const server = new PostgresServer(bin, dir, await freePort(), asPostgres);
    await server.exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    await server.startServer();
    return server;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Starts the (stopped) server again on the same port and data; nothing when it is up. */
  async startServer(): Promise<void> {
    if (this.running) return;
    const data = path.join(this.dir, 'data');
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    await this.exec('pg_ctl', ['-D', data, '-l', path.join(this.dir, 'log'), '-w', '-o', opts, 'start']);
    this.running = true;
  }

  /** `pg_ctl -m fast stop`: connections are closed, as in a real restart or failover. */
  async stopServer(): Promise<void> {
    if (!this.running) return;
    await this.exec('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
    this.running = false;
  }

  async destroy(): Promise<void> {
    await this.exec('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'immediate', 'stop']).catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }

  private async exec(tool: string, args: string[]): Promise<void> {
    const cmd = path.join(this.bin, tool);
    if (this.asPostgres) await run('runuser', ['-u', 'postgres', '--', cmd, ...args]);
    else await run(cmd, args);
  }
}
