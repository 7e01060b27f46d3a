import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, stop } from 'esbuild';

/**
 * The entry of a child process (a segment renderer, the espeak-ng process), bundled once per
 * process to plain JavaScript so the child runs on bare Node. Under the TypeScript loader every
 * child paid for a second V8 isolate (the loader's hooks thread) and for transforming its
 * imports: the espeak-ng child measured 221 MB of RSS that way and 87 MB bundled. Bundling
 * takes about 10 ms.
 *
 * Our own modules are bundled; packages stay imports, rewritten to the absolute file URLs this
 * process resolves them to, so the bundle runs from anywhere and loads exactly the packages the
 * parent would. Bundles are named by the hash of their content in a directory of this user's
 * (mode 0700, refused if anyone else owns it): nothing to clean up when a process is killed, and
 * a changed source gives a new file rather than a stale one.
 */
const built = new Map<string, Promise<string>>();
let building = 0;

const packagesByUrl: Plugin = {
  name: 'packages-by-url',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      return { path: import.meta.resolve(args.path), external: true };
    });
  },
};

/**
 * Each module keeps its own `import.meta.url` (its source file's URL), as it has when it runs
 * unbundled: code that finds files beside itself (store/migrate.ts and its migrations/, the PGlite
 * thread entry) works the same from a bundle in a temporary directory.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

function cacheDir(): string {
  const dir = join(tmpdir(), `framewright-entries-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o077) !== 0)
    throw new Error(`${dir} must be a directory of this user's with mode 0700`);
  return dir;
}

async function bundle(tsFile: string): Promise<string> {
  const out = await build({
    entryPoints: [tsFile],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [packagesByUrl, ownImportMetaUrl],
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 20);
  const file = join(cacheDir(), `${basename(tsFile, '.ts')}-${hash}.mjs`);
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code, { mode: 0o600 });
    renameSync(tmp, file);
  }
  return file;
}

/**
 * The path of `tsFile` bundled to an ES module, built on first use in this process. A .js file
 * (the build in dist/, which is plain JavaScript already) is its own entry.
 */
export function bundledEntry(tsFile: string): Promise<string> {
  if (tsFile.endsWith('.js')) return Promise.resolve(tsFile);
  let entry = built.get(tsFile);
  if (!entry) {
    building++;
    // esbuild's service process (~14 MB) is stopped when no bundle is being built; the next
    // build starts it again.
    entry = bundle(tsFile).finally(() => {
      if (--building === 0) void stop();
    });
    // A failed build is not kept: the next child tries again.
    entry.catch(() => built.delete(tsFile));
    built.set(tsFile, entry);
  }
  return entry;
}
