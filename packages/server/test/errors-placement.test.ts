/**
 * Where errors are built: the errors of a module are named factories in its errors.ts
 * (`customerNotFound(id)`), and the rest of the module throws those. The constructors
 * of src/lib/domain-error.ts (`invalid`, `notFound`, `conflict`, `forbidden`,
 * `unauthorized`, `new DomainError`) and their aliases in src/http/errors.ts
 * (`badRequest`, `new ApiError`) are called only there and in src/http/ itself (decision 0060).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const CONSTRUCTORS = ['badRequest', 'invalid', 'notFound', 'conflict', 'forbidden', 'unauthorized'];
// `invalid` is left out of the call scan: the catalog module names one of its own factories so.
const CALLED = CONSTRUCTORS.filter((name) => name !== 'invalid');
const CONSTRUCTOR_CALL = new RegExp(`(?<![\\w$.])(?:${CALLED.join('|')})\\s*\\(|\\bnew\\s+(?:ApiError|DomainError)\\s*\\(`);
const ERRORS_IMPORT = /import\s*\{([^}]*)\}\s*from\s*'[./]*\/?(?:http\/errors|lib\/domain-error)\.js'/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const mayBuildErrors = (file: string) =>
  path.basename(file) === 'errors.ts' ||
  path.relative(SRC, file).split(path.sep)[0] === 'http' ||
  path.relative(SRC, file) === path.join('lib', 'domain-error.ts');

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
    [...fs.readFileSync(file, 'utf8').matchAll(ERRORS_IMPORT)].flatMap((match) => {
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
    expect(allowed.some((call) => call.startsWith(`http${path.sep}`) && call.includes('new ApiError('))).toBe(true);
    expect(allowed.some((call) => call.startsWith(path.join('lib', 'domain-error.ts')) && call.includes('new DomainError('))).toBe(true);
    expect(allowed.some((call) => call.startsWith(path.join('modules', 'intents', 'errors.ts')) && call.includes('new DomainError('))).toBe(true);
  });

  it('calls notFound, conflict, forbidden, unauthorized, new DomainError, badRequest and new ApiError only in an errors.ts or src/http/', () => {
    const misplaced = constructorCalls(files.filter((file) => !mayBuildErrors(file)));
    expect(misplaced, `Move these into a named factory of the module's errors.ts:\n${misplaced.join('\n')}`).toEqual([]);
  });

  it('imports those constructors only into an errors.ts or src/http/, so no alias escapes the scan', () => {
    const misplaced = constructorImports(files.filter((file) => !mayBuildErrors(file)));
    expect(misplaced, misplaced.join('\n')).toEqual([]);
  });
});
