/** The diff in words, for people (`--json` prints the same changes as data). */
import type { FieldChange } from './compare.js';
import type { CatalogDiff, Change } from './diff.js';

const VERBS: Record<Change['action'], string> = { create: 'create', update: 'update', replace: 'replace (archive and create again)', archive: 'archive' };

export function describeChange(change: Change): string {
  const draft = change.discardsDraft ? `, discarding the pending draft version ${change.discardsDraft}` : '';
  const version = change.kind === 'plan' && change.action !== 'archive' ? (change.publishes == null ? ' (kept as a draft)' : ` → publishes version ${change.publishes}${draft}`) : '';
  return `${VERBS[change.action]} ${change.kind} ${change.key}${version}`;
}

const MARKS: Record<Change['action'], string> = { create: '+', update: '~', replace: '±', archive: '-' };

function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 400 ? `${text.slice(0, 399)}…` : text;
}

function fieldLine(field: FieldChange, created: boolean): string {
  return created ? `      ${field.path || '(all)'}: ${shown(field.to)}` : `      ${field.path}: ${shown(field.from)} → ${shown(field.to)}`;
}

export function renderDiff(diff: CatalogDiff, where: string): string {
  const lines: string[] = [];
  if (diff.changes.length === 0) lines.push(`No changes: ${where} matches the file.`);
  else lines.push(`${diff.changes.length} change(s) to ${where}:`);
  for (const change of diff.changes) {
    lines.push(`  ${MARKS[change.action]} ${describeChange(change)}`);
    if (change.action !== 'archive') for (const field of change.fields) lines.push(fieldLine(field, change.action === 'create'));
  }
  if (diff.problems.length > 0) {
    lines.push('', 'apply would refuse the file, changing nothing, because:');
    for (const problem of diff.problems) lines.push(`  ! ${problem}`);
  }
  return `${lines.join('\n')}\n`;
}
