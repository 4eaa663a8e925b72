/**
 * Where errors are built: the errors of a module are named factories in its errors.ts
 * (`customerNotFound(id)`), and the rest of the module throws those. The constructors
 * of src/http/errors.ts (`badRequest`, `notFound`, `conflict`, `forbidden`,
 * `unauthorized`, `new ApiError`) are called only there and in src/http/ itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const CONSTRUCTORS = ['badRequest', 'notFound', 'conflict', 'forbidden', 'unauthorized'];
const CONSTRUCTOR_CALL = new RegExp(`(?<![\\w$.])(?:${CONSTRUCTORS.join('|')})\\s*\\(|\\bnew\\s+ApiError\\s*\\(`);
const HTTP_ERRORS_IMPORT = /import\s*\{([^}]*)\}\s*from\s*'[./]*\/?http\/errors\.js'/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const mayBuildErrors = (file: string) =>
  path.basename(file) === 'errors.ts' || path.relative(SRC, file).split(path.sep)[0] === 'http';

/** Each line that calls a constructor, as `file:line: code`. */
function constructorCalls(files: string[]): string[] {
  return files.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (CONSTRUCTOR_CALL.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

/** Each import of a constructor (under any local name), as `file: names`. */
function constructorImports(files: string[]): string[] {
  return files.flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(HTTP_ERRORS_IMPORT)].flatMap((match) => {
      const names = match[1]!.split(',').map((name) => name.trim().split(/\s+as\s+/)[0]!.replace(/^type\s+/, ''));
      const imported = names.filter((name) => CONSTRUCTORS.includes(name));
      return imported.length > 0 ? [`${path.relative(SRC, file)}: ${imported.join(', ')}`] : [];
    }),
  );
}

describe('where errors are built', () => {
  const files = sourceFiles(SRC);

  it('sees the constructors where they belong: the scan would notice a call', () => {
    const allowed = constructorCalls(files.filter(mayBuildErrors));
    expect(allowed.some((call) => call.startsWith(path.join('modules', 'customers', 'errors.ts')))).toBe(true);
    expect(allowed.some((call) => call.startsWith(path.join('http', 'errors.ts')) && call.includes('new ApiError('))).toBe(true);
  });

  it('calls badRequest, notFound, conflict, forbidden, unauthorized and new ApiError only in an errors.ts or src/http/', () => {
    const misplaced = constructorCalls(files.filter((file) => !mayBuildErrors(file)));
    expect(misplaced, `Move these into a named factory of the module's errors.ts:\n${misplaced.join('\n')}`).toEqual([]);
  });

  it('imports those constructors only into an errors.ts or src/http/, so no alias escapes the scan', () => {
    const misplaced = constructorImports(files.filter((file) => !mayBuildErrors(file)));
    expect(misplaced, misplaced.join('\n')).toEqual([]);
  });
});
