import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const SERVER_SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'packages/server/src');
const SERVER_SOURCES = ['packages/server/src/**/*.ts'];
const SERVER_TESTS = ['packages/server/src/**/*.test.ts'];

/** The part of the server a file belongs to: `modules/<name>` (subfolders included), else its top folder or root file. */
function ownerOf(file) {
  const parts = path.relative(SERVER_SRC, file).split(path.sep);
  return parts[0] === 'modules' ? `modules/${parts[1]}` : parts[0];
}

function isRepo(file) {
  const parts = path.relative(SERVER_SRC, file).split(path.sep);
  return parts.at(-1).replace(/\.[jt]s$/, '') === 'repo' || parts.slice(0, -1).includes('repo');
}

/** A module's repo.ts (or repo/ folder) is imported only from inside that module. */
const ownRepoOnly = {
  meta: {
    type: 'problem',
    messages: { foreignRepo: '{{spec}} is the repo of {{owner}}: use what {{owner}} offers in its queries.ts or service instead.' },
  },
  create(context) {
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), spec);
      if (isRepo(target) && ownerOf(target) !== ownerOf(context.filename)) {
        context.report({ node: node.source, messageId: 'foreignRepo', data: { spec, owner: ownerOf(target) } });
      }
    };
    return { ImportDeclaration: check, ImportExpression: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

const SQL_ONLY_IN_REPOS = 'SQL lives in repos: move this statement into the repo.ts of its module (or under src/db/).';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.billow/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', NodeJS: 'readonly', Headers: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: SERVER_SOURCES,
    ignores: [...SERVER_TESTS, 'packages/server/src/**/repo.ts', 'packages/server/src/**/repo/**', 'packages/server/src/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|mergeInto)$/]',
          message: SQL_ONLY_IN_REPOS,
        },
        { selector: 'TaggedTemplateExpression[tag.name="sql"]', message: SQL_ONLY_IN_REPOS },
        { selector: 'MemberExpression[object.name="sql"]', message: SQL_ONLY_IN_REPOS },
      ],
      // Closes the gap of a renamed import (`import { sql as q }`), which the selectors above cannot see.
      'no-restricted-imports': ['error', { paths: [{ name: 'kysely', importNames: ['sql'], message: SQL_ONLY_IN_REPOS }] }],
    },
  },
  {
    files: SERVER_SOURCES,
    ignores: SERVER_TESTS,
    plugins: { billow: { rules: { 'own-repo-only': ownRepoOnly } } },
    rules: { 'billow/own-repo-only': 'error' },
  },
);
