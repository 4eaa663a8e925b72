/**
 * Bundles the built server (dist/index.js and dist/admin.js, what `billow start` and the admin
 * commands load) into dist/*.bundle.js with shared chunks beside them: a process then reads a
 * few files instead of some 600 modules, which took over a second of every start (decision
 * 0114). Packages stay outside the bundle, loaded from node_modules as before. The bundle sits
 * at the top of dist/, where src/paths.ts finds the files the server reads.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/**
 * Inside the bundle besides our own code: the contract and TypeBox, pure JavaScript of many small
 * modules (resolving TypeBox's alone took a tenth of a second). Every other package stays outside:
 * some find files beside their own modules (PGlite's WebAssembly, pino's workers) or are native.
 */
const BUNDLED = new Set(['@billow/contract', '@sinclair/typebox', 'typebox']);
const external = Object.keys(manifest.dependencies ?? {}).filter((name) => !BUNDLED.has(name)).flatMap((name) => [name, `${name}/*`]);
// Chunks are named by their content: a rebuild leaves the previous ones behind.
for (const file of fs.readdirSync(dist)) if (file.startsWith('bundle-chunk-')) fs.rmSync(`${dist}${file}`);

await build({
  entryPoints: { 'index.bundle': `${dist}index.js`, 'admin.bundle': `${dist}admin.js` },
  outdir: dist,
  chunkNames: 'bundle-chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...external, 'node:*'],
  sourcemap: true,
  logLevel: 'warning',
});
