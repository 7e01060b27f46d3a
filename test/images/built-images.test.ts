// The images themselves, as `make images` builds them (scripts/images.sh: ./Dockerfile's targets on
// bases made from Debian, in buildah's local storage), held to what images.test.ts reads in the
// Dockerfile: a non-root user, an entrypoint that answers, no secret and none of the build
// machine's settings (its CA bundle, npm's registry), no build tool; the worker loads headless-gl,
// draws through EGL (no X server) and renders a movie with ffmpeg. Each image's size and its largest directories are
// printed (the README cites them). before() runs scripts/images.sh, which is incremental: seconds
// when the images are current, a few minutes when a source changed, ~6 from nothing. Commands run in
// a working container of the image (`buildah from`, `buildah run` with runc: crun fails on a cgroup
// v1 layout; the ulimits: root without CAP_SYS_RESOURCE cannot raise them), as the image's user.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const IMAGES = [
  { target: 'api', name: 'framewright' },
  { target: 'worker', name: 'framewright-worker' },
] as const;
const RUNTIME = ['--runtime', 'runc'];
const ULIMITS = ['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=32768:32768'];
/** The non-root user both images run as (the chart's securityContext says the same). */
const UID = 10001;

/** Debian packages that compile, or only serve compiling, and never ship (images.test.ts's list, and Python). */
const BUILD_ONLY_PACKAGE =
  /^(build-essential|gcc(-\d+)?|g\+\+(-\d+)?|cpp(-\d+)?|clang.*|make|cmake|pkg-config|binutils.*|python3(\.\d+)?(-minimal)?|python-is-python3|.*-dev)$/;
/** Commands that only building needs, by file name in a bin directory. */
const BUILD_TOOL = /^(x86_64-linux-gnu-)?(gcc|g\+\+|cc|c\+\+|cpp|clang|make|cmake|pkg-config|ld|python[\d.]*)(-\d+)?$/;
/** File names that hold secrets or local settings. */
const SECRET_NAME =
  /^(\.env(\..+)?|.+\.(pem|key|p12|pfx)|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|\.?npmrc|\.netrc|\.git-credentials)$/;
/** A private key itself (not a mention of its header): the header, base64, the footer. */
const PRIVATE_KEY = /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----\r?\n[A-Za-z0-9+/=\r\n:,\- ]{64,}?-----END /;
const CERT = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;

const skip =
  process.getuid?.() !== 0
    ? 'needs root: buildah and mmdebstrap build root filesystems (rootless needs subuid ranges)'
    : !onPath('buildah')
      ? 'buildah is not installed (make install installs it)'
      : false;

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(':').some((d) => d && existsSync(join(d, cmd)));
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}
function sh(cmd: string, args: string[], timeoutMs = 120_000): Promise<Result> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || (err && code !== 0 ? err.message : '') });
    });
  });
}
async function ok(cmd: string, args: string[], timeoutMs?: number): Promise<string> {
  const r = await sh(cmd, args, timeoutMs);
  assert.equal(r.code, 0, `${cmd} ${args.join(' ')} exited ${r.code}: ${r.stderr.slice(-4000)}`);
  return r.stdout;
}

/** One file system entry of the image, its path from the root (`usr/bin/node`). */
interface Entry {
  rel: string;
  st: Stats;
}
function walk(root: string): Entry[] {
  const out: Entry[] = [];
  const visit = (dir: string) => {
    for (const d of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${d.name}` : d.name;
      out.push({ rel, st: lstatSync(join(root, rel)) });
      if (d.isDirectory()) visit(rel);
    }
  };
  visit('');
  return out;
}

function certs(text: string): string[] {
  return (text.match(CERT) ?? []).map((c) => c.replace(/\s+/g, ''));
}
function certsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(crt|pem)$/.test(d.name))
    .flatMap((d) => certs(readFileSync(join(d.parentPath, d.name), 'utf8')));
}
/** The CAs this machine trusts beyond Debian's (an egress proxy's): the build base carries them, no image may. */
function machineOnlyCerts(): Set<string> {
  const debian = new Set(certsUnder('/usr/share/ca-certificates'));
  const bundle = '/etc/ssl/certs/ca-certificates.crt';
  return new Set(existsSync(bundle) ? certs(readFileSync(bundle, 'utf8')).filter((c) => !debian.has(c)) : []);
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

describe('the built images (make images)', { skip }, () => {
  before(
    async () => {
      // Builds what is missing or stale; seconds when nothing changed.
      const r = await sh(join(ROOT, 'scripts/images.sh'), [], 45 * 60_000);
      assert.equal(r.code, 0, `scripts/images.sh failed (${r.code}):\n${(r.stdout + r.stderr).slice(-8000)}`);
    },
    { timeout: 46 * 60_000 },
  );

  for (const { target, name } of IMAGES) {
    describe(`${name}:${VERSION} (--target ${target})`, () => {
      const image = `localhost/${name}:${VERSION}`;
      let ctr = '';
      let mnt = '';
      let entries: Entry[] = [];
      let config: { User?: string; Entrypoint?: string[]; Env?: string[]; WorkingDir?: string } = {};
      /** A command in the container, as the image's user from its working directory, no network. */
      const run = (argv: string[], timeoutMs?: number) =>
        sh('buildah', ['run', ...RUNTIME, '--network', 'none', ctr, '--', ...argv], timeoutMs);

      before(async () => {
        const inspect = JSON.parse(await ok('buildah', ['inspect', '--type', 'image', image])) as {
          OCIv1: { config: typeof config };
        };
        config = inspect.OCIv1.config;
        ctr = (await ok('buildah', ['from', '--pull-never', '--quiet', ...ULIMITS, image])).trim();
        mnt = (await ok('buildah', ['mount', ctr])).trim();
        entries = walk(mnt);
      });
      after(async () => {
        if (ctr) await sh('buildah', ['rm', ctr]);
      });

      it(`runs as uid ${UID}, not root: its configured user, and \`id -u\` inside`, async () => {
        assert.equal(config.User, `${UID}:${UID}`);
        assert.equal((await run(['id', '-u'])).stdout.trim(), `${UID}`);
        assert.equal((await run(['id', '-g'])).stdout.trim(), `${UID}`);
        assert.equal((await run(['pwd'])).stdout.trim(), '/app');
      });

      it('answers --help through its entrypoint', async () => {
        assert.deepEqual(config.Entrypoint, ['tini', '--', 'framewright']);
        const r = await run([...config.Entrypoint!, '--help']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /^Usage: framewright <command>/);
        assert.match(r.stdout, /\bserve\b/);
        assert.match(r.stdout, /\bworker\b/);
      });

      it("holds no secret, no .env file and none of the build machine's settings (CA bundle, npm registry)", () => {
        const found: string[] = [];
        // Files Debian's packages installed are read for names only: a library's self-test vectors
        // (GnuTLS carries test keys) are not ours. What the build and npm put there is read whole.
        const info = join(mnt, 'var/lib/dpkg/info');
        const debianFiles = new Set(
          readdirSync(info)
            .filter((f) => f.endsWith('.list'))
            .flatMap((f) => readFileSync(join(info, f), 'utf8').split('\n'))
            .map((p) => p.slice(1)),
        );
        for (const { rel, st } of entries) {
          const base = rel.slice(rel.lastIndexOf('/') + 1);
          if (SECRET_NAME.test(base)) found.push(`${rel}: a secret's or a local setting's file name`);
          if (st.isDirectory() && (base === '.git' || rel === 'root/.npm' || rel === 'root/.cache'))
            found.push(`${rel}: a repository or a package cache`);
          if (st.isFile() && st.size < 4 * 1024 * 1024 && !debianFiles.has(rel)) {
            const text = readFileSync(join(mnt, rel), 'latin1');
            if (text.includes('PRIVATE KEY-----') && PRIVATE_KEY.test(text)) found.push(`${rel}: holds a private key`);
          }
        }
        for (const e of config.Env ?? [])
          if (/^(NODE_EXTRA_CA_CERTS|npm_config_\w+|NPM_TOKEN|NODE_AUTH_TOKEN|\w*(SECRET|PASSWORD)\w*)=/i.test(e))
            found.push(`ENV ${e.split('=')[0]}: a build machine's or a secret's setting`);
        // The machine's CA bundle: absent (no ca-certificates package), or Debian's own.
        const debian = new Set(certsUnder(join(mnt, 'usr/share/ca-certificates')));
        const shipped = [
          ...certsUnder(join(mnt, 'etc/ssl/certs')),
          ...certsUnder(join(mnt, 'usr/local/share/ca-certificates')),
        ];
        const machine = machineOnlyCerts();
        if (shipped.some((c) => machine.has(c))) found.push("etc/ssl/certs: holds this machine's own CA certificates");
        if (shipped.some((c) => !debian.has(c))) found.push("etc/ssl/certs: certificates that are not Debian's");
        assert.deepEqual(found, []);
      });

      it('carries no build tool: compilers, make, python, pkg-config, headers, -dev packages', () => {
        const tools = entries
          .filter(({ rel }) => /^(usr\/|usr\/local\/)?s?bin\/[^/]+$/.test(rel))
          .filter(({ rel }) => BUILD_TOOL.test(rel.slice(rel.lastIndexOf('/') + 1)))
          .map((e) => e.rel);
        // Headers: any file under /usr/include (x11-common leaves an empty X11/), named by its directory.
        const headers = entries
          .filter(({ rel, st }) => rel === 'usr/include/GL' || (rel.startsWith('usr/include/') && !st.isDirectory()))
          .map((e) => e.rel.split('/').slice(0, 3).join('/'));
        const found = [...tools, ...new Set(headers)];
        const status = readFileSync(join(mnt, 'var/lib/dpkg/status'), 'utf8');
        const packages = [...status.matchAll(/^Package: (\S+)\n(?:.+\n)*?Status: install ok installed$/gm)].map(
          (m) => m[1]!,
        );
        assert.ok(packages.length > 50, `${packages.length} Debian packages installed`);
        assert.deepEqual(found, [], 'build tools or headers');
        assert.deepEqual(
          packages.filter((p) => BUILD_ONLY_PACKAGE.test(p)),
          [],
          'build-only Debian packages',
        );
      });

      it('has ffmpeg and ffprobe (renders; asset uploads are probed)', async () => {
        const r = await run(['ffmpeg', '-hide_banner', '-encoders']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /\blibx264\b/);
        assert.equal((await run(['ffprobe', '-version'])).code, 0);
      });

      if (target === 'worker') {
        it('has no X server, and loads headless-gl from /app and draws with it through EGL (Mesa)', async () => {
          const draw = [
            'const gl = require("gl")(4, 4);',
            'if (!gl) throw new Error("no WebGL context");',
            'gl.clearColor(1, 0, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT);',
            'const px = new Uint8Array(4); gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);',
            'console.log(JSON.stringify({ version: gl.getParameter(gl.VERSION), renderer: gl._getParameterDirect(gl.RENDERER), px: [...px] }));',
          ].join(' ');
          assert.equal((await run(['node', '-e', 'require("gl")'])).code, 0, 'require("gl") from /app');
          assert.notEqual((await run(['sh', '-c', 'command -v Xvfb'])).code, 0, 'no Xvfb in the image');
          // No DISPLAY: ANGLE opens Mesa's EGL on its surfaceless platform (the patched binding).
          const r = await run(['env', '-u', 'DISPLAY', 'HEADLESS_GL_ANGLE_PLATFORM=egl', 'node', '-e', draw]);
          assert.equal(r.code, 0, r.stderr);
          const got = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
            version: string;
            renderer: string;
            px: number[];
          };
          assert.match(got.version, /^WebGL 1\.0/);
          assert.match(got.renderer, /^ANGLE \(.*llvmpipe/, 'Mesa draws where no GPU driver is mounted');
          assert.deepEqual(got.px, [255, 0, 0, 255]);
        });

        it('renders a movie (examples/hello.json) to an MP4, as a render Job does', async () => {
          copyFileSync(join(ROOT, 'examples/hello.json'), join(mnt, 'tmp/hello.json'));
          const r = await run(['framewright', 'render', '/tmp/hello.json', '-o', '/tmp/hello.mp4', '--draft'], 300_000);
          assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
          const probe = await run([
            'ffprobe',
            '-v',
            'error',
            '-show_entries',
            'stream=codec_name',
            '-of',
            'csv=p=0',
            '/tmp/hello.mp4',
          ]);
          assert.deepEqual(probe.stdout.trim().split('\n').sort(), ['aac', 'h264']);
        });
      }

      it('says its size and what takes it (the README cites them)', async (t) => {
        const size = (await ok('buildah', ['images', '--noheading', '--format', '{{.Size}}', image])).trim();
        // Apparent sizes, each hard-linked file once, summed into every directory above it.
        const dirs = new Map<string, number>();
        const seen = new Set<number>();
        let total = 0;
        for (const { rel, st } of entries) {
          if (st.isDirectory() || seen.has(st.ino)) continue;
          seen.add(st.ino);
          total += st.size;
          const parts = rel.split('/');
          for (let i = 1; i < parts.length && i <= 3; i++) {
            const d = `/${parts.slice(0, i).join('/')}`;
            dirs.set(d, (dirs.get(d) ?? 0) + st.size);
          }
        }
        const top = (depth: number, n: number) =>
          [...dirs]
            .filter(([d]) => d.split('/').length === depth + 1)
            .sort((a, b) => b[1] - a[1])
            .slice(0, n)
            .map(([d, s]) => `${d} ${mib(s)}`)
            .join(', ');
        const lines = [
          `${name}:${VERSION}: ${size} (buildah), files ${mib(total)}`,
          `  top: ${top(1, 5)}`,
          `  largest: ${top(3, 10)}`,
        ];
        for (const l of lines) t.diagnostic(l);
        assert.ok(total > 100 * 1024 * 1024 && total < 4 * 1024 * 1024 * 1024, mib(total));
        assert.ok(dirs.has('/app/node_modules'));
      });
    });
  }
});
