/**
 * Builds the dashboard: type-checks it (tsc), then bundles it (vite build) into dist/.
 * Skips both when dist/ was built from exactly the files it would be built from now,
 * so that `npm start` after no change does not spend six seconds rebuilding it
 * (decision 0115). `--force` builds regardless.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));
const REPO_ROOT = path.resolve(PACKAGE_DIR, '../..');
const STAMP = path.join(PACKAGE_DIR, 'dist', '.inputs');
/** What the build reads: the dashboard's own files, the contract's types, and the locked versions of every package. */
const INPUTS = [
  path.join(PACKAGE_DIR, 'src'),
  path.join(PACKAGE_DIR, 'index.html'),
  path.join(PACKAGE_DIR, 'vite.config.ts'),
  path.join(PACKAGE_DIR, 'tsconfig.json'),
  path.join(PACKAGE_DIR, 'package.json'),
  path.join(PACKAGE_DIR, 'scripts'),
  path.join(REPO_ROOT, 'packages/contract/src'),
  path.join(REPO_ROOT, 'package-lock.json'),
];

function filesUnder(entry) {
  if (!fs.existsSync(entry)) return [];
  if (!fs.statSync(entry).isDirectory()) return [entry];
  return fs
    .readdirSync(entry, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((child) => filesUnder(path.join(entry, child.name)));
}

/** One digest of every input's path and content: any edit, addition or removal changes it. */
function inputsDigest() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder)) {
    hash.update(path.relative(REPO_ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function run(bin, args) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: PACKAGE_DIR, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const digest = inputsDigest();
const force = process.argv.includes('--force');
const built = fs.existsSync(path.join(PACKAGE_DIR, 'dist', 'index.html')) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === digest;
if (built && !force) {
  process.stdout.write('dashboard: dist/ is up to date with its sources, not rebuilt\n');
} else {
  const resolveBin = (pkg, bin) => path.join(path.dirname(fileURLToPath(import.meta.resolve(`${pkg}/package.json`))), bin);
  run(resolveBin('typescript', 'bin/tsc'), ['-p', 'tsconfig.json']);
  run(resolveBin('vite', 'bin/vite.js'), ['build']);
  fs.writeFileSync(STAMP, digest);
}
