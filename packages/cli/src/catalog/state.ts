/**
 * What `diff` saw: the fingerprint of each environment's catalog, kept beside the catalog
 * file, so `apply` can refuse an environment that changed since (unless --force).
 */
import fs from 'node:fs';
import path from 'node:path';

export const STATE_FILE = '.billow-catalog-state.json';

type State = Record<string, { fingerprint: string; recordedAt: string }>;

const stateFile = (catalogFile: string) => path.join(path.dirname(path.resolve(catalogFile)), STATE_FILE);

function readState(catalogFile: string): State {
  try {
    return JSON.parse(fs.readFileSync(stateFile(catalogFile), 'utf8')) as State;
  } catch {
    return {};
  }
}

export function recordedFingerprint(catalogFile: string, where: string): string | null {
  return readState(catalogFile)[where]?.fingerprint ?? null;
}

export function recordFingerprint(catalogFile: string, where: string, fingerprint: string): void {
  const state = readState(catalogFile);
  state[where] = { fingerprint, recordedAt: new Date().toISOString() };
  fs.writeFileSync(stateFile(catalogFile), `${JSON.stringify(state, null, 2)}\n`);
}
