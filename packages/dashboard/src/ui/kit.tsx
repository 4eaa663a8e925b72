import { useId, useState, type FormEvent, type ReactNode, type Ref, type InputHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import type { ApiError } from '../api';
import { useAction } from '../data';
import { count as countText, words } from '../format';
import { t } from '../i18n/language';
import { problemText } from '../i18n/problems';

/** The API's own words, where the action was: an alert that screen readers announce. */
export function ErrorNote({ error }: { error: ApiError | null | undefined }) {
  if (!error) return null;
  return (
    <p className="note note-error" role="alert">
      {problemText(error)}
    </p>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="note note-ok" role="status">
      {children}
    </p>
  );
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-title">
      <h1>{children}</h1>
      {actions ? <div className="actions">{actions}</div> : null}
    </div>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <div className="card-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string | null; ref?: Ref<HTMLInputElement> };

/** What describes a control: its hint, then the API's refusal of its value, shown beside it. */
function described(id: string, hint: string | undefined, error: string | null | undefined) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-describedby': ids || undefined, 'aria-invalid': error ? true : undefined };
}

function FieldError({ id, error }: { id: string; error: string | null | undefined }) {
  return error ? (
    <small id={`${id}-error`} className="field-error" role="alert">
      {error}
    </small>
  ) : null;
}

/** A control's hint, then the API's refusal of its value. */
function FieldNotes({ id, hint, error }: { id: string; hint: string | undefined; error: string | null | undefined }) {
  return (
    <>
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
      <FieldError id={id} error={error} />
    </>
  );
}

export function Field({ label, hint, error, ...input }: FieldProps) {
  const id = useId();
  return (
    <div className={input.type === 'file' ? 'field field-file' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} {...described(id, hint, error)} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A field of several lines (a message), labelled, hinted and refused as `Field` is. */
export function TextArea({ label, hint, error, ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: string; error?: string | null }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} {...described(id, hint, error)} {...area} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: Array<[string, string]>; error?: string | null };

export function Select({ label, options, error, ...select }: SelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...described(id, undefined, error)} {...select}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

/** How often a price charges: monthly, yearly or once (a plan's price, a buy link). */
export function ChargePeriodSelect({ value, onChange }: { value: string; onChange(period: string): void }) {
  const options: Array<[string, string]> = [
    ['MONTHLY', words('MONTHLY')],
    ['YEARLY', words('YEARLY')],
    ['ONE_TIME', t('selling.once')],
  ];
  return <Select label={t('subscriptions.charged')} options={options} value={value} onChange={(e) => onChange(e.target.value)} />;
}

/** A section's button that loads its list again. */
export function RefreshButton({ onClick }: { onClick(): void }) {
  return (
    <button type="button" className="secondary" onClick={onClick}>
      {t('common.refresh')}
    </button>
  );
}

export function Checkbox({ label, checked, disabled, onChange }: { label: string; checked: boolean; disabled?: boolean; onChange(checked: boolean): void }) {
  const id = useId();
  return (
    <div className="check">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

export interface Column<T> {
  title: string;
  cell(row: T): ReactNode;
  numeric?: boolean;
  /** Kept on one line (dates, amounts): the table scrolls instead. */
  nowrap?: boolean;
}

const cellClass = (column: { numeric?: boolean; nowrap?: boolean }) => [column.numeric ? 'num' : '', column.nowrap ? 'nowrap' : ''].join(' ').trim() || undefined;

/**
 * A table with a caption and column headers. On a phone each row stacks into "label: value" lines (styles.css,
 * by each cell's `data-label`), so nothing is clipped; on a wide screen a table wider than its card scrolls inside it.
 */
export function Table<T>({ caption, columns, rows, rowKey, empty }: { caption: string; columns: Column<T>[]; rows: T[] | undefined; rowKey(row: T): string; empty: string }) {
  if (rows && rows.length === 0) return <p className="empty">{empty}</p>;
  return (
    <div className="table-wrap" role="region" aria-label={t('common.tableOf', { caption })} tabIndex={0}>
      {/* Explicit roles: a phone's stylesheet stacks the rows (display: block), which would otherwise cost the table its semantics. */}
      <table role="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.title} scope="col" role="columnheader" className={column.numeric ? 'num' : undefined}>
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {(rows ?? []).map((row) => (
            <tr key={rowKey(row)} role="row">
              {columns.map((column) => (
                <td key={column.title} role="cell" className={cellClass(column)} data-label={column.title}>
                  <div className="cell">{column.cell(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Pages of a server-side list: the API pages, the page only asks for the next one. A list
 * asked with count=capped (decision 0089) may say it holds more than `count` rows (`capped`):
 * then the number of pages is a floor, and there is always a next page.
 */
export function Pager({ label, page, count, capped = false, pageSize, onPage }: { label: string; page: number; count: number; capped?: boolean; pageSize: number; onPage(page: number): void }) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (pages <= 1 && !capped) return <p className="pager-count">{t('common.results', { count })}</p>;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('common.previous')}
      </button>
      <span>{t('common.pageOf', { page: countText(page), pages: countText(pages), count: countText(count), capped: capped ? 'true' : 'false' })}</span>
      <button type="button" className="secondary" disabled={!capped && page >= pages} onClick={() => onPage(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}

export function Loading({ loading }: { loading: boolean }) {
  return loading ? (
    <p className="loading" role="status">
      {t('common.loading')}
    </p>
  ) : null;
}

export function Badge({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'good' | 'warn' | 'bad' }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** Status words with a tone a person can read without the colour. */
export function StatusBadge({ status, text }: { status: string | null | undefined; text?: string }) {
  const value = (status ?? '').toLowerCase();
  const tone = /(active|paid|succe|publish|complete|enabled|trial)/.test(value) ? 'good' : /(fail|past_due|unpaid|declin|error)/.test(value) ? 'bad' : /(draft|pending|open|cancel)/.test(value) ? 'warn' : 'neutral';
  return <Badge tone={tone}>{text ?? words(status)}</Badge>;
}

/** A button that runs one call (remove, archive…), says the API's refusal beside it, and calls `onDone` after success. `hidden` completes its name for screen readers. */
export function ActionButton({ label, hidden, tone = 'secondary', run, onDone }: { label: string; hidden: string; tone?: 'secondary' | 'danger'; run(): Promise<unknown>; onDone(): void }) {
  const action = useAction(run);
  return (
    <>
      <button type="button" className={tone} disabled={action.busy} onClick={() => void action.perform().then((r) => r !== undefined && onDone())}>
        {label}
        <span className="visually-hidden"> {hidden}</span>
      </button>
      <ErrorNote error={action.error} />
    </>
  );
}

/** A button that saves an export (a CSV) as a file; the API's refusal beside it. */
export function DownloadButton({ label, hidden, run }: { label: string; hidden: string; run(): Promise<void> }) {
  const action = useAction(async () => {
    await run();
    return true;
  });
  return (
    <>
      <button type="button" className="secondary" disabled={action.busy} onClick={() => void action.perform()}>
        {label}
        <span className="visually-hidden"> {hidden}</span>
      </button>
      <ErrorNote error={action.error} />
    </>
  );
}

/** A list's search box: searches when sent, with the list's other controls (a sort, a filter) beside it. */
export function SearchForm({ label, initial, onSearch, children }: { label: string; initial: string; onSearch(text: string): void; children?: ReactNode }) {
  const [typed, setTyped] = useState(initial);
  return (
    <form
      role="search"
      className="row-form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSearch(typed);
      }}
    >
      <Field label={label} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
      <button type="submit">{t('common.search')}</button>
      {children}
    </form>
  );
}
