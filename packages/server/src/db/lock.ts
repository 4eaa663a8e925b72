import fs from 'node:fs';

export class DataDirectoryLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(
      `The data directory ${dataDir} is in use by process ${pid}. ` +
        'Stop that process first, or point BILLOW_DATA_DIR somewhere else.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

export interface DirectoryLock {
  release(): void;
}

/** Lock files held by this process (a second open in the same process is refused too), and their release. */
const heldHere = new Map<string, () => void>();

let exitListenerAdded = false;

/** One listener for all locks: whatever is still held when the process exits is released. */
function releaseAllOnExit(): void {
  if (exitListenerAdded) return;
  exitListenerAdded = true;
  process.on('exit', () => [...heldHere.values()].forEach((release) => release()));
}

function readLockFile(lockPath: string): string | null {
  try {
    return fs.readFileSync(lockPath, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** For file systems without hard links: exclusive create, then write (briefly empty). */
function createExclusive(lockPath: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  fs.writeSync(fd, String(process.pid));
  fs.closeSync(fd);
  return true;
}

/**
 * Creates the lock file with our pid already in it (written aside, then hard-linked
 * into place), so another process never reads it empty and mistakes it for stale.
 */
function tryCreate(lockPath: string): boolean {
  const pending = `${lockPath}.${process.pid}.new`;
  fs.writeFileSync(pending, String(process.pid), { mode: 0o600 });
  try {
    fs.linkSync(pending, lockPath);
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') return createExclusive(lockPath);
    throw error;
  } finally {
    fs.rmSync(pending, { force: true });
  }
}

/**
 * Removes a lock file left by a dead process. Two processes may both judge it stale:
 * the file is moved aside first and checked, and if it is no longer the stale one
 * (another process took the lock meanwhile) it is put back instead of deleted.
 */
function removeStale(lockPath: string, staleContent: string): void {
  const aside = `${lockPath}.${process.pid}.stale`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  try {
    if (fs.readFileSync(aside, 'utf8') !== staleContent) fs.linkSync(aside, lockPath);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function hold(lockPath: string): DirectoryLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldHere.delete(lockPath);
    try {
      if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
    } catch {
      // already gone
    }
  };
  releaseAllOnExit();
  heldHere.set(lockPath, release);
  return { release };
}

/**
 * PGlite does not lock its directory and a second opener silently loses its
 * writes, so Billow holds `<dataDir>.lock` (holding its pid) for as long as it has the
 * directory open. A lock left by a process that no longer runs is taken over; one
 * with our own pid is such a lock too (a restarted container often reuses its pid),
 * unless this process really holds it.
 */
export function lockDataDirectory(dataDir: string): DirectoryLock {
  const lockPath = `${dataDir}.lock`;
  if (heldHere.has(lockPath)) throw new DataDirectoryLockedError(dataDir, process.pid);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath)) return hold(lockPath);
    const content = readLockFile(lockPath);
    if (content === null) continue;
    const holder = Number(content.trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new DataDirectoryLockedError(dataDir, holder);
    }
    removeStale(lockPath, content);
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}
