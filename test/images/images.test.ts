// The container images (./Dockerfile: targets `api` -> image framewright, `worker` ->
// framewright-worker) and their build context (.dockerignore). No Docker engine runs here, so the
// Dockerfile is parsed with a real parser (dockerfile-ast; dockerfile-utils' validator for what
// the Docker builder would refuse) and held to its layout: the stages and their bases, a numeric
// non-root user, no compilers or package lists in what ships, OCI labels, only the build's output
// copied. The build stage is then played out on this machine from the context the .dockerignore
// lets through: `npm run build` runs there, every path the final stages copy must exist, and the
// CLI runs from the copied layout with production packages only. The Debian packages named must
// exist in bookworm, and the worker's must provide every library headless-gl loads.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Copy, type Dockerfile, DockerfileParser, type Instruction, type Label } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import ts from 'typescript';

// A CommonJS module whose types declare `export default`: required, so both agree.
const dockerignore = createRequire(import.meta.url)(
  '@balena/dockerignore',
) as typeof import('@balena/dockerignore').default;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCKERFILE = join(ROOT, 'Dockerfile');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** What each final image is: its target, image name, and the CMD it runs by default. */
const IMAGES = [
  { target: 'api', image: 'framewright', cmd: ['serve'] },
  { target: 'worker', image: 'framewright-worker', cmd: ['--help'] },
] as const;
/** The runtime layout (contract): the build's output, copied from the build stage's /src. */
const RUNTIME_COPIES: Record<string, string> = {
  '/src/dist/': '/app/dist/',
  '/src/bin/framewright': '/app/bin/framewright',
  '/src/package.json': '/app/package.json',
  '/src/node_modules/': '/app/node_modules/',
};
/** Packages that compile, or that only compiling needs, and so never ship. */
const BUILD_ONLY_PACKAGE =
  /^(build-essential|gcc(-\d+)?|g\+\+(-\d+)?|cpp(-\d+)?|clang.*|make|cmake|pkg-config|.*-dev)$/;
const SOURCE_DIRS = ['bin', 'lib', 'movie', 'api', 'worker', 'store', 'operator'];

interface Stage {
  name: string;
  /** FROM's image with the global ARG defaults substituted. */
  base: string;
  /** Instructions after FROM, up to the next FROM. */
  instructions: Instruction[];
}

function parseDockerfile(text: string): { df: Dockerfile; stages: Stage[] } {
  const df = DockerfileParser.parse(text);
  const globals = new Map<string, string>();
  for (const arg of df.getInitialARGs()) {
    const p = arg.getProperty();
    if (p) globals.set(p.getName(), p.getValue() ?? '');
  }
  const expand = (s: string) =>
    s.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string | undefined, b: string | undefined) => globals.get(a ?? b!) ?? '');
  const stages: Stage[] = [];
  for (const ins of df.getInstructions()) {
    if (ins.getKeyword() === 'FROM') {
      const args = ins.getArguments().map((a) => a.getValue());
      assert.equal(args.length, 3, `FROM names its stage: ${ins.getArgumentsContent()}`);
      assert.equal(args[1]!.toUpperCase(), 'AS');
      stages.push({ name: args[2]!, base: expand(args[0]!), instructions: [] });
    } else if (stages.length > 0) {
      stages.at(-1)!.instructions.push(ins);
    }
  }
  return { df, stages };
}

/** The stages an image is made of, base first: `worker` -> [runtime, worker]. */
function chain(stages: Stage[], target: string): Stage[] {
  const out: Stage[] = [];
  let stage = stages.find((s) => s.name === target);
  while (stage) {
    out.unshift(stage);
    const base = stage.base;
    stage = stages.find((s) => s.name === base);
  }
  return out;
}

const byKeyword = (stages: Stage[], keyword: string) =>
  stages.flatMap((s) => s.instructions).filter((i) => i.getKeyword() === keyword);
const runText = (i: Instruction) => i.getArgumentsContent() ?? '';
const jsonArgs = (i: Instruction) => JSON.parse(i.getRawArgumentsContent() ?? 'null') as string[];

/** The packages of every `apt-get install` in a RUN's text (options and shell syntax left out). */
function aptInstalls(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/apt-get\s+install\s+([^;&|]*)/g)) {
    out.push(...m[1]!.split(/\s+/).filter((w) => w && !w.startsWith('-')));
  }
  return out;
}

/** The packages every stage of `stages` installs. */
const installed = (stages: Stage[]) => byKeyword(stages, 'RUN').flatMap((i) => aptInstalls(runText(i)));

/** COPY's sources and destination, with its --from stage (null: the build context). */
function copyParts(i: Instruction): { from: string | null; sources: string[]; dest: string } {
  let from: string | null = null;
  for (const f of (i as Copy).getFlags()) {
    if (f.getName() === 'from') from = f.getValue();
    else assert.fail(`unexpected COPY flag --${f.getName()}`);
  }
  const words = i.getArguments().map((a) => a.getValue());
  return { from, sources: words.slice(0, -1), dest: words.at(-1)! };
}

const labelsOf = (stages: Stage[]) =>
  new Map(
    byKeyword(stages, 'LABEL').flatMap((l) =>
      (l as Label).getProperties().map((p) => [p.getName(), p.getValue() ?? ''] as const),
    ),
  );

const text = readFileSync(DOCKERFILE, 'utf8');
const { stages } = parseDockerfile(text);
const ignore = dockerignore().add(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));

describe('Dockerfile', () => {
  it('is valid for the Docker builder (and the validator catches a broken one)', () => {
    const errors = validate(text).filter((d) => d.severity === 1);
    assert.deepEqual(
      errors.map((d) => `line ${d.range.start.line + 1}: ${d.message}`),
      [],
    );
    const broken = text.replace('USER 10001:10001', 'USER').replace('WORKDIR /app', 'WORKDIR');
    assert.ok(validate(broken).filter((d) => d.severity === 1).length >= 2);
  });

  it('has a build stage on node:24-bookworm and final stages on node:24-bookworm-slim', () => {
    assert.deepEqual(
      stages.map((s) => [s.name, s.base]),
      [
        ['build', 'node:24-bookworm'],
        ['runtime', 'node:24-bookworm-slim'],
        ['worker', 'runtime'],
        ['api', 'runtime'],
      ],
    );
    // The last stage is what a plain `docker build .` gives: the API image.
    assert.equal(stages.at(-1)!.name, 'api');
    for (const s of stages.filter((s) => s.base.includes(':'))) {
      assert.match(s.base, /^node:24-bookworm(-slim)?(@sha256:[0-9a-f]{64})?$/, `${s.name} is pinned by tag`);
    }
  });

  it('runs the Node that package.json requires and scripts/install.sh provides, as the tests do', () => {
    const installed = /^NODE_VERSION=(\d+)\.\d+\.\d+$/m.exec(readFileSync(join(ROOT, 'scripts/install.sh'), 'utf8'));
    assert.ok(installed, 'scripts/install.sh pins NODE_VERSION=x.y.z');
    const major = installed[1];
    assert.equal(pkg.engines.node, `>=${major}`);
    for (const s of stages.filter((s) => s.base.includes(':'))) {
      assert.equal(/^node:(\d+)-/.exec(s.base)?.[1], major, `${s.name}'s base is Node ${major}`);
    }
    // `make` puts .cache/node/bin first on PATH: the tests themselves run on that Node.
    assert.equal(process.versions.node.split('.')[0], major);
  });

  for (const { target, image, cmd } of IMAGES) {
    describe(`${image} (--target ${target})`, () => {
      const img = chain(stages, target);

      it('is the runtime stage plus its own, never the build stage', () => {
        assert.deepEqual(
          img.map((s) => s.name),
          ['runtime', target],
        );
      });

      it('runs as the numeric non-root user 10001:10001 from /app, framewright under tini as its entrypoint', () => {
        const users = byKeyword(img, 'USER').map(runText);
        assert.equal(users.at(-1), '10001:10001');
        const [uid, gid] = users.at(-1)!.split(':').map(Number);
        assert.ok(uid! > 0 && gid! > 0);
        assert.equal(byKeyword(img, 'WORKDIR').map(runText).at(-1), '/app');
        assert.deepEqual(jsonArgs(byKeyword(img, 'ENTRYPOINT').at(-1)!), ['tini', '--', 'framewright']);
        assert.deepEqual(jsonArgs(byKeyword(img, 'CMD').at(-1)!), cmd);
        assert.ok(
          byKeyword(img, 'RUN').some((r) =>
            /\bln -s \/app\/bin\/framewright \/usr\/local\/bin\/framewright\b/.test(runText(r)),
          ),
        );
        const env = byKeyword(img, 'ENV').map(runText).join(' ');
        assert.match(env, /\bNODE_ENV=production\b/);
        assert.match(env, /\bFRAMEWRIGHT_FROM=dist\b/);
        // Kubernetes probes the pods; a HEALTHCHECK would only be ignored there.
        assert.equal(byKeyword(img, 'HEALTHCHECK').length, 0);
      });

      it('leaves no compiler, no -dev package and no apt lists behind', () => {
        for (const run of byKeyword(img, 'RUN')) {
          const t = runText(run);
          if (!/apt-get (update|install)/.test(t)) continue;
          assert.match(t, /rm -rf \/var\/lib\/apt\/lists\/\*/, `the same RUN removes the apt lists: ${t}`);
          assert.match(t, /--no-install-recommends/, t);
        }
        const shipped = installed(img);
        assert.ok(shipped.length > 0);
        assert.deepEqual(
          shipped.filter((p) => BUILD_ONLY_PACKAGE.test(p)),
          [],
        );
        assert.equal(byKeyword(img, 'ADD').length, 0);
      });

      it('copies only the build output, from the build stage, to the runtime layout', () => {
        const copies = byKeyword(img, 'COPY').map(copyParts);
        assert.deepEqual(Object.fromEntries(copies.map((c) => [c.sources.join(' '), c.dest])), RUNTIME_COPIES);
        for (const c of copies) assert.equal(c.from, 'build');
      });

      it('carries the OCI labels, set from build arguments', () => {
        const labels = labelsOf(img);
        const oci = (k: string) => labels.get(`org.opencontainers.image.${k}`);
        assert.equal(oci('title'), image);
        assert.ok((oci('description') ?? '').length > 20);
        assert.equal(oci('licenses'), 'Apache-2.0');
        assert.equal(oci('licenses'), pkg.license);
        const args = new Set(byKeyword(img, 'ARG').map((a) => runText(a).split('=')[0]));
        for (const [key, arg] of [
          ['version', 'VERSION'],
          ['revision', 'REVISION'],
          ['created', 'CREATED'],
          ['source', 'SOURCE'],
        ] as const) {
          assert.equal(oci(key), `\${${arg}}`);
          assert.ok(args.has(arg), `ARG ${arg} is declared in the stage`);
        }
      });
    });
  }

  it('gives the worker ffmpeg, EGL with Mesa, and the API ffprobe (asset uploads)', () => {
    const worker = installed(chain(stages, 'worker'));
    // libegl-mesa0 (Mesa's EGL vendor) and its llvmpipe are loaded by libglvnd, not linked: named here.
    for (const p of ['ffmpeg', 'libegl1', 'libegl-mesa0', 'libgl1-mesa-dri']) assert.ok(worker.includes(p), p);
    assert.ok(!worker.includes('xvfb'), 'no X server: ANGLE draws through EGL');
    assert.ok(installed(chain(stages, 'api')).includes('ffmpeg'));
    assert.match(readFileSync(join(ROOT, 'api/assets/routes.ts'), 'utf8'), /ffprobePath/);
    // NVENC needs the driver's video libraries mounted by the NVIDIA container runtime, drawing its graphics ones.
    const env = byKeyword(chain(stages, 'worker'), 'ENV').map(runText).join(' ');
    assert.match(env, /NVIDIA_DRIVER_CAPABILITIES=\S*video/);
    assert.match(env, /NVIDIA_DRIVER_CAPABILITIES=\S*graphics/);
    // The vendor file that points libglvnd at the driver's EGL library.
    const runs = byKeyword(chain(stages, 'worker'), 'RUN').map(runText).join(' ');
    assert.match(runs, /egl_vendor\.d\/10_nvidia\.json/);
  });

  it('ships the fonts and espeak-ng (its own process) in the production node_modules', () => {
    const prod = Object.keys(pkg.dependencies);
    assert.ok(prod.includes('@echogarden/espeak-ng-emscripten'));
    assert.ok(prod.filter((d) => d.startsWith('@fontsource/')).length >= 10);
    // Its own process: a supervised child, which forks (tied to its parent) through forkTied.
    assert.match(readFileSync(join(ROOT, 'worker/prepare/speech/espeak.ts'), 'utf8'), /new SupervisedChild\(/);
    assert.match(readFileSync(join(ROOT, 'lib/process/supervised-child.ts'), 'utf8'), /forkTied\(/);
  });

  it('applies patches/*.patch in the build stage, after the install and before the build', () => {
    const build = stages.find((s) => s.name === 'build')!;
    const runs = build.instructions.map((i) => (i.getKeyword() === 'RUN' ? runText(i) : ''));
    const install = runs.findIndex((t) => /\bnpm (install|ci)\b/.test(t));
    const patch = runs.findIndex((t) => /for p in patches\/\*\.patch;.*\bpatch -p1\b/.test(t));
    const buildRun = runs.findIndex((t) => /\bnpm run build\b/.test(t));
    const prune = runs.findIndex((t) => /\bnpm prune --omit=dev\b/.test(t));
    assert.ok(install >= 0 && patch >= install && buildRun > patch && prune >= buildRun, runs.join('\n'));
    const copied = build.instructions.findIndex(
      (i) => i.getKeyword() === 'COPY' && copyParts(i).sources.includes('patches/'),
    );
    assert.ok(copied >= 0 && copied < install, 'patches/ is copied before the install');
    assert.ok(readdirSync(join(ROOT, 'patches')).some((f) => f.endsWith('.patch')));
  });
});

describe('.dockerignore', () => {
  it('keeps out what the build stage makes itself, local state and outputs', () => {
    for (const p of [
      'node_modules/gl/index.js',
      'worker/node_modules/x/index.js',
      'dist/bin/cli.js',
      'dist.build.123/bin/cli.js',
      '.git/HEAD',
      '.cache/kube/bin/kube-apiserver',
      'data/objects/renders/a.mp4',
      '.tmp/bench.log',
      'hello.mp4',
      'examples/out/x.mp4',
      'test/chart/real-node.test.ts',
      'bench/render.ts',
    ]) {
      assert.ok(ignore.ignores(p), `${p} is ignored`);
    }
  });

  it('lets through everything the build stage copies and builds from', () => {
    const build = stages.find((s) => s.name === 'build')!;
    const named = build.instructions
      .filter((i) => i.getKeyword() === 'COPY')
      .flatMap((i) => copyParts(i).sources)
      .filter((s) => s !== '.');
    const needed = [
      ...named,
      'tsconfig.json',
      'tsconfig.build.json',
      'scripts/build.sh',
      ...readdirSync(join(ROOT, 'patches')).map((f) => `patches/${f}`),
    ];
    for (const p of needed) {
      assert.ok(existsSync(join(ROOT, p)), `${p} exists`);
      assert.ok(!ignore.ignores(p.replace(/\/$/, '')), `${p} is in the context`);
    }
    const tracked = execFileSync('git', ['ls-files', ...SOURCE_DIRS], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    assert.ok(tracked.length > 100);
    assert.deepEqual(
      tracked.filter((f) => ignore.ignores(f)),
      [],
    );
  });
});

/**
 * The build stage and the final stages played out on this machine: the context the .dockerignore
 * lets through, the build stage's COPYs into src/, `npm run build` there (this checkout's
 * node_modules stand in for the install, patched as the image's is), the final stages' COPYs
 * into app/, and the CLI run through a /usr/local/bin-style link with production packages only.
 */
describe('the image layout, built from the context', () => {
  let tmp: string;
  let src: string;
  let app: string;

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'framewright-images-'));
    const context = join(tmp, 'context');
    src = join(tmp, 'src');
    app = join(tmp, 'app');
    copyContext(ROOT, context, '');
    const build = stages.find((s) => s.name === 'build')!;
    for (const c of build.instructions.filter((i) => i.getKeyword() === 'COPY').map(copyParts)) {
      assert.equal(c.from, null);
      // COPY's rules: a directory's contents go into the destination; a file goes into a
      // destination that ends in / (or takes the destination's name).
      for (const s of c.sources) {
        const from = join(context, s);
        const into = join(src, c.dest);
        if (statSync(from).isDirectory()) cpSync(from, into, { recursive: true });
        else {
          const dest = c.dest.endsWith('/') ? join(into, basename(s)) : into;
          mkdirSync(dirname(dest), { recursive: true });
          copyFileSync(from, dest);
        }
      }
    }
    symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'));
    const r = spawnSync('npm', ['run', 'build'], { cwd: src, encoding: 'utf8', timeout: 300_000 });
    assert.equal(r.status, 0, `npm run build in the context failed:\n${r.stdout}\n${r.stderr}`);
    rmSync(join(src, 'node_modules'));
    // The production packages only: `npm prune --omit=dev`'s result, as links to this checkout's.
    mkdirSync(join(src, 'node_modules'));
    for (const name of productionPackages()) {
      mkdirSync(dirname(join(src, 'node_modules', name)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(src, 'node_modules', name));
    }
    for (const [from, to] of Object.entries(RUNTIME_COPIES)) {
      const source = join(src, relative('/src', from));
      assert.ok(existsSync(source), `the build produces ${from}`);
      const dest = join(app, relative('/app', to));
      mkdirSync(dirname(dest), { recursive: true });
      if (from.endsWith('/')) cpSync(source, dest, { recursive: true, verbatimSymlinks: true });
      else copyFileSync(source, dest);
    }
    mkdirSync(join(tmp, 'usr-local-bin'));
    symlinkSync(join(app, 'bin/framewright'), join(tmp, 'usr-local-bin/framewright'));
  });

  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** The environment of the image: its ENV, no NODE_PATH, nothing of this checkout's. */
  function imageEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { PATH: `${join(tmp, 'usr-local-bin')}:${dirname(process.execPath)}:/usr/bin:/bin` };
    for (const e of byKeyword(chain(stages, 'worker'), 'ENV')) {
      for (const m of runText(e).matchAll(/(\w+)=(\S+)/g)) env[m[1]!] = m[2]!;
    }
    env.DATA_DIR = join(tmp, 'data');
    return env;
  }

  it('has dist/bin/cli.js, the build stamp and the SQL migrations', () => {
    for (const f of [
      'dist/bin/cli.js',
      'dist/.built',
      'bin/framewright',
      'package.json',
      'dist/dashboard/app.js',
      'dist/player/framewright-player.js',
    ]) {
      assert.ok(existsSync(join(app, f)), f);
    }
    assert.ok(readdirSync(join(app, 'dist/store/migrations')).some((f) => f.endsWith('.sql')));
    assert.ok(!existsSync(join(app, 'dist/bin/cli.ts')));
  });

  it('runs `framewright --help` and `framewright voices` through the link, on the build', () => {
    const env = imageEnv();
    assert.equal(env.NODE_PATH, undefined);
    const help = spawnSync('framewright', ['--help'], { cwd: app, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(help.status, 0, help.stderr);
    for (const command of ['serve', 'operator', 'worker', 'render'])
      assert.match(help.stdout, new RegExp(`\\b${command}\\b`));
    const voices = spawnSync('framewright', ['voices'], { cwd: app, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(voices.status, 0, voices.stderr);
    assert.match(voices.stdout, /espeak-en-us/);
  });

  it('resolves every package the built modules import from the production packages', () => {
    const specifiers = new Set<string>();
    for (const file of walk(join(app, 'dist')).filter((f) => f.endsWith('.js'))) {
      // TypeScript's scanner lists the module's imports, exports-from and import() calls, and
      // nothing inside a string or a template (a regular expression took code in strings for imports).
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName: s } of importedFiles) {
        if (!/^[./]/.test(s) && !s.startsWith('node:')) specifiers.add(s);
      }
    }
    assert.ok(specifiers.size > 10);
    const script = `const bad = [];
for (const s of ${JSON.stringify([...specifiers])}) { try { import.meta.resolve(s); } catch (e) { bad.push(s + ': ' + e.code); } }
console.log(JSON.stringify(bad));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(app, 'dist'),
      env: imageEnv(),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), []);
  });
});

describe('Debian packages (bookworm, as the images)', () => {
  const bookworm = /VERSION_CODENAME=bookworm/.test(readFileSync('/etc/os-release', 'utf8'));
  const hasLists =
    existsSync('/var/lib/apt/lists') && readdirSync('/var/lib/apt/lists').some((f) => /_Packages(\.\w+)?$/.test(f));
  const skip = !bookworm ? 'not a Debian bookworm machine' : !hasLists ? 'no apt lists (apt-get update)' : false;

  it('exist, every one the Dockerfile installs', { skip }, () => {
    const all = [...new Set(installed(stages))];
    assert.ok(all.length >= 10);
    const missing = all.filter(
      (p) => spawnSync('apt-cache', ['show', '--no-all-versions', p], { encoding: 'utf8' }).status !== 0,
    );
    assert.deepEqual(missing, []);
  });

  it("give the worker every library headless-gl's binding and its ANGLE link and load", { skip }, (t) => {
    const release = join(ROOT, 'node_modules/gl/build/Release');
    if (!existsSync(join(release, 'webgl.node'))) return t.skip('headless-gl is not built here');
    // webgl.node opens ANGLE's libEGL.so and libGLESv2.so beside it; they link X11, xcb and DRM.
    const binaries = ['webgl.node', 'libEGL.so', 'libGLESv2.so'].map((f) => join(release, f));
    const libs = new Set<string>();
    for (const binary of binaries) {
      for (const line of execFileSync('ldd', [binary], { encoding: 'utf8' }).split('\n')) {
        const m = /=>\s+(\/\S+)/.exec(line);
        if (m) libs.add(m[1]!);
      }
    }
    // Loaded with dlopen: ANGLE on EGL opens the system's libEGL.so.1 (libglvnd), found through
    // ldconfig. (It names others, libGL.so.1, libvulkan.so.1 and libpci.so.3, for the GLX and
    // Vulkan platforms the worker does not open.)
    assert.match(readFileSync(join(release, 'libGLESv2.so'), 'latin1'), /libEGL\.so\.1\0/);
    const egl = /\slibEGL\.so\.1 \([^)]*x86-64[^)]*\) => (\S+)/.exec(
      execFileSync('ldconfig', ['-p'], { encoding: 'utf8' }),
    );
    assert.ok(egl, 'libEGL.so.1 is installed here');
    libs.add(egl[1]!);
    const needed = new Set([...libs].map(debianPackageOf));
    const closure = new Set(
      execFileSync(
        'apt-cache',
        [
          'depends',
          '--recurse',
          '--no-recommends',
          '--no-suggests',
          '--no-conflicts',
          '--no-breaks',
          '--no-replaces',
          '--no-enhances',
          ...installed(chain(stages, 'worker')),
        ],
        { encoding: 'utf8', maxBuffer: 64 << 20 },
      )
        .split('\n')
        .filter((l) => l && !l.startsWith(' ') && !l.startsWith('<'))
        .map((l) => l.trim()),
    );
    // In every Debian image and needed by node itself.
    for (const base of ['libc6', 'libgcc-s1', 'libstdc++6']) closure.add(base);
    assert.deepEqual(
      [...needed].filter((p) => !closure.has(p)),
      [],
    );
  });
});

/** The Debian package that holds a library file (dpkg knows it under /lib or /usr/lib: usrmerge). */
function debianPackageOf(file: string): string {
  const real = realpathSync(file);
  const candidates = [file, real, real.replace(/^\/usr\/lib\//, '/lib/'), file.replace(/^\/lib\//, '/usr/lib/')];
  for (const path of new Set(candidates)) {
    const r = spawnSync('dpkg', ['-S', path], { encoding: 'utf8' });
    if (r.status === 0) return r.stdout.split(':')[0]!.trim();
  }
  assert.fail(`no Debian package holds ${file}`);
}

/** Copies the build context: the files under `dir` that the .dockerignore does not exclude. */
function copyContext(dir: string, to: string, rel: string): void {
  for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (ignore.ignores(path)) continue;
    if (entry.isDirectory()) copyContext(dir, to, path);
    else {
      mkdirSync(dirname(join(to, path)), { recursive: true });
      cpSync(join(dir, path), join(to, path), { verbatimSymlinks: true });
    }
  }
}

/** Top-level package directories that `npm prune --omit=dev` keeps (npm's own view of the tree). */
function productionPackages(): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const top = new Set<string>();
  const prefix = join(ROOT, 'node_modules') + '/';
  for (const line of out.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const rest = line.slice(prefix.length).split('/');
    top.add(rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!);
  }
  return [...top];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}
