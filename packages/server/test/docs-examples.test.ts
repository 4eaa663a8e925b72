/**
 * Every example of README.md and docs/*.md runs, in order, on a fresh start.
 *
 * One `billow start`, as the README says, on a fresh database (a new data directory, or
 * on PostgreSQL a new database), in a working directory of its own: the keys land in
 * `./.billow/credentials.json`, where the examples read them. Then README.md and each
 * docs/*.md (alphabetically) run their fenced blocks in document order. The info string
 * says what a block is:
 *
 * - `sh`, `bash`, `shell`: run with bash (`set -euo pipefail`). The blocks of one file
 *   share one shell: variables, arrays and functions a block defines are there in the
 *   file's later blocks (not in other files).
 * - `js`, `mjs`, `ts`: an ES module run with node in that shell's environment (`ts` is
 *   transpiled first). `file=NAME.mjs` names the module, so that later blocks can import it.
 * - `json`, `text`, `mermaid`: output samples, pictures and the like; never run.
 * - Any runnable language with `no-run` is not run (a server that runs until stopped,
 *   Stripe keys, SMTP, another database): the Markdown says so, nothing is skipped silently.
 *   A block without a language, or with another one, fails the test.
 *
 * `http://localhost:4000` in a block is replaced by the test server's URL, and `/tmp/billow-year/`
 * (billing.md's year of billing starts a server of its own there: this fresh one stands in
 * for it) by the directory of its credentials.json. curl answers an
 * HTTP error (400 and up) with a failure, as if every call had `--fail-with-body`; a block
 * whose info string has `http-error` shows such an error on purpose, and must show one.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { marked, type Tokens } from 'marked';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, assertBuilt, makeWorkspace, startServer, type StartedServer, type Workspace } from '../../cli/test/support.js';

const DOCUMENTS = [
  'README.md',
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const SHELL = new Set(['sh', 'bash', 'shell']);
const MODULE = new Set(['js', 'mjs', 'ts']);
const NEVER_RUN = new Set(['json', 'text', 'mermaid']);
const BLOCK_TIMEOUT_MS = 90_000;

interface Block {
  document: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  words: string[];
  text: string;
}

/** The fenced blocks of a Markdown file, with the line of each fence, in document order. */
function blocksOf(document: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  let cursor = 0;
  const blocks: Block[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type !== 'code') return;
    const code = token as Tokens.Code;
    const fence = code.raw.split('\n')[0]?.trim() ?? '';
    while (cursor < lines.length && lines[cursor]?.trim() !== fence) cursor += 1;
    const line = cursor + 1;
    cursor += 1;
    if (code.codeBlockStyle === 'indented') throw new Error(`${document}:${line}: an indented code block; use a fence with a language`);
    const [language = '', ...words] = (code.lang ?? '').split(/\s+/).filter(Boolean);
    blocks.push({ document, line, language, words, text: code.text });
  });
  return blocks;
}

function problemOf(block: Block): string | null {
  if (!block.language) return 'has no language: say what it is (sh, js, ts, json, text)';
  if (!SHELL.has(block.language) && !MODULE.has(block.language) && !NEVER_RUN.has(block.language)) {
    return `has the language "${block.language}", which this test does not know`;
  }
  const unknown = block.words.filter((w) => !['no-run', 'http-error'].includes(w) && !/^file=[\w.-]+\.mjs$/.test(w));
  return unknown.length ? `has unknown words in its info string: ${unknown.join(' ')}` : null;
}

const runs = (block: Block) => (SHELL.has(block.language) || MODULE.has(block.language)) && !block.words.includes('no-run');

/** curl that fails on HTTP errors; in an `http-error` block it notes them instead. */
function curlShim(dir: string, realCurl: string): void {
  fs.writeFileSync(
    path.join(dir, 'curl'),
    `#!/usr/bin/env bash
"${realCurl}" --fail-with-body "$@"
status=$?
if [ "$status" = 22 ] && [ -n "\${DOCS_HTTP_ERRORS:-}" ]; then echo x >> "$DOCS_HTTP_ERRORS"; exit 0; fi
exit "$status"
`,
    { mode: 0o755 },
  );
}

/** Runs one shell block in the document's shell state, then saves what it defined. */
const SHELL_WRAPPER = `set -euo pipefail
__docs_known=" $(compgen -v | tr '\\n' ' ') "
source "$DOCS_STATE"
source "$DOCS_BLOCK"
for __docs_v in $(compgen -v); do
  case "$__docs_known" in *" $__docs_v "*) continue ;; esac
  case "$__docs_v" in __docs_* | BASH_* | PIPESTATUS | _) continue ;; esac
  __docs_d=$(declare -p "$__docs_v")
  [[ $__docs_d =~ ^declare\\ -[a-zA-Z]*r ]] || printf '%s\\n' "$__docs_d"
done > "$DOCS_STATE.next"
declare -f >> "$DOCS_STATE.next"
mv "$DOCS_STATE.next" "$DOCS_STATE"
`;

interface Outcome {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n(killed after ${BLOCK_TIMEOUT_MS} ms)`;
      child.kill('SIGKILL');
    }, BLOCK_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

let workspace: Workspace;
let server: StartedServer;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertBuilt();
  workspace = await makeWorkspace({ emptyDatabase: true });
  cwd = workspace.root;
  // As the README starts it: the default data directory under the working directory, default background work.
  const serverEnv = { ...workspace.env, BILLOW_DATA_DIR: path.join(cwd, '.billow', 'data') };
  delete serverEnv.BILLOW_BILLING_SWEEP_MS;
  delete serverEnv.BILLOW_WEBHOOK_POLL_INTERVAL_MS;
  server = await startServer({ ...workspace, env: serverEnv }, [], 180_000);
  // The examples import the official client as a project that installed it would.
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(cwd, 'node_modules'), 'dir');
  const bin = path.join(cwd, '.docs-bin');
  fs.mkdirSync(bin);
  const found = await run('bash', ['-c', 'command -v jq >/dev/null && command -v curl'], cwd, process.env);
  const realCurl = found.output.trim();
  if (found.code !== 0 || !realCurl) throw new Error('the examples need curl and jq: apt-get install curl jq');
  curlShim(bin, realCurl);
  env = { ...workspace.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  delete env.BILLOW_DATA_DIR;
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await workspace?.cleanup();
});

function modulePath(block: Block): string {
  const named = block.words.find((w) => w.startsWith('file='))?.slice('file='.length);
  return path.join(cwd, named ?? `${block.document.replaceAll('/', '-')}-${block.line}.mjs`);
}

async function runBlock(block: Block, state: string): Promise<void> {
  const text = block.text.replaceAll('http://localhost:4000', server.url).replaceAll('/tmp/billow-year/', `${cwd}/.billow/`);
  const blockFile = path.join(cwd, '.docs-block.sh');
  if (SHELL.has(block.language)) {
    fs.writeFileSync(blockFile, `${text}\n`);
  } else {
    const source = block.language === 'ts' ? ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText : text;
    const file = modulePath(block);
    fs.writeFileSync(file, source);
    fs.writeFileSync(blockFile, `node ${JSON.stringify(file)}\n`);
  }
  const errors = path.join(cwd, '.docs-http-errors');
  fs.rmSync(errors, { force: true });
  const expectsError = block.words.includes('http-error');
  const outcome = await run('bash', ['-c', SHELL_WRAPPER], cwd, {
    ...env,
    DOCS_STATE: state,
    DOCS_BLOCK: blockFile,
    ...(expectsError ? { DOCS_HTTP_ERRORS: errors } : {}),
  });
  const where = `${block.document}:${block.line} (${block.language} ${block.words.join(' ')})`;
  if (outcome.code !== 0) {
    throw new Error(`The example at ${where} failed (exit ${outcome.code}):\n${block.text}\n--- its output:\n${outcome.output}`);
  }
  if (expectsError && !fs.existsSync(errors)) {
    throw new Error(`The example at ${where} is marked http-error but no call answered an error:\n${block.text}\n--- its output:\n${outcome.output}`);
  }
}

describe('the examples of the README and docs/', () => {
  it('every fenced block says what it is', () => {
    const problems = DOCUMENTS.flatMap((document) =>
      blocksOf(document, fs.readFileSync(path.join(REPO_ROOT, document), 'utf8')).flatMap((block) => {
        const problem = problemOf(block);
        return problem ? [`${document}:${block.line}: the block ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it.each(DOCUMENTS)('%s runs, in order, on a fresh start', async (document) => {
    const blocks = blocksOf(document, fs.readFileSync(path.join(REPO_ROOT, document), 'utf8')).filter(runs);
    const state = path.join(cwd, `.docs-state-${document.replaceAll('/', '-')}.sh`);
    fs.writeFileSync(state, '');
    for (const block of blocks) await runBlock(block, state);
    // billing.md's year on a test clock waits for four advances: generous on a busy machine.
  }, 300_000);
});
